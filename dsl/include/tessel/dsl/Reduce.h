//===- Reduce.h - reductions and scans along an axis ------------*- C++ -*-===//
//
// A reduction of a rank-1 tile is a scalar; of a rank-N tile, a rank-(N-1) tile (or rank N with
// keep_dims). Axes may be negative (-1 is the last). max/min propagate NaN; the max of a row of
// -inf is -inf. sum/cumsum accumulate and return integers narrower than 32 bits in i32, f16 and
// bf16 in f32 (sumType).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_REDUCE_H
#define TESSEL_DSL_REDUCE_H

#include "tessel/dsl/Tile.h"

namespace tessel::dsl {

template <DTypeTag T> using sum_t = tag_of_t<sumType(T::dtype)>;

/// Sum along `axis`.
template <DTypeTag T>
Tile<sum_t<T>> sum(const Tile<T> &x, int axis, bool keep_dims = false, TESSEL_DSL_LOC) {
  return Tile<sum_t<T>>(
      detail::reduce(detail::ReduceKind::sum, x.raw(), axis, keep_dims, detail::Loc::from(loc)));
}
/// Maximum along `axis` (NaN if any element is NaN).
template <DTypeTag T>
Tile<T> max(const Tile<T> &x, int axis, bool keep_dims = false, TESSEL_DSL_LOC) {
  return Tile<T>(
      detail::reduce(detail::ReduceKind::max, x.raw(), axis, keep_dims, detail::Loc::from(loc)));
}
/// Minimum along `axis` (NaN if any element is NaN).
template <DTypeTag T>
Tile<T> min(const Tile<T> &x, int axis, bool keep_dims = false, TESSEL_DSL_LOC) {
  return Tile<T>(
      detail::reduce(detail::ReduceKind::min, x.raw(), axis, keep_dims, detail::Loc::from(loc)));
}
/// i32 index of the maximum along `axis`; the first on ties, a NaN counts as the maximum.
template <DTypeTag T>
Tile<i32> argmax(const Tile<T> &x, int axis, bool keep_dims = false, TESSEL_DSL_LOC) {
  return Tile<i32>(
      detail::reduce(detail::ReduceKind::argmax, x.raw(), axis, keep_dims, detail::Loc::from(loc)));
}
/// i32 index of the minimum along `axis`; the first on ties, a NaN counts as the minimum.
template <DTypeTag T>
Tile<i32> argmin(const Tile<T> &x, int axis, bool keep_dims = false, TESSEL_DSL_LOC) {
  return Tile<i32>(
      detail::reduce(detail::ReduceKind::argmin, x.raw(), axis, keep_dims, detail::Loc::from(loc)));
}

namespace detail {
/// `kind` over every axis, the last first, down to a scalar.
inline RawValue reduceAll(ReduceKind kind, RawValue x, Loc loc) {
  for (int r = x.shape.rank(); r > 0; --r)
    x = reduce(kind, x, -1, false, loc);
  return x;
}
} // namespace detail

/// Sum of every element: a scalar (Triton's `tl.sum(x)` without an axis), reduced axis by axis
/// from the last, accumulated as sum() along one axis (f16 / bf16 in f32).
template <DTypeTag T> Tile<sum_t<T>> sum(const Tile<T> &x, TESSEL_DSL_LOC) {
  return Tile<sum_t<T>>(
      detail::reduceAll(detail::ReduceKind::sum, x.raw(), detail::Loc::from(loc)));
}
/// Maximum of every element (NaN if any is NaN): a scalar.
template <DTypeTag T> Tile<T> max(const Tile<T> &x, TESSEL_DSL_LOC) {
  return Tile<T>(detail::reduceAll(detail::ReduceKind::max, x.raw(), detail::Loc::from(loc)));
}
/// Minimum of every element (NaN if any is NaN): a scalar.
template <DTypeTag T> Tile<T> min(const Tile<T> &x, TESSEL_DSL_LOC) {
  return Tile<T>(detail::reduceAll(detail::ReduceKind::min, x.raw(), detail::Loc::from(loc)));
}

/// Reduction with a user combiner `(Scalar<T> acc, Scalar<T> x) -> Scalar<T>`, which must be
/// associative and commutative: `reduce(x, 1, [](Float a, Float b) { return a * b; })`.
template <DTypeTag T, class F>
Tile<T> reduce(const Tile<T> &x, int axis, F &&combine, bool keep_dims = false, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue args[2];
  detail::beginCombiner(false, x.raw(), axis, false, args, l);
  Tile<T> r = combine(Scalar<T>(args[0]), Scalar<T>(args[1]));
  return Tile<T>(detail::endCombiner(r.raw(), keep_dims, l));
}

/// Inclusive prefix sum along `axis` (from the end when `reverse`).
template <DTypeTag T>
Tile<sum_t<T>> cumsum(const Tile<T> &x, int axis, bool reverse = false, TESSEL_DSL_LOC) {
  return Tile<sum_t<T>>(detail::cumsum(x.raw(), axis, reverse, detail::Loc::from(loc)));
}

/// Inclusive scan with an associative combiner `(Scalar<T> acc, Scalar<T> x) -> Scalar<T>`.
template <DTypeTag T, class F>
Tile<T> scan(const Tile<T> &x, int axis, F &&combine, bool reverse = false, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue args[2];
  detail::beginCombiner(true, x.raw(), axis, reverse, args, l);
  Tile<T> r = combine(Scalar<T>(args[0]), Scalar<T>(args[1]));
  return Tile<T>(detail::endCombiner(r.raw(), false, l));
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_REDUCE_H
