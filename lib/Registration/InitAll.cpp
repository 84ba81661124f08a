//===- InitAll.cpp - registration of dialects and passes ------------------===//
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"
#include "tessel/Transforms/Passes.h"
#include "tessel/Analysis/AxisInfo.h"
#include "tessel/Conversion/TileGPUToLLVM/TileGPUToLLVM.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/Passes.h"

void tessel::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, tile_gpu::TileGPUDialect, mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::func::FuncDialect, mlir::cf::ControlFlowDialect,
                  mlir::gpu::GPUDialect, mlir::vector::VectorDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::ROCDL::ROCDLDialect>();
  mlir::func::registerInlinerExtension(registry);
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
  tessel::registerConvertTileGPUToLLVMPass();
  tessel::registerTestAxisInfoPass();
}
