//===- SharedMemoryOpToLLVM.cpp - shared-memory buffers -------------------===//
//
// A !tile_gpu.memdesc is the shared-memory address of its first element. local_alloc is the
// kernel's shared memory at the offset tile-gpu-allocate-shared-memory chose; memdesc_index
// steps over whole stages of a ring; memdesc_subview keeps its source's address (readers add
// the view's offsets). local_load / local_store move a tile in any distributed layout
// through the buffer's #tile_gpu.shared placement, in vectors of up to 16 bytes where a
// thread's registers hold runs along the contiguous dimension (inside one swizzle group when
// swizzled). In an unswizzled (padded) placement, a layout whose register bits and lane/warp
// bits are disjoint gets one run-time base per thread and a constant offset per access, which
// the backends fold into the instruction's immediate; otherwise every access computes its index
// (adapters add faster patterns for the layouts they know: ldmatrix on NVIDIA). barrier is the
// target's program-wide barrier. Async copies belong to the adapters.
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

/// A pattern that emits through the target (barriers, thread coordinates).
template <typename OpT> struct TargetPattern : public ConvertOpToLLVMPattern<OpT> {
  TargetPattern(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<OpT>(c), target(target) {}
  /// The LLVM element type of `type`, a buffer in a placement this file lowers; failure
  /// (reported on `op`) for any other.
  FailureOr<Type> placedElementType(Operation *op, MemDescType type) const {
    if (failed(checkPlacement(op, type)))
      return failure();
    return this->getTypeConverter()->convertType(type.getElementType());
  }
  const TargetInfo &target;
};

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

/// The accesses of a tile of `regType` (a distributed layout) in the buffer `memdesc`
/// (lowered to `base`): one address per run of `run` consecutive registers.
struct TileAccesses {
  unsigned run = 1;
  SmallVector<Value> addrs;
};

TileAccesses tileAccesses(OpBuilder &b, Location loc, const TargetInfo &target,
                          RankedTensorType regType, Value memdesc, Value base, Type elem) {
  auto enc = cast<SharedEncodingAttr>(cast<MemDescType>(memdesc.getType()).getEncoding());
  SharedView view = SharedView::of(memdesc);
  unsigned rank = view.shape.size();
  unsigned cdim = rank == 1 ? 0 : enc.getOrder()[0];
  int64_t rowLen = view.shape[cdim] + (rank == 2 ? enc.getPad() : 0);
  bool swizzled = rank == 2 && (enc.getMaxPhase() > 1 || enc.getBlockColsFor(rowLen) < rowLen);
  TileAccesses acc;
  acc.run = vectorRun(regType, byteWidth(elem), cdim);
  if (swizzled)
    acc.run = std::min(acc.run, std::min(enc.getVec(), enc.getBlockColsFor(rowLen)));
  if (view.offsets[cdim] % acc.run != 0 || rowLen % acc.run != 0)
    acc.run = 1;
  unsigned n = getElemsPerThread(regType);
  auto gep = [&](Value ptr, ArrayRef<LLVM::GEPArg> off) -> Value {
    return b.create<LLVM::GEPOp>(loc, ptr.getType(), elem, ptr, off);
  };
  std::optional<LinearLayout> ll = toLinearLayout(regType);
  if (!swizzled && ll && ll->registersDisjointFromThreads() && ll->numRegisters() == n) {
    auto [lane, warp] = emitLaneAndWarp(b, loc, target);
    SmallVector<Value> rt = emitThreadCoords(b, loc, *ll, lane, warp);
    Value threadOff = rt[cdim];
    if (rank == 2)
      threadOff = b.create<LLVM::AddOp>(
          loc, b.create<LLVM::MulOp>(loc, rt[1 - cdim], i32Const(b, loc, rowLen)), rt[cdim]);
    Value threadBase = gep(base, {threadOff});
    for (unsigned e = 0; e < n; e += acc.run) {
      LinearLayout::Coord c = ll->applyInput(LinearLayout::Register, e);
      int64_t off = c[cdim] + view.offsets[cdim];
      if (rank == 2)
        off += (c[1 - cdim] + view.offsets[1 - cdim]) * rowLen;
      acc.addrs.push_back(gep(threadBase, {int32_t(off)}));
    }
    return acc;
  }
  auto idx = emitIndices(b, loc, target, regType);
  for (unsigned e = 0; e < n; e += acc.run)
    acc.addrs.push_back(elementAddress(b, loc, memdesc, base, elem, idx[e]));
  return acc;
}

struct LocalLoadOpConversion : TargetPattern<LocalLoadOp> {
  using TargetPattern::TargetPattern;
  LogicalResult matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Type> elem = placedElementType(op, op.getSrc().getType());
    if (failed(elem))
      return failure();
    Location loc = op.getLoc();
    TileAccesses acc =
        tileAccesses(rewriter, loc, target, op.getType(), op.getSrc(), adaptor.getSrc(), *elem);
    SmallVector<Value> out;
    for (Value addr : acc.addrs)
      loadVector(rewriter, loc, *elem, acc.run, addr, out);
    rewriter.replaceOp(
        op, packStruct(rewriter, loc, getTypeConverter()->convertType(op.getType()), out));
    return success();
  }
};

struct LocalStoreOpConversion : TargetPattern<LocalStoreOp> {
  using TargetPattern::TargetPattern;
  LogicalResult matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Type> elem = placedElementType(op, op.getDst().getType());
    if (failed(elem))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> vals = unpackStruct(rewriter, loc, adaptor.getSrc());
    TileAccesses acc = tileAccesses(rewriter, loc, target, op.getSrc().getType(), op.getDst(),
                                    adaptor.getDst(), *elem);
    // Replicated elements are written by every holder: same value, same address.
    for (auto [i, addr] : llvm::enumerate(acc.addrs))
      storeVector(rewriter, loc, ArrayRef(vals).slice(i * acc.run, acc.run), addr);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile_gpu.barrier (shared memory, inserted) and the user's tile.barrier (global memory too):
/// the target's barrier of all threads (TargetInfo::barrier), which orders both.
template <class Op> struct BarrierOpConversion : TargetPattern<Op> {
  using TargetPattern<Op>::TargetPattern;
  using OpAdaptor = typename TargetPattern<Op>::OpAdaptor;
  LogicalResult matchAndRewrite(Op op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    this->target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

namespace tessel {
void populateSharedMemoryOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                          SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<LocalAllocOpConversion>(converter, target, shared);
  patterns.add<MemDescIndexOpConversion, MemDescSubviewOpConversion>(converter);
  patterns.add<LocalLoadOpConversion, LocalStoreOpConversion, BarrierOpConversion<BarrierOp>,
               BarrierOpConversion<tile::BarrierOp>>(converter, target);
}
} // namespace tessel
