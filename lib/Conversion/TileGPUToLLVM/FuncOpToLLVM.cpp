//===- FuncOpToLLVM.cpp - kernels, program ids, unsupported ops -----------===//
#include "Utility.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tessel;

namespace {

constexpr unsigned kBenefit = 10;

/// func.func -> llvm.func; kernels get the target's kernel attributes, pointer arguments the
/// alignment their tile.divisibility promises.
struct FuncOpConversion : public ConvertOpToLLVMPattern<func::FuncOp> {
  FuncOpConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern(c, kBenefit), target(target) {}
  LogicalResult matchAndRewrite(func::FuncOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    if (type.getNumResults() != 0)
      return op.emitError("GPU kernels and helpers must not return values");
    TypeConverter::SignatureConversion sig(type.getNumInputs());
    SmallVector<Type> inputs;
    for (auto [i, t] : llvm::enumerate(type.getInputs())) {
      Type c = getTypeConverter()->convertType(t);
      if (!c)
        return op.emitError() << "argument #" << i << " of type " << t
                              << " cannot be passed to a GPU kernel";
      sig.addInputs(i, c);
      inputs.push_back(c);
    }
    auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()), inputs);
    auto func = rewriter.create<LLVM::LLVMFuncOp>(op.getLoc(), op.getSymName(), fnType);
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *getTypeConverter(), &sig)))
      return failure();
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      if (auto div = op.getArgAttrOfType<IntegerAttr>(i, tile::TileDialect::getDivisibilityAttrName()))
        if (isa<tile::PtrType>(type.getInput(i)) && div.getInt() > 1)
          func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                          rewriter.getI64IntegerAttr(div.getInt()));
    if (tile::isKernel(op)) {
      unsigned warps = 4;
      if (auto nw = op->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName()))
        warps = nw.getInt();
      target.setKernelAttributes(func, warps * target.getWarpSize());
      func->setAttr(tile::TileDialect::getKernelAttrName(), rewriter.getUnitAttr());
      func->setAttr(tile::TileDialect::getNumWarpsAttrName(), rewriter.getI32IntegerAttr(warps));
    }
    rewriter.eraseOp(op);
    return success();
  }
  const TargetInfo &target;
};

struct ReturnOpConversion : public ConvertOpToLLVMPattern<func::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(func::ReturnOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

template <typename OpT>
struct GridOpConversion : public ConvertOpToLLVMPattern<OpT> {
  GridOpConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<OpT>(c, kBenefit), target(target) {}
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value v = std::is_same_v<OpT, tile::ProgramIdOp>
                  ? target.getProgramId(rewriter, op.getLoc(), op.getAxis())
                  : target.getNumPrograms(rewriter, op.getLoc(), op.getAxis());
    rewriter.replaceOp(op, v);
    return success();
  }
  const TargetInfo &target;
};

/// Ops this backend does not lower yet: a located error instead of a failed legalization.
template <typename OpT>
struct NotYetSupported : public ConvertOpToLLVMPattern<OpT> {
  NotYetSupported(LLVMTypeConverter &c, StringRef what)
      : ConvertOpToLLVMPattern<OpT>(c, /*benefit=*/1), what(what.str()) {}
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor,
                                ConversionPatternRewriter &) const override {
    return op.emitError() << what;
  }
  std::string what;
};

} // namespace

namespace tessel {
void populateFuncOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                  RewritePatternSet &patterns) {
  patterns.add<FuncOpConversion, GridOpConversion<tile::ProgramIdOp>,
               GridOpConversion<tile::NumProgramsOp>>(converter, target);
  patterns.add<ReturnOpConversion>(converter, kBenefit);
  patterns.add<NotYetSupported<tile::DotOp>>(
      converter, "tile.dot is not supported by the GPU backends yet (GEMM lands with the mma "
                 "and wgmma lowering)");
  patterns.add<NotYetSupported<tile::ScanOp>>(converter,
                                              "tile.scan is not supported by the GPU backends yet");
  patterns.add<NotYetSupported<tile::MakeBlockPtrOp>>(
      converter, "block pointers are not supported by the GPU backends yet");
  patterns.add<NotYetSupported<tile::AdvanceOp>>(
      converter, "block pointers are not supported by the GPU backends yet");
  patterns.add<NotYetSupported<func::CallOp>>(
      converter, "calls must be inlined before the GPU lowering (run the inliner)");
}
} // namespace tessel
