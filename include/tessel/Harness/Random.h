//===- Random.h - seeded inputs that are never zero ---------------*- C++ -*-===//
#ifndef TESSEL_HARNESS_RANDOM_H
#define TESSEL_HARNESS_RANDOM_H

#include "tessel/Harness/HostBuffer.h"

#include <cstdint>

namespace tessel::harness {

/// xoshiro256** seeded through splitmix64: the same seed gives the same stream everywhere.
class Random {
public:
  explicit Random(uint64_t seed);
  uint64_t next();
  /// Uniform in [0, 1) with 53 random bits.
  double uniform01();
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
  /// Standard normal (Box-Muller).
  double normal();
  /// Uniform integer in [lo, hi].
  int64_t integer(int64_t lo, int64_t hi);

private:
  uint64_t s_[4];
};

/// Fills a float buffer with values uniform in [lo, hi) that are nonzero after rounding to the
/// buffer's dtype (a zero input hides masking and scaling bugs); integer buffers get integers
/// in [lo, hi] other than 0. A float buffer of 2^22 elements or more is drawn on every core,
/// each 2^16-element chunk from its own stream seeded by one draw of `rng` and the chunk's
/// index (the same values for any thread count), and takes that one draw from `rng`; smaller
/// ones continue `rng`'s stream element by element. (Since 2026-12-05: a problem's buffers
/// drawn after a large one differ from earlier versions'.)
void fillUniform(HostBuffer &buf, Random &rng, double lo = -1.0, double hi = 1.0);
/// Fills with normal values (mean, stddev), nonzero after rounding (large buffers as
/// fillUniform).
void fillNormal(HostBuffer &buf, Random &rng, double mean = 0.0, double stddev = 1.0);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_RANDOM_H
