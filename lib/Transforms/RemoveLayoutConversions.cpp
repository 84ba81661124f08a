//===- RemoveLayoutConversions.cpp - drop needless layout conversions -----===//
//
// A conversion of a cheap value (splat, arange, constant, and element-wise ops whose operands
// are all cheap) is replaced by recomputing the value in the target layout: a conversion goes
// through shared memory and a barrier, recomputing costs a few instructions per element.
// Conversions to the same layout and chains of conversions fold (ConvertLayoutOp::fold).
// A conversion whose only user narrows its elements (the GEMM epilogue's truncf of the f32
// accumulator) moves after the narrowing, so fewer bytes cross shared memory.
// A conversion out of a matrix unit's accumulator layout moves below the element-wise ops of
// an epilogue (bias add, activation, a cross-entropy gradient) whose other operands are cheap
// to rebuild in the accumulator's layout: rematerializable values, and broadcasts of rows or
// columns (a (BLOCK_M) or (BLOCK_N) tile, converted itself: BLOCK_M elements through shared
// memory rather than BLOCK_M x BLOCK_N). The epilogue then runs where the dot left its result,
// and what leaves it is converted: after the narrowing to the output's type, f32 -> bf16 halves
// the bytes (128x256: 128 KiB -> 64 KiB of shared memory), as Triton's layout propagation
// forwards the mma layout from the dot. It moves only when that converts fewer bytes.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONS
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// True when `v` can be recomputed in any layout from scalars alone, within `budget` ops.
bool isRematerializable(Value v, int &budget) {
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumResults() != 1 || --budget < 0)
    return false;
  if (isa<tile::ArangeOp, tile::SplatOp, arith::ConstantOp>(op))
    return true;
  if (!op->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(op) || op->getNumRegions() != 0)
    return false;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()) && !isRematerializable(operand, budget))
      return false;
  return true;
}

/// v's tile type in `layout`.
RankedTensorType withLayout(Value v, Attribute layout) {
  auto t = cast<RankedTensorType>(v.getType());
  return RankedTensorType::get(t.getShape(), t.getElementType(), layout);
}

Value rematerialize(OpBuilder &b, Value v, Attribute layout) {
  Operation *op = v.getDefiningOp();
  IRMapping map;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      map.map(operand, rematerialize(b, operand, layout));
  Operation *clone = b.clone(*op, map);
  RankedTensorType nt = withLayout(v, layout);
  clone->getResult(0).setType(nt);
  if (auto c = dyn_cast<arith::ConstantOp>(clone))
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
      c.setValueAttr(dense.reshape(nt));
  return clone->getResult(0);
}

struct RematerializeConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    int budget = 16;
    if (!isRematerializable(op.getSrc(), budget))
      return failure();
    rewriter.replaceOp(op, rematerialize(rewriter, op.getSrc(), op.getType().getEncoding()));
    return success();
  }
};

/// convert_layout(x) -> narrow  ==>  narrow(x) -> convert_layout, for a single-operand
/// element-wise cast whose result elements are narrower than its operand's.
struct NarrowBeforeConversion : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    if (!op->hasOneUse())
      return failure();
    Operation *user = *op->user_begin();
    if (!isa<CastOpInterface>(user) || !user->hasTrait<OpTrait::Elementwise>() ||
        user->getNumOperands() != 1 || user->getNumResults() != 1 || !isMemoryEffectFree(user))
      return failure();
    auto wide = op.getSrc().getType();
    auto narrowType = cast<RankedTensorType>(user->getResult(0).getType());
    if (narrowType.getElementType().getIntOrFloatBitWidth() >=
        wide.getElementType().getIntOrFloatBitWidth())
      return failure();
    rewriter.setInsertionPoint(op);
    IRMapping map;
    map.map(op.getResult(), op.getSrc());
    Operation *narrowed = rewriter.clone(*user, map);
    narrowed->getResult(0).setType(
        RankedTensorType::get(wide.getShape(), narrowType.getElementType(), wide.getEncoding()));
    rewriter.replaceOpWithNewOp<ConvertLayoutOp>(user, narrowType, narrowed->getResult(0));
    rewriter.eraseOp(op);
    return success();
  }
};

bool isMatrixUnitLayout(Attribute layout) {
  return isa_and_present<MmaEncodingAttr, MfmaEncodingAttr, WmmaEncodingAttr>(layout);
}

/// A pure element-wise op with one tile result whose tile operands share its shape.
bool isElementwiseTileOp(Operation *op) {
  if (!op || op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !op->hasTrait<OpTrait::Elementwise>() || !isMemoryEffectFree(op))
    return false;
  auto t = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return t && llvm::all_of(op->getOperands(), [&](Value v) {
           auto o = dyn_cast<RankedTensorType>(v.getType());
           return !o || o.getShape() == t.getShape();
         });
}

/// How a tile is rebuilt in another layout without converting a tile of `fullElements`:
/// CanRebuild answers whether it can, Rebuild builds it (after a successful CanRebuild).
/// Tiles reached through an expand_dims with at most fullElements / 8 elements (a row or a
/// column of the full tile) may be converted.
struct Rebuilder {
  int64_t fullElements;
  int budget = 32;
  /// Conversions of rows or columns canRebuild has counted on (each a shared-memory round trip
  /// between two barriers).
  int conversions = 0;

  bool small(Value v) const {
    return cast<RankedTensorType>(v.getType()).getNumElements() * 8 <= fullElements;
  }

  bool canRebuild(Value v, Attribute layout, bool convertible) {
    if (--budget < 0)
      return false;
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getEncoding() == layout)
      return true;
    Operation *op = v.getDefiningOp();
    if (auto cvt = dyn_cast_or_null<ConvertLayoutOp>(op))
      if (cvt.getSrc().getType().getEncoding() == layout)
        return true;
    int remat = 16;
    if (isRematerializable(v, remat))
      return true;
    if (auto bc = dyn_cast_or_null<tile::BroadcastOp>(op))
      return canRebuild(bc.getSrc(), layout, convertible);
    if (auto ed = dyn_cast_or_null<tile::ExpandDimsOp>(op))
      return canRebuild(ed.getSrc(), SliceEncodingAttr::get(v.getContext(), ed.getAxis(), layout),
                        true);
    if (isElementwiseTileOp(op) && llvm::all_of(op->getOperands(), [&](Value o) {
          return !isa<RankedTensorType>(o.getType()) || canRebuild(o, layout, convertible);
        }))
      return true;
    if (!convertible || !small(v))
      return false;
    ++conversions;
    return true;
  }

  Value rebuild(OpBuilder &b, Value v, Attribute layout, bool convertible) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getEncoding() == layout)
      return v;
    Operation *op = v.getDefiningOp();
    if (auto cvt = dyn_cast_or_null<ConvertLayoutOp>(op))
      if (cvt.getSrc().getType().getEncoding() == layout)
        return cvt.getSrc();
    int remat = 16;
    if (isRematerializable(v, remat))
      return rematerialize(b, v, layout);
    if (auto bc = dyn_cast_or_null<tile::BroadcastOp>(op))
      return b.create<tile::BroadcastOp>(bc.getLoc(), withLayout(v, layout),
                                         rebuild(b, bc.getSrc(), layout, convertible));
    if (auto ed = dyn_cast_or_null<tile::ExpandDimsOp>(op)) {
      auto slice = SliceEncodingAttr::get(v.getContext(), ed.getAxis(), layout);
      return b.create<tile::ExpandDimsOp>(ed.getLoc(), withLayout(v, layout),
                                          rebuild(b, ed.getSrc(), slice, true), ed.getAxis());
    }
    if (isElementwiseTileOp(op)) {
      int saved = budget;
      bool operandsRebuild = llvm::all_of(op->getOperands(), [&](Value o) {
        return !isa<RankedTensorType>(o.getType()) || canRebuild(o, layout, convertible);
      });
      budget = saved;
      if (operandsRebuild) {
        IRMapping map;
        for (Value o : op->getOperands())
          if (isa<RankedTensorType>(o.getType()))
            map.map(o, rebuild(b, o, layout, convertible));
        Operation *clone = b.clone(*op, map);
        clone->getResult(0).setType(withLayout(v, layout));
        return clone->getResult(0);
      }
    }
    return b.create<ConvertLayoutOp>(v.getLoc(), withLayout(v, layout), v);
  }
};

/// What a conversion of a row or column costs beside the tile's bytes: two barriers and a
/// round trip through shared memory, about the time 2 KiB more of the tile's conversion takes.
constexpr int64_t kSmallConversionBytes = 2048;

/// True for tiles of integers or floats (not pointers): what the epilogue sinking moves.
bool isNumeric(Value v) {
  Type e = getElementTypeOrSelf(v.getType());
  return isa<IntegerType, FloatType>(e);
}

/// Bytes of a tile crossing shared memory in a conversion (i1 as a byte).
int64_t tileBytes(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return t.getNumElements() * std::max<int64_t>(8, t.getElementTypeBitWidth()) / 8;
}

/// Moves convert_layout(acc : accumulator layout -> L) below the epilogue that uses it: the
/// closure of element-wise ops reachable from its result whose other tile operands are in the
/// closure or rebuild in the accumulator's layout is cloned in that layout, and each closure
/// value used outside it (the frontier: typically the cast to the output's type) is converted
/// back to its layout. Done only when the frontier's conversions move fewer bytes than `cvt`
/// (one bf16 result instead of the f32 accumulator), so an epilogue whose values part ways
/// (stored twice, or fed to a reduction) keeps its one conversion. Returns whether it moved.
bool sinkIntoEpilogue(ConvertLayoutOp cvt) {
  Attribute from = cvt.getSrc().getType().getEncoding();
  if (!isMatrixUnitLayout(from))
    return false;
  int64_t full = cvt.getType().getNumElements();
  llvm::SetVector<Operation *> closure;
  int smallConversions = 0;
  auto inClosure = [&](Value v) {
    return v == cvt.getResult() || (v.getDefiningOp() && closure.contains(v.getDefiningOp()));
  };
  for (bool grew = true; grew;) {
    grew = false;
    SmallVector<Value> values{cvt.getResult()};
    for (Operation *op : closure)
      values.push_back(op->getResult(0));
    for (Value v : values)
      for (Operation *user : v.getUsers()) {
        if (closure.contains(user) || user->getBlock() != cvt->getBlock() ||
            !isElementwiseTileOp(user))
          continue;
        Rebuilder rebuilder{full};
        if (isNumeric(user->getResult(0)) && llvm::all_of(user->getOperands(), [&](Value o) {
              return !isa<RankedTensorType>(o.getType()) || inClosure(o) ||
                     rebuilder.canRebuild(o, from, false);
            })) {
          closure.insert(user);
          smallConversions += rebuilder.conversions;
          grew = true;
        }
      }
  }
  if (closure.empty())
    return false;
  auto usedOutside = [&](Value v) {
    return llvm::any_of(v.getUsers(), [&](Operation *u) { return !closure.contains(u); });
  };
  SmallVector<Value> frontier;
  if (usedOutside(cvt.getResult()))
    frontier.push_back(cvt.getResult());
  for (Operation *op : closure)
    if (usedOutside(op->getResult(0)))
      frontier.push_back(op->getResult(0));
  // Each row or column conversion counted as kSmallConversionBytes for its barriers.
  int64_t movedBytes = smallConversions * kSmallConversionBytes;
  for (Value v : frontier)
    movedBytes += tileBytes(v);
  if (movedBytes >= tileBytes(cvt.getResult()))
    return false;

  SmallVector<Operation *> order(closure.begin(), closure.end());
  llvm::sort(order, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  IRMapping map;
  map.map(cvt.getResult(), cvt.getSrc());
  OpBuilder b(cvt.getContext());
  for (Operation *op : order) {
    // As early as its operands allow (the plain GEMM's cast right after the K loop, before the
    // store's address math), not at the op it replaces.
    Operation *insertAfter = cvt;
    for (Value o : op->getOperands())
      if (Operation *def = map.lookupOrDefault(o).getDefiningOp();
          def && def->getBlock() == cvt->getBlock() && insertAfter->isBeforeInBlock(def))
        insertAfter = def;
    b.setInsertionPointAfter(insertAfter);
    Rebuilder rebuilder{full};
    for (Value o : op->getOperands())
      if (isa<RankedTensorType>(o.getType()) && !map.contains(o))
        map.map(o, rebuilder.rebuild(b, o, from, false));
    Operation *clone = b.clone(*op, map);
    clone->getResult(0).setType(withLayout(op->getResult(0), from));
    map.map(op->getResult(0), clone->getResult(0));
  }
  for (Value v : frontier) {
    Value moved = map.lookup(v);
    b.setInsertionPointAfterValue(moved);
    Value back = b.create<ConvertLayoutOp>(v.getLoc(), cast<RankedTensorType>(v.getType()), moved);
    v.replaceUsesWithIf(back, [&](OpOperand &use) { return !closure.contains(use.getOwner()); });
  }
  for (Operation *op : llvm::reverse(order))
    op->erase();
  if (cvt->use_empty())
    cvt->erase();
  return true;
}

struct RemoveLayoutConversionsPass
    : tessel::impl::TileGPURemoveLayoutConversionsBase<RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    // Epilogues first (the greedy patterns below would move a conversion past a narrowing
    // cast only when nothing else uses its result), until no conversion moves.
    for (bool moved = true; moved;) {
      moved = false;
      SmallVector<ConvertLayoutOp> conversions;
      getOperation().walk([&](ConvertLayoutOp cvt) { conversions.push_back(cvt); });
      for (ConvertLayoutOp cvt : conversions)
        if (sinkIntoEpilogue(cvt)) {
          moved = true;
          break; // the walk's list may hold erased ops
        }
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeConversion, NarrowBeforeConversion>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
