//===- Tile.h - Tile<T>, Scalar<T> and their operators ----------*- C++ -*-===//
//
// `Tile<T>` is a handle to a statically shaped block of T values in the kernel being traced
// (rank 0 is a scalar); `Scalar<T>` is a Tile<T> of rank 0 (`Int`, `Float`, `Bool`); `Mask` is
// a Tile<i1>. Operators follow numpy broadcasting and the promotion rules of DType.h; each
// captures the source position of the expression (see `At`), so errors and IR locations name
// the user's line.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_TILE_H
#define TESSEL_DSL_TILE_H

#include "tessel/dsl/DType.h"
#include "tessel/dsl/Trace.h"

#include <concepts>

namespace tessel::dsl {

template <DTypeTag T> class Tile;
template <DTypeTag T> class Scalar;

namespace detail {

/// False for every T, so a static_assert on it fires only where the template is used.
template <class T> inline constexpr bool always_false = false;

/// A handle type: anything holding a RawValue (Tile, Scalar, Ptr, BlockPtr).
template <class H>
concept Handle = requires(const H &h) {
  { h.raw() } -> std::same_as<const RawValue &>;
};

/// An operator operand together with the source position of the expression it appears in.
/// Binary operators cannot take a defaulted std::source_location; converting the left operand
/// to At<H> evaluates the default argument at the user's expression instead.
template <class H> struct At {
  const H &h;
  Loc loc;
  At(const H &h, std::source_location l = std::source_location::current())
      : h(h), loc(Loc::from(l)) {}
};

/// The constant `v` as a scalar of type `d`.
template <Literal L> RawValue literal(L v, DType d, Loc loc) {
  if constexpr (std::is_floating_point_v<L>)
    return constFloat(static_cast<double>(v), d, loc);
  else if (isFloat(d))
    return constFloat(static_cast<double>(v), d, loc);
  else
    return constInt(static_cast<int64_t>(v), d, loc);
}

/// A type-erased operand with its source position: a handle, or a C++ literal whose type is
/// decided by what it is combined with (`value(d)`).
struct Operand {
  enum class Kind : uint8_t { handle, int_literal, float_literal };
  RawValue raw;
  Loc loc;
  Kind kind = Kind::handle;
  int64_t i = 0;
  double f = 0;

  template <Handle H>
  Operand(const H &h, std::source_location l = std::source_location::current())
      : raw(h.raw()), loc(Loc::from(l)) {}
  template <Literal L>
  Operand(L v, std::source_location l = std::source_location::current()) : loc(Loc::from(l)) {
    if constexpr (std::is_floating_point_v<L>) {
      kind = Kind::float_literal;
      f = static_cast<double>(v);
    } else {
      kind = Kind::int_literal;
      i = static_cast<int64_t>(v);
    }
  }
  bool isLiteral() const { return kind != Kind::handle; }
  /// The type of this operand next to a value of type `t` (a literal adopts `t`).
  DType typeNextTo(DType t) const {
    return isLiteral() ? literalType(t, kind == Kind::float_literal) : raw.dtype;
  }
  /// The operand as a value; a literal becomes a constant of type `d`.
  RawValue value(DType d) const {
    if (kind == Kind::float_literal)
      return constFloat(f, d, loc);
    if (kind == Kind::int_literal)
      return isFloat(d) ? constFloat(static_cast<double>(i), d, loc) : constInt(i, d, loc);
    return raw;
  }
};

/// `a op= b`: the result must keep a's type and shape.
TESSEL_DSL_EXPORT RawValue compoundAssign(BinaryOp op, const RawValue &a, const RawValue &b,
                                          Loc loc);
/// Reports an error unless `v` has rank `rank` (`what` names the expected value).
TESSEL_DSL_EXPORT void requireRank(const RawValue &v, int rank, const char *what, Loc loc);

/// `_` and `None` of `x(_, None)` (Triton's `x[:, None]`).
struct SliceAll {};
struct NewAxis {};
struct Subscript {
  bool newAxis;
  constexpr Subscript(SliceAll) : newAxis(false) {}
  constexpr Subscript(NewAxis) : newAxis(true) {}
};
/// Applies subscripts: one `_` per dimension of `v`, and a `None` wherever a unit dimension is
/// inserted.
TESSEL_DSL_EXPORT RawValue subscript(const RawValue &v, const Subscript *s, int n, Loc loc);

} // namespace detail

/// Keeps a dimension in `x(_, None)`.
inline constexpr detail::SliceAll _{};
/// Inserts a unit dimension in `x(_, None)`.
inline constexpr detail::NewAxis None{};

#define TESSEL_DSL_LOC std::source_location loc = std::source_location::current()

// Binary operators of Tile<T> as hidden friends: (tile, tile), (tile, literal), (literal, tile).
#define TESSEL_TILE_BINARY(OP, KIND, RESULT)                                                       \
  template <DTypeTag U>                                                                            \
  friend Tile<RESULT(T, U)> operator OP(detail::At<Tile> a, const Tile<U> &b) {                    \
    return Tile<RESULT(T, U)>(detail::binary(detail::BinaryOp::KIND, a.h.raw(), b.raw(), a.loc));  \
  }                                                                                                \
  template <Literal L> friend auto operator OP(detail::At<Tile> a, L b) {                          \
    using LT = literal_t<T, L>;                                                                    \
    return Tile<RESULT(T, LT)>(detail::binary(detail::BinaryOp::KIND, a.h.raw(),                   \
                                              detail::literal(b, LT::dtype, a.loc), a.loc));       \
  }                                                                                                \
  template <Literal L> friend auto operator OP(L a, detail::At<Tile> b) {                          \
    using LT = literal_t<T, L>;                                                                    \
    return Tile<RESULT(T, LT)>(detail::binary(                                                     \
        detail::BinaryOp::KIND, detail::literal(a, LT::dtype, b.loc), b.h.raw(), b.loc));          \
  }
#define TESSEL_ARITH_RESULT(T, U) promote_t<T, U>
#define TESSEL_CMP_RESULT(T, U) i1
#define TESSEL_TILE_COMPOUND(OP, KIND)                                                             \
  friend Tile &operator OP(Tile & a, detail::Operand b) {                                          \
    a.raw_ = detail::compoundAssign(detail::BinaryOp::KIND, a.raw_, b.value(b.typeNextTo(dtype)),  \
                                    b.loc);                                                        \
    return a;                                                                                      \
  }

/// A handle to a tile of T values with a static shape (rank 0: a scalar) in the kernel being
/// traced. Copying a handle copies the reference, not the values; assigning rebinds it.
template <DTypeTag T> class Tile {
public:
  using dtype_type = T;
  static constexpr DType dtype = T::dtype;

  /// An unassigned handle; using it before assigning a value is an error.
  Tile() = default;
  explicit Tile(const detail::RawValue &raw) : raw_(raw) {}

  const detail::RawValue &raw() const { return raw_; }
  /// The static shape; rank 0 for a scalar.
  const Shape &shape() const { return raw_.shape; }
  int64_t shape(int dim) const { return raw_.shape[dim]; }
  int rank() const { return raw_.shape.rank(); }
  int64_t numel() const { return raw_.shape.numel(); }

  /// Value conversion to U (Triton's `x.to(U)`): float<->int truncates toward zero, a cast to
  /// i1 is `x != 0`. In dtype-generic code write `cast<U>(x)` (no `.template` needed).
  template <DTypeTag U> Tile<U> to(TESSEL_DSL_LOC) const {
    return Tile<U>(detail::cast(raw_, U::dtype, /*bitcast=*/false, detail::Loc::from(loc)));
  }
  /// Reinterprets the bits as U, which must have T's width.
  template <DTypeTag U> Tile<U> bitcast(TESSEL_DSL_LOC) const {
    return Tile<U>(detail::cast(raw_, U::dtype, /*bitcast=*/true, detail::Loc::from(loc)));
  }

  /// Triton's subscripts: `x(_, None)` is `x[:, None]` (a (N) tile becomes (N, 1)).
  Tile operator()(detail::Subscript a, TESSEL_DSL_LOC) const { return sub({a}, 1, loc); }
  Tile operator()(detail::Subscript a, detail::Subscript b, TESSEL_DSL_LOC) const {
    return sub({a, b}, 2, loc);
  }
  Tile operator()(detail::Subscript a, detail::Subscript b, detail::Subscript c,
                  TESSEL_DSL_LOC) const {
    return sub({a, b, c}, 3, loc);
  }

  TESSEL_TILE_BINARY(+, add, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(-, sub, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(*, mul, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(/, div, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(%, rem, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(&, bit_and, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(|, bit_or, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(^, bit_xor, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(<<, shl, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(>>, shr, TESSEL_ARITH_RESULT)
  TESSEL_TILE_BINARY(<, lt, TESSEL_CMP_RESULT)
  TESSEL_TILE_BINARY(<=, le, TESSEL_CMP_RESULT)
  TESSEL_TILE_BINARY(>, gt, TESSEL_CMP_RESULT)
  TESSEL_TILE_BINARY(>=, ge, TESSEL_CMP_RESULT)
  TESSEL_TILE_BINARY(==, eq, TESSEL_CMP_RESULT)
  TESSEL_TILE_BINARY(!=, ne, TESSEL_CMP_RESULT)

  TESSEL_TILE_COMPOUND(+=, add)
  TESSEL_TILE_COMPOUND(-=, sub)
  TESSEL_TILE_COMPOUND(*=, mul)
  TESSEL_TILE_COMPOUND(/=, div)
  TESSEL_TILE_COMPOUND(%=, rem)
  TESSEL_TILE_COMPOUND(&=, bit_and)
  TESSEL_TILE_COMPOUND(|=, bit_or)
  TESSEL_TILE_COMPOUND(^=, bit_xor)

  friend Tile operator-(detail::At<Tile> a) {
    return Tile(detail::unary(detail::UnaryOp::neg, a.h.raw(), a.loc));
  }
  /// Logical not: `x == 0` for numbers, the negation for masks. It takes the tile itself, not
  /// At<Tile>: beside the explicit operator bool below, an At parameter would tie with the
  /// built-in `!` (each needs one user-defined conversion). The op takes the operand's position.
  friend Tile<i1> operator!(const Tile &a) {
    return Tile<i1>(detail::unary(detail::UnaryOp::logical_not, a.raw(), detail::Loc{}));
  }
  /// A tile (a scalar too) is a value of the kernel at run time, not a C++ bool: `if (t)`,
  /// `t && u` or `while (t)` stop the compile here with a hint instead of "could not convert".
  template <class B = void> explicit operator bool() const {
    static_assert(detail::always_false<B>,
                  "a Tile is a run-time value of the kernel, not a C++ bool: branch with "
                  "when(cond, body) or if_then_else(cond, then, else), select with "
                  "where(cond, a, b), combine masks with & | ! (docs/DSL.md, control flow)");
    return false;
  }
  /// `&&` and `||` would take C++ bools; masks combine element-wise with `&` and `|`.
  template <class U> friend Tile<i1> operator&&(const Tile &, const U &) {
    static_assert(detail::always_false<U>, "&& on a Tile: combine masks with & (element-wise); "
                                           "a Tile is not a C++ bool");
    return {};
  }
  template <class U> friend Tile<i1> operator||(const Tile &, const U &) {
    static_assert(detail::always_false<U>, "|| on a Tile: combine masks with | (element-wise); "
                                           "a Tile is not a C++ bool");
    return {};
  }
  /// Bitwise not of integers.
  friend Tile operator~(detail::At<Tile> a) {
    return Tile(detail::unary(detail::UnaryOp::bit_not, a.h.raw(), a.loc));
  }

protected:
  detail::RawValue raw_;

private:
  Tile sub(std::initializer_list<detail::Subscript> s, int n, std::source_location loc) const {
    return Tile(detail::subscript(raw_, s.begin(), n, detail::Loc::from(loc)));
  }
};

/// A Tile<T> of rank 0: `Int row = program_id(0);`, `Float m = -inf;`. Converting a tile of
/// another rank to a Scalar is an error at the line of the conversion.
template <DTypeTag T> class Scalar : public Tile<T> {
public:
  Scalar() = default;
  explicit Scalar(const detail::RawValue &raw) : Tile<T>(raw) {}
  Scalar(const Tile<T> &t, TESSEL_DSL_LOC) : Tile<T>(t.raw()) {
    detail::requireRank(t.raw(), 0, "a scalar", detail::Loc::from(loc));
  }
  /// A constant. An integer scalar cannot be made from a floating-point literal.
  template <Literal L>
    requires(!(std::is_floating_point_v<L> && isInt(T::dtype)))
  Scalar(L v, TESSEL_DSL_LOC) : Tile<T>(detail::literal(v, T::dtype, detail::Loc::from(loc))) {}
};

/// DSL integers are i64: program ids, loop indices and integer kernel arguments.
using Int = Scalar<i64>;
using Float = Scalar<f32>;
using Bool = Scalar<i1>;
/// The result of a comparison; the mask of a load or store.
using Mask = Tile<i1>;

/// `x.to<U>()` for dtype-generic code: `cast<f32>(load(p))`.
template <DTypeTag U, DTypeTag T> Tile<U> cast(const Tile<T> &x, TESSEL_DSL_LOC) {
  return Tile<U>(detail::cast(x.raw(), U::dtype, false, detail::Loc::from(loc)));
}
/// `x.bitcast<U>()` for dtype-generic code.
template <DTypeTag U, DTypeTag T> Tile<U> bitcast(const Tile<T> &x, TESSEL_DSL_LOC) {
  return Tile<U>(detail::cast(x.raw(), U::dtype, true, detail::Loc::from(loc)));
}

/// +infinity, for `other = -inf` and running maxima.
inline constexpr double inf = __builtin_huge_val();
/// A quiet NaN.
inline constexpr double nan = __builtin_nan("");

} // namespace tessel::dsl

#endif // TESSEL_DSL_TILE_H
