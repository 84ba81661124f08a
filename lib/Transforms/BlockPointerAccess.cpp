//===- BlockPointerAccess.cpp - the addresses a block-pointer access reads -===//
#include "BlockPointerAccess.h"

#include "tessel/Dialect/Tile/IR/Tile.h"

using namespace mlir;
using namespace tessel;

/// A tile of `type` equal to the i64 scalar `v` (a constant when `v` is one).
static Value splat(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return b.create<arith::ConstantOp>(loc, DenseElementsAttr::get(type, c));
  return b.create<tile::SplatOp>(loc, type, v);
}

std::pair<Value, Value> tessel::blockAccess(OpBuilder &b, Location loc, const BlockPtrParts &p,
                                            RankedTensorType block, ArrayRef<int32_t> checked,
                                            SmallVectorImpl<Operation *> &constants) {
  unsigned rank = p.rank();
  ArrayRef<int64_t> shape = block.getShape();
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  auto full = [&](Value v) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() == shape)
      return v;
    return b.create<tile::BroadcastOp>(loc, RankedTensorType::get(shape, t.getElementType()), v);
  };

  I64Math m{b, loc, constants};
  Value start, lanes, mask;
  for (unsigned d = 0; d < rank; ++d) {
    // Positions along d: offset_d + i, i in [0, B_d).
    Value from = p.offsets[d];
    Value term = m.mul(from, p.strides[d]);
    start = start ? m.add(start, term) : term;
    Value idx = b.create<tile::ArangeOp>(loc, RankedTensorType::get({shape[d]}, i32), 0, shape[d]);
    // (B_d) -> (1, .., B_d, .., 1), as the DSL's t(None, _) / t(_, None) build it.
    for (unsigned a = 0; a < rank; ++a) {
      if (a == d)
        continue;
      SmallVector<int64_t> s(cast<RankedTensorType>(idx.getType()).getShape());
      s.insert(s.begin() + a, 1);
      idx = b.create<tile::ExpandDimsOp>(loc, RankedTensorType::get(s, i32), idx, a);
    }
    SmallVector<int64_t> unit(rank, 1);
    unit[d] = shape[d];
    auto unitType = RankedTensorType::get(unit, i64);
    idx = b.create<arith::ExtSIOp>(loc, unitType, idx);
    Value lane = idx;
    if (I64Math::constant(p.strides[d]) != 1)
      lane = b.create<arith::MulIOp>(loc, idx, splat(b, loc, p.strides[d], unitType));
    lanes = lanes ? b.create<arith::AddIOp>(loc, lanes, full(lane)).getResult() : full(lane);
    if (!llvm::is_contained(checked, int32_t(d)))
      continue;
    Value pos = idx;
    if (I64Math::constant(from) != 0)
      pos = b.create<arith::AddIOp>(loc, idx, splat(b, loc, from, unitType));
    Value in = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, pos,
                                       splat(b, loc, p.shape[d], unitType));
    // The lower bound holds for every lane when offset_d is a non-negative constant.
    std::optional<int64_t> offset = I64Math::constant(p.offsets[d]);
    if (!offset || *offset < 0) {
      Value zeros = b.create<arith::ConstantOp>(loc, b.getZeroAttr(unitType));
      Value above = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, pos, zeros);
      in = b.create<arith::AndIOp>(loc, above, in);
    }
    mask = mask ? b.create<arith::AndIOp>(loc, mask, full(in)).getResult() : full(in);
  }
  if (I64Math::constant(start) != 0)
    start = b.create<tile::AddPtrOp>(loc, p.base.getType(), p.base, start);
  else
    start = p.base;
  auto ptrType = RankedTensorType::get(shape, p.base.getType());
  Value ptrs = b.create<tile::SplatOp>(loc, ptrType, start);
  ptrs = b.create<tile::AddPtrOp>(loc, ptrType, ptrs, lanes);
  return {ptrs, mask};
}
