//===- MathToOCML.cpp - scalar math on AMD GPUs ---------------------------===//
//
// Transcendental functions call the ROCm device library's ocml (__ocml_<name>_f32 for f32,
// _f64 for f64), linked into the module only when called (DeviceLibs.cpp); f16 and bf16
// compute in f32 and round once, as on NVIDIA, so both vendors give the same precision.
// arith.remf is ocml's fmod (__ocml_fmod_f32, _f64): the exact remainder (case C19), not LLVM's
// frem expansion through an approximate quotient.
// sqrt, fma, abs, floor, ceil go through MathToLLVM's intrinsics, which the AMDGPU backend
// selects to single instructions (with the correctly rounded sqrt expansion).
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::amd;

namespace {

template <typename OpT> struct MathToOCML : public ConvertOpToLLVMPattern<OpT> {
  MathToOCML(LLVMTypeConverter &c, StringRef name)
      : ConvertOpToLLVMPattern<OpT>(c, /*benefit=*/10), name(name.str()) {}

  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<FloatType>(op.getType()))
      return failure();
    return lowerFloatThroughF32(op, adaptor.getOperands(), rewriter, "AMD",
                                [&](ArrayRef<Value> args, Type t) {
                                  std::string fn = "__ocml_" + name + (t.isF32() ? "_f32" : "_f64");
                                  return callDeviceFunction(rewriter, op, fn, t, args);
                                });
  }
  std::string name;
};

} // namespace

void AMDTargetInfo::populateMathPatterns(LLVMTypeConverter &converter,
                                         RewritePatternSet &patterns) const {
  patterns.add<MathToOCML<math::ExpOp>>(converter, "exp");
  patterns.add<MathToOCML<math::Exp2Op>>(converter, "exp2");
  patterns.add<MathToOCML<math::LogOp>>(converter, "log");
  patterns.add<MathToOCML<math::Log2Op>>(converter, "log2");
  patterns.add<MathToOCML<math::Log10Op>>(converter, "log10");
  patterns.add<MathToOCML<math::Log1pOp>>(converter, "log1p");
  patterns.add<MathToOCML<math::ExpM1Op>>(converter, "expm1");
  patterns.add<MathToOCML<math::RsqrtOp>>(converter, "rsqrt");
  patterns.add<MathToOCML<math::TanhOp>>(converter, "tanh");
  patterns.add<MathToOCML<math::ErfOp>>(converter, "erf");
  patterns.add<MathToOCML<math::SinOp>>(converter, "sin");
  patterns.add<MathToOCML<math::CosOp>>(converter, "cos");
  patterns.add<MathToOCML<math::TanOp>>(converter, "tan");
  patterns.add<MathToOCML<math::AtanOp>>(converter, "atan");
  patterns.add<MathToOCML<math::Atan2Op>>(converter, "atan2");
  patterns.add<MathToOCML<math::PowFOp>>(converter, "pow");
  patterns.add<MathToOCML<arith::RemFOp>>(converter, "fmod");
}
