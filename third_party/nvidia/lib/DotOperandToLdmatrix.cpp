//===- DotOperandToLdmatrix.cpp - blocked -> mma operand via ldmatrix -----===//
//
// A 16-bit operand of mma.sync reaches its dot_op layout from shared memory through ldmatrix
// (x4: a 16x16 tile of A, or two 16x8 tiles of B; x2: one 16x8 tile of B), transposing (.trans)
// when the tile's contiguous dimension is not the fragment's K (A) / N-major (B) one. Two sources:
// a convert_layout from a blocked tile (every thread first stores its elements as vectors of up to
// 16 bytes into scratch) and a local_load from a buffer the pipeliner filled with cp.async.
//
// Placement: getSwizzledSharedEncoding (#tile_gpu.shared): rows along the non-contiguous
// dimension; 16-byte groups of a row are XOR-swizzled by the row's phase, so that the 8 row
// addresses one ldmatrix matrix takes fall in 8 different 16-byte bank groups.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// Whether the ldmatrix path reads a 16-bit operand of mma.sync in layout `enc` from a tile of
/// `shape` whose contiguous dimension is `cdim`.
bool isLdmatrixOperand(DotOperandEncodingAttr enc, Type elem, ArrayRef<int64_t> shape,
                       unsigned cdim) {
  return enc && enc.getKWidth() == 2 && shape.size() == 2 &&
         isa<MmaEncodingAttr>(enc.getParent()) && elem.getIntOrFloatBitWidth() == 16 &&
         shape[cdim] >= 8;
}

/// The operand's registers, in dot_op order, read with ldmatrix from the tile of `shape` at
/// `base` (shared memory) placed by `sharedEnc`.
/// `view` places the tile in its buffer (a K slice of a stage, tile-gpu-split-dot-k).
SmallVector<Value> loadOperandWithLdmatrix(ConversionPatternRewriter &rewriter, Location loc,
                                           const TargetInfo &target, Value base, Type elem,
                                           SharedEncodingAttr sharedEnc, ArrayRef<int64_t> shape,
                                           const SharedView &view, DotOperandEncodingAttr enc) {
  auto mma = cast<MmaEncodingAttr>(enc.getParent());
  unsigned cdim = sharedEnc.getOrder()[0];
  auto at = [&](Value r, Value c) -> Value {
    Value off = sharedElemOffset(rewriter, loc, sharedEnc, view, r, c);
    return rewriter.create<LLVM::GEPOp>(loc, base.getType(), elem, base, ValueRange{off});
  };
  auto [lane, warp] = emitLaneAndWarp(rewriter, loc, target);
  int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  Value laneRow = rewriter.create<LLVM::AndOp>(loc, lane, i32Const(rewriter, loc, 7));
  Value matrix = rewriter.create<LLVM::LShrOp>(loc, lane, i32Const(rewriter, loc, 3));
  Value matLow = rewriter.create<LLVM::AndOp>(loc, matrix, i32Const(rewriter, loc, 1));
  Value matHigh = rewriter.create<LLVM::LShrOp>(loc, matrix, i32Const(rewriter, loc, 1));
  matHigh = rewriter.create<LLVM::AndOp>(loc, matHigh, i32Const(rewriter, loc, 1));
  auto eight = [&](Value bit) {
    return rewriter.create<LLVM::ShlOp>(loc, bit, i32Const(rewriter, loc, 3));
  };
  auto add = [&](Value a, int64_t c) -> Value {
    return c ? rewriter.create<LLVM::AddOp>(loc, a, i32Const(rewriter, loc, c)).getResult() : a;
  };
  auto wrap = [&](Value v, int64_t size) -> Value {
    return rewriter.create<LLVM::AndOp>(loc, v, i32Const(rewriter, loc, size - 1));
  };
  Type i32 = rewriter.getI32Type();
  Type pair = VectorType::get({2}, elem);
  SmallVector<Value> out;
  // (r, c): r along the non-contiguous dimension, c along the contiguous one.
  auto ldmatrix = [&](Value r, Value c, unsigned num, bool trans) {
    Type resType = num == 1 ? i32
                            : LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                               SmallVector<Type>(num, i32));
    Value res = rewriter.create<NVVM::LdMatrixOp>(
        loc, resType, at(r, c), num, trans ? NVVM::MMALayout::col : NVVM::MMALayout::row);
    SmallVector<Value> regs = num == 1 ? SmallVector<Value>{res} : unpackStruct(rewriter, loc, res);
    for (Value reg : regs) {
      Value v = rewriter.create<LLVM::BitcastOp>(loc, pair, reg);
      for (unsigned j = 0; j < 2; ++j)
        out.push_back(rewriter.create<LLVM::ExtractElementOp>(loc, v, i32Const(rewriter, loc, j)));
    }
  };
  if (enc.getOpIdx() == 0) {
    // A (M, K): x4 per 16x16 tile; matrix i = lane / 8 covers rows (i % 2) * 8, K (i / 2) * 8.
    int64_t M = shape[0], K = shape[1];
    Value wM = rewriter.create<LLVM::URemOp>(loc, warp, i32Const(rewriter, loc, wm));
    Value mBase = rewriter.create<LLVM::MulOp>(loc, wM, i32Const(rewriter, loc, 16));
    int64_t mReps = std::max<int64_t>(1, M / (16 * wm)), kReps = K / 16;
    for (int64_t mi = 0; mi < mReps; ++mi)
      for (int64_t ki = 0; ki < kReps; ++ki) {
        Value m0 = add(mBase, mi * 16 * wm);
        if (cdim == 1) { // K contiguous: rows m, plain ldmatrix
          Value r = wrap(rewriter.create<LLVM::AddOp>(
                             loc, m0, rewriter.create<LLVM::AddOp>(loc, eight(matLow), laneRow)),
                         M);
          ldmatrix(r, add(eight(matHigh), ki * 16), 4, /*trans=*/false);
        } else { // M contiguous: rows k, .trans
          Value r = add(rewriter.create<LLVM::AddOp>(loc, eight(matHigh), laneRow), ki * 16);
          Value c = wrap(rewriter.create<LLVM::AddOp>(loc, m0, eight(matLow)), M);
          ldmatrix(r, c, 4, /*trans=*/true);
        }
      }
  } else {
    // B (K, N), 16x8 tiles in (n, k) register order. One x4 reads two tiles: K 32 of one n
    // when kReps is even, else (a 16-K slice, tile-gpu-split-dot-k) the n tiles ni and ni + 1;
    // matrix i = lane / 8 then covers K i * 8, or K (i % 2) * 8 of n tile i / 2. Odd leftovers
    // take x2 (matrix i % 2 covers K (i % 2) * 8).
    int64_t K = shape[0], N = shape[1];
    Value wN = rewriter.create<LLVM::UDivOp>(loc, warp, i32Const(rewriter, loc, wm));
    wN = rewriter.create<LLVM::URemOp>(loc, wN, i32Const(rewriter, loc, wn));
    Value nBase = rewriter.create<LLVM::MulOp>(loc, wN, i32Const(rewriter, loc, 8));
    int64_t nReps = std::max<int64_t>(1, N / (8 * wn)), kReps = K / 16;
    // kOff: K offset of the lane's matrix within the read; nStep: 1 when the lane's matrix
    // belongs to the next n tile.
    auto readB = [&](Value n0, int64_t k0, Value kOff, Value nStep, unsigned num) {
      Value n = nStep
                    ? rewriter.create<LLVM::AddOp>(
                          loc, n0,
                          rewriter.create<LLVM::MulOp>(loc, nStep, i32Const(rewriter, loc, 8 * wn)))
                    : n0;
      Value k = add(eight(kOff), k0);
      if (cdim == 1) // N contiguous: rows k, .trans
        ldmatrix(rewriter.create<LLVM::AddOp>(loc, k, laneRow), wrap(n, N), num, /*trans=*/true);
      else // K contiguous: rows n, plain
        ldmatrix(wrap(rewriter.create<LLVM::AddOp>(loc, n, laneRow), N), k, num, /*trans=*/false);
    };
    bool pairK = kReps % 2 == 0, pairN = kReps == 1 && nReps % 2 == 0;
    for (int64_t ni = 0; ni < nReps; ni += pairN ? 2 : 1) {
      Value n0 = add(nBase, ni * 8 * wn);
      for (int64_t ki = 0; ki < kReps; ki += pairK ? 2 : 1) {
        if (pairK)
          readB(n0, ki * 16, matrix, Value(), 4);
        else if (pairN)
          readB(n0, ki * 16, matLow, matHigh, 4);
        else
          readB(n0, ki * 16, matLow, Value(), 2);
      }
    }
  }
  return out;
}

/// convert_layout blocked -> dot_op: every thread stores its elements as vectors (up to 16
/// bytes) into swizzled scratch, then each warp reads its fragments with ldmatrix.
struct DotOperandThroughLdmatrix : public ConvertOpToLLVMPattern<ConvertLayoutOp> {
  DotOperandThroughLdmatrix(LLVMTypeConverter &c, const TargetInfo &target,
                            SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<ConvertLayoutOp>(c, /*benefit=*/20), target(target), shared(shared) {
  }

  LogicalResult matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto dstType = op.getType();
    auto enc = dyn_cast_if_present<DotOperandEncodingAttr>(dstType.getEncoding());
    std::optional<ThreadElems> te = getThreadElems(srcType);
    if (!te || srcType.getRank() != 2 ||
        !isLdmatrixOperand(enc, srcType.getElementType(), srcType.getShape(), te->dimOrder[0]))
      return failure();
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned cdim = te->dimOrder[0], rdim = 1 - cdim;
    SharedEncodingAttr sharedEnc =
        getSwizzledSharedEncoding(op.getContext(), shape, {cdim, rdim}, 16);
    unsigned scratch = shared.reserveScratch(op, unsigned(srcType.getNumElements() * 2));
    Value base = sharedMemoryPtr(rewriter, loc, target, scratch);

    // Store: runs of g consecutive elements along the contiguous dimension, one vector each.
    target.barrier(rewriter, loc);
    SmallVector<Value> in = unpackStruct(rewriter, loc, adaptor.getSrc());
    auto idx = emitIndices(rewriter, loc, target, *te);
    unsigned spt = te->view.root.getSizePerThread()[te->view.keptDims[cdim]];
    unsigned g = std::min<unsigned>({spt, 8u, unsigned(te->perDim[cdim])});
    for (unsigned k = 0; k < te->total; k += g) {
      Value off = sharedElemOffset(rewriter, loc, sharedEnc, shape, idx[k][rdim], idx[k][cdim]);
      Value addr = rewriter.create<LLVM::GEPOp>(loc, base.getType(), elem, base, ValueRange{off});
      storeVector(rewriter, loc, ArrayRef(in).slice(k, g), addr);
    }
    target.barrier(rewriter, loc);

    SmallVector<Value> out =
        loadOperandWithLdmatrix(rewriter, loc, target, base, elem, sharedEnc, shape,
                                SharedView{SmallVector<int64_t>(shape), {0, 0}}, enc);
    rewriter.replaceOp(op,
                       packStruct(rewriter, loc, getTypeConverter()->convertType(dstType), out));
    return success();
  }

  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

/// local_load of a swizzled shared tile into a dot_op layout: ldmatrix straight from the buffer
/// (the pipelined GEMM's operands; tile-gpu-insert-barriers orders it after the writes).
struct LocalLoadThroughLdmatrix : public ConvertOpToLLVMPattern<LocalLoadOp> {
  LocalLoadThroughLdmatrix(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<LocalLoadOp>(c, /*benefit=*/20), target(target) {}

  LogicalResult matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MemDescType srcType = op.getSrc().getType();
    auto sharedEnc = dyn_cast<SharedEncodingAttr>(srcType.getEncoding());
    auto enc = dyn_cast_if_present<DotOperandEncodingAttr>(op.getType().getEncoding());
    if (!sharedEnc || sharedEnc.getPad() != 0 || sharedEnc.getBlockCols() != 0 ||
        srcType.getShape().size() != 2 ||
        !isLdmatrixOperand(enc, srcType.getElementType(), srcType.getShape(),
                           sharedEnc.getOrder()[0]))
      return failure();
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    SmallVector<Value> out =
        loadOperandWithLdmatrix(rewriter, op.getLoc(), target, adaptor.getSrc(), elem, sharedEnc,
                                srcType.getShape(), SharedView::of(op.getSrc()), enc);
    rewriter.replaceOp(
        op, packStruct(rewriter, op.getLoc(), getTypeConverter()->convertType(op.getType()), out));
    return success();
  }

  const TargetInfo &target;
};

} // namespace

namespace tessel::nvidia {
void populateDotOperandToLdmatrixPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                          SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<DotOperandThroughLdmatrix>(converter, target, shared);
  patterns.add<LocalLoadThroughLdmatrix>(converter, target);
}
} // namespace tessel::nvidia
