//===- DType.h - element types and promotion rules of the DSL ---*- C++ -*-===//
//
// The element types a tile may hold, as tag types (`f32`, `bf16`, `i64`, ...) for the static
// types `Tile<T>` / `Ptr<T>`, and as the runtime enum `DType` the tracer works with. The
// promotion rules (docs/DSL.md, "Promotion") are one constexpr function, `promote`, used both
// for the static result types of operators and by the tracer.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_DTYPE_H
#define TESSEL_DSL_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tessel::dsl {

/// Runtime element type. fp8 (e4m3fn, e5m2) is accepted by the IR; backends decide what they lower.
enum class DType : uint8_t { i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8e4m3, f8e5m2 };

constexpr bool isFloat(DType t) { return t >= DType::f16; }
constexpr bool isInt(DType t) { return t <= DType::i64; }
constexpr bool isFp8(DType t) { return t == DType::f8e4m3 || t == DType::f8e5m2; }

/// Width in bits (i1 is 1).
constexpr int bitWidth(DType t) {
  switch (t) {
  case DType::i1:
    return 1;
  case DType::i8:
  case DType::f8e4m3:
  case DType::f8e5m2:
    return 8;
  case DType::i16:
  case DType::f16:
  case DType::bf16:
    return 16;
  case DType::i32:
  case DType::f32:
    return 32;
  case DType::i64:
  case DType::f64:
    return 64;
  }
  return 0;
}

/// The name used in IR-facing text, variant names and metadata: "i32", "bf16", "f8e4m3", ...
constexpr const char *dtypeName(DType t) {
  constexpr const char *names[] = {"i1",   "i8",  "i16", "i32",    "i64",   "f16",
                                   "bf16", "f32", "f64", "f8e4m3", "f8e5m2"};
  return names[static_cast<int>(t)];
}

/// The common type of two operands of an arithmetic op or comparison:
/// - equal types: that type;
/// - two integers (i1 counts as the narrowest integer): the wider;
/// - an integer and a float: the float;
/// - f16 and bf16: f32 (neither holds the other);
/// - an fp8 and a wider float: the wider float; two different fp8 types: f16;
/// - two other floats: the wider.
constexpr DType promote(DType a, DType b) {
  if (a == b)
    return a;
  if (isInt(a) && isInt(b))
    return bitWidth(a) >= bitWidth(b) ? a : b;
  if (isInt(a))
    return b;
  if (isInt(b))
    return a;
  if (isFp8(a) && isFp8(b))
    return DType::f16;
  if (isFp8(a))
    return b;
  if (isFp8(b))
    return a;
  if (bitWidth(a) == bitWidth(b)) // f16 and bf16
    return DType::f32;
  return bitWidth(a) > bitWidth(b) ? a : b;
}

/// The type a C++ literal takes next to a tile of type `t` (Triton's "weak" literal types): an
/// integer literal adopts `t`; a floating-point literal adopts `t` if it is a float, else f32.
constexpr DType literalType(DType t, bool literalIsFloat) {
  return literalIsFloat && isInt(t) ? DType::f32 : t;
}

/// Accumulator of `dot` for inputs of type `t`: i32 for i8, f64 for f64, f32 otherwise.
constexpr DType dotAccType(DType t) {
  return t == DType::i8 ? DType::i32 : t == DType::f64 ? DType::f64 : DType::f32;
}

/// Result of `sum`/`cumsum`, the type they accumulate in: integers narrower than 32 bits (and
/// i1) sum in i32, f16 and bf16 in f32 (case C16: 256 + 255 ones is 511, not a bf16 rounding).
constexpr DType sumType(DType t) {
  return isInt(t) && bitWidth(t) < 32          ? DType::i32
         : t == DType::f16 || t == DType::bf16 ? DType::f32
                                               : t;
}

// Tag types: Tile<f32>, Ptr<bf16>, ... (`i1` is the boolean of masks). Distinct structs, so
// that diagnostics and signatures read `Tile<f32>`.
template <DType D> struct DTypeTagBase {
  static constexpr DType dtype = D;
};
struct i1 : DTypeTagBase<DType::i1> {};
struct i8 : DTypeTagBase<DType::i8> {};
struct i16 : DTypeTagBase<DType::i16> {};
struct i32 : DTypeTagBase<DType::i32> {};
struct i64 : DTypeTagBase<DType::i64> {};
struct f16 : DTypeTagBase<DType::f16> {};
struct bf16 : DTypeTagBase<DType::bf16> {};
struct f32 : DTypeTagBase<DType::f32> {};
struct f64 : DTypeTagBase<DType::f64> {};
struct f8e4m3 : DTypeTagBase<DType::f8e4m3> {};
struct f8e5m2 : DTypeTagBase<DType::f8e5m2> {};

/// A dtype tag: one of the structs above.
template <class T>
concept DTypeTag = std::is_same_v<std::remove_cv_t<decltype(T::dtype)>, DType>;

namespace detail {
/// The tags in DType order.
using Tags = std::tuple<i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8e4m3, f8e5m2>;
template <size_t... I> constexpr bool tagsInOrder(std::index_sequence<I...>) {
  return ((std::tuple_element_t<I, Tags>::dtype == static_cast<DType>(I)) && ...);
}
static_assert(tagsInOrder(std::make_index_sequence<std::tuple_size_v<Tags>>()));
} // namespace detail

/// The tag type of a DType value.
template <DType D> using tag_of_t = std::tuple_element_t<static_cast<size_t>(D), detail::Tags>;
/// Static promotion: `promote_t<i32, i64>` is `i64`, `promote_t<f16, bf16>` is `f32`.
template <DTypeTag T, DTypeTag U> using promote_t = tag_of_t<promote(T::dtype, U::dtype)>;
/// Type of a literal of C++ type L next to a tile of T.
template <DTypeTag T, class L>
using literal_t = tag_of_t<literalType(T::dtype, std::is_floating_point_v<L>)>;

/// A C++ literal usable as a DSL operand: integers, floating point and bool.
template <class L>
concept Literal = std::is_arithmetic_v<L>;

} // namespace tessel::dsl

#endif // TESSEL_DSL_DTYPE_H
