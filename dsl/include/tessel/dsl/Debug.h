//===- Debug.h - device_print, device_assert, static_print ------*- C++ -*-===//
//
// Printing and checking from a kernel, as Triton's tl.device_print / tl.device_assert /
// tl.static_print / tl.static_assert:
//   device_print("x = ", x, y)     every program prints one line per element at run time:
//                                  `pid (x, y, z) idx (i, j) x = <x> <y>` (tile.print);
//                                  device_print_hex: integers in hex, floats as their bits
//   device_assert(mask, "msg")     where an element of mask is false the kernel stops with msg,
//                                  the line, the program and the element (tile.assert); compiled
//                                  only with tesselc --debug
//   static_print("BLOCK", c.BLOCK, x)
//                                  prints at trace time, once per variant: the text, C++ values
//                                  (config fields) and each tile's dtype and shape
//   static_check(cond, "msg")      a trace-time check of config values: a false cond stops the
//                                  trace with msg at your line (C++'s static_assert is taken)
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_DEBUG_H
#define TESSEL_DSL_DEBUG_H

#include "tessel/dsl/Tile.h"

#include <array>
#include <string>
#include <type_traits>

namespace tessel::dsl {

namespace detail {
template <class T> RawValue printArg(const T &x) {
  static_assert(Handle<T>, "device_print prints tiles and scalars (Tile<T>, Int, Float, ...); "
                           "print a C++ value (a config field) with static_print");
  return x.raw();
}
template <class... Ts> std::array<RawValue, sizeof...(Ts)> raws(const Ts &...xs) {
  return {printArg(xs)...};
}
/// What static_print shows of one argument: a C++ number's value, a handle's dtype and shape.
template <class T> std::string staticText(const T &x) {
  if constexpr (std::is_same_v<T, bool>)
    return x ? "true" : "false";
  else if constexpr (std::is_arithmetic_v<T>)
    return std::to_string(x);
  else if constexpr (std::is_convertible_v<const T &, const char *>)
    return x;
  else {
    static_assert(Handle<T>, "static_print prints C++ numbers, strings and tiles");
    return describeValue(x.raw());
  }
}
/// A text argument that remembers the caller's line: a variadic function cannot take a
/// defaulted std::source_location after its pack, but the conversion from the literal happens
/// at the call.
struct LocatedText {
  const char *text;
  Loc loc;
  LocatedText(const char *t, TESSEL_DSL_LOC) : text(t), loc(Loc::from(loc)) {}
};
} // namespace detail

/// Prints `prefix` and the elements of `xs` (tiles of one shape, or scalars) from every program.
template <class... Ts> void device_print(detail::LocatedText prefix, const Ts &...xs) {
  auto r = detail::raws(xs...);
  detail::devicePrint(prefix.text, r.data(), int(r.size()), /*hex=*/false, prefix.loc);
}
/// device_print with integers in hex.
template <class... Ts> void device_print_hex(detail::LocatedText prefix, const Ts &...xs) {
  auto r = detail::raws(xs...);
  detail::devicePrint(prefix.text, r.data(), int(r.size()), /*hex=*/true, prefix.loc);
}

/// Stops the kernel where an element of `cond` is false (compiled with tesselc --debug only).
template <DTypeTag M> void device_assert(const Tile<M> &cond, const char *message, TESSEL_DSL_LOC) {
  detail::deviceAssert(cond.raw(), message, detail::Loc::from(loc));
}

/// Prints `text` and each argument while the kernel is traced: C++ numbers (config fields) by
/// value, tiles and scalars by dtype and shape.
template <class... Ts> void static_print(detail::LocatedText text, const Ts &...xs) {
  std::string line = text.text;
  ((line += " " + detail::staticText(xs)), ...);
  detail::staticPrint(line.c_str(), text.loc);
}

/// Stops the trace with `message` at this line when `cond` (a C++ value: configs, shapes) is
/// false.
inline void static_check(bool cond, const char *message, TESSEL_DSL_LOC) {
  detail::staticAssert(cond, message, detail::Loc::from(loc));
}
/// A tile is a run-time value: it is checked with device_assert, not at trace time.
template <DTypeTag M> void static_check(const Tile<M> &, const char *, TESSEL_DSL_LOC) {
  static_assert(sizeof(M) == 0, "static_check takes a C++ bool (config fields, shapes); check a "
                                "tile at run time with device_assert");
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_DEBUG_H
