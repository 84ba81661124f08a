//===- MathToLibdevice.cpp - scalar math on NVIDIA GPUs -------------------===//
//
// exp and exp2 on f32 use the SFU's ex2.approx.ftz (exp(x) = 2^(x * log2(e)), as Triton; .ftz
// as CUTLASS's fast exp2): a result below 2^-126 (exp(x) for x < -87.3) is +0, and a subnormal
// input reads as 0 (2^x rounds to 1 either way). Without .ftz, ptxas wraps every ex2 in a range
// check and two multiplies, four instructions for one (the cross-entropy kernel: 184 FSETP in
// its SASS, 24 with .ftz; 8192x128256 bf16 at BLOCK 8192 / 16 warps 683.6 -> 678.6 us on an H100,
// benchmarks/gpu/results/2026-12-06-h100-s60);
// other transcendental functions call libdevice (__nv_<name>f for f32, __nv_<name> for f64),
// linked into the module only when called. f16 and bf16 compute in f32 and round once.
// sqrt, fma, abs, floor, ceil go through MathToLLVM's intrinsics, which NVPTX selects.
// arith.remf is libdevice's fmod (__nv_fmodf, __nv_fmod): the exact remainder, as C's fmod and
// the interpreter give (case C19); LLVM's frem lowering is x - trunc(x / y) * y with an
// approximate quotient, far off for large x / y (1e10 % 3 gave 256 on an H200).
// f32 division is div.full.f32 (Triton's `/`), at most 2 ulp from the IEEE quotient.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "PTXAsm.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::nvidia;

namespace {

template <typename OpT> struct MathToNVIDIA : public ConvertOpToLLVMPattern<OpT> {
  MathToNVIDIA(LLVMTypeConverter &c, StringRef name, bool fastExp2 = false, double scale = 1.0)
      : ConvertOpToLLVMPattern<OpT>(c, /*benefit=*/10), name(name.str()), fastExp2(fastExp2),
        scale(scale) {}

  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<FloatType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    return lowerFloatThroughF32(
        op, adaptor.getOperands(), rewriter, "NVIDIA", [&](ArrayRef<Value> args, Type t) -> Value {
          if (fastExp2 && t.isF32()) {
            Value x = args[0];
            if (scale != 1.0)
              x = rewriter.create<LLVM::FMulOp>(
                  loc, x,
                  rewriter.create<LLVM::ConstantOp>(loc, t, rewriter.getF32FloatAttr(scale)));
            return ptxAsm(rewriter, loc, t, {x}, "ex2.approx.ftz.f32 $0, $1;", "=f,f",
                          /*sideEffects=*/false);
          }
          return callDeviceFunction(rewriter, op, "__nv_" + name + (t.isF32() ? "f" : ""), t, args);
        });
  }
  std::string name;
  bool fastExp2;
  double scale;
};

/// f32 division as PTX div.full.f32 (at most 2 ulp), as Triton lowers `/`: the IEEE div.rn.f32
/// is a dozen instructions and dominates element-wise normalizations such as softmax's
/// `num / sum`. f64 and narrower types keep LLVM's IEEE division.
struct FastDivF32 : public ConvertOpToLLVMPattern<arith::DivFOp> {
  FastDivF32(LLVMTypeConverter &c) : ConvertOpToLLVMPattern(c, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOp(op, ptxAsm(rewriter, op.getLoc(), op.getType(),
                                  {adaptor.getLhs(), adaptor.getRhs()}, "div.full.f32 $0, $1, $2;",
                                  "=f,f,f", /*sideEffects=*/false));
    return success();
  }
};

} // namespace

void NVIDIATargetInfo::populateMathPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns) const {
  patterns.add<MathToNVIDIA<math::ExpOp>>(converter, "exp", /*fastExp2=*/true, 1.4426950408889634);
  patterns.add<MathToNVIDIA<math::Exp2Op>>(converter, "exp2", /*fastExp2=*/true);
  patterns.add<MathToNVIDIA<math::LogOp>>(converter, "log");
  patterns.add<MathToNVIDIA<math::Log2Op>>(converter, "log2");
  patterns.add<MathToNVIDIA<math::Log10Op>>(converter, "log10");
  patterns.add<MathToNVIDIA<math::Log1pOp>>(converter, "log1p");
  patterns.add<MathToNVIDIA<math::ExpM1Op>>(converter, "expm1");
  patterns.add<MathToNVIDIA<math::RsqrtOp>>(converter, "rsqrt");
  patterns.add<MathToNVIDIA<math::TanhOp>>(converter, "tanh");
  patterns.add<MathToNVIDIA<math::ErfOp>>(converter, "erf");
  patterns.add<MathToNVIDIA<math::SinOp>>(converter, "sin");
  patterns.add<MathToNVIDIA<math::CosOp>>(converter, "cos");
  patterns.add<MathToNVIDIA<math::TanOp>>(converter, "tan");
  patterns.add<MathToNVIDIA<math::AtanOp>>(converter, "atan");
  patterns.add<MathToNVIDIA<math::Atan2Op>>(converter, "atan2");
  patterns.add<MathToNVIDIA<math::PowFOp>>(converter, "pow");
  patterns.add<MathToNVIDIA<arith::RemFOp>>(converter, "fmod");
  patterns.add<FastDivF32>(converter);
}
