//===- TileCombine.cpp - scalar pointer bases, narrow lane offsets --------===//
//
// All rewrites are exact because tile.addptr adds in 64 bits whatever its offset's width.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tessel {
#define GEN_PASS_DEF_TILECOMBINE
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile;

namespace {

/// addptr(splat(p), splat(s)) -> splat(addptr(p, s))
struct AddPtrOfSplats : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op, PatternRewriter &rewriter) const override {
    auto p = op.getPtr().getDefiningOp<SplatOp>();
    auto s = op.getOffset().getDefiningOp<SplatOp>();
    if (!p || !s)
      return failure();
    Value base =
        rewriter.create<AddPtrOp>(op.getLoc(), p.getSrc().getType(), p.getSrc(), s.getSrc());
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), base);
    return success();
  }
};

/// addptr(splat(p), splat(s) + t) -> addptr(splat(addptr(p, s)), t), either operand order.
struct HoistUniformOffset : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op, PatternRewriter &rewriter) const override {
    auto p = op.getPtr().getDefiningOp<SplatOp>();
    auto add = op.getOffset().getDefiningOp<arith::AddIOp>();
    if (!p || !add)
      return failure();
    for (int i = 0; i < 2; ++i) {
      auto s = add->getOperand(i).getDefiningOp<SplatOp>();
      if (!s)
        continue;
      Value rest = add->getOperand(1 - i);
      Location loc = op.getLoc();
      Value base = rewriter.create<AddPtrOp>(loc, p.getSrc().getType(), p.getSrc(), s.getSrc());
      Value bases = rewriter.create<SplatOp>(loc, op.getType(), base);
      rewriter.replaceOpWithNewOp<AddPtrOp>(op, op.getType(), bases, rest);
      return success();
    }
    return failure();
  }
};

/// addptr(addptr(p, a), b) -> addptr(p, a + b) when a and b have one type and the inner addptr
/// has no other use (otherwise the sum is computed twice).
struct AddPtrOfAddPtr : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || !inner->hasOneUse() || inner.getOffset().getType() != op.getOffset().getType())
      return failure();
    Value sum = rewriter.create<arith::AddIOp>(op.getLoc(), inner.getOffset(), op.getOffset());
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, op.getType(), inner.getPtr(), sum);
    return success();
  }
};

/// addptr(x, extsi(t)) -> addptr(x, t)
struct AddPtrOfExtSI : OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddPtrOp op, PatternRewriter &rewriter) const override {
    auto ext = op.getOffset().getDefiningOp<arith::ExtSIOp>();
    if (!ext)
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getOffsetMutable().assign(ext.getIn()); });
    return success();
  }
};

struct TileCombinePass : tessel::impl::TileCombineBase<TileCombinePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<AddPtrOfSplats, HoistUniformOffset, AddPtrOfAddPtr, AddPtrOfExtSI>(&getContext());
    for (Dialect *d : getContext().getLoadedDialects())
      d->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : getContext().getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
