//===- Random.cpp - seeded inputs that are never zero ----------------------===//
#include "tessel/Harness/Random.h"

#include <cmath>

using namespace tessel::harness;

static uint64_t splitmix64(uint64_t &x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Random::Random(uint64_t seed) {
  for (uint64_t &s : s_)
    s = splitmix64(seed);
}

uint64_t Random::next() {
  uint64_t result = rotl(s_[1] * 5, 7) * 9;
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Random::uniform01() { return static_cast<double>(next() >> 11) * 0x1p-53; }

double Random::normal() {
  double u1 = uniform01(), u2 = uniform01();
  if (u1 < 1e-300)
    u1 = 1e-300;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

int64_t Random::integer(int64_t lo, int64_t hi) {
  uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(span ? next() % span : next());
}

void tessel::harness::fillUniform(HostBuffer &buf, Random &rng, double lo, double hi) {
  for (int64_t i = 0; i < buf.numel(); ++i) {
    if (isInt(buf.dtype())) {
      int64_t v = 0;
      while (v == 0)
        v = rng.integer(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
      buf.setInt(i, v);
      continue;
    }
    do
      buf.set(i, rng.uniform(lo, hi));
    while (buf.get(i) == 0.0);
  }
}

void tessel::harness::fillNormal(HostBuffer &buf, Random &rng, double mean, double stddev) {
  for (int64_t i = 0; i < buf.numel(); ++i)
    do
      buf.set(i, mean + stddev * rng.normal());
    while (buf.get(i) == 0.0);
}
