//===- ConvertLayoutOpToLLVM.cpp - data movement between layouts ----------===//
//
// convert_layout, trans and reshape go through shared memory: every thread writes its elements
// at their (row-major) position in the result, a barrier, every thread reads the elements its
// result layout gives it. Correct for any pair of layouts; the layout passes keep these rare.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// Row-major linear index of `idx` in `shape`.
Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> idx, ArrayRef<int64_t> shape) {
  Value lin = i32Const(b, loc, 0);
  for (unsigned d = 0; d < idx.size(); ++d)
    lin = b.create<LLVM::AddOp>(loc, b.create<LLVM::MulOp>(loc, lin, i32Const(b, loc, shape[d])),
                                idx[d]);
  return lin;
}

template <typename OpT> struct ThroughSharedMemory : public ConvertOpToLLVMPattern<OpT> {
  ThroughSharedMemory(LLVMTypeConverter &c, const TargetInfo &target, SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<OpT>(c, /*benefit=*/10), target(target), shared(shared) {}

  /// Index in the result of the source element at `srcIdx`, as a row-major position.
  virtual Value resultPosition(OpBuilder &b, Location loc, OpT op,
                               ArrayRef<Value> srcIdx) const = 0;

  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    unsigned srcElems = getElemsPerThread(srcType), dstElems = getElemsPerThread(dstType);
    if (!srcElems || !dstElems)
      return op.emitError("tile without a distributed layout reached the GPU lowering");
    Type elem = this->getTypeConverter()->convertType(srcType.getElementType());
    Type memType = elem.isInteger(1) ? rewriter.getI8Type() : elem;
    unsigned scratch = shared.reserveScratch(op, srcType.getNumElements() * byteWidth(memType));
    Value base = sharedMemoryPtr(rewriter, loc, target, scratch);
    auto at = [&](Value pos) -> Value {
      return rewriter.create<LLVM::GEPOp>(loc, base.getType(), memType, base, ValueRange{pos});
    };
    SmallVector<Value> in = unpackStruct(rewriter, loc, adaptor.getSrc());
    auto srcIdx = emitIndices(rewriter, loc, target, srcType);
    target.barrier(rewriter, loc);
    for (unsigned e = 0; e < srcElems; ++e) {
      Value v =
          memType == elem ? in[e] : rewriter.create<LLVM::ZExtOp>(loc, memType, in[e]).getResult();
      rewriter.create<LLVM::StoreOp>(loc, v, at(resultPosition(rewriter, loc, op, srcIdx[e])));
    }
    target.barrier(rewriter, loc);
    auto dstIdx = emitIndices(rewriter, loc, target, dstType);
    SmallVector<Value> out;
    for (unsigned e = 0; e < dstElems; ++e) {
      Value v = rewriter.create<LLVM::LoadOp>(
          loc, memType, at(linearize(rewriter, loc, dstIdx[e], dstType.getShape())));
      out.push_back(memType == elem ? v : rewriter.create<LLVM::TruncOp>(loc, elem, v).getResult());
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc, this->getTypeConverter()->convertType(dstType), out));
    return success();
  }

  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

struct ConvertLayoutOpConversion : ThroughSharedMemory<ConvertLayoutOp> {
  using ThroughSharedMemory::ThroughSharedMemory;
  Value resultPosition(OpBuilder &b, Location loc, ConvertLayoutOp op,
                       ArrayRef<Value> idx) const override {
    return linearize(b, loc, idx, op.getType().getShape());
  }
};

struct TransOpConversion : ThroughSharedMemory<tile::TransOp> {
  using ThroughSharedMemory::ThroughSharedMemory;
  Value resultPosition(OpBuilder &b, Location loc, tile::TransOp op,
                       ArrayRef<Value> idx) const override {
    SmallVector<Value> permuted;
    for (int32_t d : op.getOrder())
      permuted.push_back(idx[d]);
    return linearize(b, loc, permuted, cast<RankedTensorType>(op.getType()).getShape());
  }
};

struct ReshapeOpConversion : ThroughSharedMemory<tile::ReshapeOp> {
  using ThroughSharedMemory::ThroughSharedMemory;
  Value resultPosition(OpBuilder &b, Location loc, tile::ReshapeOp op,
                       ArrayRef<Value> idx) const override {
    return linearize(b, loc, idx, cast<RankedTensorType>(op.getSrc().getType()).getShape());
  }
};

} // namespace

namespace tessel {
void populateConvertLayoutOpToLLVMPatterns(TileGPUTypeConverter &converter,
                                           const TargetInfo &target, SharedMemoryPlan &shared,
                                           RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutOpConversion, TransOpConversion, ReshapeOpConversion>(converter, target,
                                                                                  shared);
}
} // namespace tessel
