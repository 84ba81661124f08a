//===- DotOp.cpp - matrix product of tiles --------------------------------===//
#include "TraceState.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;

RawValue dsl::detail::dot(RawValue a, RawValue b, const RawValue *acc, Precision precision,
                          Loc loc) {
  TraceState &s = TraceState::current();
  for (const RawValue *v : {&a, &b})
    if (v->kind != dsl::detail::ValueKind::tile)
      s.fail(loc, llvm::Twine("dot needs tiles, got ") + describe(*v));
  if (a.shape.rank() != 2 || b.shape.rank() != 2)
    s.fail(loc, llvm::Twine("dot needs rank-2 tiles, got a ") + shapeStr(dims(a.shape)) +
                    " and b " + shapeStr(dims(b.shape)));
  if (a.shape[1] != b.shape[0])
    s.fail(loc, llvm::Twine("dot inner dimensions differ: a is ") + shapeStr(dims(a.shape)) +
                    ", b is " + shapeStr(dims(b.shape)));
  if (a.dtype != b.dtype)
    s.fail(loc, llvm::Twine("dot operands have different element types ") + dtypeName(a.dtype) +
                    " and " + dtypeName(b.dtype) + "; convert one with cast<T>(...)");
  if (a.dtype == DType::i1 || a.dtype == DType::i16 || a.dtype == DType::i32 ||
      a.dtype == DType::i64)
    s.fail(loc, llvm::Twine("dot of ") + dtypeName(a.dtype) +
                    " tiles is not supported; use f16, bf16, fp8, f32, f64 or i8");
  if (precision != Precision::ieee && a.dtype != DType::f32)
    s.fail(loc, llvm::Twine("dot precision applies to f32 inputs only, got ") + dtypeName(a.dtype));
  Value x = s.get(a, loc), y = s.get(b, loc);
  OpBuilder &bld = s.b();
  Location l = s.loc(loc);
  DType accType = dotAccType(a.dtype);
  SmallVector<int64_t, 2> shape = {a.shape[0], b.shape[1]};
  Value c;
  if (acc) {
    if (acc->kind != dsl::detail::ValueKind::tile || !(acc->shape == Shape{shape[0], shape[1]}))
      s.fail(loc,
             llvm::Twine("dot accumulator must be ") + shapeStr(shape) + ", got " + describe(*acc));
    if (acc->dtype != accType)
      s.fail(loc, llvm::Twine("dot of ") + dtypeName(a.dtype) + " tiles accumulates in " +
                      dtypeName(accType) + ", got an accumulator of " + dtypeName(acc->dtype));
    c = s.get(*acc, loc);
  } else {
    c = constantLike(bld, l, RankedTensorType::get(shape, toMlirType(s.getContext(), accType)), 0);
  }
  return s.wrap(bld.create<tile::DotOp>(l, x, y, c, static_cast<tile::InputPrecision>(precision)));
}
