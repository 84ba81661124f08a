//===- RemoveLayoutConversions.cpp - drop needless layout conversions -----===//
//
// A conversion of a cheap value (splat, arange, constant, and element-wise ops whose operands
// are all cheap) is replaced by recomputing the value in the target layout: a conversion goes
// through shared memory and a barrier, recomputing costs a few instructions per element.
// Conversions to the same layout and chains of conversions fold (ConvertLayoutOp::fold).
// A conversion whose only user narrows its elements (the GEMM epilogue's truncf of the f32
// accumulator) moves after the narrowing, so fewer bytes cross shared memory.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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

Value rematerialize(OpBuilder &b, Value v, Attribute layout) {
  Operation *op = v.getDefiningOp();
  IRMapping map;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      map.map(operand, rematerialize(b, operand, layout));
  Operation *clone = b.clone(*op, map);
  auto t = cast<RankedTensorType>(v.getType());
  auto nt = RankedTensorType::get(t.getShape(), t.getElementType(), layout);
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

struct RemoveLayoutConversionsPass
    : tessel::impl::TileGPURemoveLayoutConversionsBase<RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeConversion, NarrowBeforeConversion>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
