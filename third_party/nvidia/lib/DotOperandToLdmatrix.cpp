//===- DotOperandToLdmatrix.cpp - blocked -> mma operand via ldmatrix -----===//
//
// A 16-bit operand of mma.sync reaches its dot_op layout through shared memory: every thread
// stores its blocked elements as vectors (up to 16 bytes), then each warp reads its fragments
// with ldmatrix (x4: a 16x16 tile of A; x2: a 16x8 tile of B), transposing (.trans) when the
// tile's contiguous dimension is not the fragment's K (A) / N-major (B) one.
//
// Placement (the #tile_gpu.shared swizzle): rows along the non-contiguous dimension, C
// elements each; 16-byte groups of a row are XOR-swizzled by the row's phase,
//   off(r, c) = r * C + ((c / 8) ^ ((r / perPhase) % maxPhase)) * 8 + c % 8,
// perPhase = max(1, 64 / C), maxPhase = min(C / 8, 8 / perPhase): the 8 row addresses one
// ldmatrix matrix takes fall in 8 different 16-byte bank groups.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct Swizzle {
  int64_t C, perPhase, maxPhase;
  /// Element offset of (r, c) as i32; c is a multiple of 8 or `cLow` holds c % 8.
  Value offset(OpBuilder &b, Location loc, Value r, Value c) const {
    Value row = b.create<LLVM::MulOp>(loc, r, i32Const(b, loc, C));
    Value group = b.create<LLVM::LShrOp>(loc, c, i32Const(b, loc, 3));
    Value phase = b.create<LLVM::UDivOp>(loc, r, i32Const(b, loc, perPhase));
    phase = b.create<LLVM::URemOp>(loc, phase, i32Const(b, loc, maxPhase));
    group = b.create<LLVM::XOrOp>(loc, group, phase);
    Value within = b.create<LLVM::AndOp>(loc, c, i32Const(b, loc, 7));
    Value col = b.create<LLVM::AddOp>(loc, b.create<LLVM::ShlOp>(loc, group, i32Const(b, loc, 3)),
                                      within);
    return b.create<LLVM::AddOp>(loc, row, col);
  }
};

struct DotOperandThroughLdmatrix : public ConvertOpToLLVMPattern<ConvertLayoutOp> {
  DotOperandThroughLdmatrix(LLVMTypeConverter &c, const TargetInfo &target,
                            SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<ConvertLayoutOp>(c, /*benefit=*/20), target(target),
        shared(shared) {}

  LogicalResult matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto dstType = op.getType();
    auto enc = dyn_cast_if_present<DotOperandEncodingAttr>(dstType.getEncoding());
    std::optional<ThreadElems> te = getThreadElems(srcType);
    if (!enc || !te || enc.getKWidth() != 2 || srcType.getRank() != 2 ||
        srcType.getElementType().getIntOrFloatBitWidth() != 16)
      return failure();
    auto mma = dyn_cast<MmaEncodingAttr>(enc.getParent());
    if (!mma)
      return failure();
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned cdim = te->dimOrder[0], rdim = 1 - cdim;
    int64_t C = shape[cdim];
    if (C < 8)
      return failure();
    Swizzle sw{C, std::max<int64_t>(1, 64 / C), 0};
    sw.maxPhase = std::min<int64_t>(C / 8, 8 / sw.perPhase);
    shared.reserve(enclosingKernelName(op), unsigned(srcType.getNumElements() * 2));
    Value base = sharedMemoryPtr(rewriter, loc, target, 0);
    auto at = [&](Value elemOffset) -> Value {
      return rewriter.create<LLVM::GEPOp>(loc, base.getType(), elem, base, ValueRange{elemOffset});
    };

    // Store: runs of g consecutive elements along the contiguous dimension, one vector each.
    target.barrier(rewriter, loc);
    SmallVector<Value> in = unpackStruct(rewriter, loc, adaptor.getSrc());
    auto idx = emitIndices(rewriter, loc, target, *te);
    unsigned spt = te->view.root.getSizePerThread()[te->view.keptDims[cdim]];
    unsigned g = std::min<unsigned>({spt, 8u, unsigned(te->perDim[cdim])});
    for (unsigned k = 0; k < te->total; k += g) {
      Value addr = at(sw.offset(rewriter, loc, idx[k][rdim], idx[k][cdim]));
      if (g == 1) {
        rewriter.create<LLVM::StoreOp>(loc, in[k], addr, /*alignment=*/2);
        continue;
      }
      auto vecType = VectorType::get({int64_t(g)}, elem);
      Value v = rewriter.create<LLVM::UndefOp>(loc, vecType);
      for (unsigned j = 0; j < g; ++j)
        v = rewriter.create<LLVM::InsertElementOp>(loc, v, in[k + j], i32Const(rewriter, loc, j));
      rewriter.create<LLVM::StoreOp>(loc, v, addr, /*alignment=*/2 * g);
    }
    target.barrier(rewriter, loc);

    // Load: fragments in dot_op register order.
    auto [lane, warp] = emitLaneAndWarp(rewriter, loc, target);
    int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    Value laneRow = rewriter.create<LLVM::AndOp>(loc, lane, i32Const(rewriter, loc, 7));
    Value matrix = rewriter.create<LLVM::LShrOp>(loc, lane, i32Const(rewriter, loc, 3));
    Value matLow = rewriter.create<LLVM::AndOp>(loc, matrix, i32Const(rewriter, loc, 1));
    Value matHigh = rewriter.create<LLVM::LShrOp>(loc, matrix, i32Const(rewriter, loc, 1));
    matHigh = rewriter.create<LLVM::AndOp>(loc, matHigh, i32Const(rewriter, loc, 1));
    auto eight = [&](Value bit) { return rewriter.create<LLVM::ShlOp>(loc, bit, i32Const(rewriter, loc, 3)); };
    auto add = [&](Value a, int64_t c) -> Value {
      return c ? rewriter.create<LLVM::AddOp>(loc, a, i32Const(rewriter, loc, c)).getResult() : a;
    };
    auto wrap = [&](Value v, int64_t size) -> Value {
      return rewriter.create<LLVM::AndOp>(loc, v, i32Const(rewriter, loc, size - 1));
    };
    Type i32 = rewriter.getI32Type();
    Type pair = VectorType::get({2}, elem);
    SmallVector<Value> out;
    auto ldmatrix = [&](Value r, Value c, unsigned num, bool trans) {
      Type resType = num == 1 ? i32 : LLVM::LLVMStructType::getLiteral(
                                          rewriter.getContext(), SmallVector<Type>(num, i32));
      Value res = rewriter.create<NVVM::LdMatrixOp>(
          loc, resType, at(sw.offset(rewriter, loc, r, c)), num,
          trans ? NVVM::MMALayout::col : NVVM::MMALayout::row);
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
            Value r = wrap(rewriter.create<LLVM::AddOp>(loc, add(m0, 0),
                                                        rewriter.create<LLVM::AddOp>(loc, eight(matLow), laneRow)), M);
            Value c = add(eight(matHigh), ki * 16);
            ldmatrix(r, c, 4, /*trans=*/false);
          } else { // M contiguous: rows k, .trans
            Value r = add(rewriter.create<LLVM::AddOp>(loc, eight(matHigh), laneRow), ki * 16);
            Value c = wrap(rewriter.create<LLVM::AddOp>(loc, m0, eight(matLow)), M);
            ldmatrix(r, c, 4, /*trans=*/true);
          }
        }
    } else {
      // B (K, N): x2 per 16x8 tile; matrix j = (lane / 8) % 2 covers K j * 8.
      int64_t K = shape[0], N = shape[1];
      Value wN = rewriter.create<LLVM::UDivOp>(loc, warp, i32Const(rewriter, loc, wm));
      wN = rewriter.create<LLVM::URemOp>(loc, wN, i32Const(rewriter, loc, wn));
      Value nBase = rewriter.create<LLVM::MulOp>(loc, wN, i32Const(rewriter, loc, 8));
      int64_t nReps = std::max<int64_t>(1, N / (8 * wn)), kReps = K / 16;
      for (int64_t ni = 0; ni < nReps; ++ni)
        for (int64_t ki = 0; ki < kReps; ++ki) {
          Value n0 = add(nBase, ni * 8 * wn);
          if (cdim == 1) { // N contiguous: rows k, .trans
            Value r = add(rewriter.create<LLVM::AddOp>(loc, eight(matLow), laneRow), ki * 16);
            Value c = wrap(n0, N);
            ldmatrix(r, c, 2, /*trans=*/true);
          } else { // K contiguous: rows n, plain
            Value r = wrap(rewriter.create<LLVM::AddOp>(loc, n0, laneRow), N);
            Value c = add(eight(matLow), ki * 16);
            ldmatrix(r, c, 2, /*trans=*/false);
          }
        }
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, getTypeConverter()->convertType(dstType), out));
    return success();
  }

  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

} // namespace

namespace tessel::nvidia {
void populateDotOperandToLdmatrixPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                          SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<DotOperandThroughLdmatrix>(converter, target, shared);
}
} // namespace tessel::nvidia
