//===- ReduceOps.cpp - reductions, scans and user combiners ---------------===//
//
// sum/max/min are one-operand tile.reduce ops with an arith combiner; argmax/argmin reduce
// (value, index) pairs. max/min use arith.maximumf/minimumf, which propagate NaN (as PyTorch)
// and give -inf for a row of -inf. Integers narrower than 32 bits are summed in i32, f16 and bf16
// in f32 (sumType, case C16).
//
//===----------------------------------------------------------------------===//
#include "TraceState.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;
using dsl::detail::ReduceKind;

/// Checks that `v` is a tile with dimension `axis` (negative counts from the end); returns the
/// normalized axis.
static int checkAxis(TraceState &s, const RawValue &v, int axis, const char *what,
                     dsl::detail::Loc loc) {
  if (v.kind != dsl::detail::ValueKind::tile)
    s.fail(loc, llvm::Twine(what) + " does not apply to " + describe(v));
  int rank = v.shape.rank();
  int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    s.fail(loc, llvm::Twine(what) + " axis " + llvm::Twine(axis) + " is out of range for " +
                    describe(v) + (rank ? "" : "; reductions and scans need a tile of rank >= 1"));
  return a;
}

/// The type of a reduction of `v` along `axis`.
static Type reducedType(Value v, int axis) {
  SmallVector<int64_t, 4> shape(shapeOf(v));
  shape.erase(shape.begin() + axis);
  return shapedType(shape, elemOf(v));
}

/// The i32 index of each element along `axis`, with v's shape.
static Value indexTile(OpBuilder &b, Location l, ArrayRef<int64_t> shape, int axis) {
  int64_t n = shape[axis];
  Value idx = b.create<tile::ArangeOp>(l, RankedTensorType::get({n}, b.getI32Type()),
                                       b.getI32IntegerAttr(0), b.getI32IntegerAttr(n));
  SmallVector<int64_t, 4> cur = {n};
  for (int i = 0; i < axis; ++i) {
    cur.insert(cur.begin(), 1);
    idx = b.create<tile::ExpandDimsOp>(l, RankedTensorType::get(cur, b.getI32Type()), idx, 0u);
  }
  while (cur.size() < shape.size()) {
    cur.push_back(1);
    idx = b.create<tile::ExpandDimsOp>(l, RankedTensorType::get(cur, b.getI32Type()), idx,
                                       static_cast<uint32_t>(cur.size() - 1));
  }
  return broadcastValue(b, l, idx, shape);
}

/// Inserts the reduced dimension back for keep_dims.
static RawValue keepDims(RawValue r, int axis, bool keep, dsl::detail::Loc loc) {
  return keep ? dsl::detail::expandDims(r, axis, loc) : r;
}

/// Combines (a, b) for a builtin reduction; for argmax/argmin the block has four arguments
/// (value_a, index_a, value_b, index_b) and yields two.
static SmallVector<Value> combine(OpBuilder &b, Location l, ReduceKind kind, Block *blk) {
  Value a = blk->getArgument(0);
  bool f = isa<FloatType>(a.getType());
  switch (kind) {
  case ReduceKind::sum: {
    Value x = blk->getArgument(1);
    return {f ? Value(b.create<arith::AddFOp>(l, a, x)) : b.create<arith::AddIOp>(l, a, x)};
  }
  case ReduceKind::max: {
    Value x = blk->getArgument(1);
    return {f ? Value(b.create<arith::MaximumFOp>(l, a, x)) : b.create<arith::MaxSIOp>(l, a, x)};
  }
  case ReduceKind::min: {
    Value x = blk->getArgument(1);
    return {f ? Value(b.create<arith::MinimumFOp>(l, a, x)) : b.create<arith::MinSIOp>(l, a, x)};
  }
  case ReduceKind::argmax:
  case ReduceKind::argmin: {
    Value ia = blk->getArgument(1), x = blk->getArgument(2), ix = blk->getArgument(3);
    bool isMax = kind == ReduceKind::argmax;
    Value better, equal;
    if (f) {
      better = b.create<arith::CmpFOp>(
          l, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, a, x);
      equal = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, a, x);
    } else {
      better = b.create<arith::CmpIOp>(
          l, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, a, x);
      equal = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, a, x);
    }
    Value lower = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, ia, ix);
    // Keep a when it is better, or equal with the lower index (first occurrence wins).
    Value keep = b.create<arith::OrIOp>(l, better, b.create<arith::AndIOp>(l, equal, lower));
    if (f) {
      // A NaN wins over any number; between two NaNs, the lower index.
      Value aNan = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, a, a);
      Value xNan = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, x, x);
      Value xNotNan = b.create<arith::XOrIOp>(l, xNan, constantLike(b, l, xNan.getType(), 1));
      Value nanWins = b.create<arith::AndIOp>(l, aNan, b.create<arith::OrIOp>(l, xNotNan, lower));
      keep = b.create<arith::OrIOp>(l, keep, nanWins);
    }
    return {b.create<arith::SelectOp>(l, keep, a, x), b.create<arith::SelectOp>(l, keep, ia, ix)};
  }
  }
  llvm_unreachable("unknown reduction");
}

static const char *reduceName(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
    return "sum";
  case ReduceKind::max:
    return "max";
  case ReduceKind::min:
    return "min";
  case ReduceKind::argmax:
    return "argmax";
  case ReduceKind::argmin:
    return "argmin";
  }
  return "reduce";
}

RawValue dsl::detail::reduce(ReduceKind kind, RawValue v, int axis, bool keep, Loc loc) {
  TraceState &s = TraceState::current();
  axis = checkAxis(s, v, axis, reduceName(kind), loc);
  Value x = s.get(v, loc);
  OpBuilder &b = s.b();
  Location l = s.loc(loc);
  if (kind == ReduceKind::sum && sumType(v.dtype) != v.dtype)
    x = convert(b, l, x, toMlirType(s.getContext(), sumType(v.dtype)));
  SmallVector<Value, 2> srcs = {x};
  bool arg = kind == ReduceKind::argmax || kind == ReduceKind::argmin;
  if (arg)
    srcs.push_back(indexTile(b, l, shapeOf(x), axis));
  SmallVector<Type, 2> types;
  for (Value src : srcs)
    types.push_back(reducedType(src, axis));
  auto op = b.create<tile::ReduceOp>(l, types, srcs, static_cast<uint32_t>(axis));
  {
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Type, 4> argTypes;
    for (int i = 0; i < 2; ++i)
      for (Value src : srcs)
        argTypes.push_back(elemOf(src));
    Block *blk =
        b.createBlock(&op.getCombineOp(), {}, argTypes, SmallVector<Location>(argTypes.size(), l));
    // Block arguments are (acc..., new...); argmax's combine() wants (a, ia, x, ix).
    b.create<tile::YieldOp>(l, combine(b, l, kind, blk));
  }
  return keepDims(s.wrap(op.getResult(arg ? 1 : 0)), axis, keep, loc);
}

RawValue dsl::detail::cumsum(RawValue v, int axis, bool reverse, Loc loc) {
  TraceState &s = TraceState::current();
  axis = checkAxis(s, v, axis, "cumsum", loc);
  Value x = s.get(v, loc);
  OpBuilder &b = s.b();
  Location l = s.loc(loc);
  if (sumType(v.dtype) != v.dtype)
    x = convert(b, l, x, toMlirType(s.getContext(), sumType(v.dtype)));
  auto op = b.create<tile::ScanOp>(l, TypeRange{x.getType()}, ValueRange{x},
                                   static_cast<uint32_t>(axis), reverse);
  {
    OpBuilder::InsertionGuard guard(b);
    Type t = elemOf(x);
    Block *blk = b.createBlock(&op.getCombineOp(), {}, {t, t}, {l, l});
    b.create<tile::YieldOp>(l, combine(b, l, ReduceKind::sum, blk));
  }
  return s.wrap(op.getResult(0));
}

void dsl::detail::beginCombiner(bool scan, RawValue v, int axis, bool reverse, RawValue *args,
                                Loc loc) {
  TraceState &s = TraceState::current();
  axis = checkAxis(s, v, axis, scan ? "scan" : "reduce", loc);
  Value x = s.get(v, loc);
  OpBuilder &b = s.b();
  Location l = s.loc(loc);
  OpenRegion region{OpenRegion::Kind::combiner, nullptr, {}, {}, axis};
  Region *body;
  if (scan) {
    auto op = b.create<tile::ScanOp>(l, TypeRange{x.getType()}, ValueRange{x},
                                     static_cast<uint32_t>(axis), reverse);
    region.op = op;
    body = &op.getCombineOp();
  } else {
    auto op = b.create<tile::ReduceOp>(l, TypeRange{reducedType(x, axis)}, ValueRange{x},
                                       static_cast<uint32_t>(axis));
    region.op = op;
    body = &op.getCombineOp();
  }
  region.after = b.saveInsertionPoint();
  Type t = elemOf(x);
  Block *blk = b.createBlock(body, {}, {t, t}, {l, l});
  s.regions.push_back(region);
  args[0] = s.wrap(blk->getArgument(0));
  args[1] = s.wrap(blk->getArgument(1));
}

RawValue dsl::detail::endCombiner(RawValue yielded, bool keep, Loc loc) {
  TraceState &s = TraceState::current();
  if (s.regions.empty() || s.regions.back().kind != OpenRegion::Kind::combiner)
    s.fail(loc, "internal error: no open combiner");
  OpenRegion region = s.regions.back();
  Operation *op = region.op;
  Type elem = getElementTypeOrSelf(op->getOperand(0).getType());
  Value y = s.get(yielded, loc);
  if (y.getType() != elem)
    s.fail(loc, llvm::Twine("the combiner must return a ") + dtypeName(toDType(elem)) +
                    " scalar, got " + describe(yielded));
  s.b().create<tile::YieldOp>(s.loc(loc), y);
  s.regions.pop_back();
  s.b().restoreInsertionPoint(region.after);
  RawValue r = s.wrap(op->getResult(0));
  return isa<tile::ReduceOp>(op) ? keepDims(r, region.axis, keep, loc) : r;
}
