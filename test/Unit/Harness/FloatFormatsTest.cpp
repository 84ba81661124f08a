//===- FloatFormatsTest.cpp - f16 / bf16 / tf32 conversions ---------------===//
//
// bf16: every one of the 65536 patterns round-trips, and for each finite pattern the values
// just below, at and just above the midpoint to its successor round as round-to-nearest-even
// says (checked against a reference computed in double). f16: known values (max, overflow,
// subnormals, ties), every pattern round-trips, and random f32 values against the reference.
//
//===----------------------------------------------------------------------===//
#include "tessel/Harness/FloatFormats.h"
#include "tessel/Harness/Random.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessel::harness;

namespace {

/// Reference: the nearest of two candidates `lo` < `hi` (adjacent in the target format) to x,
/// ties to the one with an even pattern.
uint16_t nearestEven(double x, uint16_t loBits, double lo, uint16_t hiBits, double hi) {
  double dl = x - lo, dh = hi - x;
  if (dl < dh)
    return loBits;
  if (dh < dl)
    return hiBits;
  return (loBits & 1) ? hiBits : loBits;
}

} // namespace

TEST(BF16, EveryPatternRoundTrips) {
  for (uint32_t h = 0; h < 65536; ++h) {
    float f = bf16ToFloat(static_cast<uint16_t>(h));
    uint16_t back = floatToBF16(f);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(bf16ToFloat(back))) << std::hex << h;
      EXPECT_EQ(back & 0x8000, h & 0x8000) << "NaN keeps its sign " << std::hex << h;
    } else {
      EXPECT_EQ(back, h) << std::hex << h;
    }
  }
}

TEST(BF16, EveryMidpointRoundsToNearestEven) {
  for (uint32_t h = 0; h < 65536; ++h) {
    uint16_t lo = static_cast<uint16_t>(h);
    if ((lo & 0x7FFF) >= 0x7F80) // infinities and NaNs have no successor
      continue;
    uint16_t hi = static_cast<uint16_t>(lo + 1); // next away from zero (same sign)
    uint32_t loF = static_cast<uint32_t>(lo) << 16;
    // Below the midpoint, at it, above it.
    for (uint32_t delta : {0x7FFFu, 0x8000u, 0x8001u, 0x0001u, 0xFFFFu}) {
      float x = floatOf(loF + delta);
      double a = std::fabs(double(bf16ToFloat(lo))), b = std::fabs(double(bf16ToFloat(hi)));
      if ((hi & 0x7FFF) == 0x7F80) // past the max: the successor counts as 2^128 (IEEE overflow)
        b = 0x1p128;
      uint16_t expect = nearestEven(std::fabs(double(x)), lo, a, hi, b);
      ASSERT_EQ(floatToBF16(x), expect) << std::hex << "pattern " << h << " + " << delta;
    }
  }
}

TEST(BF16, KnownValues) {
  EXPECT_EQ(floatToBF16(1.0f), 0x3F80);
  EXPECT_EQ(floatToBF16(-2.0f), 0xC000);
  EXPECT_EQ(floatToBF16(1.00390625f), 0x3F80); // 1 + 2^-8: a tie, even is 1
  EXPECT_EQ(floatToBF16(1.01171875f), 0x3F82); // 1 + 3 * 2^-8: a tie, even is up
  EXPECT_EQ(floatToBF16(3.4e38f), 0x7F80);     // above the max's midpoint: infinity
  EXPECT_EQ(floatToBF16(INFINITY), 0x7F80);
  EXPECT_EQ(floatToBF16(-0.0f), 0x8000);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBF16(NAN))));
  // f64 -> bf16 rounds once: just above a tie goes up, where f64 -> f32 -> bf16 would tie.
  EXPECT_EQ(doubleToBF16(1.0 + 0x1p-8 + 0x1p-40), 0x3F81);
  EXPECT_EQ(doubleToBF16(1.0 + 0x1p-8), 0x3F80);
}

TEST(F16, KnownValues) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF); // max
  EXPECT_EQ(floatToHalf(65519.0f), 0x7BFF); // below the midpoint to 65536
  EXPECT_EQ(floatToHalf(65520.0f), 0x7C00); // the midpoint: ties to even = infinity
  EXPECT_EQ(floatToHalf(1e6f), 0x7C00);
  EXPECT_EQ(floatToHalf(0x1p-14f), 0x0400);         // smallest normal
  EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001);         // smallest subnormal
  EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000);         // half of it: tie to even (0)
  EXPECT_EQ(floatToHalf(0x1.8p-24f), 0x0002);       // 1.5 ulp: tie to even (2)
  EXPECT_EQ(floatToHalf(0x1.0000020p-25f), 0x0001); // just above half an ulp
  EXPECT_EQ(floatToHalf(0.1f), 0x2E66);
  EXPECT_EQ(floatToHalf(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(floatToHalf(1.0f + 0x1p-11f), 0x3C00);   // tie, even is 1
  EXPECT_EQ(floatToHalf(1.0f + 0x1.8p-10f), 0x3C02); // tie, even is up
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(INFINITY), 0x7C00);
  EXPECT_EQ(floatToHalf(NAN) & 0x7E00, 0x7E00);
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(doubleToHalf(1.0 + 0x1p-11 + 0x1p-40), 0x3C01); // single rounding from f64
}

TEST(F16, EveryPatternRoundTrips) {
  for (uint32_t h = 0; h < 65536; ++h) {
    float f = halfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f))
      continue;
    EXPECT_EQ(floatToHalf(f), h) << std::hex << h;
  }
}

TEST(F16, RandomValuesRoundToNearestEven) {
  Random rng(42);
  for (int i = 0; i < 200000; ++i) {
    // Values spread over the whole f16 range, subnormals included.
    double x = std::ldexp(rng.uniform(1.0, 2.0), static_cast<int>(rng.integer(-26, 16)));
    float f = static_cast<float>(x);
    uint16_t got = floatToHalf(f);
    // Candidates: truncation and its successor.
    uint16_t lo = got, hi = got;
    double gv = halfToFloat(got);
    if (gv > f)
      lo = static_cast<uint16_t>(got - 1);
    else
      hi = static_cast<uint16_t>(got + 1);
    if ((hi & 0x7FFF) > 0x7C00)
      continue;
    // Past the max the successor (infinity) counts as 65536, as IEEE overflow rounding says.
    double hv = (hi & 0x7FFF) == 0x7C00 ? 65536.0 : halfToFloat(hi);
    uint16_t expect = nearestEven(f, lo, halfToFloat(lo), hi, hv);
    ASSERT_EQ(got, expect) << f;
  }
}

TEST(TF32, KeepsTenMantissaBits) {
  EXPECT_EQ(roundToTF32(1.0f + 0x1p-10f), 1.0f + 0x1p-10f);
  EXPECT_EQ(roundToTF32(1.0f + 0x1p-11f), 1.0f);             // tie to even
  EXPECT_EQ(roundToTF32(1.0f + 0x1.8p-10f), 1.0f + 0x1p-9f); // tie to even, up
  EXPECT_EQ(roundToTF32(INFINITY), INFINITY);
}
