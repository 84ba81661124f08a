//===- TargetInfo.h - the per-chip-family adapter interface -----*- C++ -*-===//
//
// The shared lowering (lib/Conversion/TileGPUToLLVM) calls this interface for everything that
// differs between chip families: thread and program ids, cross-lane shuffles, barriers, global
// memory accesses with predicates and cache hints, the math library, kernel attributes,
// resource limits, and the translation of the final LLVM module to a binary. One
// implementation per family lives under third_party/<vendor>/ and registers itself in the target
// registry (TargetRegistry.h), which picks it from the module's `tile.target` ("cuda:sm_90a",
// "hip:gfx942", ...).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TARGET_TARGETINFO_H
#define TESSEL_TARGET_TARGETINFO_H

#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <optional>
#include <string>

namespace mlir {
class ConversionTarget;
class OpPassManager;
class LLVMTypeConverter;
class RewritePatternSet;
namespace LLVM {
class LLVMFuncOp;
}
namespace func {
class FuncOp;
}
} // namespace mlir

namespace tessel {

struct SharedMemoryPlan;
struct AxisInfoMap;

/// Resource limits of one chip, in the units the vendor documents. The compiler rejects kernels
/// that exceed them; the autotuner prunes configs with them before compiling.
struct TargetLimits {
  unsigned warpSize = 32;                ///< lanes per warp / wavefront
  unsigned maxThreadsPerProgram = 1024;  ///< threads per CTA / workgroup
  unsigned sharedMemoryPerProgram = 0;   ///< bytes of shared memory / LDS a program may use
  unsigned sharedMemoryWithoutOptIn = 0; ///< bytes usable without an opt-in (48 KB on NVIDIA)
  unsigned maxRegistersPerThread = 255;  ///< 32-bit registers (VGPRs on AMD)
  unsigned maxWarpsPerProgram() const { return maxThreadsPerProgram / warpSize; }
};

/// Cache and eviction hints of one access.
struct MemoryHints {
  tile::CacheModifier cache = tile::CacheModifier::none;
  tile::EvictionPolicy evict = tile::EvictionPolicy::normal;
  bool isVolatile = false;
};

/// What a kernel's binary uses per program, with one meaning on every target: the variant
/// JSON's `resources` record (docs/Artifacts.md). A field the backend cannot know (no assembler
/// ran, or the chip family has no such notion) stays empty and is written as null.
struct KernelResources {
  /// Registers per thread: NVIDIA's 32-bit registers; AMD's VGPRs per lane, AGPRs included
  /// (the code object's `.vgpr_count` is already the unified total on gfx90a and later).
  std::optional<int64_t> registers;
  /// Shared memory (NVIDIA) or LDS (AMD) per program in bytes, static and dynamic together.
  std::optional<int64_t> sharedBytes;
  /// Bytes per thread that register allocation spills to local (NVIDIA) or scratch (AMD)
  /// memory.
  std::optional<int64_t> spillBytes;
  /// Programs per SM the binary was built to fit at least (NVIDIA `.minnctapersm`), when the
  /// compiler asked for a number.
  std::optional<int64_t> occupancyHint;
};

/// What the backend produced for one kernel: text stages and the binary, plus numbers for the
/// metadata (registers, spills, shared memory, ...).
struct CompiledKernel {
  std::string llvmIR;     ///< optimized LLVM IR
  std::string assembly;   ///< PTX or AMDGCN
  std::string binary;     ///< cubin or hsaco; empty when the assembler is missing
  std::string binaryKind; ///< "cubin", "hsaco"
  std::string binaryNote; ///< why `binary` is empty, if it is
  /// The assembler's own counters under its own names (ptxas: registers, spill_stores, ...;
  /// AMD: vgpr_count, lds_bytes, ...), for tessel-translate's bin-info.
  llvm::StringMap<int64_t> resources;
  KernelResources usage; ///< the portable record the variant JSON carries
  /// Backend metadata of the binary that a launch needs, as a JSON object (AMD: the code
  /// object's kernel metadata with the kernel-argument layout); empty when there is none.
  std::string binaryMetadata;
};

/// Module attribute: the tensor maps (TMA descriptors) the kernel reads, which the runtime
/// builds before each launch and passes by value, 128 bytes each, in one extra trailing kernel
/// parameter (`.param .align 64 .b8 [128 * maps]`, a grid constant). An array of dictionaries, one
/// per map:
///   {base = <argument index>, element = "bf16", dims = [...], strides = [...],
///    box = [...], swizzle = <bytes>}
/// dims (innermost first) and strides (elements, of dims 1..rank-1) are each {arg = <index>} or
/// {value = <constant>}; box is the copied box (innermost first); swizzle is 32, 64 or 128.
inline constexpr llvm::StringLiteral kTensorMapsAttrName = "tessel.tensor_maps";

class TargetInfo {
public:
  virtual ~TargetInfo();

  /// "cuda:sm_90a", ...
  llvm::StringRef getName() const { return name; }
  virtual const TargetLimits &getLimits() const = 0;
  unsigned getWarpSize() const { return getLimits().warpSize; }
  /// Address space of shared memory (LDS) pointers.
  virtual unsigned getSharedAddressSpace() const { return 3; }

  //===--- lowering hooks (all values i32 unless stated) -------------------===//
  /// Linear thread index within the program, in [0, num_warps * warp size).
  virtual mlir::Value getThreadId(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  virtual mlir::Value getProgramId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const = 0;
  virtual mlir::Value getNumPrograms(mlir::OpBuilder &b, mlir::Location loc,
                                     unsigned axis) const = 0;
  /// Value of `v` (an i32 or f32) in the lane whose id is this lane's id xor `laneMask`.
  virtual mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                                 unsigned laneMask) const = 0;
  /// Barrier of all threads of the program, ordering shared-memory accesses.
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// Loads a value of `type` (a scalar or a vector of at most 16 bytes) through a global
  /// pointer. `pred` (i1, may be null) disables the access; the result is then zero (every bit
  /// clear), which the lowering of a load whose `other` is zero relies on, or, where
  /// fillsDisabledLoads() and `fill` is given, `fill` repeated over the access (`fill`: one
  /// element's bits, a width that divides the access's): a constant `other` without a select.
  virtual mlir::Value loadGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                                 mlir::Type type, mlir::Value pred, unsigned alignment,
                                 const MemoryHints &hints,
                                 std::optional<llvm::APInt> fill = std::nullopt) const = 0;
  /// Whether loadGlobal honours `fill`.
  virtual bool fillsDisabledLoads() const { return false; }
  /// Stores `value` (scalar or vector of at most 16 bytes) unless `pred` (may be null) is false.
  virtual void storeGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                           mlir::Value value, mlir::Value pred, unsigned alignment,
                           const MemoryHints &hints) const = 0;
  /// Whether atomicRMW supports `kind` on elements of type `elem`.
  virtual bool supportsAtomic(tile::RMWKind kind, mlir::Type elem) const = 0;
  /// Atomic read-modify-write of one scalar; returns the old value. `pred` may be null.
  virtual mlir::Value atomicRMW(mlir::OpBuilder &b, mlir::Location loc, tile::RMWKind kind,
                                mlir::Value ptr, mlir::Value value, mlir::Value pred,
                                tile::MemSemantic sem, tile::MemScope scope) const = 0;
  /// Atomic compare-and-swap of one scalar unless `pred` (may be null) is false; returns the
  /// old value (undefined when disabled).
  virtual mlir::Value atomicCAS(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                                mlir::Value cmp, mlir::Value value, mlir::Value pred,
                                tile::MemSemantic sem, tile::MemScope scope) const = 0;
  /// device_print: this thread prints `format` (C printf, arguments as C varargs pass them:
  /// f64 for floats, i32 or i64 for integers) with `args` where `pred` (i1; null: always)
  /// holds. The default reports at `loc` that the target cannot print yet and fails.
  virtual mlir::LogicalResult printf(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef format,
                                     mlir::ValueRange args, mlir::Value pred) const;
  /// device_assert: the kernel stops where `failed` (i1) holds, through the target's assertion
  /// failure where it has one (so that the launch fails with the driver's assertion error and
  /// the driver names `message`, the file and the line of `loc`), else a trap; the located
  /// message with the program id has been printed. The default reports at `loc` that the target
  /// cannot stop a kernel yet and fails.
  virtual mlir::LogicalResult abortIf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value failed,
                                      llvm::StringRef message) const;
  /// Patterns lowering scalar `math` ops (to the vendor library or fast instructions).
  virtual void populateMathPatterns(mlir::LLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns) const = 0;
  /// Marks `func` as a kernel launched with `numThreads` threads per program.
  virtual void setKernelAttributes(mlir::LLVM::LLVMFuncOp func, unsigned numThreads) const = 0;
  /// Sets the attributes of `func`'s arguments that the adapter's own argument markers on
  /// `source` (the kernel before the lowering) call for; NVIDIA: the tensor maps passed by
  /// value as a grid constant.
  virtual void setKernelArgumentAttributes(mlir::func::FuncOp source,
                                           mlir::LLVM::LLVMFuncOp func) const;

  //===--- matrix units ------------------------------------------------------===//
  /// The result encoding a `tile.dot` with these operand and result types takes on this target:
  /// the first legal entry of the adapter's ordered candidate table (sm_90a: wgmma; sm_80+:
  /// mma.sync m16n8k16; CDNA: MFMA 32x32, 16x16). Null when no matrix unit fits; `reason` then
  /// says why (dtype, tile too small, ...) and the dot falls back to FMA in a blocked layout.
  /// When a later, slower entry is chosen because the first one does not fit (sm_90a's dot on
  /// mma.sync), `reason` says why and the result is not null.
  virtual mlir::Attribute getDotEncoding(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                         mlir::RankedTensorType d, tile::InputPrecision precision,
                                         unsigned numWarps, std::string &reason) const {
    reason = "this target has no matrix unit";
    return {};
  }
  /// Whether the adapter lowers tile_gpu.async_copy_global_to_local / async_commit_group /
  /// async_wait.
  virtual bool supportsAsyncCopy() const { return false; }
  /// How tile-gpu-pipeline stages a tile loaded as `loaded` (pointers in a blocked layout,
  /// `vectorBytes` per contiguous access) into shared memory for the dot operand `operand`,
  /// num_stages - 1 iterations ahead:
  ///   AsyncCopy  global -> shared without registers (cp.async on sm_80+; needs
  ///              supportsAsyncCopy);
  ///   Registers  a load into registers at the top of the iteration, stored to the ring after
  ///              the dot (AMD's global -> LDS staging): the registers hold the next tile while
  ///              the matrix units work;
  ///   TensorMap  a bulk tensor copy of a block pointer's box (the adapter's), completing on a
  ///              barrier per ring stage: the loads loadsBlockThroughTensorMap kept; the
  ///              pipeline uses the three tensor-map hooks below for them;
  ///   None       the load stays synchronous.
  enum class OperandStaging { None, AsyncCopy, Registers, TensorMap };
  virtual OperandStaging getDotOperandStaging(mlir::RankedTensorType loaded,
                                              mlir::RankedTensorType operand,
                                              unsigned vectorBytes) const {
    return OperandStaging::None;
  }
  /// Ring stages a pipelined dot operand needs beyond the pipeline's own: the matrix unit may
  /// still read earlier stages when the next copies are issued (NVIDIA wgmma, which keeps one
  /// group in flight across iterations: 1).
  virtual unsigned getDotOperandExtraStages(mlir::RankedTensorType operand) const { return 0; }
  /// The #tile_gpu.shared placement of one ring stage of a pipelined dot operand; null: the
  /// swizzled placement along the loaded tile's order (getSwizzledSharedEncoding).
  virtual mlir::Attribute getDotOperandSharedEncoding(mlir::RankedTensorType loaded,
                                                      mlir::RankedTensorType operand) const {
    return {};
  }
  /// Whether `load`, through a block pointer, stays one for the adapter's bulk tensor copies
  /// (a copy engine fed by descriptors): tile-lower-block-pointers then leaves it a
  /// block-pointer load, through a
  /// make_block_ptr of the block's current base, shape, strides and offsets right before it,
  /// instead of lowering it to a masked load of a pointer tile. The adapter must then lower
  /// every such load that reaches it.
  virtual bool loadsBlockThroughTensorMap(tile::LoadOp load) const { return false; }
  /// Whether `store`, through a block pointer, stays one for the adapter's bulk tensor copy
  /// out of shared memory (kept as loadsBlockThroughTensorMap keeps loads); the adapter must
  /// then lower every such store that reaches it.
  virtual bool storesBlockThroughTensorMap(tile::StoreOp store) const { return false; }
  /// One TensorMap-staged copy: the block (its make_block_ptr) into the ring stage `dst`.
  struct TensorMapCopy {
    tile::MakeBlockPtrOp block;
    mlir::Value dst;
  };
  /// The #tile_gpu.shared placement of the stage a TensorMap-staged load (kept by
  /// loadsBlockThroughTensorMap, through its make_block_ptr) is copied into.
  virtual mlir::Attribute getTensorMapSharedEncoding(tile::LoadOp load) const { return {}; }
  /// A ring of `stages` barriers in shared memory, initialized, for TensorMap staging (one
  /// per stage; the copies of one iteration all complete on their stage's barrier). Null when
  /// the adapter has no such copies.
  virtual mlir::Value createCopyBarriers(mlir::OpBuilder &b, mlir::Location loc,
                                         unsigned stages) const {
    return {};
  }
  /// Issues `copies` when `pred` (i1), completing on `barrier` (one stage of the ring).
  virtual void issueTensorMapCopies(mlir::OpBuilder &b, mlir::Location loc,
                                    llvm::ArrayRef<TensorMapCopy> copies, mlir::Value barrier,
                                    mlir::Value pred) const {}
  /// Waits, in every thread, for the copies of `barrier` (one stage of the ring) in its phase
  /// `phase` (i32: how many times the ring went round before).
  virtual void waitTensorMapCopies(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier,
                                   mlir::Value phase) const {}
  /// Adds the adapter's own layout passes to the GPU pipeline, after tile-gpu-pipeline and
  /// before shared-memory allocation (NVIDIA sm_90a: dots onto wgmma).
  virtual void addLayoutPasses(mlir::OpPassManager &pm) const {}
  /// Adds the target's passes that run after tile-gpu-insert-barriers (warp specialization).
  virtual void addLateLayoutPasses(mlir::OpPassManager &pm) const {}
  /// The adapter's own conversion patterns (matrix-unit dots, async copies), added to the shared
  /// ones by the lowering pass.
  virtual void populateConversionPatterns(mlir::LLVMTypeConverter &converter,
                                          const AxisInfoMap &axis, SharedMemoryPlan &shared,
                                          mlir::RewritePatternSet &patterns) const {}
  /// Marks the dialects the adapter's patterns and hooks create (NVVM, ROCDL, ...) legal in the
  /// lowering pass's conversions.
  virtual void configureConversionTarget(mlir::ConversionTarget &target) const = 0;

  //===--- code generation ---------------------------------------------------===//
  /// Translates a module in the LLVM dialect (one kernel) to LLVM IR, links the vendor math
  /// library if the kernel calls it, optimizes at O3 and emits assembly and, when the vendor
  /// assembler is available, the binary.
  virtual mlir::LogicalResult compile(mlir::ModuleOp llvmModule, CompiledKernel &out,
                                      std::string &error) const = 0;

protected:
  explicit TargetInfo(std::string name) : name(std::move(name)) {}

private:
  std::string name;
};

} // namespace tessel

#endif // TESSEL_TARGET_TARGETINFO_H
