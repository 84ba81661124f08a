//===- Control.h - loops and branches that stay in the IR -------*- C++ -*-===//
//
// A plain C++ `for` or `if` runs at trace time: the loop is unrolled and only the taken branch
// is emitted (right for loops over a few static steps and for config-dependent code). When the
// trip count or the condition is a runtime value, use:
//
//   for_range(start, end, step, body)                   scf.for, no carried values
//   for_range(start, end, step, init, body)             scf.for carrying one value
//   for_range(start, end, step, std::tuple{a, b}, body) scf.for carrying several values
//   if_then_else(cond, then, else) / when(cond, then)   scf.if on an i1 scalar
//
// The body receives the induction variable (an i64 `Int`) and the carried values, and returns
// their next values (same types and shapes). Values made inside a body must leave it through
// its return value; using them after the loop is an error naming the line.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_CONTROL_H
#define TESSEL_DSL_CONTROL_H

#include "tessel/dsl/Ptr.h"

#include <tuple>
#include <utility>

namespace tessel::dsl {

namespace detail {
template <DTypeTag T> Tile<T> handleBase(const Tile<T> &);
template <DTypeTag T> Ptr<T> handleBase(const Ptr<T> &);
template <DTypeTag T> BlockPtr<T> handleBase(const BlockPtr<T> &);
/// Tile<T>, Ptr<T> or BlockPtr<T>: the value category and element type of a handle type.
template <class H> using handle_base_t = decltype(handleBase(std::declval<const H &>()));

template <class T> struct IsTuple : std::false_type {};
template <class... Ts> struct IsTuple<std::tuple<Ts...>> : std::true_type {};

template <class Tuple, size_t... I>
void flatten(const Tuple &t, RawValue *out, std::index_sequence<I...>) {
  ((out[I] = std::get<I>(t).raw()), ...);
}
template <class... Vs, size_t... I>
std::tuple<Vs...> unflatten(const RawValue *in, std::index_sequence<I...>) {
  return std::tuple<Vs...>(Vs(in[I])...);
}
template <class R, class V> constexpr void checkSameValueType() {
  static_assert(std::is_same_v<handle_base_t<R>, handle_base_t<V>>,
                "the body must return values of the carried (or then-branch) types");
}
/// A branch's single value: a handle's, or a literal made a value of `like`'s dtype and shape
/// (`[&] { return 0.0; }` beside a branch returning a tile or a scalar).
template <class V> RawValue branchValue(const V &v, const RawValue &like, Loc loc) {
  if constexpr (Literal<V>) {
    RawValue s = literal(v, like.dtype, loc);
    return like.shape.rank() ? full(like.shape, s, loc) : s;
  } else {
    return v.raw();
  }
}
template <class... Rs, class... Vs>
constexpr void checkSameValueTypes(std::tuple<Rs...> *, std::tuple<Vs...> *) {
  static_assert(sizeof...(Rs) == sizeof...(Vs), "the body must return one value per carried value");
  (checkSameValueType<Rs, Vs>(), ...);
}
} // namespace detail

/// `for (i = start; i < end; i += step) body(i);` as an scf.for (i64 bounds).
template <class F>
void for_range(detail::Operand start, detail::Operand end, detail::Operand step, F &&body,
               TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue iv;
  detail::beginFor(start.value(DType::i64), end.value(DType::i64), step.value(DType::i64), nullptr,
                   0, &iv, l);
  body(Int(iv));
  detail::endFor(nullptr, 0, nullptr, l);
}

/// scf.for carrying one value: `acc = for_range(0, k_tiles, 1, acc, [&](Int k, Tile<f32> acc)
/// { ...; return dot(a, b, acc); });` returns the value after the last iteration.
template <detail::Handle V, class F>
V for_range(detail::Operand start, detail::Operand end, detail::Operand step, const V &init,
            F &&body, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue args[2];
  detail::beginFor(start.value(DType::i64), end.value(DType::i64), step.value(DType::i64),
                   &init.raw(), 1, args, l);
  auto next = body(Int(args[0]), V(args[1]));
  detail::checkSameValueType<decltype(next), V>();
  detail::RawValue y = next.raw(), r;
  detail::endFor(&y, 1, &r, l);
  return V(r);
}

/// scf.for carrying several values: `auto [m, d] = for_range(0, n, BLOCK, std::tuple{m0, d0},
/// [&](Int start, Float m, Float d) { ...; return std::tuple{nm, nd}; });`
template <class... Vs, class F>
std::tuple<Vs...> for_range(detail::Operand start, detail::Operand end, detail::Operand step,
                            const std::tuple<Vs...> &init, F &&body, TESSEL_DSL_LOC) {
  constexpr size_t n = sizeof...(Vs);
  auto seq = std::index_sequence_for<Vs...>{};
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue inits[n], args[n + 1], yields[n], results[n];
  detail::flatten(init, inits, seq);
  detail::beginFor(start.value(DType::i64), end.value(DType::i64), step.value(DType::i64), inits, n,
                   args, l);
  auto next = [&]<size_t... I>(std::index_sequence<I...>) {
    return body(Int(args[0]), Vs(args[I + 1])...);
  }(seq);
  static_assert(detail::IsTuple<decltype(next)>::value,
                "a for_range body carrying a std::tuple must return a std::tuple");
  detail::checkSameValueTypes(static_cast<decltype(next) *>(nullptr),
                              static_cast<std::tuple<Vs...> *>(nullptr));
  detail::flatten(next, yields, seq);
  detail::endFor(yields, n, results, l);
  return detail::unflatten<Vs...>(results, seq);
}

/// scf.if on the i1 scalar `cond`. Both branches return nothing, one handle, or a std::tuple of
/// handles of the same types; the result is the taken branch's value. One branch of a single
/// value may return a literal instead (`[&] { return 0.0; }`): it takes the other branch's type,
/// and, when the then-branch is the literal, the else-branch must return a scalar (Int, Float,
/// ...).
template <class Then, class Else>
auto if_then_else(const Tile<i1> &cond, Then &&then_branch, Else &&else_branch, TESSEL_DSL_LOC) {
  using T0 = decltype(then_branch());
  using E0 = decltype(else_branch());
  static_assert(!(Literal<T0> && Literal<E0>),
                "both branches of if_then_else return literals: write one as a typed scalar "
                "(Float(1.0), Int(0)) or use where(cond, a, b)");
  using R = std::conditional_t<Literal<T0>, E0, T0>;
  detail::Loc l = detail::Loc::from(loc);
  detail::beginIf(cond.raw(), l);
  if constexpr (std::is_void_v<R>) {
    then_branch();
    detail::beginElse(nullptr, 0, l);
    else_branch();
    detail::endIf(nullptr, 0, nullptr, l);
  } else if constexpr (detail::IsTuple<R>::value) {
    constexpr size_t n = std::tuple_size_v<R>;
    auto seq = std::make_index_sequence<n>{};
    detail::RawValue thenValues[n], elseValues[n], results[n];
    detail::flatten(then_branch(), thenValues, seq);
    detail::beginElse(thenValues, n, l);
    auto e = else_branch();
    detail::checkSameValueTypes(static_cast<decltype(e) *>(nullptr), static_cast<R *>(nullptr));
    detail::flatten(e, elseValues, seq);
    detail::endIf(elseValues, n, results, l);
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return R(std::tuple_element_t<I, R>(results[I])...);
    }(seq);
  } else {
    detail::RawValue t;
    if constexpr (Literal<T0>) {
      // Only the else-branch's type is known: a scalar of its dtype.
      static_assert(std::is_base_of_v<Scalar<typename R::dtype_type>, R>,
                    "the then-branch returns a literal and the else-branch a tile: return "
                    "full({shape}, value) (or swap the branches: a literal else-branch takes the "
                    "then-branch's shape)");
      t = detail::literal(then_branch(), R::dtype, l);
    } else {
      t = then_branch().raw();
    }
    detail::beginElse(&t, 1, l);
    auto e = else_branch();
    if constexpr (!Literal<E0>)
      detail::checkSameValueType<decltype(e), R>();
    detail::RawValue y = detail::branchValue(e, t, l), r;
    detail::endIf(&y, 1, &r, l);
    return R(r);
  }
}

/// `if (cond) body();` as an scf.if without results.
template <class F> void when(const Tile<i1> &cond, F &&body, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::beginIf(cond.raw(), l);
  body();
  detail::beginElse(nullptr, 0, l);
  detail::endIf(nullptr, 0, nullptr, l);
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_CONTROL_H
