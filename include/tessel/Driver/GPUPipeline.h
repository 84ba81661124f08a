//===- GPUPipeline.h - tile IR to GPU binaries ------------------*- C++ -*-===//
//
// The pass pipeline from verified tile IR to the LLVM dialect for a GPU target, and the code
// generation of each kernel to assembly and a binary. tesselc and the tests call these.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DRIVER_GPUPIPELINE_H
#define TESSEL_DRIVER_GPUPIPELINE_H

#include "tessel/Target/TargetInfo.h"

#include "mlir/Pass/PassManager.h"

namespace tessel {

/// Points of the GPU pipeline: verified tile IR, layout IR, the LLVM dialect.
enum class GPUStage { Tile, Layout, LLVMDialect };

/// Adds the passes that take a module from `from` to `until`.
/// `perfFallbackError`: a tile.dot that no matrix unit takes is an error, not a remark.
void buildGPUPipeline(mlir::OpPassManager &pm, const TargetInfo &target,
                      GPUStage from = GPUStage::Tile, GPUStage until = GPUStage::LLVMDialect,
                      bool perfFallbackError = false);

/// Checks what the IR asks of the target against its limits before lowering: num_warps within
/// the thread limit, block shapes that are powers of two. Errors name the op's location.
mlir::LogicalResult checkTargetLimits(mlir::ModuleOp module, const TargetInfo &target);

/// Checks the shared memory each lowered kernel needs against the target's limit.
mlir::LogicalResult checkSharedMemory(mlir::ModuleOp llvmModule, const TargetInfo &target);

/// Compiles the kernel `name` of a module in the LLVM dialect: a copy holding only that kernel
/// (and the declarations it uses) goes through TargetInfo::compile.
mlir::LogicalResult compileKernel(mlir::ModuleOp llvmModule, llvm::StringRef name,
                                  const TargetInfo &target, CompiledKernel &out,
                                  std::string &error);

} // namespace tessel

#endif // TESSEL_DRIVER_GPUPIPELINE_H
