//===- Debug.h - device_print, device_assert, static_print ------*- C++ -*-===//
//
// Printing and checking from a kernel, as Triton's tl.device_print / tl.device_assert /
// tl.static_print / tl.static_assert:
//   device_print("x = ", x, y)     every program prints one line per element at run time:
//                                  `pid (x, y, z) idx (i, j) x = <x> <y>` (tile.print)
//   device_assert(mask, "msg")     where an element of mask is false the kernel stops with msg,
//                                  the line, the program and the element (tile.assert); compiled
//                                  only with tesselc --debug
//   static_print("BLOCK", x)       prints at trace time, once per variant: the text and each
//                                  argument's dtype and shape
//   static_check(cond, "msg")      a trace-time check of config values: a false cond stops the
//                                  trace with msg at your line (C++'s static_assert is taken)
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_DEBUG_H
#define TESSEL_DSL_DEBUG_H

#include "tessel/dsl/Tile.h"

#include <array>

namespace tessel::dsl {

namespace detail {
template <class... Ts> std::array<RawValue, sizeof...(Ts)> raws(const Ts &...xs) {
  return {xs.raw()...};
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

/// Prints `text` and each argument's dtype and shape while the kernel is traced.
template <class... Ts> void static_print(detail::LocatedText text, const Ts &...xs) {
  auto r = detail::raws(xs...);
  detail::staticPrint(text.text, r.data(), int(r.size()), text.loc);
}

/// Stops the trace with `message` at this line when `cond` (a C++ value: configs, shapes) is
/// false.
inline void static_check(bool cond, const char *message, TESSEL_DSL_LOC) {
  detail::staticAssert(cond, message, detail::Loc::from(loc));
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_DEBUG_H
