//===- TileAttrs.td - tile dialect enums -------------------*- tablegen -*-===//
#ifndef TESSEL_DIALECT_TILE_IR_TILEATTRS_TD
#define TESSEL_DIALECT_TILE_IR_TILEATTRS_TD

include "tessel/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/EnumAttr.td"

class Tile_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<Tile_Dialect, info, mnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

// PTX ld/st cache operators; targets without them ignore the hint.
def Tile_CacheModifier : I32EnumAttr<"CacheModifier", "cache operator of a load or store", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"ca", 1>, I32EnumAttrCase<"cg", 2>,
    I32EnumAttrCase<"cs", 3>, I32EnumAttrCase<"cv", 4>, I32EnumAttrCase<"wb", 5>,
    I32EnumAttrCase<"wt", 6>]> {
  let cppNamespace = "::tessel::tile";
  let genSpecializedAttr = 0;
}
def Tile_CacheModifierAttr : Tile_EnumAttr<Tile_CacheModifier, "cache">;

def Tile_EvictionPolicy : I32EnumAttr<"EvictionPolicy", "L2 eviction priority", [
    I32EnumAttrCase<"normal", 0>, I32EnumAttrCase<"evict_first", 1>,
    I32EnumAttrCase<"evict_last", 2>]> {
  let cppNamespace = "::tessel::tile";
  let genSpecializedAttr = 0;
}
def Tile_EvictionPolicyAttr : Tile_EnumAttr<Tile_EvictionPolicy, "evict">;

def Tile_MemSemantic : I32EnumAttr<"MemSemantic", "memory ordering of an atomic", [
    I32EnumAttrCase<"relaxed", 0>, I32EnumAttrCase<"acquire", 1>,
    I32EnumAttrCase<"release", 2>, I32EnumAttrCase<"acq_rel", 3>]> {
  let cppNamespace = "::tessel::tile";
  let genSpecializedAttr = 0;
}
def Tile_MemSemanticAttr : Tile_EnumAttr<Tile_MemSemantic, "sem">;

def Tile_MemScope : I32EnumAttr<"MemScope", "scope an atomic is coherent at", [
    I32EnumAttrCase<"gpu", 0>, I32EnumAttrCase<"cta", 1>, I32EnumAttrCase<"sys", 2>]> {
  let cppNamespace = "::tessel::tile";
  let genSpecializedAttr = 0;
}
def Tile_MemScopeAttr : Tile_EnumAttr<Tile_MemScope, "scope">;

// add covers integers and floats; max/min are signed on integers, umax/umin unsigned.
def Tile_RMWKind : I32EnumAttr<"RMWKind", "read-modify-write operation", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"max", 1>, I32EnumAttrCase<"min", 2>,
    I32EnumAttrCase<"umax", 3>, I32EnumAttrCase<"umin", 4>, I32EnumAttrCase<"And", 5, "and">,
    I32EnumAttrCase<"Or", 6, "or">, I32EnumAttrCase<"Xor", 7, "xor">, I32EnumAttrCase<"xchg", 8>]> {
  let cppNamespace = "::tessel::tile";
  let genSpecializedAttr = 0;
}
def Tile_RMWKindAttr : Tile_EnumAttr<Tile_RMWKind, "rmw">;

def Tile_PaddingOption : I32EnumAttr<"PaddingOption",
    "value of out-of-bounds lanes of a block-pointer load", [
    I32EnumAttrCase<"zero", 0>, I32EnumAttrCase<"nan", 1>]> {
  let cppNamespace = "::tessel::tile";
  let genSpecializedAttr = 0;
}
def Tile_PaddingOptionAttr : Tile_EnumAttr<Tile_PaddingOption, "padding">;

// ieee: exact f32 products; tf32: one tf32 product (10-bit mantissa); tf32x3: three tf32
// products recovering f32 accuracy (the split of Henry et al., "Leveraging the bfloat16
// Artificial Intelligence Datatype For Higher-Precision Computations", 2019).
def Tile_InputPrecision : I32EnumAttr<"InputPrecision", "precision of f32 dot inputs", [
    I32EnumAttrCase<"ieee", 0>, I32EnumAttrCase<"tf32", 1>, I32EnumAttrCase<"tf32x3", 2>]> {
  let cppNamespace = "::tessel::tile";
  let genSpecializedAttr = 0;
}
def Tile_InputPrecisionAttr : Tile_EnumAttr<Tile_InputPrecision, "precision">;

#endif // TESSEL_DIALECT_TILE_IR_TILEATTRS_TD
