//===- Math.h - element-wise math, where, maximum, minimum ------*- C++ -*-===//
//
// Element-wise functions of tiles (and scalars). Transcendentals need float tiles: compute
// in f32 and convert back for f16/bf16 data (`exp(cast<f32>(x))`). Two-operand functions
// broadcast and promote like the operators (docs/DSL.md, "Promotion").
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_MATH_H
#define TESSEL_DSL_MATH_H

#include "tessel/dsl/Tile.h"

namespace tessel::dsl {

#define TESSEL_DSL_UNARY(NAME, DOC)                                                                \
  /** DOC */                                                                                       \
  template <DTypeTag T> Tile<T> NAME(const Tile<T> &x, TESSEL_DSL_LOC) {                           \
    return Tile<T>(detail::unary(detail::UnaryOp::NAME, x.raw(), detail::Loc::from(loc)));         \
  }
TESSEL_DSL_UNARY(exp, "e^x (floats).")
TESSEL_DSL_UNARY(exp2, "2^x (floats).")
TESSEL_DSL_UNARY(log, "Natural logarithm (floats).")
TESSEL_DSL_UNARY(log2, "Base-2 logarithm (floats).")
TESSEL_DSL_UNARY(sqrt, "Square root (floats).")
TESSEL_DSL_UNARY(rsqrt, "1 / sqrt(x) (floats).")
TESSEL_DSL_UNARY(abs, "|x| (floats and integers).")
TESSEL_DSL_UNARY(sin, "Sine, radians (floats).")
TESSEL_DSL_UNARY(cos, "Cosine, radians (floats).")
TESSEL_DSL_UNARY(tanh, "Hyperbolic tangent (floats).")
TESSEL_DSL_UNARY(sigmoid, "1 / (1 + e^-x) (floats).")
TESSEL_DSL_UNARY(erf, "Error function (floats).")
TESSEL_DSL_UNARY(floor, "Round toward -inf (floats).")
TESSEL_DSL_UNARY(ceil, "Round toward +inf (floats).")
#undef TESSEL_DSL_UNARY

#define TESSEL_DSL_BINARY_FN(NAME, KIND, DOC)                                                      \
  /** DOC */                                                                                       \
  template <DTypeTag T, DTypeTag U>                                                                \
  Tile<promote_t<T, U>> NAME(const Tile<T> &a, const Tile<U> &b, TESSEL_DSL_LOC) {                 \
    return Tile<promote_t<T, U>>(                                                                  \
        detail::binary(detail::BinaryOp::KIND, a.raw(), b.raw(), detail::Loc::from(loc)));         \
  }                                                                                                \
  template <DTypeTag T, Literal L>                                                                 \
  Tile<promote_t<T, literal_t<T, L>>> NAME(const Tile<T> &a, L b, TESSEL_DSL_LOC) {                \
    detail::Loc l = detail::Loc::from(loc);                                                        \
    return Tile<promote_t<T, literal_t<T, L>>>(detail::binary(                                     \
        detail::BinaryOp::KIND, a.raw(), detail::literal(b, literal_t<T, L>::dtype, l), l));       \
  }                                                                                                \
  template <DTypeTag T, Literal L>                                                                 \
  Tile<promote_t<T, literal_t<T, L>>> NAME(L a, const Tile<T> &b, TESSEL_DSL_LOC) {                \
    detail::Loc l = detail::Loc::from(loc);                                                        \
    return Tile<promote_t<T, literal_t<T, L>>>(detail::binary(                                     \
        detail::BinaryOp::KIND, detail::literal(a, literal_t<T, L>::dtype, l), b.raw(), l));       \
  }
TESSEL_DSL_BINARY_FN(maximum, maximum,
                     "Element-wise maximum; NaN if either is NaN (floats), signed (integers).")
TESSEL_DSL_BINARY_FN(minimum, minimum,
                     "Element-wise minimum; NaN if either is NaN (floats), signed (integers).")
TESSEL_DSL_BINARY_FN(pow, pow,
                     "a^b (floats, math.powf: C's powf, e.g. pow(-8, 1/3) is NaN; f16/bf16 "
                     "compute in f32 on the GPUs).")
TESSEL_DSL_BINARY_FN(umulhi, umulhi,
                     "High half of the unsigned product of two integers of the same width "
                     "(arith.mului_extended; Triton's umulhi, as Philox uses it): for i32, "
                     "(uint64(a) * uint64(b)) >> 32.")
#undef TESSEL_DSL_BINARY_FN

/// x limited to [lo, hi]: minimum(maximum(x, lo), hi), so a NaN in x (or in a bound) gives NaN,
/// as maximum / minimum order them. lo and hi are tiles or literals; for lo > hi the result is
/// hi.
template <DTypeTag T, class Lo, class Hi>
auto clamp(const Tile<T> &x, const Lo &lo, const Hi &hi, TESSEL_DSL_LOC) {
  return minimum(maximum(x, lo, loc), hi, loc);
}

/// Ceiling division of integers, `(a + b - 1) / b` (for b > 0): `cdiv(n_cols, BLOCK)`.
inline Tile<i64> cdiv(detail::Operand a, detail::Operand b, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue x = a.value(DType::i64), y = b.value(DType::i64);
  detail::RawValue one = detail::constInt(1, DType::i64, l);
  detail::RawValue num =
      detail::binary(detail::BinaryOp::sub, detail::binary(detail::BinaryOp::add, x, y, l), one, l);
  detail::RawValue q = detail::binary(detail::BinaryOp::div, num, y, l);
  return Tile<i64>(q.dtype == DType::i64 ? q : detail::cast(q, DType::i64, false, l));
}

/// a * b + c in one rounding (floats).
template <DTypeTag T, DTypeTag U, DTypeTag V>
Tile<promote_t<promote_t<T, U>, V>> fma(const Tile<T> &a, const Tile<U> &b, const Tile<V> &c,
                                        TESSEL_DSL_LOC) {
  return Tile<promote_t<promote_t<T, U>, V>>(
      detail::fma(a.raw(), b.raw(), c.raw(), detail::Loc::from(loc)));
}

/// `cond ? a : b` per element (arith.select); cond, a and b broadcast together, a and b
/// promote. Masked-off lanes of a load are replaced with `where(mask, x, 0.0)`.
template <DTypeTag M, DTypeTag T, DTypeTag U>
Tile<promote_t<T, U>> where(const Tile<M> &cond, const Tile<T> &a, const Tile<U> &b,
                            TESSEL_DSL_LOC) {
  return Tile<promote_t<T, U>>(
      detail::select(cond.raw(), a.raw(), b.raw(), detail::Loc::from(loc)));
}
template <DTypeTag M, DTypeTag T, Literal L>
Tile<promote_t<T, literal_t<T, L>>> where(const Tile<M> &cond, const Tile<T> &a, L b,
                                          TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  return Tile<promote_t<T, literal_t<T, L>>>(
      detail::select(cond.raw(), a.raw(), detail::literal(b, literal_t<T, L>::dtype, l), l));
}
template <DTypeTag M, DTypeTag T, Literal L>
Tile<promote_t<T, literal_t<T, L>>> where(const Tile<M> &cond, L a, const Tile<T> &b,
                                          TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  return Tile<promote_t<T, literal_t<T, L>>>(
      detail::select(cond.raw(), detail::literal(a, literal_t<T, L>::dtype, l), b.raw(), l));
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_MATH_H
