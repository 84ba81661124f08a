//===- ElementTypeEnum.h - MLIR element types as a dtype enum ---*- C++ -*-===//
//
// Three enums name tile IR's element types: the DSL's dsl::DType, the harness's harness::DType
// and the interpreter's Elem. They spell the scalar types alike, so one table maps an MLIR type
// to any of them. Header-only on builtin types: it adds no library dependency.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIALECT_TILE_IR_ELEMENTTYPEENUM_H
#define TESSEL_DIALECT_TILE_IR_ELEMENTTYPEENUM_H

#include "mlir/IR/Types.h"

#include <optional>

namespace tessel::tile {

/// The enumerator of `E` named after the scalar type `t`: i1, i8, i16, i32, i64, f16, bf16,
/// f32, f64, and f8e4m3 (e4m3fn) and f8e5m2 where `E` has them; nullopt for any other type
/// (index included: callers that run it as i64 say so).
template <class E> std::optional<E> elementTypeEnum(mlir::Type t) {
  if (t.isInteger(1))
    return E::i1;
  if (t.isInteger(8))
    return E::i8;
  if (t.isInteger(16))
    return E::i16;
  if (t.isInteger(32))
    return E::i32;
  if (t.isInteger(64))
    return E::i64;
  if (t.isF16())
    return E::f16;
  if (t.isBF16())
    return E::bf16;
  if (t.isF32())
    return E::f32;
  if (t.isF64())
    return E::f64;
  if constexpr (requires { E::f8e4m3; }) {
    if (t.isFloat8E4M3FN())
      return E::f8e4m3;
    if (t.isFloat8E5M2())
      return E::f8e5m2;
  }
  return std::nullopt;
}

} // namespace tessel::tile

#endif // TESSEL_DIALECT_TILE_IR_ELEMENTTYPEENUM_H
