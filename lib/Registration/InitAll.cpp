//===- InitAll.cpp - registration of dialects, passes and targets ---------===//
//
// The one place that names the adapters: everything else finds them in the target registry.
//
//===----------------------------------------------------------------------===//
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/InitAllTargets.h"

#include "tessel/AMD/AMD.h"
#include "tessel/Conversion/Passes.h"
#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"
#include "tessel/NVIDIA/NVIDIA.h"
#include "tessel/NVIDIA/Transforms/Passes.h"
#include "tessel/Target/TargetRegistry.h"
#include "tessel/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/Passes.h"

void tessel::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, tile_gpu::TileGPUDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect, mlir::func::FuncDialect,
                  mlir::cf::ControlFlowDialect, mlir::gpu::GPUDialect, mlir::vector::VectorDialect,
                  mlir::LLVM::LLVMDialect>();
  mlir::func::registerInlinerExtension(registry);
  // The adapters' dialects, so that their lowered IR parses.
  registerAllTargets();
  insertTargetDialects(registry);
}

void tessel::loadKernelDialects(mlir::MLIRContext &context) {
  context.loadDialect<tile::TileDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::func::FuncDialect>();
}

void tessel::registerAllTargets() {
  nvidia::registerNVIDIATarget();
  amd::registerAMDTarget();
}

void tessel::registerAllPasses() {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerLoopInvariantCodeMotionPass();
  mlir::registerSCCPPass();
  mlir::registerSymbolDCEPass();
  mlir::registerStripDebugInfoPass();
  tessel::registerTesselPasses();
  tessel::registerTesselConversionPasses();
  tessel::tile_nv::registerTileNVPasses();
}
