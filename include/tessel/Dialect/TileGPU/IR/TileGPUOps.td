//===- TileGPUOps.td - layout IR shared by the GPU backends -*- tablegen -*-===//
//
// The tile_gpu dialect holds what every GPU backend needs between the target-independent tile IR
// and the LLVM dialect: distributed layout encodings on tensor types (which thread holds which
// element) and the ops that move data between layouts. Its lowering is shared; per-chip-family
// details go through the target interface (include/tessel/Target/TargetInfo.h).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TESSEL_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGPU_Dialect : Dialect {
  let name = "tile_gpu";
  let cppNamespace = "::tessel::tile_gpu";
  let summary = "Distributed layouts of tiles over the threads of a GPU program";
  let description = [{
    A tensor type in this IR carries an encoding that maps its elements to threads:

    - `#tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1],
      order = [1, 0]}>`: each thread holds sizePerThread contiguous elements per dimension, the
      warp's lanes and the program's warps tile the tensor in `order` (fastest dimension first);
      the resulting CTA tile repeats to cover larger tensors and wraps (threads hold replicas)
      over smaller ones. The layout of Triton's BlockedEncodingAttr.
    - `#tile_gpu.slice<{dim = 1, parent = #blocked}>`: the layout of a tensor obtained by removing
      dimension `dim` from a tensor in layout `parent` (a reduction result; an expand_dims operand).
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// i32 attribute on a kernel set by the lowering: dynamic shared memory in bytes.
    static constexpr llvm::StringLiteral getSharedMemoryAttrName() { return "tile_gpu.shared"; }
    /// i32 attribute on a kernel: lanes per warp (32 on NVIDIA, 64 on CDNA).
    static constexpr llvm::StringLiteral getThreadsPerWarpAttrName() {
      return "tile_gpu.threads_per_warp";
    }
  }];
}

def TileGPU_BlockedEncodingAttr : AttrDef<TileGPU_Dialect, "BlockedEncoding"> {
  let mnemonic = "blocked";
  let summary = "Blocked distribution of a tensor over lanes and warps";
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,` `threadsPerWarp` `=` `[` $threadsPerWarp `]`
    `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    /// Elements one CTA covers along `dim` before repeating: sizePerThread * lanes * warps.
    unsigned getCTATile(unsigned dim) const;
    unsigned getNumWarps() const;
    unsigned getWarpSize() const;
  }];
}

def TileGPU_SliceEncodingAttr : AttrDef<TileGPU_Dialect, "SliceEncoding"> {
  let mnemonic = "slice";
  let summary = "Layout of a tensor with dimension `dim` of a parent layout removed";
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` `dim` `=` $dim `,` `parent` `=` $parent `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_ConvertLayoutOp : Op<TileGPU_Dialect, "convert_layout", [Pure]> {
  let summary = "Move a tile from one distributed layout to another";
  let description = [{
    ```mlir
    %y = tile_gpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
    ```
    Same shape and element type; only the encoding changes. Lowered through shared memory.
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TESSEL_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
