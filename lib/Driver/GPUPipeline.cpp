//===- GPUPipeline.cpp - tile IR to GPU binaries --------------------------===//
#include "tessel/Driver/GPUPipeline.h"

#include "tessel/Conversion/Passes.h"
#include "tessel/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace tessel;

void tessel::buildGPUPipeline(OpPassManager &pm, const TargetInfo &target, GPUStage from,
                              GPUStage until, bool perfFallbackError) {
  if (from == GPUStage::Tile) {
    pm.addPass(createInlinerPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addPass(createTileCombine());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addPass(createLoopInvariantCodeMotionPass());
    TileLowerBlockPointersOptions blockPointerOptions;
    blockPointerOptions.target = target.getName().str();
    pm.addPass(createTileLowerBlockPointers(blockPointerOptions));
    pm.addPass(createTileGPUPadShapes());
    TileGPUAssignLayoutsOptions layoutOptions;
    layoutOptions.threadsPerWarp = target.getWarpSize();
    pm.addPass(createTileGPUAssignLayouts(layoutOptions));
    TileGPUAccelerateMatmulOptions matmulOptions;
    matmulOptions.target = target.getName().str();
    matmulOptions.perfFallbackError = perfFallbackError;
    pm.addPass(createTileGPUAccelerateMatmul(matmulOptions));
    pm.addPass(createTileGPURemoveLayoutConversions());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    TileGPUPipelineOptions pipelineOptions;
    pipelineOptions.target = target.getName().str();
    pipelineOptions.perfFallbackError = perfFallbackError;
    pm.addPass(createTileGPUPipeline(pipelineOptions));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    target.addLayoutPasses(pm);
    pm.addPass(createTileGPUSplitDotK());
    pm.addPass(createTileGPUAllocateSharedMemory());
    pm.addPass(createTileGPUInsertBarriers());
    target.addLateLayoutPasses(pm);
  }
  if (until == GPUStage::Layout)
    return;
  ConvertTileGPUToLLVMOptions lowerOptions;
  lowerOptions.target = target.getName().str();
  pm.addPass(createConvertTileGPUToLLVM(lowerOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

LogicalResult tessel::checkTargetLimits(ModuleOp module, const TargetInfo &target) {
  const TargetLimits &limits = target.getLimits();
  WalkResult r = module.walk([&](Operation *op) {
    if (tile::isKernel(op)) {
      if (auto nw = op->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName()))
        if (unsigned(nw.getInt()) > limits.maxWarpsPerProgram()) {
          op->emitError() << "num_warps = " << nw.getInt() << " exceeds " << target.getName()
                          << "'s limit of " << limits.maxWarpsPerProgram() << " warps ("
                          << limits.maxThreadsPerProgram << " threads) per program";
          return WalkResult::interrupt();
        }
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

LogicalResult tessel::checkSharedMemory(ModuleOp module, const TargetInfo &target) {
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    auto bytes =
        func->getAttrOfType<IntegerAttr>(tile_gpu::TileGPUDialect::getSharedMemoryAttrName());
    if (bytes && unsigned(bytes.getInt()) > target.getLimits().sharedMemoryPerProgram)
      return func.emitError() << "needs " << bytes.getInt() << " bytes of shared memory; "
                              << target.getName() << " allows "
                              << target.getLimits().sharedMemoryPerProgram
                              << " per program: use fewer num_stages or smaller blocks (a "
                                 "persistent kernel's rings stay beside its epilogue's scratch)";
  }
  return success();
}

LogicalResult tessel::compileKernel(ModuleOp module, StringRef name, const TargetInfo &target,
                                    CompiledKernel &out, std::string &error) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone());
  // Keep only this kernel among the kernels. Other definitions (helpers a target emitted,
  // internal to the module) stay: the kernel may call them; unused ones are dropped by O3.
  for (auto func : llvm::make_early_inc_range(copy->getOps<LLVM::LLVMFuncOp>()))
    if (func.getSymName() != name && !func.isExternal() &&
        func->hasAttr(tile::TileDialect::getKernelAttrName()))
      func.erase();
  if (!copy->lookupSymbol(name)) {
    error = "no kernel named '" + name.str() + "'";
    return failure();
  }
  return target.compile(*copy, out, error);
}
