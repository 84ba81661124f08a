//===- FloatFormats.h - f16, bf16 and tf32 conversions -----------*- C++ -*-===//
//
// Bit-exact conversions between f32/f64 and the 16-bit float formats, all rounding to nearest
// even (IEEE 754 roundTiesToEven), with overflow to infinity, gradual underflow and quiet NaNs
// that keep their sign and the top bits of their payload. Header-only so that the interpreter's
// element loops inline them; shared by the harness (host buffers) and the interpreter (casts,
// f16/bf16 arithmetic). No MLIR or LLVM dependency.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_FLOATFORMATS_H
#define TESSEL_HARNESS_FLOATFORMATS_H

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tessel::harness {

inline uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }
inline float floatOf(uint32_t u) { return std::bit_cast<float>(u); }
inline uint64_t bitsOf(double d) { return std::bit_cast<uint64_t>(d); }
inline double doubleOf(uint64_t u) { return std::bit_cast<double>(u); }

/// f32 -> bf16 bits, round to nearest even; NaN stays a quiet NaN with its sign.
inline uint16_t floatToBF16(float f) {
  uint32_t u = bitsOf(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<uint16_t>((u >> 16) | 0x0040u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

/// bf16 bits -> f32 (exact).
inline float bf16ToFloat(uint16_t h) { return floatOf(static_cast<uint32_t>(h) << 16); }

/// f32 -> f16 (binary16) bits, round to nearest even; |x| >= 65520 becomes infinity, values
/// below 2^-14 become subnormals (multiples of 2^-24), NaN stays a quiet NaN.
inline uint16_t floatToHalf(float f) {
  uint32_t x = bitsOf(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) // NaN: quiet, keep the payload's top bits
    return static_cast<uint16_t>(sign | 0x7E00u | ((ax >> 13) & 0x3FFu));
  if (ax >= 0x477FF000u) // >= 65520 (halfway above 65504, ties to even go up): infinity
    return static_cast<uint16_t>(sign | 0x7C00u);
  if (ax >= 0x38800000u) { // normal: rebias the exponent (127 - 15) and round 13 bits away
    uint32_t r = ax - 0x38000000u;
    r += 0xFFFu + ((r >> 13) & 1u);
    return static_cast<uint16_t>(sign | (r >> 13));
  }
  // Subnormal or zero: adding 0.5f (ulp 2^-24) rounds to a multiple of 2^-24 in hardware RNE.
  float af = floatOf(ax) + 0.5f;
  return static_cast<uint16_t>(sign | (bitsOf(af) - 0x3F000000u));
}

/// f16 bits -> f32 (exact).
inline float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1F)
    return floatOf(sign | 0x7F800000u | (m << 13));
  if (e == 0) {
    float v = static_cast<float>(m) * 0x1p-24f;
    return sign ? -v : v;
  }
  return floatOf(sign | ((e + 112u) << 23) | (m << 13));
}

/// f64 -> f32 rounding to odd (the sticky lsb set when inexact): a following f32 -> f16/bf16
/// rounding is then correctly rounded (f32 has more than 2p + 2 bits for both formats).
inline float doubleToFloatRoundToOdd(double d) {
  float f = static_cast<float>(d);
  if (std::isnan(d) || static_cast<double>(f) == d)
    return f;
  uint32_t u = bitsOf(f);
  if (std::fabs(static_cast<double>(f)) > std::fabs(d))
    u -= 1; // one step toward zero: the truncation
  return floatOf(u | 1u);
}

inline uint16_t doubleToHalf(double d) { return floatToHalf(doubleToFloatRoundToOdd(d)); }
inline uint16_t doubleToBF16(double d) { return floatToBF16(doubleToFloatRoundToOdd(d)); }

/// The f16 / bf16 value nearest to `f` (ties to even), as an f32.
inline float roundToHalf(float f) { return halfToFloat(floatToHalf(f)); }
inline float roundToBF16(float f) { return bf16ToFloat(floatToBF16(f)); }

/// tf32 (1-8-10): keep 10 mantissa bits, round to nearest even; NaN and infinity unchanged.
inline float roundToTF32(float f) {
  uint32_t u = bitsOf(f);
  if ((u & 0x7F800000u) == 0x7F800000u)
    return f;
  u += 0xFFFu + ((u >> 13) & 1u);
  return floatOf(u & ~0x1FFFu);
}

} // namespace tessel::harness

#endif // TESSEL_HARNESS_FLOATFORMATS_H
