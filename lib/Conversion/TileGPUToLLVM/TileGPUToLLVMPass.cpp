//===- TileGPUToLLVMPass.cpp - the convert-tile-gpu-to-llvm pass ----------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "tessel/Analysis/AxisInfo.h"
#include "tessel/Conversion/Passes.h"
#include "tessel/Target/TargetRegistry.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Pass/PassManager.h"

namespace tessel {
#define GEN_PASS_DEF_CONVERTTILEGPUTOLLVM
#include "tessel/Conversion/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;

namespace tessel {
const AxisInfoAnalysis *AxisInfoMap::lookup(Operation *op) const {
  auto it = perFunc.find(enclosingKernelName(op));
  return it == perFunc.end() ? nullptr : it->second.get();
}
void populateElementwiseOpToLLVMPatterns(TileGPUTypeConverter &, const TargetInfo &,
                                         const AxisInfoMap &, RewritePatternSet &);
void populateLoadStoreOpToLLVMPatterns(TileGPUTypeConverter &, const TargetInfo &,
                                       const AxisInfoMap &, SharedMemoryPlan &,
                                       RewritePatternSet &);
void populateScanOpToLLVMPatterns(LLVMTypeConverter &, const TargetInfo &, SharedMemoryPlan &,
                                  RewritePatternSet &);
void populateReduceOpToLLVMPatterns(TileGPUTypeConverter &, const TargetInfo &, SharedMemoryPlan &,
                                    RewritePatternSet &);
void populateConvertLayoutOpToLLVMPatterns(TileGPUTypeConverter &, const TargetInfo &,
                                           SharedMemoryPlan &, RewritePatternSet &);
void populateFuncOpToLLVMPatterns(TileGPUTypeConverter &, const TargetInfo &, RewritePatternSet &);
void populateDotOpToLLVMPatterns(TileGPUTypeConverter &, const TargetInfo &, SharedMemoryPlan &,
                                 RewritePatternSet &);
void populateSharedMemoryOpToLLVMPatterns(TileGPUTypeConverter &, const TargetInfo &,
                                          SharedMemoryPlan &, RewritePatternSet &);
void populateDebugOpToLLVMPatterns(LLVMTypeConverter &, const TargetInfo &, RewritePatternSet &);
} // namespace tessel

namespace {

struct ConvertTileGPUToLLVMPass
    : public tessel::impl::ConvertTileGPUToLLVMBase<ConvertTileGPUToLLVMPass> {
  using ConvertTileGPUToLLVMBase::ConvertTileGPUToLLVMBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    ConvertTileGPUToLLVMBase::getDependentDialects(registry);
    // The target is known only in runOnOperation: declare every adapter's dialects.
    insertTargetDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::unique_ptr<TargetInfo> info = createTargetInfoFor(module, target);
    if (!info)
      return signalPassFailure();

    if (failed(checkLowerable(module, *info)))
      return signalPassFailure();

    // The extern shared-memory array every kernel's scratch lives in; 1024-byte aligned for the
    // placements a matrix unit or TMA swizzles by absolute address (MemDescType::getAlignment).
    OpBuilder b(module.getBodyRegion());
    if (!module.lookupSymbol(kSharedMemoryGlobal))
      b.create<LLVM::GlobalOp>(module.getLoc(), LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                               /*isConstant=*/false, LLVM::Linkage::External, kSharedMemoryGlobal,
                               Attribute(), /*alignment=*/1024, info->getSharedAddressSpace());

    AxisInfoMap axis;
    for (auto func : module.getOps<func::FuncOp>())
      axis.perFunc[func.getSymName()] = std::make_unique<AxisInfoAnalysis>(func);

    TileGPUTypeConverter converter(ctx);
    SharedMemoryPlan shared;
    {
      RewritePatternSet patterns(ctx);
      populateElementwiseOpToLLVMPatterns(converter, *info, axis, patterns);
      populateLoadStoreOpToLLVMPatterns(converter, *info, axis, shared, patterns);
      populateReduceOpToLLVMPatterns(converter, *info, shared, patterns);
      populateScanOpToLLVMPatterns(converter, *info, shared, patterns);
      populateConvertLayoutOpToLLVMPatterns(converter, *info, shared, patterns);
      populateFuncOpToLLVMPatterns(converter, *info, patterns);
      populateDotOpToLLVMPatterns(converter, *info, shared, patterns);
      populateSharedMemoryOpToLLVMPatterns(converter, *info, shared, patterns);
      populateDebugOpToLLVMPatterns(converter, *info, patterns);
      info->populateConversionPatterns(converter, axis, shared, patterns);
      info->populateMathPatterns(converter, patterns);
      arith::populateArithToLLVMConversionPatterns(converter, patterns);
      populateMathToLLVMConversionPatterns(converter, patterns);
      ConversionTarget ct(*ctx);
      ct.addLegalDialect<LLVM::LLVMDialect>();
      info->configureConversionTarget(ct);
      ct.addIllegalDialect<tile::TileDialect, tile_gpu::TileGPUDialect, arith::ArithDialect,
                           math::MathDialect, func::FuncDialect>();
      ct.addLegalOp<ModuleOp>();
      scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, ct);
      if (failed(applyPartialConversion(module, ct, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(ctx);
      populateSCFToControlFlowConversionPatterns(patterns);
      cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
      // scf -> cf creates arith ops for induction variables.
      arith::populateArithToLLVMConversionPatterns(converter, patterns);
      ConversionTarget ct(*ctx);
      ct.addLegalDialect<LLVM::LLVMDialect>();
      info->configureConversionTarget(ct);
      ct.addIllegalDialect<scf::SCFDialect, cf::ControlFlowDialect, arith::ArithDialect>();
      ct.addLegalOp<ModuleOp>();
      if (failed(applyPartialConversion(module, ct, std::move(patterns))))
        return signalPassFailure();
    }
    OpPassManager reconcile(ModuleOp::getOperationName());
    reconcile.addPass(createReconcileUnrealizedCastsPass());
    if (failed(runPipeline(reconcile, module)))
      return signalPassFailure();
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(tile::TileDialect::getKernelAttrName()))
        func->setAttr(tile_gpu::TileGPUDialect::getSharedMemoryAttrName(),
                      b.getI32IntegerAttr(shared.bytesPerKernel.lookup(func.getSymName())));
  }
};

} // namespace
