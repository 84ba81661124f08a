//===- TileDialect.td - the tile dialect -------------------*- tablegen -*-===//
//
// The block-level, target-independent IR of Tessel: one program instance computes one tile.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIALECT_TILE_IR_TILEDIALECT_TD
#define TESSEL_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tessel::tile";
  let summary = "Block-level tile IR: one program instance per tile, masked loads and stores";
  let description = [{
    A kernel is a `func.func` carrying the unit attribute `tile.kernel`. It runs once per program
    instance of a 1-3 dimensional grid (`tile.program_id`). Values are scalars (integers, floats,
    `!tile.ptr<T>`) or statically shaped ranked tensors ("tiles") of them; element-wise arithmetic
    and math are upstream `arith` / `math` ops on those tensors, control flow is `scf`.

    Semantics fixed by the dialect (docs/TileIR.md has the full list):
    - a lane of `tile.load` whose mask is false and that has no `other` is undefined;
    - `tile.addptr` offsets are signed and scaled by the pointee size; pointer arithmetic is
      exact in 64 bits;
    - a reduction of a rank-1 tile yields a scalar; of a rank-N tile, a rank-(N-1) tile.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    /// Unit attribute on a func.func that makes it a kernel entry point.
    static constexpr llvm::StringLiteral getKernelAttrName() { return "tile.kernel"; }
    /// i32 attributes on a kernel: warps per program and software-pipeline depth.
    static constexpr llvm::StringLiteral getNumWarpsAttrName() { return "tile.num_warps"; }
    static constexpr llvm::StringLiteral getNumStagesAttrName() { return "tile.num_stages"; }
    /// i32 attribute on a kernel: nonzero asks the GPU lowering to give the pipelined K loop's
    /// copies their own producer warps (sm_90a: tile-nv-warp-specialize); the interpreter and
    /// other targets ignore it.
    static constexpr llvm::StringLiteral getWarpSpecializeAttrName() {
      return "tile.warp_specialize";
    }
    /// i32 attribute on a kernel: nonzero lets the GPU lowering store a tile through a block
    /// pointer with the tensor memory accelerator (sm_90a: the tile written to shared memory,
    /// then one bulk tensor copy per 128-byte column block; TargetInfo::
    /// storesBlockThroughTensorMap says where). The interpreter and other targets ignore it.
    static constexpr llvm::StringLiteral getTmaStoreAttrName() { return "tile.tma_store"; }
    /// i32 attribute on a kernel: CTAs per thread-block cluster along the grid's x (1 or 2);
    /// on sm_90a a warp-specialized kernel's cluster multicasts the TMA copies both of its
    /// programs make (tile-nv-cluster-multicast). Other targets and the interpreter ignore it.
    static constexpr llvm::StringLiteral getClusterSizeAttrName() { return "tile.cluster_size"; }
    /// i32 attribute the GPU lowering sets on a warp-specialized kernel: the warps it added
    /// after the num_warps that the layouts cover. A launch runs num_warps + producer_warps.
    static constexpr llvm::StringLiteral getProducerWarpsAttrName() {
      return "tile.producer_warps";
    }
    /// Bool attribute on the module: false keeps every floating-point multiply and add of the
    /// GPU code rounded on its own; absent or true lets LLVM contract a * b + c into one fma
    /// (Triton's enable_fp_fusion and its default; tesselc --fp-fusion). The interpreter
    /// rounds each op either way.
    static constexpr llvm::StringLiteral getFpFusionAttrName() { return "tile.fp_fusion"; }
    /// The module's tile.fp_fusion: true unless set to false.
    static bool isFpFusionEnabled(::mlir::Operation *module);
    /// String attribute on the module: "cuda:sm_90a", "hip:gfx942", "interpreter", ...
    static constexpr llvm::StringLiteral getTargetAttrName() { return "tile.target"; }
    /// i32 attribute on a kernel argument: a pointer's address is a multiple of this many
    /// bytes, an integer's value a multiple of this number. A power of two; the runtime checks
    /// it at launch, the compiler uses it to vectorize.
    static constexpr llvm::StringLiteral getDivisibilityAttrName() { return "tile.divisibility"; }
    /// i64 attribute on an integer kernel argument: the value is promised to equal this one
    /// (a specialized twin, checked at launch); the body no longer reads the argument.
    static constexpr llvm::StringLiteral getEqualToAttrName() { return "tile.equal_to"; }
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TESSEL_DIALECT_TILE_IR_TILEDIALECT_TD
