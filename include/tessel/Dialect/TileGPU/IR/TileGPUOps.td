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
include "mlir/IR/BuiltinTypeInterfaces.td"

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
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// i32 attribute on a kernel set by the lowering: dynamic shared memory in bytes.
    static constexpr llvm::StringLiteral getSharedMemoryAttrName() { return "tile_gpu.shared"; }
    /// i32 attribute set by tile-gpu-allocate-shared-memory on an op whose lowering may use
    /// scratch shared memory (see mayUseScratch): bytes from the start of the kernel's shared
    /// memory past every buffer live at the op, where its scratch begins.
    static constexpr llvm::StringLiteral getScratchOffsetAttrName() {
      return "tile_gpu.scratch_offset";
    }
    /// i32 array attribute set beside scratch_offset: [lo, hi) byte pairs past it, sorted, of
    /// buffers no longer live at the op whose bytes still hold hardware state (a barrier not
    /// yet invalidated); the lowering places the op's scratch clear of them.
    static constexpr llvm::StringLiteral getScratchHeldAttrName() {
      return "tile_gpu.scratch_held";
    }
    /// i64 array attribute set by tile-gpu-pad-shapes on an op whose results it padded to
    /// powers of two: their shape before padding (elements past it are padding).
    static constexpr llvm::StringLiteral getLogicalShapeAttrName() {
      return "tile_gpu.logical_shape";
    }
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


//===----------------------------------------------------------------------===//
// Matrix-unit layouts
//===----------------------------------------------------------------------===//

def TileGPU_MmaEncodingAttr : AttrDef<TileGPU_Dialect, "MmaEncoding"> {
  let mnemonic = "mma";
  let summary = "Accumulator layout of NVIDIA's warp-level mma.sync (version 2: m16n8)";
  let description = [{
    `#tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`: the
    (M, N) accumulator of mma.sync.m16n8kK. Warp w works on rows 16 * (w % wm) + ... and
    columns 8 * (w / wm) + ...; the CTA tile (16 * wm, 8 * wn) repeats over the tensor. Inside one
    16x8 instruction tile lane l holds (l / 4, 2 * (l % 4) + {0, 1}) and the same 8 rows below:
    registers c0 c1 c2 c3 of the PTX fragment. Per-thread registers are ordered
    (repetition along M, repetition along N, c0..c3), the slowest first.

    Version 3 is Hopper's warpgroup-level wgmma.mma_async.m64nNk16 (sm_90a):
    `#tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256]}>`. Four
    consecutive warps form a warpgroup that computes 64 rows x N columns (N = instrShape[1], a
    multiple of 8 up to 256) from operands in shared memory; warp w of the warpgroup holds rows
    16 w .. 16 w + 15 with the m16n8 fragment of version 2 repeated every 8 columns, so the
    registers map to elements exactly as version 2 with the same warpsPerCTA. warpsPerCTA is
    [a multiple of 4, 1]: warpgroups stack along M.
  }];
  let parameters = (ins "unsigned":$versionMajor, ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `{` `versionMajor` `=` $versionMajor `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
    `instrShape` `=` `[` $instrShape `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarps() const { return getWarpsPerCTA()[0] * getWarpsPerCTA()[1]; }
  }];
}

def TileGPU_MfmaEncodingAttr : AttrDef<TileGPU_Dialect, "MfmaEncoding"> {
  let mnemonic = "mfma";
  let summary = "Accumulator layout of AMD's MFMA instructions (CDNA2/CDNA3)";
  let description = [{
    `#tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 2]}>`: the (M, N) accumulator of
    v_mfma_f32_32x32x8 (nonKDim 32) or v_mfma_f32_16x16x16 (nonKDim 16) on 64-lane wavefronts.
    In a 32x32 block lane l holds column l % 32 and rows 8 * i + 4 * (l / 32) + j (i < 4, j < 4);
    in a 16x16 block column l % 16 and rows 4 * (l / 16) + j (j < 4). Wave w covers block
    (w % wm, w / wm); the CTA tile repeats over the tensor. Registers are ordered (repetition
    along M, repetition along N, then the instruction's own registers).
  }];
  let parameters = (ins "unsigned":$nonKDim, ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let assemblyFormat = [{
    `<` `{` `nonKDim` `=` $nonKDim `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarps() const { return getWarpsPerCTA()[0] * getWarpsPerCTA()[1]; }
  }];
}

def TileGPU_WmmaEncodingAttr : AttrDef<TileGPU_Dialect, "WmmaEncoding"> {
  let mnemonic = "wmma";
  let summary = "Accumulator layout of AMD's WMMA instructions (RDNA3)";
  let description = [{
    `#tile_gpu.wmma<{warpsPerCTA = [2, 2]}>`: the (M, N) accumulator of
    v_wmma_f32_16x16x16_f16 / _bf16 on 32-lane wavefronts (RDNA3 ISA guide, "Wave Matrix
    Multiply Accumulate"). In a 16x16 block lane l holds column l % 16 and rows
    2 * i + l / 16 (i < 8): the instruction's eight f32 destination registers. Wave w covers
    block (w % wm, w / wm); the CTA tile (16 * wm, 16 * wn) repeats over the tensor. Registers
    are ordered (repetition along M, repetition along N, then the instruction's own registers).
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$warpsPerCTA);
  let assemblyFormat = [{
    `<` `{` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `}` `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getNumWarps() const { return getWarpsPerCTA()[0] * getWarpsPerCTA()[1]; }
  }];
}

def TileGPU_DotOperandEncodingAttr : AttrDef<TileGPU_Dialect, "DotOperandEncoding"> {
  let mnemonic = "dot_op";
  let summary = "Layout of a dot operand, tied to the layout of the dot's result";
  let description = [{
    `#tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`: operand A (opIdx 0, (M, K)) or
    B (opIdx 1, (K, N)) of a dot whose result has layout `parent`, held the way the parent's
    instruction reads it. `kWidth`: consecutive K elements per register group (2 for 16-bit
    mma.sync, where a 32-bit register holds two halves; 1 for tf32; 4 for 16-bit MFMA; 16 for
    WMMA, whose lane holds the whole K of its row or column, lanes 16-31 a copy of lanes 0-15).
    A is replicated over the warps along N and B over the warps along M.
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent, "unsigned":$kWidth);
  let assemblyFormat = [{
    `<` `{` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,` `kWidth` `=` $kWidth `}` `>`
  }];
  let genVerifyDecl = 1;
}

def TileGPU_SharedEncodingAttr : AttrDef<TileGPU_Dialect, "SharedEncoding"> {
  let mnemonic = "shared";
  let summary = "Swizzled (or padded) placement of a 2-D tile in shared memory / LDS";
  let description = [{
    `#tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>`: rows
    along `order[1]` of the contiguous dimension `order[0]`. Element (r, c) sits at
    r * (rowLength + pad) + ((c / vec) ^ ((r / perPhase) % maxPhase)) * vec + c % vec: groups of
    `vec` elements (16 bytes) are XOR-swizzled by the row's phase so that the 8 rows one
    ldmatrix (or one column of vectorized accesses) touches fall in 8 distinct 16-byte bank
    groups. `pad` (elements, AMD LDS) skews rows instead; maxPhase = 1 turns swizzling off.

    `blockCols` (optional): the contiguous dimension is cut into blocks of that many elements,
    stored one after another, each a (rows x blockCols) tile swizzled as above. With blockCols
    * element bytes = 128, vec * element bytes = 16, perPhase = 1 and maxPhase = 8 this is the
    128-byte swizzle that Hopper's wgmma and TMA apply in hardware (64 and 32 bytes: perPhase
    2 and 4, maxPhase 4 and 2): element (r, c) sits at
    (c / B) * rows * B + r * B + (((c % B) / vec) ^ ((r / perPhase) % maxPhase)) * vec + c % vec
    with B = blockCols. The hardware swizzles absolute shared-memory addresses, so such a buffer
    starts at a multiple of 1024 bytes (getSharedAlignment).
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order, "unsigned":$pad,
                        DefaultValuedParameter<"unsigned", "0">:$blockCols);
  let genVerifyDecl = 1;
  let assemblyFormat = [{
    `<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=` $maxPhase `,`
    `order` `=` `[` $order `]` `,` `pad` `=` $pad (`,` `blockCols` `=` $blockCols^)? `}` `>`
  }];
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                     "::llvm::ArrayRef<unsigned>":$order, "unsigned":$pad), [{
      return $_get($_ctxt, vec, perPhase, maxPhase, order, pad, 0);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Elements per block of the contiguous dimension of a tile whose contiguous extent is
    /// `cols`: blockCols, or the whole row when there are no blocks.
    unsigned getBlockColsFor(int64_t cols) const {
      return getBlockCols() ? getBlockCols() : unsigned(cols);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Shared-memory buffers
//===----------------------------------------------------------------------===//

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "A tile (or a ring of tiles) in shared memory";
  let description = [{
    `!tile_gpu.memdesc<3x128x64xf16, #shared>`: a buffer in shared memory / LDS. A leading
    dimension beyond the encoding's rank is the stage index of a multi-buffered ring
    (num_stages copies of a (128, 64) tile). Lowered to a shared-memory pointer; shape,
    element type and placement are static. Verified: every dimension positive, an integer or
    float element type, a #tile_gpu.shared placement whose order covers the trailing
    dimensions (the rank, or the rank minus the stage dimension).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding);
  let assemblyFormat = "`<` custom<Shape>($shape, $elementType) `,` $encoding `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of one buffer of the whole shape.
    int64_t getSizeInBytes() const;
    /// Bytes the buffer's start is a multiple of: 1024 for a placement a matrix unit or TMA
    /// swizzles in hardware (blockCols set: the XOR pattern repeats every 8 rows of 128 bytes
    /// of absolute address), else 16.
    int64_t getAlignment() const;
  }];
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


def TileGPU_LocalAllocOp : Op<TileGPU_Dialect, "local_alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "A buffer in shared memory";
  let description = [{
    ```mlir
    %ring = tile_gpu.local_alloc : !tile_gpu.memdesc<3x128x64xf16, #shared>
    ```
    `offset` (bytes from the start of the kernel's shared memory) is set by
    tile-gpu-allocate-shared-memory from the buffer's live range.
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$offset);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileGPU_MemDescIndexOp : Op<TileGPU_Dialect, "memdesc_index", [Pure]> {
  let summary = "One stage of a multi-buffered ring";
  let description = [{
    ```mlir
    %slot = tile_gpu.memdesc_index %ring[%i] : !tile_gpu.memdesc<3x128x64xf16, #shared>
              -> !tile_gpu.memdesc<128x64xf16, #shared>
    ```
    `index` (i32) must be in [0, number of stages).
  }];
  let arguments = (ins TileGPU_MemDescType:$src, I32:$index);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_MemDescSubviewOp : Op<TileGPU_Dialect, "memdesc_subview", [Pure]> {
  let summary = "A static sub-tile of a shared-memory tile";
  let description = [{
    ```mlir
    %k1 = tile_gpu.memdesc_subview %slot[0, 16] : !tile_gpu.memdesc<128x64xf16, #shared>
            -> !tile_gpu.memdesc<128x16xf16, #shared>
    ```
    The elements [offsets, offsets + result shape) of `src`, same element type and placement.
    The view keeps the source's swizzle: an element's address is the source's address of
    (offsets + index), so the lowering looks through views to the buffer they start from.
    tile-gpu-split-dot-k reads a dot's operands K slice by K slice through these views.
  }];
  let arguments = (ins TileGPU_MemDescType:$src, DenseI64ArrayAttr:$offsets);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $src `` $offsets attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_LocalLoadOp : Op<TileGPU_Dialect, "local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "Read a shared-memory tile into registers in a distributed layout";
  let description = [{
    ```mlir
    %a = tile_gpu.local_load %slot : !tile_gpu.memdesc<128x64xf16, #shared>
           -> tensor<128x64xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    ```
    Into a dot operand layout of mma.sync this is ldmatrix on NVIDIA.
  }];
  let arguments = (ins TileGPU_MemDescType:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_LocalStoreOp : Op<TileGPU_Dialect, "local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Write a tile held in registers to a shared-memory buffer";
  let arguments = (ins AnyRankedTensor:$src, TileGPU_MemDescType:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyGlobalToLocalOp
    : Op<TileGPU_Dialect, "async_copy_global_to_local", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Start copying a tile from global to shared memory without registers";
  let description = [{
    ```mlir
    tile_gpu.async_copy_global_to_local %ptrs, %slot mask %m
        : tensor<128x64x!tile.ptr<f16>, #blocked> -> !tile_gpu.memdesc<128x64xf16, #shared>
    ```
    Each thread copies the elements its pointer layout gives it (cp.async on NVIDIA, 16 bytes
    at a time where contiguity allows; a synchronous load + LDS store on AMD). Masked-off
    elements become zero. The copy is complete after a later `async_wait` that leaves fewer
    groups pending than were committed since, plus a barrier for other threads' elements.
  }];
  let arguments = (ins AnyRankedTensor:$ptr, TileGPU_MemDescType:$dst, Optional<AnyRankedTensor>:$mask);
  let assemblyFormat = [{
    $ptr `,` $dst (`mask` $mask^)? attr-dict `:` type($ptr) `->` qualified(type($dst))
    (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : Op<TileGPU_Dialect, "async_commit_group"> {
  let summary = "Close the group of async copies issued since the last commit";
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : Op<TileGPU_Dialect, "async_wait"> {
  let summary = "Wait until at most `num` committed async-copy groups are pending";
  let arguments = (ins I32Attr:$num);
  let assemblyFormat = "attr-dict";
}

def TileGPU_BarrierOp : Op<TileGPU_Dialect, "barrier"> {
  let summary = "Barrier of all threads of the program; orders shared-memory accesses";
  let description = [{
    Inserted by tile-gpu-insert-barriers between a write to a buffer and a later read of it
    (and between a read and a later overwrite) by other threads.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TESSEL_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
