//===- SplitJoin.h - join two tiles along a new axis, split it again -*- C++ -*-===//
//
// Triton's tl.join / tl.split, as library functions over the DSL's own ops (no IR op of their
// own):
//   Tile<T> ab = join(a, b);      (S...) and (S...) -> (S..., 2); ab[..., 0] = a, [..., 1] = b
//   auto [lo, hi] = split(ab);    (S..., 2) -> two (S...) tiles
// Both are bit-exact for every dtype: floats move as their integer bits, so -0.0 and NaN
// payloads survive. The detail helpers below (a tile's bits as an integer, picking one slot of
// an axis) are shared with Sort.h.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_SPLITJOIN_H
#define TESSEL_DSL_SPLITJOIN_H

#include "tessel/dsl/Tile.h"

#include <string>
#include <type_traits>
#include <utility>

namespace tessel::dsl {

namespace detail {

/// "[4, 8]": a shape in the tracer's diagnostics style.
inline std::string shapeText(const Shape &s) {
  std::string t = "[";
  for (int i = 0; i < s.rank() && i < kMaxRank; ++i)
    t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

/// The signed integer type that holds the bits of `d`: i8 for i1 and fp8, i16 for f16 / bf16,
/// i32 for f32, i64 for f64; an integer type itself.
constexpr DType bitsType(DType d) {
  if (isInt(d))
    return d == DType::i1 ? DType::i8 : d;
  return bitWidth(d) == 8    ? DType::i8
         : bitWidth(d) == 16 ? DType::i16
         : bitWidth(d) == 32 ? DType::i32
                             : DType::i64;
}

/// `x` as a signed integer tile of bitsType(x.dtype): the bits of a float (arith.bitcast), an
/// integer as it is, an i1 as 0 or 1.
inline RawValue toBits(const RawValue &x, Loc l) {
  if (x.dtype == DType::i1)
    return cast(x, DType::i8, /*bitcast=*/false, l);
  return isInt(x.dtype) ? x : cast(x, bitsType(x.dtype), /*bitcast=*/true, l);
}

/// The inverse of toBits: the integer tile `b` as a tile of `d`.
inline RawValue fromBits(const RawValue &b, DType d, Loc l) {
  if (d == DType::i1)
    return cast(b, DType::i1, /*bitcast=*/false, l);
  return isInt(d) ? b : cast(b, d, /*bitcast=*/true, l);
}

/// Element `slot` along `axis` of the integer tile `b`, bit-exact: a where
/// that zeroes the other slots, then an integer sum along `axis` (one non-zero term, so no
/// rounding and no overflow; sums of i8 / i16 are i32 and are truncated back).
inline RawValue pickSlot(const RawValue &b, int axis, int64_t slot, bool keepDims, Loc l) {
  Shape s;
  for (int i = 0; i < b.shape.rank(); ++i)
    s.push_back(i == axis ? b.shape[i] : 1);
  RawValue iota = reshape(arange(0, b.shape[axis], l), s, l);
  RawValue mask = binary(BinaryOp::eq, iota, constInt(slot, DType::i32, l), l);
  RawValue r =
      reduce(ReduceKind::sum, select(mask, b, constInt(0, b.dtype, l), l), axis, keepDims, l);
  return r.dtype == b.dtype ? r : cast(r, b.dtype, /*bitcast=*/false, l);
}

} // namespace detail

/// Stacks `a` and `b` along a new last axis (Triton's tl.join): tiles of one shape (S...) and
/// one dtype (any) give a (S..., 2) tile with result[..., 0] = a and result[..., 1] = b; two
/// scalars give a (2) tile. Bit-exact (floats are selected as their integer bits: -0.0 and NaN
/// payloads survive). Built from expand_dims, a where over an arange(0, 2) mask and bitcasts.
/// Errors: shapes that differ (broadcast_to one first), a result of rank > 4; dtypes that
/// differ are a compile error (cast one first).
template <DTypeTag T, DTypeTag U> Tile<T> join(const Tile<T> &a, const Tile<U> &b, TESSEL_DSL_LOC) {
  static_assert(std::is_same_v<T, U>, "join(a, b): a and b must have the same dtype; convert one "
                                      "with cast<T>(...) first");
  detail::Loc l = detail::Loc::from(loc);
  const detail::RawValue &ra = a.raw(), &rb = b.raw();
  if (ra.id < 0 || rb.id < 0)
    detail::fail(l, "join(a, b) of an unassigned tile");
  if (!(ra.shape == rb.shape))
    detail::fail(l, ("join(a, b): a " + detail::shapeText(ra.shape) + " and b " +
                     detail::shapeText(rb.shape) +
                     " must have the same shape; broadcast_to one of them first")
                        .c_str());
  int rank = ra.shape.rank();
  if (rank + 1 > kMaxRank)
    detail::fail(l, ("join(a, b) of " + detail::shapeText(ra.shape) + " tiles would have rank " +
                     std::to_string(rank + 1) + "; tiles have at most " + std::to_string(kMaxRank) +
                     " dimensions (reshape them first)")
                        .c_str());
  detail::RawValue first = detail::binary(detail::BinaryOp::eq, detail::arange(0, 2, l),
                                          detail::constInt(0, DType::i32, l), l); // (2)
  detail::RawValue ea = detail::expandDims(detail::toBits(ra, l), rank, l);       // (S..., 1)
  detail::RawValue eb = detail::expandDims(detail::toBits(rb, l), rank, l);       // (S..., 1)
  return Tile<T>(detail::fromBits(detail::select(first, ea, eb, l), T::dtype, l));
}

/// Splits `x`, whose last dimension is 2, into x[..., 0] and x[..., 1] (Triton's tl.split; the
/// inverse of join): `auto [lo, hi] = split(x);`. (S..., 2) -> two (S...) tiles of x's dtype;
/// a (2) tile gives two scalars. Bit-exact for every dtype: each half is a where + integer sum
/// over the size-2 axis of x's integer bits (floats bitcast, i1 as i8), so -0.0 and NaN
/// payloads survive. Errors: a last dimension other than 2, a scalar.
template <DTypeTag T> std::pair<Tile<T>, Tile<T>> split(const Tile<T> &x, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  const detail::RawValue &r = x.raw();
  if (r.id < 0)
    detail::fail(l, "split(x) of an unassigned tile");
  int rank = r.shape.rank();
  if (rank == 0)
    detail::fail(l, "split(x) of a scalar; x needs a last dimension of 2 (join(a, b) makes one)");
  if (r.shape[rank - 1] != 2)
    detail::fail(l, ("split(x) needs a last dimension of 2, x is " + detail::shapeText(r.shape) +
                     "; reshape it to (..., 2) first (or build it with join(a, b))")
                        .c_str());
  detail::RawValue bits = detail::toBits(r, l);
  return {Tile<T>(detail::fromBits(detail::pickSlot(bits, rank - 1, 0, false, l), T::dtype, l)),
          Tile<T>(detail::fromBits(detail::pickSlot(bits, rank - 1, 1, false, l), T::dtype, l))};
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_SPLITJOIN_H
