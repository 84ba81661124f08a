//===- TileTypes.td - tile dialect types and constraints ---*- tablegen -*-===//
#ifndef TESSEL_DIALECT_TILE_IR_TILETYPES_TD
#define TESSEL_DIALECT_TILE_IR_TILETYPES_TD

include "tessel/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PtrType : Tile_Type<"Ptr", "ptr"> {
  let summary = "Pointer to an element in an address space";
  let description = [{
    `!tile.ptr<f16>` points into global memory (address space 1, the default);
    `!tile.ptr<f32, 3>` into shared memory (LDS). The pointee is an integer or float type.
    Pointer arithmetic (`tile.addptr`) is in elements of the pointee.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType,
                        DefaultValuedParameter<"unsigned", "1">:$addressSpace);
  let assemblyFormat = "`<` $pointeeType (`,` $addressSpace^)? `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        CArg<"unsigned", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

def Tile_BlockPtrType : Tile_Type<"BlockPtr", "block_ptr"> {
  let summary = "Structured pointer to a 2-D (or N-D) block of a strided tensor";
  let description = [{
    `!tile.block_ptr<tensor<64x32xf16>>` is made by `tile.make_block_ptr` from a base pointer, the
    tensor's shape and strides, and the block's offsets; `tile.advance` moves it; `tile.load` and
    `tile.store` on it take a boundary check instead of a mask.
  }];
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::RankedTensorType":$blockType), [{
      return $_get(blockType.getContext(), blockType);
    }]>
  ];
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

// Element types a tile may hold. fp8 is accepted by the IR; backends decide what they lower.
def Tile_Float : AnyTypeOf<[F16, BF16, F32, F64, F8E4M3FN, F8E5M2], "floating-point">;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "signless integer">;
def Tile_Elem : AnyTypeOf<[Tile_Float, Tile_Int], "tile element">;
// Tiles have static shapes: the DSL traces concrete block sizes, and shape verifiers compare
// and multiply dimensions.
def Tile_ElemTensor : StaticShapeTensorOf<[Tile_Float, Tile_Int]>;
def Tile_PtrTensor : StaticShapeTensorOf<[Tile_PtrType]>;
def Tile_IntTensor : StaticShapeTensorOf<[Tile_Int]>;
def Tile_BoolTensor : StaticShapeTensorOf<[I1]>;

def Tile_PtrLike : AnyTypeOf<[Tile_PtrType, Tile_PtrTensor], "pointer or tile of pointers">;
def Tile_AnyPtrLike : AnyTypeOf<[Tile_PtrType, Tile_PtrTensor, Tile_BlockPtrType],
                                "pointer, tile of pointers or block pointer">;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor], "integer or tile of integers">;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_BoolTensor], "i1 or tile of i1">;
def Tile_Value : AnyTypeOf<[Tile_Elem, Tile_ElemTensor], "scalar or statically shaped tile">;
def Tile_Scalar : AnyTypeOf<[Tile_Elem, Tile_PtrType], "scalar">;
def Tile_Tensor : AnyTypeOf<[Tile_ElemTensor, Tile_PtrTensor],
                             "statically shaped tile of numbers or pointers">;

#endif // TESSEL_DIALECT_TILE_IR_TILETYPES_TD
