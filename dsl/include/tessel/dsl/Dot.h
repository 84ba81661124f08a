//===- Dot.h - matrix product of tiles --------------------------*- C++ -*-===//
#ifndef TESSEL_DSL_DOT_H
#define TESSEL_DSL_DOT_H

#include "tessel/dsl/Tile.h"

namespace tessel::dsl {

/// Accumulator type of dot for inputs of type T: f32 (f16, bf16, fp8, f32), f64, i32 (i8).
template <DTypeTag T> using dot_acc_t = tag_of_t<dotAccType(T::dtype)>;

/// a (M, K) · b (K, N) -> (M, N), accumulated from zero in dot_acc_t<T>. a and b have one
/// element type; `precision` applies to f32 inputs (ieee: exact products; tf32; tf32x3).
template <DTypeTag T, DTypeTag U>
Tile<dot_acc_t<T>> dot(const Tile<T> &a, const Tile<U> &b, Precision precision = Precision::ieee,
                       TESSEL_DSL_LOC) {
  return Tile<dot_acc_t<T>>(
      detail::dot(a.raw(), b.raw(), nullptr, precision, detail::Loc::from(loc)));
}

/// a (M, K) · b (K, N) + acc (M, N): `acc = dot(a, b, acc)` in a loop over K.
template <DTypeTag T, DTypeTag U, DTypeTag A>
Tile<A> dot(const Tile<T> &a, const Tile<U> &b, const Tile<A> &acc,
            Precision precision = Precision::ieee, TESSEL_DSL_LOC) {
  return Tile<A>(detail::dot(a.raw(), b.raw(), &acc.raw(), precision, detail::Loc::from(loc)));
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_DOT_H
