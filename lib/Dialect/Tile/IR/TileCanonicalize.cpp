//===- TileCanonicalize.cpp - folds and canonicalization patterns ---------===//
//
// Shape ops of a splat are splats; shape ops of constants fold to constants; addptr of zero is
// the pointer. These keep uniform values scalar, which later lets the backends keep them in
// scalar registers instead of one copy per lane.
//
//===----------------------------------------------------------------------===//
#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tessel::tile;

/// A splat DenseElementsAttr reshaped to `type`, or null when `attr` is not a splat constant.
static Attribute reshapeSplat(Attribute attr, Type type) {
  auto dense = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!dense)
    return {};
  return DenseElementsAttr::get(cast<ShapedType>(type), dense.getSplatValue<Attribute>());
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute v = adaptor.getSrc();
  if (isa_and_present<IntegerAttr, FloatAttr>(v))
    return DenseElementsAttr::get(cast<ShapedType>(getType()), v);
  return {};
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return reshapeSplat(adaptor.getSrc(), getType());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplat(adaptor.getSrc(), getType());
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  bool identity = true;
  for (auto [i, d] : llvm::enumerate(order))
    identity &= static_cast<int32_t>(i) == d;
  if (identity)
    return getSrc();
  // trans(trans(x)) whose orders compose to the identity is x.
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    ArrayRef<int32_t> innerOrder = inner.getOrder();
    bool cancels = true;
    for (auto [i, d] : llvm::enumerate(order))
      cancels &= innerOrder[d] == static_cast<int32_t>(i);
    if (cancels)
      return inner.getSrc();
  }
  return reshapeSplat(adaptor.getSrc(), getType());
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

namespace {
/// shape_op(splat(x)) -> splat(x), for every op that only moves elements.
template <typename OpT> struct ShapeOfSplat : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// broadcast(broadcast(x)) -> broadcast(x).
struct BroadcastOfBroadcast : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x).
struct ReshapeOfReshape : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};

/// trans(trans(x)) -> trans(x) with the composed order.
struct TransOfTrans : public OpRewritePattern<TransOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<TransOp>();
    if (!inner)
      return failure();
    SmallVector<int32_t> order;
    for (int32_t d : op.getOrder())
      order.push_back(inner.getOrder()[d]);
    rewriter.replaceOpWithNewOp<TransOp>(op, op.getType(), inner.getSrc(), order);
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<ShapeOfSplat<BroadcastOp>, BroadcastOfBroadcast>(ctx);
}
void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<ShapeOfSplat<ExpandDimsOp>>(ctx);
}
void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<ShapeOfSplat<ReshapeOp>, ReshapeOfReshape>(ctx);
}
void TransOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *ctx) {
  results.add<ShapeOfSplat<TransOp>, TransOfTrans>(ctx);
}
