//===- DotOpToWMMA.cpp - tile.dot on RDNA3's matrix instructions (WMMA) ---===//
//
// The AMD adapter's matrix-unit path on gfx1100 (RDNA3): one wave32 per 16x16x16 instruction,
// 16-bit inputs accumulating in f32 (RDNA3 ISA guide, "Wave Matrix Multiply Accumulate"):
//
//   v_wmma_f32_16x16x16_f16 / v_wmma_f32_16x16x16_bf16   A, B: 8 VGPRs (16 halves), C/D: 8
//
// Operands arrive in dot_op layouts whose registers are the instruction's sources
// (LinearLayout.cpp): lane l holds row (A) / column (B) l % 16 and its 16 K elements, and
// lanes 16-31 hold the same as lanes 0-15, which wave32 WMMA reads. Register i of the
// accumulator in lane l is (2 i + l / 16, l % 16), the instruction's vector<8xf32>. As for
// MFMA, the lowering is a loop nest over the wave's repetitions:
//
//   for m < mReps, n < nReps:  acc = c[m][n];  for k < kReps: acc = wmma(A[m][k], B[n][k], acc)
//
// Register order: A (mRep, kRep, 16), B (nRep, kRep, 16), C (mRep, nRep, 8).
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"
#include "MatrixCore.h"

#include "tessel/Conversion/TileGPUToLLVM/MatrixDot.h"
#include "tessel/Dialect/TileGPU/IR/Layout.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

constexpr int64_t kInstr = 16;   ///< M = N = K of one instruction
constexpr unsigned kAccRegs = 8; ///< f32 accumulator registers per lane on wave32

struct WMMADotOpConversion : public ConvertOpToLLVMPattern<tile::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<MatrixDot<WmmaEncodingAttr>> dot = MatrixDot<WmmaEncodingAttr>::match(op);
    if (!dot || !dot->dType.getElementType().isF32())
      return failure();
    Type elem = dot->aType.getElementType();
    if (!elem.isF16() && !elem.isBF16())
      return failure();
    if (dot->aEnc.getKWidth() != kInstr)
      return rewriter.notifyMatchFailure(op, "dot_op kWidth does not match the WMMA operand");
    Location loc = op.getLoc();
    if (dot->K % kInstr != 0)
      return rewriter.notifyMatchFailure(op, "K is not a multiple of the instruction's K");
    int64_t mReps = std::max<int64_t>(1, dot->M / (kInstr * dot->wm));
    int64_t nReps = std::max<int64_t>(1, dot->N / (kInstr * dot->wn));
    int64_t kReps = dot->K / kInstr;

    auto [a, b, c] = unpackDotOperands(rewriter, loc, adaptor);
    if (a.size() != size_t(mReps * kReps * kInstr) || b.size() != size_t(nReps * kReps * kInstr) ||
        c.size() != size_t(mReps * nReps * kAccRegs))
      return rewriter.notifyMatchFailure(op, "register counts do not match the WMMA tiling");

    // Sources: vector<16xf16>, or vector<16xi16> for bf16 (LLVM 19's intrinsic takes the bits).
    bool isBF16 = elem.isBF16();
    Type srcElem = isBF16 ? rewriter.getI16Type() : getTypeConverter()->convertType(elem);
    auto srcType = VectorType::get({kInstr}, srcElem);
    SmallVector<Value> out = amd::emitMatrixCoreLoops(
        rewriter, loc, c, mReps, nReps, kReps, kAccRegs,
        dot->usedReps(mReps, kInstr, dot->wm, dot->validM),
        dot->usedReps(nReps, kInstr, dot->wn, dot->validN),
        [&](int64_t m, int64_t n, int64_t k, Value acc) -> Value {
          Value args[] = {
              amd::packSource(rewriter, loc, a, (m * kReps + k) * kInstr, srcType, isBF16),
              amd::packSource(rewriter, loc, b, (n * kReps + k) * kInstr, srcType, isBF16), acc};
          if (isBF16)
            return rewriter.create<ROCDL::wmma_f32_16x16x16_bf16>(loc, acc.getType(), args);
          return rewriter.create<ROCDL::wmma_f32_16x16x16_f16>(loc, acc.getType(), args);
        });
    rewriter.replaceOp(op,
                       packStruct(rewriter, loc, getTypeConverter()->convertType(dot->dType), out));
    return success();
  }
};

} // namespace

namespace tessel::amd {

Attribute getWmmaDotEncoding(RankedTensorType a, RankedTensorType b, RankedTensorType d,
                             unsigned numWarps, std::string &reason) {
  Type elem = a.getElementType();
  if (!elem.isF16() && !elem.isBF16()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "RDNA3's WMMA takes f16 or bf16 inputs, not " << elem;
    reason = s;
    return {};
  }
  if (!sameInputsF32Accumulator(elem, b, d, "WMMA", reason))
    return {};
  int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = b.getDimSize(1);
  if (!llvm::isPowerOf2_64(M) || !llvm::isPowerOf2_64(N) || !llvm::isPowerOf2_64(K) || M < kInstr ||
      N < kInstr || K < kInstr) {
    reason = "the tile (" + std::to_string(M) + ", " + std::to_string(N) + ", " +
             std::to_string(K) + ") is not a power of two of at least one " +
             (elem.isF16() ? "v_wmma_f32_16x16x16_f16" : "v_wmma_f32_16x16x16_bf16") +
             " (16, 16, 16) in every dimension";
    return {};
  }
  auto [wm, wn] = chooseWarpsPerCTA(M, N, numWarps, kInstr, kInstr);
  return WmmaEncodingAttr::get(a.getContext(), {wm, wn});
}

void populateDotOpToWMMAPatterns(LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WMMADotOpConversion>(converter, /*benefit=*/20);
}

} // namespace tessel::amd
