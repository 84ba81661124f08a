//===- DebugOps.cpp - device_print, device_assert, static_print -----------===//
//
// device_print and device_assert become tile.print and tile.assert; static_print and
// static_check act while the kernel is traced (dsl/include/tessel/dsl/Debug.h).
//
//===----------------------------------------------------------------------===//
#include "TraceState.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;

void dsl::detail::devicePrint(const char *prefix, const RawValue *args, int n, bool hex, Loc loc) {
  TraceState &s = TraceState::current();
  SmallVector<Value> values;
  const RawValue *shaped = nullptr;
  for (int i = 0; i < n; ++i) {
    if (args[i].kind != ValueKind::tile)
      s.fail(loc, llvm::Twine("device_print prints tiles and scalars, not ") + describe(args[i]));
    if (args[i].shape.rank()) {
      if (shaped && !(shaped->shape == args[i].shape))
        s.fail(loc, "device_print prints tiles of one shape per line: " + describe(*shaped) +
                        " and " + describe(args[i]));
      shaped = &args[i];
    }
    Value v = s.get(args[i], loc);
    // Hex shows a float's bits, as Triton's hex=True: the same-width integer.
    if (hex && isa<FloatType>(getElementTypeOrSelf(v.getType()))) {
      Type bits = s.b().getIntegerType(getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth());
      if (auto t = dyn_cast<RankedTensorType>(v.getType()))
        bits = t.clone(bits);
      v = s.b().create<arith::BitcastOp>(s.loc(loc), bits, v);
    }
    values.push_back(v);
  }
  s.b().create<tile::PrintOp>(s.loc(loc), s.b().getStringAttr(prefix ? prefix : ""),
                              hex ? s.b().getUnitAttr() : UnitAttr(), values);
}

void dsl::detail::deviceAssert(RawValue condition, const char *message, Loc loc) {
  TraceState &s = TraceState::current();
  if (condition.kind != ValueKind::tile || condition.dtype != DType::i1)
    s.fail(loc, "device_assert needs a mask (a comparison: i1), got " + describe(condition));
  s.b().create<tile::AssertOp>(s.loc(loc), s.get(condition, loc),
                               s.b().getStringAttr(message ? message : ""));
}

void dsl::detail::staticPrint(const char *text, Loc loc) {
  llvm::errs() << loc.file << ":" << loc.line << ":" << loc.col << ": static_print: " << text
               << "\n";
}

std::string dsl::detail::describeValue(const RawValue &v) { return describe(v); }

void dsl::detail::staticAssert(bool condition, const char *message, Loc loc) {
  if (!condition)
    TraceState::current().fail(loc, llvm::Twine("static_check failed: ") + message);
}
