//===- TileMemoryOps.cpp - verifiers of loads, stores and atomics ---------===//
//
// The memory ops' builders, side effects and verifiers; their assembly is declared in
// TileOps.td. As in TileOps.cpp, messages name the operand, both shapes or types and what was
// expected.
//
//===----------------------------------------------------------------------===//
#include "tessel/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace tessel::tile;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string str(ArrayRef<int64_t> shape) { return shapeToString(shape); }

/// Verifies that the mask of a load, store or atomic has the pointer's shape (its i1 element
/// type is the ODS constraint Tile_BoolLike).
static LogicalResult verifyMask(Operation *op, Type ptrType, Value mask) {
  if (!mask)
    return success();
  ArrayRef<int64_t> ps = getShapeOrScalar(ptrType), ms = getShapeOrScalar(mask.getType());
  if (ps != ms)
    return op->emitOpError() << "mask shape " << str(ms) << " does not match pointer shape "
                             << str(ps);
  return success();
}

/// Verifies that `value` has the pointer's shape and pointee type.
static LogicalResult verifyPointee(Operation *op, Type ptrType, Type valueType, StringRef what) {
  Type expected = withShapeOf(ptrType, getPointeeType(ptrType));
  if (sameShapeAndElementType(valueType, expected))
    return success();
  ArrayRef<int64_t> ps = getShapeOrScalar(ptrType), vs = getShapeOrScalar(valueType);
  if (ps != vs)
    return op->emitOpError() << what << " shape " << str(vs) << " does not match pointer shape "
                             << str(ps);
  return op->emitOpError() << what << " type " << getElementTypeOrSelf(valueType)
                           << " differs from the pointee type " << getPointeeType(ptrType);
}

/// Verifies the boundary_check dimensions of a load or store through a block pointer.
static LogicalResult verifyBoundaryCheck(Operation *op, std::optional<ArrayRef<int32_t>> dims,
                                         BlockPtrType bp) {
  if (!dims)
    return success();
  int64_t rank = bp.getBlockType().getRank();
  llvm::SmallSet<int32_t, 4> seen;
  for (int32_t d : *dims)
    if (d < 0 || d >= rank || !seen.insert(d).second)
      return op->emitOpError() << "boundary_check dimension " << d
                               << " is out of range or repeated for a rank-" << rank << " block";
  return success();
}

//===----------------------------------------------------------------------===//
// Load
//===----------------------------------------------------------------------===//

void LoadOp::build(OpBuilder &b, OperationState &state, Value ptr, Value mask, Value other) {
  Type resultType = isa<BlockPtrType>(ptr.getType())
                        ? getPointeeType(ptr.getType())
                        : withShapeOf(ptr.getType(), getPointeeType(ptr.getType()));
  build(b, state, resultType, ptr, mask, other, CacheModifier::none, EvictionPolicy::normal,
        /*isVolatile=*/false, /*boundaryCheck=*/nullptr, /*padding=*/nullptr);
}

LogicalResult LoadOp::verify() {
  Type ptrType = getPtr().getType();
  if (auto bp = dyn_cast<BlockPtrType>(ptrType)) {
    if (getMask() || getOther())
      return emitOpError("a load through a block pointer takes boundary_check and padding, "
                         "not a mask or other");
    // The layout stage gives the result a distributed layout; the block type has none. On the
    // GPU (tile-gpu-pad-shapes) a block of non-power-of-two dimensions loads into the tile
    // padded to powers of two; the block type stays the box that is read.
    auto result = dyn_cast<RankedTensorType>(getType());
    RankedTensorType block = bp.getBlockType();
    auto paddedOrSame = [](ArrayRef<int64_t> r, ArrayRef<int64_t> b) {
      return r.size() == b.size() && llvm::all_of(llvm::zip(r, b), [](auto p) {
               auto [rd, bd] = p;
               return rd == bd || rd == int64_t(llvm::PowerOf2Ceil(uint64_t(bd)));
             });
    };
    if (!result || !paddedOrSame(result.getShape(), block.getShape()) ||
        result.getElementType() != block.getElementType())
      return emitOpError() << "result type " << getType() << " differs from the block type "
                           << bp.getBlockType();
    if (getPadding() == PaddingOption::nan && !isa<FloatType>(bp.getBlockType().getElementType()))
      return emitOpError() << "padding = nan needs a floating-point block, got "
                           << bp.getBlockType();
    return verifyBoundaryCheck(*this, getBoundaryCheck(), bp);
  }
  if (getBoundaryCheck() || getPadding())
    return emitOpError("boundary_check and padding apply to block pointers only; use a mask");
  if (failed(verifyPointee(*this, ptrType, getType(), "result")) ||
      failed(verifyMask(*this, ptrType, getMask())))
    return failure();
  if (Value other = getOther()) {
    if (!getMask())
      return emitOpError("'other' is the value of masked-off lanes and needs a mask");
    if (failed(verifyPointee(*this, ptrType, other.getType(), "'other'")))
      return failure();
  }
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  // A volatile load must neither be removed nor reordered with other memory operations.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// Store
//===----------------------------------------------------------------------===//

void StoreOp::build(OpBuilder &b, OperationState &state, Value ptr, Value value, Value mask) {
  build(b, state, ptr, value, mask, CacheModifier::none, EvictionPolicy::normal,
        /*boundaryCheck=*/nullptr);
}

LogicalResult StoreOp::verify() {
  Type ptrType = getPtr().getType();
  if (auto bp = dyn_cast<BlockPtrType>(ptrType)) {
    if (getMask())
      return emitOpError("a store through a block pointer takes boundary_check, not a mask");
    // As for loads: the layout stage gives the value a layout (a store an adapter keeps for
    // its bulk copies reaches it); the block type has none.
    auto value = dyn_cast<RankedTensorType>(getValue().getType());
    RankedTensorType block = bp.getBlockType();
    if (!value || value.getShape() != block.getShape() ||
        value.getElementType() != block.getElementType())
      return emitOpError() << "value type " << getValue().getType()
                           << " differs from the block type " << bp.getBlockType();
    return verifyBoundaryCheck(*this, getBoundaryCheck(), bp);
  }
  if (getBoundaryCheck())
    return emitOpError("boundary_check applies to block pointers only; use a mask");
  if (failed(verifyPointee(*this, ptrType, getValue().getType(), "value")))
    return failure();
  return verifyMask(*this, ptrType, getMask());
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

LogicalResult AtomicRMWOp::verify() {
  Type ptrType = getPtr().getType();
  if (failed(verifyPointee(*this, ptrType, getVal().getType(), "value")) ||
      failed(verifyPointee(*this, ptrType, getType(), "result")) ||
      failed(verifyMask(*this, ptrType, getMask())))
    return failure();
  Type elem = getPointeeType(ptrType);
  bool isInt = elem.isSignlessInteger() && !elem.isInteger(1); // i1 has no atomic arithmetic
  bool isFloat = isa<FloatType>(elem);
  switch (getKind()) {
  case RMWKind::add:
  case RMWKind::max:
  case RMWKind::min:
    if (!isInt && !isFloat)
      return emitOpError() << "atomic " << stringifyRMWKind(getKind())
                           << " needs an integer (i8 to i64) or float pointee, got " << elem;
    break;
  case RMWKind::umax:
  case RMWKind::umin:
  case RMWKind::And:
  case RMWKind::Or:
  case RMWKind::Xor:
    if (!isInt)
      return emitOpError() << "atomic " << stringifyRMWKind(getKind())
                           << " needs an integer (i8 to i64) pointee, got " << elem;
    break;
  case RMWKind::xchg:
    break;
  }
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type ptrType = getPtr().getType();
  if (failed(verifyPointee(*this, ptrType, getCmp().getType(), "cmp")) ||
      failed(verifyPointee(*this, ptrType, getVal().getType(), "value")) ||
      failed(verifyPointee(*this, ptrType, getType(), "result")))
    return failure();
  unsigned bits = getPointeeType(ptrType).getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return emitOpError() << "atomic_cas needs a 16-, 32- or 64-bit pointee, got "
                         << getPointeeType(ptrType);
  return success();
}
