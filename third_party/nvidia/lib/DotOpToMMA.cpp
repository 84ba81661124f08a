//===- DotOpToMMA.cpp - tile.dot on mma.sync (sm_80 and later) ------------===//
//
// The NVIDIA adapter's matrix-unit path before Hopper's wgmma: mma.sync.aligned.m16n8k16
// (f16, bf16 -> f32) and m16n8k8 (tf32 -> f32), one warp per instruction. Operands arrive in
// dot_op layouts whose registers are already the PTX fragments (see LinearLayout.cpp), so the
// lowering is a loop nest over the warp's repetitions:
//
//   for m < mReps, n < nReps:  acc[m][n] = c[m][n];  for k < kReps: acc = mma(A[m][k], B[n][k],
//   acc)
//
// Repetitions that hold only a padded tile's padding (MatrixDot::usedReps: BLOCK_N = 96 padded
// to 128 on 2 warps along N leaves 2 of 8 column repetitions) issue no mma and keep c.
//
// Register order: A (mRep, kRep, 8 or 4 elements), B (nRep, kRep, 4 or 2), C (mRep, nRep, 4).
//
// precision = tf32x3 (CUTLASS's 3xTF32): x = hi + lo with hi = x rounded to tf32 (nearest,
// ties away) and lo = x - hi (exact in f32); acc += a_lo b_hi + a_hi b_lo + a_hi b_hi, small
// terms first, three mma per step: about f32 accuracy (the dropped a_lo b_lo is 2^-22 of the
// product) on the matrix unit.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "PTXAsm.h"

#include "tessel/Conversion/TileGPUToLLVM/MatrixDot.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct MMADotOpConversion : public ConvertOpToLLVMPattern<tile::DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<MatrixDot<MmaEncodingAttr>> dot = MatrixDot<MmaEncodingAttr>::match(op);
    if (!dot)
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type elem = dot->aType.getElementType();
    bool is16 = dot->aEnc.getKWidth() == 2;
    int64_t instrK = is16 ? 16 : 8;
    int64_t mReps = std::max<int64_t>(1, dot->M / (16 * dot->wm));
    int64_t nReps = std::max<int64_t>(1, dot->N / (8 * dot->wn));
    int64_t kReps = dot->K / instrK;
    int64_t mUsed = dot->usedReps(mReps, 16, dot->wm, dot->validM);
    int64_t nUsed = dot->usedReps(nReps, 8, dot->wn, dot->validN);
    unsigned aPer = is16 ? 8 : 4, bPer = is16 ? 4 : 2;

    auto [a, b, c] = unpackDotOperands(rewriter, loc, adaptor);

    NVVM::MMATypes ptxType = elem.isF16()    ? NVVM::MMATypes::f16
                             : elem.isBF16() ? NVVM::MMATypes::bf16
                                             : NVVM::MMATypes::tf32;
    Type i32 = rewriter.getI32Type();
    Type llElem = getTypeConverter()->convertType(elem);
    Type pair = VectorType::get({2}, llElem);
    // One 32-bit fragment register: two 16-bit halves (f16 keeps the vector type NVVM wants
    // for f16; bf16 travels as i32), or one tf32 value as its f32 bits.
    auto fragment = [&](ArrayRef<Value> elems, unsigned first) -> Value {
      if (!is16)
        return rewriter.create<LLVM::BitcastOp>(loc, i32, elems[first]);
      Value v = rewriter.create<LLVM::UndefOp>(loc, pair);
      for (unsigned j = 0; j < 2; ++j)
        v = rewriter.create<LLVM::InsertElementOp>(loc, v, elems[first + j],
                                                   i32Const(rewriter, loc, j));
      return ptxType == NVVM::MMATypes::f16
                 ? v
                 : rewriter.create<LLVM::BitcastOp>(loc, i32, v).getResult();
    };
    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});

    // tf32x3: the tf32 high part of every element and the f32 remainder, as fragment inputs.
    bool split = !is16 && op.getPrecision() == tile::InputPrecision::tf32x3;
    auto splitHiLo = [&](ArrayRef<Value> elems, SmallVector<Value> &hi, SmallVector<Value> &lo) {
      for (Value x : elems) {
        Value bits = rewriter.create<LLVM::BitcastOp>(loc, i32, x);
        bits = rewriter.create<LLVM::AddOp>(loc, bits, i32Const(rewriter, loc, 0x1000));
        bits =
            rewriter.create<LLVM::AndOp>(loc, bits, i32Const(rewriter, loc, int32_t(0xffffe000)));
        Value h = rewriter.create<LLVM::BitcastOp>(loc, rewriter.getF32Type(), bits);
        hi.push_back(h);
        lo.push_back(rewriter.create<LLVM::FSubOp>(loc, x, h));
      }
    };
    SmallVector<Value> aHi, aLo, bHi, bLo;
    if (split) {
      splitHiLo(a, aHi, aLo);
      splitHiLo(b, bHi, bLo);
    }
    auto mmaStep = [&](ArrayRef<Value> aFrag, ArrayRef<Value> bFrag,
                       ArrayRef<Value> acc) -> SmallVector<Value> {
      Value result;
      if (ptxType == NVVM::MMATypes::bf16) {
        // MLIR 19's nvvm.mma.sync verifier wants f16 vectors for bf16 operands, which the
        // intrinsic does not take: bf16 goes through inline PTX.
        SmallVector<Value> operands(aFrag);
        operands.append(bFrag.begin(), bFrag.end());
        operands.append(acc.begin(), acc.end());
        result =
            nvidia::ptxAsm(rewriter, loc, resultType, operands,
                           "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                           "{$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};",
                           "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", /*sideEffects=*/false);
      } else {
        result = rewriter.create<NVVM::MmaOp>(
            loc, resultType, aFrag, bFrag, acc, ArrayRef<int64_t>{16, 8, instrK},
            /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
      }
      return unpackStruct(rewriter, loc, result);
    };

    SmallVector<Value> out(c.size());
    for (int64_t m = 0; m < mReps; ++m)
      for (int64_t n = 0; n < nReps; ++n) {
        unsigned cBase = (m * nReps + n) * 4;
        SmallVector<Value> acc(c.begin() + cBase, c.begin() + cBase + 4);
        int64_t steps = m < mUsed && n < nUsed ? kReps : 0; // padding only: c as it is
        for (int64_t k = 0; k < steps; ++k) {
          unsigned aBase = (m * kReps + k) * aPer, bBase = (n * kReps + k) * bPer;
          auto frags = [&](ArrayRef<Value> elems, unsigned base, unsigned per) {
            SmallVector<Value> frag;
            for (unsigned j = 0; j < per; j += is16 ? 2 : 1)
              frag.push_back(fragment(elems, base + j));
            return frag;
          };
          if (split) {
            acc = mmaStep(frags(aLo, aBase, aPer), frags(bHi, bBase, bPer), acc);
            acc = mmaStep(frags(aHi, aBase, aPer), frags(bLo, bBase, bPer), acc);
            acc = mmaStep(frags(aHi, aBase, aPer), frags(bHi, bBase, bPer), acc);
          } else {
            acc = mmaStep(frags(a, aBase, aPer), frags(b, bBase, bPer), acc);
          }
        }
        for (unsigned j = 0; j < 4; ++j)
          out[cBase + j] = acc[j];
      }
    rewriter.replaceOp(op,
                       packStruct(rewriter, loc, getTypeConverter()->convertType(dot->dType), out));
    return success();
  }
};

} // namespace

namespace tessel::nvidia {

Attribute getMmaDotEncoding(RankedTensorType a, RankedTensorType b, RankedTensorType d,
                            tile::InputPrecision precision, unsigned numWarps,
                            std::string &reason) {
  Type elem = a.getElementType();
  int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = b.getDimSize(1);
  int64_t instrK;
  if (elem.isF16() || elem.isBF16()) {
    instrK = 16;
  } else if (elem.isF32() && (precision == tile::InputPrecision::tf32 ||
                              precision == tile::InputPrecision::tf32x3)) {
    instrK = 8;
  } else if (elem.isF32()) {
    reason = "f32 inputs with precision = " + tile::stringifyInputPrecision(precision).str() +
             " need more than mma.sync's tf32 products (precision = tf32 or tf32x3 uses the "
             "matrix unit)";
    return {};
  } else {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "no mma.sync path for " << elem << " inputs yet (f16, bf16 and tf32 have one)";
    reason = s;
    return {};
  }
  if (!d.getElementType().isF32()) {
    reason = "mma.sync here accumulates in f32 only";
    return {};
  }
  if (M < 16 || N < 8 || K < instrK) {
    reason = "the tile (" + std::to_string(M) + ", " + std::to_string(N) + ", " +
             std::to_string(K) + ") is smaller than one mma.sync m16n8k" + std::to_string(instrK);
    return {};
  }
  auto [wm, wn] = chooseWarpsPerCTA(M, N, numWarps, 16, 8);
  return MmaEncodingAttr::get(a.getContext(), 2, {wm, wn}, {16, 8});
}

void populateDotOpToMMAPatterns(LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MMADotOpConversion>(converter, /*benefit=*/20);
}

} // namespace tessel::nvidia
