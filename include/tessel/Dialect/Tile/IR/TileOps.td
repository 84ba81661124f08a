//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//
//
// Shapes in the descriptions: (BLOCK) is a rank-1 tile, (M, K) a rank-2 tile. "ptr-like" is a
// !tile.ptr or a tile of them; mask and other always have the pointer operand's shape.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIALECT_TILE_IR_TILEOPS_TD
#define TESSEL_DIALECT_TILE_IR_TILEOPS_TD

include "tessel/Dialect/Tile/IR/TileDialect.td"
include "tessel/Dialect/Tile/IR/TileTypes.td"
include "tessel/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Program ids
//===----------------------------------------------------------------------===//

class Tile_GridOp<string mnemonic> : Tile_Op<mnemonic, [Pure]> {
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_ProgramIdOp : Tile_GridOp<"program_id"> {
  let summary = "Index of this program instance along a grid axis (0, 1 or 2)";
  let description = [{
    ```mlir
    %pid = tile.program_id 0
    ```
    i32, in [0, tile.num_programs axis). Kernels that form element offsets from it must widen it
    (the DSL does) so that `pid * BLOCK` cannot wrap for tensors over 2^31 elements.
  }];
}

def Tile_NumProgramsOp : Tile_GridOp<"num_programs"> {
  let summary = "Number of program instances along a grid axis (0, 1 or 2)";
  let description = [{
    ```mlir
    %n = tile.num_programs 1
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Tile construction and shape ops
//===----------------------------------------------------------------------===//

def Tile_ArangeOp : Tile_Op<"arange", [Pure]> {
  let summary = "The rank-1 i32 tile [start, start+1, ..., end-1]";
  let description = [{
    ```mlir
    %cols = tile.arange 0, 128 : tensor<128xi32>     // (128)
    ```
    Requires start < end and a result of shape (end - start). Any length is legal IR; backends
    pad lengths that are not powers of two or reject them with a located error.
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs StaticShapeTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "A tile whose every element is the scalar operand";
  let description = [{
    ```mlir
    %t = tile.splat %x : f32 -> tensor<64x128xf32>             // (64, 128)
    %p = tile.splat %base : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
    ```
  }];
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "Repeat the unit dimensions of a tile";
  let description = [{
    ```mlir
    %b = tile.broadcast %row : tensor<1x128xf32> -> tensor<64x128xf32>   // (1, 128) -> (64, 128)
    ```
    Operand and result have the same rank and element type; each operand dimension equals the
    result's or is 1. Rank changes go through `tile.expand_dims` first.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "Insert a unit dimension at `axis`";
  let description = [{
    ```mlir
    %c = tile.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    ```
    `axis` is in [0, rank]; the result has rank + 1.
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "Reinterpret a tile with another shape of the same element count";
  let description = [{
    ```mlir
    %r = tile.reshape %t : tensor<4x32xf32> -> tensor<128xf32>
    ```
    Elements keep their row-major order.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "Permute the dimensions of a tile";
  let description = [{
    ```mlir
    %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    ```
    Result dimension i is operand dimension order[i].
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by a signed number of elements";
  let description = [{
    ```mlir
    %q = tile.addptr %p, %off : !tile.ptr<f32>, i64
    %qs = tile.addptr %ps, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    ```
    The offset is signed, counted in pointee elements and has the pointer operand's shape. The
    address computation is exact in 64 bits whatever the offset's width.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
                                   DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Load through pointers, with an optional mask and a value for masked-off lanes";
  let description = [{
    ```mlir
    %x = tile.load %ptrs, %mask, %other : tensor<128x!tile.ptr<f32>>
    %y = tile.load %ptrs, %mask cache = cg evict = evict_first : tensor<128x!tile.ptr<f16>>
    %s = tile.load %p : !tile.ptr<i64>
    %b = tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    ```
    The result has the pointer's shape and its pointee type. `mask` (i1, the pointer's shape)
    disables lanes: a disabled lane reads no memory and takes `other` (pointee type, pointer's
    shape), or an undefined value when `other` is absent. A load through a block pointer takes
    `boundary_check` (dimensions whose out-of-bounds lanes are not read) and `padding` (their
    value) instead of a mask. A result type that is not the pointee's follows an arrow: the
    block's tile in a GPU layout, or (tile-gpu-pad-shapes, for a block an adapter copies in
    bulk) the block's shape padded to powers of two, the padding's value undefined:
    `tile.load %bp ... : !tile.block_ptr<tensor<64x96xbf16>> -> tensor<64x128xbf16>`.
  }];
  let arguments = (ins Tile_AnyPtrLike:$ptr,
                       Optional<Tile_BoolLike>:$mask,
                       Optional<Tile_Value>:$other,
                       DefaultValuedAttr<Tile_CacheModifierAttr,
                                         "::tessel::tile::CacheModifier::none">:$cache,
                       DefaultValuedAttr<Tile_EvictionPolicyAttr,
                                         "::tessel::tile::EvictionPolicy::normal">:$evict,
                       UnitAttr:$isVolatile,
                       OptionalAttr<DenseI32ArrayAttr>:$boundaryCheck,
                       OptionalAttr<Tile_PaddingOptionAttr>:$padding);
  let results = (outs Tile_Value:$result);
  // Hints in any order; only the pointer type is written, the others follow from it.
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cache` `=` custom<EnumKeyword>($cache)
         | `evict` `=` custom<EnumKeyword>($evict)
         | `volatile` $isVolatile
         | `boundary_check` `=` custom<I32List>($boundaryCheck)
         | `padding` `=` custom<EnumKeyword>($padding))
    attr-dict `:` custom<LoadTypes>(type($ptr), ref($mask), type($mask), ref($other),
                                    type($other), type($result))
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, CArg<"::mlir::Value", "{}">:$mask,
                   CArg<"::mlir::Value", "{}">:$other)>
  ];
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Store a value through pointers, with an optional mask";
  let description = [{
    ```mlir
    tile.store %ptrs, %value, %mask : tensor<128x!tile.ptr<f32>>
    tile.store %bp, %tile boundary_check = [0] : !tile.block_ptr<tensor<64x64xf16>>
    ```
    `value` has the pointer's shape and its pointee type; lanes whose mask is false write nothing.
  }];
  let arguments = (ins Tile_AnyPtrLike:$ptr, Tile_Value:$value, Optional<Tile_BoolLike>:$mask,
                       DefaultValuedAttr<Tile_CacheModifierAttr,
                                         "::tessel::tile::CacheModifier::none">:$cache,
                       DefaultValuedAttr<Tile_EvictionPolicyAttr,
                                         "::tessel::tile::EvictionPolicy::normal">:$evict,
                       OptionalAttr<DenseI32ArrayAttr>:$boundaryCheck);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cache` `=` custom<EnumKeyword>($cache)
         | `evict` `=` custom<EnumKeyword>($evict)
         | `boundary_check` `=` custom<I32List>($boundaryCheck))
    attr-dict `:` custom<StoreTypes>(type($ptr), type($value), ref($mask), type($mask))
  }];
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, "::mlir::Value":$value,
                   CArg<"::mlir::Value", "{}">:$mask)>
  ];
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Atomic read-modify-write; returns the old values";
  let description = [{
    ```mlir
    %old = tile.atomic_rmw add, acq_rel, gpu, %ptrs, %val, %mask : tensor<128x!tile.ptr<f32>>
    ```
    Each enabled lane atomically replaces `*ptr` with `op(*ptr, val)` and returns the old value;
    a disabled lane touches no memory and returns an undefined value. `add` works on integers and
    floats; `max`/`min` compare signed integers or floats; `umax`/`umin` unsigned integers;
    `and`/`or`/`xor` integers; `xchg` any type.
  }];
  let arguments = (ins Tile_RMWKindAttr:$kind, Tile_MemSemanticAttr:$sem, Tile_MemScopeAttr:$scope,
                       Tile_PtrLike:$ptr, Tile_Value:$val, Optional<Tile_BoolLike>:$mask);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($kind) `,` custom<EnumKeyword>($sem) `,` custom<EnumKeyword>($scope) `,`
    $ptr `,` $val (`,` $mask^)?
    attr-dict `:` custom<AtomicRMWTypes>(type($ptr), type($val), ref($mask), type($mask),
                                         type($result))
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Atomic compare-and-swap; returns the old values";
  let description = [{
    ```mlir
    %old = tile.atomic_cas acq_rel, gpu, %p, %cmp, %val : !tile.ptr<i32>
    ```
    Atomically: `old = *ptr; if (old == cmp) *ptr = val;` per lane. Integer pointees of 16, 32
    or 64 bits, or f16/bf16/f32/f64 compared bitwise.
  }];
  let arguments = (ins Tile_MemSemanticAttr:$sem, Tile_MemScopeAttr:$scope,
                       Tile_PtrLike:$ptr, Tile_Value:$cmp, Tile_Value:$val);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    custom<EnumKeyword>($sem) `,` custom<EnumKeyword>($scope) `,` $ptr `,` $cmp `,` $val
    attr-dict `:` custom<AtomicCASTypes>(type($ptr), type($cmp), type($val), type($result))
  }];
  let hasVerifier = 1;
}

def Tile_BarrierOp : Tile_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Every thread of the program waits; its memory writes become visible to its reads";
  let description = [{
    ```mlir
    tile.barrier
    ```
    A program's loads see its own earlier stores to the same addresses only across a barrier:
    on a GPU the elements of one tile belong to different threads, so an element stored by one
    thread and loaded by another needs one (Triton's `tl.debug_barrier`). The GPU code waits for
    every thread of the program at the target's barrier (TargetInfo::barrier), which orders
    global and shared memory (docs/TileIR.md, memory order). The interpreter runs a
    program's ops in order, so there it does nothing.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "device_print: the values of every program, one line per element";
  let description = [{
    ```mlir
    tile.print "x = " %x, %y : tensor<128xf32>, tensor<128xi32>
    tile.print "step" %k hex : i64
    ```
    Each program prints one line per element of its operands (which share one shape; scalars
    print once): `pid (x, y, z) idx (i, j) <prefix> <values>`, floats as %f of their f32 (or
    f64) value and integers as decimal, or in hex with `hex`. Lines of different programs and
    elements come in no fixed order. Kept by every compile (as Triton's device_print).
  }];
  let arguments = (ins StrAttr:$prefix, UnitAttr:$hex, Variadic<Tile_Value>:$args);
  let assemblyFormat = [{
    $prefix ($args^)? (`hex` $hex^)? attr-dict (`:` type($args)^)?
  }];
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "device_assert: stop the kernel where a condition is false";
  let description = [{
    ```mlir
    tile.assert %in_bounds, "offset out of range" : tensor<128xi1>
    ```
    Where an element of `condition` is false the kernel stops with `message`, the op's source
    location, the program id and the element's index: the interpreter reports it and exits
    non-zero, a GPU traps after printing it. Compiled only with tesselc --debug (as Triton's
    TRITON_DEBUG): otherwise tile-strip-device-asserts removes it.
  }];
  let arguments = (ins Tile_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_MakeBlockPtrOp : Tile_Op<"make_block_ptr", [Pure, AttrSizedOperandSegments]> {
  let summary = "A block pointer into an N-D strided tensor";
  let description = [{
    ```mlir
    %bp = tile.make_block_ptr %a, [%M, %K], [%sam, %c1], [%off_m, %c0] {order = array<i32: 1, 0>}
          : !tile.ptr<f16> -> !tile.block_ptr<tensor<128x64xf16>>
    ```
    `shape` and `strides` (i64, in elements) describe the whole tensor at `base`; `offsets` (i64)
    is the block's first element; `order` lists dimensions from fastest to slowest varying. All
    three lists have the block's rank; `base` points to the block's element type.
  }];
  let arguments = (ins Tile_PtrType:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I64>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs Tile_BlockPtrType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict `:`
    qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_AdvanceOp : Tile_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Move a block pointer by per-dimension element offsets";
  let description = [{
    ```mlir
    %next = tile.advance %bp, [%c0, %c64] : !tile.block_ptr<tensor<128x64xf16>>
    ```
  }];
  let arguments = (ins Tile_BlockPtrType:$ptr, Variadic<I64>:$offsets);
  let results = (outs Tile_BlockPtrType:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix product
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a · b + c on rank-2 tiles";
  let description = [{
    ```mlir
    %d = tile.dot %a, %b, %c : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    %e = tile.dot %x, %y, %z precision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    ```
    a: (M, K), b: (K, N), c and d: (M, N). a and b share one element type: f16, bf16, fp8 or
    f32 accumulate in f32; f64 in f64; i8 in i32. `precision` applies to f32 inputs only.
  }];
  let arguments = (ins Tile_ElemTensor:$a, Tile_ElemTensor:$b, Tile_ElemTensor:$c,
                       DefaultValuedAttr<Tile_InputPrecisionAttr,
                                         "::tessel::tile::InputPrecision::ieee">:$precision);
  let results = (outs Tile_ElemTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`precision` `=` custom<EnumKeyword>($precision)^)?
    attr-dict `:` type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "Reduce tiles along one axis with a combiner region";
  let description = [{
    ```mlir
    %m = tile.reduce(%x) axis = 1 : (tensor<4x128xf32>) -> tensor<4xf32> {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.maximumf %acc, %v : f32
      tile.yield %r : f32
    }
    ```
    N operands of one shape; the combiner takes 2N scalars (the N running values, then the N new
    ones) and yields N. Results drop `axis`: a rank-1 operand reduces to a scalar. The combiner
    must be associative and commutative (the order in which lanes combine is unspecified).
    argmax is a two-operand reduce of (value, index).
  }];
  let arguments = (ins Variadic<Tile_ElemTensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Value>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis attr-dict `:` functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SingleBlock]> {
  let summary = "Inclusive prefix scan of tiles along one axis with a combiner region";
  let description = [{
    ```mlir
    %c = tile.scan(%x) axis = 0 : (tensor<128xi32>) -> tensor<128xi32> {
    ^bb0(%acc: i32, %v: i32):
      %r = arith.addi %acc, %v : i32
      tile.yield %r : i32
    }
    ```
    Results have the operands' shapes; element i along `axis` combines elements 0..i in order
    (from the end when `reverse` is set). The combiner must be associative.
  }];
  let arguments = (ins Variadic<Tile_ElemTensor>:$srcs, I32Attr:$axis, UnitAttr:$reverse);
  let results = (outs Variadic<Tile_ElemTensor>:$results);
  let regions = (region SizedRegion<1>:$combineOp);
  let assemblyFormat = [{
    `(` $srcs `)` `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:`
    functional-type($srcs, $results) $combineOp
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
                                     ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "Terminator of a reduce or scan combiner";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
}

#endif // TESSEL_DIALECT_TILE_IR_TILEOPS_TD
