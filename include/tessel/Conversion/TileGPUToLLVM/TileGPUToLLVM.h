//===- TileGPUToLLVM.h - shared lowering of layout IR to LLVM ---*- C++ -*-===//
//
// Lowers tile IR whose tiles carry tile_gpu layouts to the LLVM dialect. A tile becomes an
// LLVM struct of the elements the executing thread holds (ThreadElems order); scalars stay
// scalars (every thread computes them). Everything chip-specific goes through TargetInfo.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_CONVERSION_TILEGPUTOLLVM_TILEGPUTOLLVM_H
#define TESSEL_CONVERSION_TILEGPUTOLLVM_TILEGPUTOLLVM_H

#include "tessel/Dialect/TileGPU/IR/TileGPU.h"
#include "tessel/Target/TargetInfo.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tessel {

/// Types: !tile.ptr<T, as> -> !llvm.ptr<as>; tensor<..., #layout> -> struct of the thread's
/// elements; everything else as LLVMTypeConverter.
class TileGPUTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TileGPUTypeConverter(mlir::MLIRContext *ctx);
};

/// Bytes of dynamic shared memory each kernel needs, filled by the patterns.
struct SharedMemoryPlan {
  llvm::StringMap<unsigned> bytesPerKernel;
  /// Reserves `bytes` of shared memory from offset 0 inside `kernelName`.
  void reserve(llvm::StringRef kernelName, unsigned bytes);
  /// Reserves `bytes` of scratch for `op` (one with tile_gpu::mayUseScratch) and returns the
  /// byte offset where it starts: past the buffers live at `op`
  /// (tile-gpu-allocate-shared-memory's tile_gpu.scratch_offset; 0 without it), first fit among
  /// the held buffers' bytes after it (tile_gpu.scratch_held). Scratch users
  /// bracket their use with barriers.
  unsigned reserveScratch(mlir::Operation *op, unsigned bytes);
};

/// Address space of shared memory (NVIDIA) and LDS (AMD) in LLVM.
inline constexpr unsigned kSharedAddressSpace = 3;

/// Name of the extern shared-memory array every kernel's scratch is carved from.
inline constexpr llvm::StringLiteral kSharedMemoryGlobal = "tessel_smem";

/// Reports (at the op) what the GPU lowering cannot handle yet, before any rewriting.
mlir::LogicalResult checkLowerable(mlir::ModuleOp module, const TargetInfo &target);

} // namespace tessel

#endif // TESSEL_CONVERSION_TILEGPUTOLLVM_TILEGPUTOLLVM_H
