//===- DotOpToMFMA.cpp - tile.dot on CDNA's matrix cores (MFMA) -----------===//
//
// The AMD adapter's matrix-unit path on gfx90a (CDNA2) and gfx942 (CDNA3): one wavefront of 64
// lanes per instruction, accumulating in f32.
//
//   nonKDim 32: v_mfma_f32_32x32x8_f16 / _32x32x8_bf16_1k / _32x32x2_f32   (16 acc registers)
//   nonKDim 16: v_mfma_f32_16x16x16_f16 / _16x16x16_bf16_1k / _16x16x4_f32 (4 acc registers)
//
// Operands arrive in dot_op layouts whose registers are already the instruction's source
// registers (LinearLayout.cpp, after the CDNA3 ISA guide's "Dependency Details: MFMA" tables):
// lane l holds row (A) / column (B) l % nonKDim and the kWidth consecutive K elements
// kWidth * (l / nonKDim) + [0, kWidth) (16-bit: kWidth 4, one 64-bit source; f32: kWidth 1).
// The accumulator's register 4 i + j of lane l is (8 i + 4 (l / 32) + j, l % 32) for 32x32 and
// (4 (l / 16) + j, l % 16) for 16x16, exactly the instruction's vector<16xf32> / vector<4xf32>
// destination, so the lowering is a loop nest over the wave's repetitions:
//
//   for m < mReps, n < nReps:  acc = c[m][n];  for k < kReps: acc = mfma(A[m][k], B[n][k], acc)
//
// Register order: A (mRep, kRep, kWidth), B (nRep, kRep, kWidth), C (mRep, nRep, acc register).
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

/// One MFMA instruction: its tile and the ROCDL op that emits it.
enum class MfmaKind { f16, bf16, f32 };

MfmaKind kindOf(Type elem) {
  return elem.isF16() ? MfmaKind::f16 : elem.isBF16() ? MfmaKind::bf16 : MfmaKind::f32;
}

Value createMfma(OpBuilder &b, Location loc, MfmaKind kind, unsigned nonKDim, Type accType,
                 ValueRange args) {
  if (nonKDim == 32)
    switch (kind) {
    case MfmaKind::f16:
      return b.create<ROCDL::mfma_f32_32x32x8f16>(loc, accType, args);
    case MfmaKind::bf16:
      return b.create<ROCDL::mfma_f32_32x32x8bf16_1k>(loc, accType, args);
    case MfmaKind::f32:
      return b.create<ROCDL::mfma_f32_32x32x2f32>(loc, accType, args);
    }
  switch (kind) {
  case MfmaKind::f16:
    return b.create<ROCDL::mfma_f32_16x16x16f16>(loc, accType, args);
  case MfmaKind::bf16:
    return b.create<ROCDL::mfma_f32_16x16x16bf16_1k>(loc, accType, args);
  case MfmaKind::f32:
    return b.create<ROCDL::mfma_f32_16x16x4f32>(loc, accType, args);
  }
  llvm_unreachable("unknown MFMA kind");
}

struct MFMADotOpConversion : public ConvertOpToLLVMPattern<tile::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<MatrixDot<MfmaEncodingAttr>> dot = MatrixDot<MfmaEncodingAttr>::match(op);
    if (!dot || !dot->dType.getElementType().isF32())
      return failure();
    Type elem = dot->aType.getElementType();
    if (!elem.isF16() && !elem.isBF16() && !elem.isF32())
      return failure();
    MfmaKind kind = kindOf(elem);
    unsigned kw = kind == MfmaKind::f32 ? 1 : 4;
    if (dot->aEnc.getKWidth() != kw)
      return rewriter.notifyMatchFailure(op, "dot_op kWidth does not match the MFMA operand");
    Location loc = op.getLoc();
    int64_t d = dot->enc.getNonKDim();
    int64_t instrK = kw * (64 / d);
    if (dot->K % instrK != 0)
      return rewriter.notifyMatchFailure(op, "K is not a multiple of the instruction's K");
    int64_t mReps = std::max<int64_t>(1, dot->M / (d * dot->wm));
    int64_t nReps = std::max<int64_t>(1, dot->N / (d * dot->wn));
    int64_t kReps = dot->K / instrK;
    unsigned accRegs = d == 32 ? 16 : 4;

    auto [a, b, c] = unpackDotOperands(rewriter, loc, adaptor);
    if (a.size() != size_t(mReps * kReps * kw) || b.size() != size_t(nReps * kReps * kw) ||
        c.size() != size_t(mReps * nReps * accRegs))
      return rewriter.notifyMatchFailure(op, "register counts do not match the MFMA tiling");

    // 16-bit sources: one 64-bit register pair of 4 K elements (vector<4xf16>; the _1k bf16
    // forms take vector<4xi16>). f32: one register.
    Type srcElem =
        kind == MfmaKind::bf16 ? rewriter.getI16Type() : getTypeConverter()->convertType(elem);
    auto srcType = VectorType::get({int64_t(kw)}, srcElem);
    auto source = [&](ArrayRef<Value> regs, int64_t first) -> Value {
      return kw == 1 ? regs[first]
                     : amd::packSource(rewriter, loc, regs, first, srcType,
                                       /*bitcast=*/kind == MfmaKind::bf16);
    };
    // cbsz, abid, blgp: no broadcast of A blocks, no lane swizzle of B.
    Value zero = i32Const(rewriter, loc, 0);
    SmallVector<Value> out =
        amd::emitMatrixCoreLoops(rewriter, loc, c, mReps, nReps, kReps, accRegs,
                                 dot->usedReps(mReps, d, dot->wm, dot->validM),
                                 dot->usedReps(nReps, d, dot->wn, dot->validN),
                                 [&](int64_t m, int64_t n, int64_t k, Value acc) {
                                   Value aSrc = source(a, (m * kReps + k) * kw);
                                   Value bSrc = source(b, (n * kReps + k) * kw);
                                   return createMfma(rewriter, loc, kind, d, acc.getType(),
                                                     {aSrc, bSrc, acc, zero, zero, zero});
                                 });
    rewriter.replaceOp(op,
                       packStruct(rewriter, loc, getTypeConverter()->convertType(dot->dType), out));
    return success();
  }
};

} // namespace

namespace tessel::amd {

Attribute getMfmaDotEncoding(RankedTensorType a, RankedTensorType b, RankedTensorType d,
                             tile::InputPrecision precision, unsigned numWarps,
                             std::string &reason) {
  (void)precision; // f32 MFMA multiplies in full f32: at least what any precision asks
  Type elem = a.getElementType();
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "no MFMA path for " << elem << " inputs yet (f16, bf16 and f32 have one)";
    reason = s;
    return {};
  }
  if (!sameInputsF32Accumulator(elem, b, d, "MFMA", reason))
    return {};
  int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = b.getDimSize(1);
  if (!llvm::isPowerOf2_64(M) || !llvm::isPowerOf2_64(N) || !llvm::isPowerOf2_64(K)) {
    reason = "the tile (" + std::to_string(M) + ", " + std::to_string(N) + ", " +
             std::to_string(K) + ") is not a power of two in every dimension";
    return {};
  }
  // Ordered candidates: 32x32 (half the operand traffic per product of 16x16), then 16x16.
  bool is16 = !elem.isF32();
  struct Candidate {
    unsigned nonKDim;
    int64_t instrK;
    const char *name;
  };
  const Candidate candidates[] = {
      {32, is16 ? 8 : 2,
       is16 ? (elem.isF16() ? "v_mfma_f32_32x32x8_f16" : "v_mfma_f32_32x32x8_bf16")
            : "v_mfma_f32_32x32x2_f32"},
      {16, is16 ? 16 : 4,
       is16 ? (elem.isF16() ? "v_mfma_f32_16x16x16_f16" : "v_mfma_f32_16x16x16_bf16")
            : "v_mfma_f32_16x16x4_f32"},
  };
  for (const Candidate &c : candidates) {
    if (M < c.nonKDim || N < c.nonKDim || K < c.instrK)
      continue;
    auto [wm, wn] = chooseWarpsPerCTA(M, N, numWarps, c.nonKDim, c.nonKDim);
    return MfmaEncodingAttr::get(a.getContext(), c.nonKDim, {wm, wn});
  }
  std::string s = "the tile (" + std::to_string(M) + ", " + std::to_string(N) + ", " +
                  std::to_string(K) + ") is smaller than one";
  for (auto [i, c] : llvm::enumerate(candidates))
    s += std::string(i ? " or one " : " ") + c.name + " (" + std::to_string(c.nonKDim) + ", " +
         std::to_string(c.nonKDim) + ", " + std::to_string(c.instrK) + ")";
  reason = s;
  return {};
}

void populateDotOpToMFMAPatterns(LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MFMADotOpConversion>(converter, /*benefit=*/20);
}

} // namespace tessel::amd
