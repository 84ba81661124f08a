//===- Shape.h - making tiles and changing their shape ----------*- C++ -*-===//
//
// arange, zeros, full, expand_dims, broadcast_to, reshape, trans. Shape arguments are static
// (plain C++ integers, typically config fields): `zeros<f32>({c.BLOCK_M, c.BLOCK_N})`.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_SHAPE_H
#define TESSEL_DSL_SHAPE_H

#include "tessel/dsl/Ptr.h"

namespace tessel::dsl {

namespace detail {
/// The handle type of a shape op's result: Tile<T> for tiles and scalars, Ptr<T> for pointers.
template <DTypeTag T> Tile<T> rewrap(const Tile<T> &, const RawValue &r) { return Tile<T>(r); }
template <DTypeTag T> Ptr<T> rewrap(const Ptr<T> &, const RawValue &r) { return Ptr<T>(r); }
template <class H> using shaped_t = decltype(rewrap(std::declval<const H &>(), RawValue{}));
} // namespace detail

/// The rank-1 i32 tile [start, start + 1, ..., end - 1]: shape (end - start).
inline Tile<i32> arange(int64_t start, int64_t end, TESSEL_DSL_LOC) {
  return Tile<i32>(detail::arange(start, end, detail::Loc::from(loc)));
}

/// A tile of `shape` filled with `value` (a literal, or a scalar of type T).
template <DTypeTag T> Tile<T> full(Shape shape, detail::Operand value, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue v = value.value(T::dtype);
  if (v.dtype != T::dtype)
    v = detail::cast(v, T::dtype, false, l);
  return Tile<T>(detail::full(shape, v, l));
}
/// A tile of `shape` filled with the scalar `value`.
template <DTypeTag T> Tile<T> full(Shape shape, const Tile<T> &value, TESSEL_DSL_LOC) {
  return Tile<T>(detail::full(shape, value.raw(), detail::Loc::from(loc)));
}
/// A tile of `shape` filled with zeros: `zeros<f32>({BLOCK_M, BLOCK_N})`.
template <DTypeTag T> Tile<T> zeros(Shape shape, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  return Tile<T>(detail::full(shape, detail::literal(0, T::dtype, l), l));
}

/// Inserts a unit dimension at `axis` (0..rank): (N) -> (1, N) for axis 0.
template <detail::Handle H> detail::shaped_t<H> expand_dims(const H &x, int axis, TESSEL_DSL_LOC) {
  return detail::rewrap(x, detail::expandDims(x.raw(), axis, detail::Loc::from(loc)));
}

/// Broadcasts to `shape` with numpy rules (leading dimensions added, unit dimensions repeated).
template <detail::Handle H>
detail::shaped_t<H> broadcast_to(const H &x, Shape shape, TESSEL_DSL_LOC) {
  return detail::rewrap(x, detail::broadcastTo(x.raw(), shape, detail::Loc::from(loc)));
}

/// The same elements, row-major, in another shape of the same size.
template <detail::Handle H> detail::shaped_t<H> reshape(const H &x, Shape shape, TESSEL_DSL_LOC) {
  return detail::rewrap(x, detail::reshape(x.raw(), shape, detail::Loc::from(loc)));
}

/// Permutes dimensions: result dimension i is dimension order[i] of x. Without an order, the
/// dimensions are reversed ((M, N) -> (N, M)).
template <detail::Handle H>
detail::shaped_t<H> trans(const H &x, std::initializer_list<int32_t> order = {}, TESSEL_DSL_LOC) {
  return detail::rewrap(x, detail::trans(x.raw(), order.begin(), static_cast<int>(order.size()),
                                         detail::Loc::from(loc)));
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_SHAPE_H
