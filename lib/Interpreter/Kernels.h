//===- Kernels.h - element loops shared by the op groups --------*- C++ -*-===//
//
// Internal to lib/Interpreter: templates that turn a per-element functor into a loop over raw
// slot storage, and the integer wrap-around and float rounding every result goes through.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_INTERPRETER_KERNELS_H
#define TESSEL_LIB_INTERPRETER_KERNELS_H

#include "Program.h"

#include "tessel/Harness/FloatFormats.h"
#include "tessel/Harness/Poison.h"

#include <cmath>

namespace tessel::interp {

using UnaryKernel = std::function<void(const void *a, void *out, int64_t n)>;

/// Canonical form of a `w`-bit integer held in an int64: sign-extended (i1: 0 or 1).
template <unsigned W> inline int64_t wrap(int64_t v) {
  if constexpr (W == 1)
    return v & 1;
  else if constexpr (W == 64)
    return v;
  else
    return static_cast<int64_t>(static_cast<uint64_t>(v) << (64 - W)) >> (64 - W);
}
inline int64_t wrapTo(int64_t v, unsigned w) {
  switch (w) {
  case 1:
    return wrap<1>(v);
  case 8:
    return wrap<8>(v);
  case 16:
    return wrap<16>(v);
  case 32:
    return wrap<32>(v);
  default:
    return v;
  }
}
/// The unsigned value of a canonical `w`-bit integer.
inline uint64_t zext(int64_t v, unsigned w) {
  return w >= 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((1ull << w) - 1);
}
/// The signed value of a canonical `w`-bit integer (i1 true is -1).
inline int64_t sext(int64_t v, unsigned w) { return w == 1 ? -(v & 1) : v; }

/// The interpreter's register value of an integer poison: the marker wrapped to `w` bits.
inline int64_t intPoison(unsigned w) {
  return w == 1 ? 1 : wrapTo(static_cast<int64_t>(harness::kPoisonI64), w);
}
inline float f32Poison() { return harness::floatOf(harness::kPoisonF32); }
inline double f64Poison() { return harness::doubleOf(harness::kPoisonF64); }

template <typename In, typename Out, typename F> BinaryKernel mapBinary(F fn) {
  return [fn](const void *a, const void *b, void *o, int64_t n) {
    const In *x = static_cast<const In *>(a);
    const In *y = static_cast<const In *>(b);
    Out *out = static_cast<Out *>(o);
    for (int64_t i = 0; i < n; ++i)
      out[i] = fn(x[i], y[i]);
  };
}

template <typename In, typename Out, typename F> UnaryKernel mapUnary(F fn) {
  return [fn](const void *a, void *o, int64_t n) {
    const In *x = static_cast<const In *>(a);
    Out *out = static_cast<Out *>(o);
    for (int64_t i = 0; i < n; ++i)
      out[i] = fn(x[i]);
  };
}

/// Float binary op `fn(auto, auto)` on elements of kind `e`, rounding f16/bf16 results.
template <typename F> BinaryKernel floatBinary(Elem e, F fn) {
  switch (e) {
  case Elem::f64:
    return mapBinary<double, double>([fn](double x, double y) { return fn(x, y); });
  case Elem::f16:
    return mapBinary<float, float>(
        [fn](float x, float y) { return harness::roundToHalf(fn(x, y)); });
  case Elem::bf16:
    return mapBinary<float, float>(
        [fn](float x, float y) { return harness::roundToBF16(fn(x, y)); });
  default:
    return mapBinary<float, float>([fn](float x, float y) { return fn(x, y); });
  }
}

/// Float unary op.
template <typename F> UnaryKernel floatUnary(Elem e, F fn) {
  switch (e) {
  case Elem::f64:
    return mapUnary<double, double>([fn](double x) { return fn(x); });
  case Elem::f16:
    return mapUnary<float, float>([fn](float x) { return harness::roundToHalf(fn(x)); });
  case Elem::bf16:
    return mapUnary<float, float>([fn](float x) { return harness::roundToBF16(fn(x)); });
  default:
    return mapUnary<float, float>([fn](float x) { return fn(x); });
  }
}

/// Integer binary op `fn(int64, int64) -> int64` on canonical `w`-bit values; the result
/// wraps to `w` bits.
template <typename F> BinaryKernel intBinary(unsigned w, F fn) {
  switch (w) {
  case 1:
    return mapBinary<int64_t, int64_t>([fn](int64_t x, int64_t y) { return wrap<1>(fn(x, y)); });
  case 8:
    return mapBinary<int64_t, int64_t>([fn](int64_t x, int64_t y) { return wrap<8>(fn(x, y)); });
  case 16:
    return mapBinary<int64_t, int64_t>([fn](int64_t x, int64_t y) { return wrap<16>(fn(x, y)); });
  case 32:
    return mapBinary<int64_t, int64_t>([fn](int64_t x, int64_t y) { return wrap<32>(fn(x, y)); });
  default:
    return mapBinary<int64_t, int64_t>(fn);
  }
}

/// Generic strided copy: out (row-major, `shape`) from `src` with per-output-dimension source
/// strides (0 for broadcast dimensions), elements of `bytes` bytes (4 or 8).
void stridedCopy(const void *src, void *dst, llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<int64_t> srcStrides, size_t bytes);

} // namespace tessel::interp

#endif // TESSEL_LIB_INTERPRETER_KERNELS_H
