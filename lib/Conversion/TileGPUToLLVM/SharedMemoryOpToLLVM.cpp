//===- SharedMemoryOpToLLVM.cpp - shared-memory buffers -------------------===//
//
// A !tile_gpu.memdesc is the shared-memory address of its first element. local_alloc is the
// kernel's shared memory at the offset tile-gpu-allocate-shared-memory chose; memdesc_index
// steps over whole stages of a ring; memdesc_subview keeps its source's address (readers add
// the view's offsets). local_load / local_store move a tile in any distributed
// layout element by element through the buffer's #tile_gpu.shared placement (adapters add
// faster patterns for the layouts they know: ldmatrix on NVIDIA). barrier is the target's
// program-wide barrier. Async copies belong to the adapters.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// Element offset of index `idx` of the tile `memdesc` (rank 1 or 2, possibly a view) in the
/// buffer placed by `enc`.
Value bufferOffset(OpBuilder &b, Location loc, SharedEncodingAttr enc, Value memdesc,
                   ArrayRef<Value> idx) {
  SharedView view = SharedView::of(memdesc);
  if (view.shape.size() == 1)
    return view.offsets[0]
               ? b.create<LLVM::AddOp>(loc, idx[0], i32Const(b, loc, view.offsets[0])).getResult()
               : idx[0];
  unsigned cdim = enc.getOrder()[0];
  return sharedElemOffset(b, loc, enc, view, idx[1 - cdim], idx[cdim]);
}

/// Address of element `idx` of the tile `memdesc` (lowered to `base`), elements of `elem`.
Value elementAddress(OpBuilder &b, Location loc, Value memdesc, Value base, Type elem,
                     ArrayRef<Value> idx) {
  auto enc = cast<SharedEncodingAttr>(cast<MemDescType>(memdesc.getType()).getEncoding());
  Value off = bufferOffset(b, loc, enc, memdesc, idx);
  return b.create<LLVM::GEPOp>(loc, base.getType(), elem, base, ValueRange{off});
}

LogicalResult checkPlacement(Operation *op, MemDescType type) {
  auto enc = dyn_cast<SharedEncodingAttr>(type.getEncoding());
  if (!enc || type.getShape().size() > 2)
    return op->emitError() << "shared-memory tiles of rank 1 or 2 in a #tile_gpu.shared "
                              "placement are supported, not "
                           << type;
  return success();
}

struct LocalAllocOpConversion : public ConvertOpToLLVMPattern<LocalAllocOp> {
  LocalAllocOpConversion(LLVMTypeConverter &c, const TargetInfo &target, SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<LocalAllocOp>(c), target(target), shared(shared) {}
  LogicalResult matchAndRewrite(LocalAllocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<uint32_t> offset = op.getOffset();
    if (!offset)
      return op.emitError("local_alloc without an offset: run tile-gpu-allocate-shared-memory "
                          "before the lowering");
    shared.reserve(enclosingKernelName(op), *offset + op.getType().getSizeInBytes());
    rewriter.replaceOp(op, sharedMemoryPtr(rewriter, op.getLoc(), target, *offset));
    return success();
  }
  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

struct MemDescIndexOpConversion : public ConvertOpToLLVMPattern<MemDescIndexOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MemDescIndexOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value stageBytes = i32Const(rewriter, loc, op.getType().getSizeInBytes());
    Value offset = rewriter.create<LLVM::MulOp>(loc, adaptor.getIndex(), stageBytes);
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, adaptor.getSrc().getType(), rewriter.getI8Type(),
                                             adaptor.getSrc(), ValueRange{offset});
    return success();
  }
};

/// A view is its source's address: the ops reading through it add the view's offsets
/// (SharedView), since the swizzle depends on the element's place in the whole tile.
struct MemDescSubviewOpConversion : public ConvertOpToLLVMPattern<MemDescSubviewOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MemDescSubviewOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct LocalLoadOpConversion : public ConvertOpToLLVMPattern<LocalLoadOp> {
  LocalLoadOpConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<LocalLoadOp>(c), target(target) {}
  LogicalResult matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MemDescType src = op.getSrc().getType();
    if (failed(checkPlacement(op, src)))
      return failure();
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(src.getElementType());
    SmallVector<Value> out;
    for (auto &idx : emitIndices(rewriter, loc, target, op.getType()))
      out.push_back(rewriter.create<LLVM::LoadOp>(
          loc, elem, elementAddress(rewriter, loc, op.getSrc(), adaptor.getSrc(), elem, idx)));
    rewriter.replaceOp(
        op, packStruct(rewriter, loc, getTypeConverter()->convertType(op.getType()), out));
    return success();
  }
  const TargetInfo &target;
};

struct LocalStoreOpConversion : public ConvertOpToLLVMPattern<LocalStoreOp> {
  LocalStoreOpConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<LocalStoreOp>(c), target(target) {}
  LogicalResult matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MemDescType dst = op.getDst().getType();
    if (failed(checkPlacement(op, dst)))
      return failure();
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(dst.getElementType());
    SmallVector<Value> vals = unpackStruct(rewriter, loc, adaptor.getSrc());
    // Replicated elements are written by every holder: same value, same address.
    for (auto [e, idx] :
         llvm::enumerate(emitIndices(rewriter, loc, target, op.getSrc().getType()))) {
      Value addr = elementAddress(rewriter, loc, op.getDst(), adaptor.getDst(), elem, idx);
      rewriter.create<LLVM::StoreOp>(loc, vals[e], addr);
    }
    rewriter.eraseOp(op);
    return success();
  }
  const TargetInfo &target;
};

struct BarrierOpConversion : public ConvertOpToLLVMPattern<BarrierOp> {
  BarrierOpConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<BarrierOp>(c), target(target) {}
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const TargetInfo &target;
};

} // namespace

namespace tessel {
void populateSharedMemoryOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                          SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<LocalAllocOpConversion>(converter, target, shared);
  patterns.add<MemDescIndexOpConversion, MemDescSubviewOpConversion>(converter);
  patterns.add<LocalLoadOpConversion, LocalStoreOpConversion, BarrierOpConversion>(converter,
                                                                                   target);
}
} // namespace tessel
