//===- ConvertLayoutOpToLLVM.cpp - data movement between layouts ----------===//
//
// convert_layout, trans and reshape go through shared memory: every thread writes its elements
// at their (row-major) position in the result, a barrier, every thread reads the elements its
// result layout gives it. Correct for any pair of layouts; the layout passes keep these rare.
//
// Accesses are vectors (up to 16 bytes) where a thread's consecutive registers hold
// consecutive elements of the last dimension (mma accumulators: pairs; blocked layouts:
// sizePerThread). Rows of 64 bytes or more, multiples of 16, are padded by 16 bytes: the 8 rows
// an mma accumulator writes at one column (or a column of 16-byte vectors) then start 4 banks
// apart and hit 32 distinct banks instead of 8-way conflicts on a 128-byte-multiple stride.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// Row-major offset of `idx` in a tile of `shape` whose rows (last dimension) lie
/// shape.back() + rowPad elements apart.
Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> idx, ArrayRef<int64_t> shape,
                int64_t rowPad = 0) {
  Value lin = i32Const(b, loc, 0);
  for (unsigned d = 0; d < idx.size(); ++d) {
    int64_t stride = shape[d] + (d + 1 == idx.size() ? rowPad : 0);
    lin = b.create<LLVM::AddOp>(loc, b.create<LLVM::MulOp>(loc, lin, i32Const(b, loc, stride)),
                                idx[d]);
  }
  return lin;
}

/// Padding (elements) of the scratch rows of a tile of `shape`; see the file comment.
int64_t scratchRowPad(ArrayRef<int64_t> shape, unsigned bytes) {
  if (shape.size() < 2 || shape.back() * bytes < 64 || shape.back() * bytes % 16 != 0)
    return 0;
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  return rows > 1 ? 16 / bytes : 0;
}

template <typename OpT> struct ThroughSharedMemory : public ConvertOpToLLVMPattern<OpT> {
  ThroughSharedMemory(LLVMTypeConverter &c, const TargetInfo &target, SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<OpT>(c, /*benefit=*/10), target(target), shared(shared) {}

  /// Offset in scratch of the source element at `srcIdx`: its position in the result, rows
  /// `rowPad` apart beyond their length.
  virtual Value resultPosition(OpBuilder &b, Location loc, OpT op, ArrayRef<Value> srcIdx,
                               int64_t rowPad) const = 0;
  /// Whether the result keeps the source's last dimension last (stores may be vectors).
  virtual bool keepsLastDim(OpT op) const { return true; }
  /// Whether scratch rows may be padded (the result is read by its own row-major positions).
  virtual bool paddable() const { return true; }

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
    unsigned bytes = byteWidth(memType);
    ArrayRef<int64_t> dstShape = dstType.getShape();
    int64_t rowPad = paddable() ? scratchRowPad(dstShape, bytes) : 0;
    int64_t scratchElems = dstType.getNumElements();
    if (rowPad)
      scratchElems = scratchElems / dstShape.back() * (dstShape.back() + rowPad);
    unsigned scratch = shared.reserveScratch(op, unsigned(scratchElems * bytes));
    Value base = sharedMemoryPtr(rewriter, loc, target, scratch);
    auto at = [&](Value pos) -> Value {
      return rewriter.create<LLVM::GEPOp>(loc, base.getType(), memType, base, ValueRange{pos});
    };
    SmallVector<Value> in = unpackStruct(rewriter, loc, adaptor.getSrc());
    auto srcIdx = emitIndices(rewriter, loc, target, srcType);
    target.barrier(rewriter, loc);
    unsigned storeRun = keepsLastDim(op) ? vectorRun(srcType, bytes, srcType.getRank() - 1) : 1;
    // i1 elements travel as i8.
    for (Value &v : in)
      if (memType != elem)
        v = rewriter.create<LLVM::ZExtOp>(loc, memType, v);
    for (unsigned e = 0; e < srcElems; e += storeRun)
      storeVector(rewriter, loc, ArrayRef(in).slice(e, storeRun),
                  at(resultPosition(rewriter, loc, op, srcIdx[e], rowPad)));
    target.barrier(rewriter, loc);
    auto dstIdx = emitIndices(rewriter, loc, target, dstType);
    unsigned loadRun = vectorRun(dstType, bytes, dstType.getRank() - 1);
    SmallVector<Value> out;
    for (unsigned e = 0; e < dstElems; e += loadRun)
      loadVector(rewriter, loc, memType, loadRun,
                 at(linearize(rewriter, loc, dstIdx[e], dstShape, rowPad)), out);
    for (Value &v : out)
      if (memType != elem)
        v = rewriter.create<LLVM::TruncOp>(loc, elem, v);
    rewriter.replaceOp(
        op, packStruct(rewriter, loc, this->getTypeConverter()->convertType(dstType), out));
    return success();
  }

  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

struct ConvertLayoutOpConversion : ThroughSharedMemory<ConvertLayoutOp> {
  using ThroughSharedMemory::ThroughSharedMemory;
  Value resultPosition(OpBuilder &b, Location loc, ConvertLayoutOp op, ArrayRef<Value> idx,
                       int64_t rowPad) const override {
    return linearize(b, loc, idx, op.getType().getShape(), rowPad);
  }
};

struct TransOpConversion : ThroughSharedMemory<tile::TransOp> {
  using ThroughSharedMemory::ThroughSharedMemory;
  Value resultPosition(OpBuilder &b, Location loc, tile::TransOp op, ArrayRef<Value> idx,
                       int64_t rowPad) const override {
    SmallVector<Value> permuted;
    for (int32_t d : op.getOrder())
      permuted.push_back(idx[d]);
    return linearize(b, loc, permuted, cast<RankedTensorType>(op.getType()).getShape(), rowPad);
  }
  bool keepsLastDim(tile::TransOp op) const override {
    return op.getOrder().back() == int32_t(op.getOrder().size()) - 1;
  }
};

struct ReshapeOpConversion : ThroughSharedMemory<tile::ReshapeOp> {
  using ThroughSharedMemory::ThroughSharedMemory;
  /// Source and result share one row-major order, so scratch stays unpadded.
  Value resultPosition(OpBuilder &b, Location loc, tile::ReshapeOp op, ArrayRef<Value> idx,
                       int64_t) const override {
    return linearize(b, loc, idx, cast<RankedTensorType>(op.getSrc().getType()).getShape());
  }
  bool paddable() const override { return false; }
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
