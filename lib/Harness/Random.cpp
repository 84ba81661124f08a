//===- Random.cpp - seeded inputs that are never zero ----------------------===//
#include "tessel/Harness/Random.h"
#include "tessel/Harness/FloatFormats.h"
#include "tessel/Harness/Parallel.h"

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

/// Elements [begin, end) of p: draw() rounded by enc, drawn again while dec gives 0 (as
/// set(i, v) then get(i) == 0.0 do, without a dtype switch per element).
template <class S, class Draw, class Enc, class Dec>
static void drawRange(S *p, int64_t begin, int64_t end, Draw draw, Enc enc, Dec dec) {
  for (int64_t i = begin; i < end; ++i) {
    S s;
    do
      s = enc(draw());
    while (dec(s) == 0.0);
    p[i] = s;
  }
}

template <class Draw>
static void drawFloats(HostBuffer &buf, int64_t begin, int64_t end, Draw draw) {
  switch (buf.dtype()) {
  case DType::f16:
    return drawRange(buf.as<uint16_t>(), begin, end, draw, doubleToHalf, halfToFloat);
  case DType::bf16:
    return drawRange(buf.as<uint16_t>(), begin, end, draw, doubleToBF16, bf16ToFloat);
  case DType::f32:
    return drawRange(
        buf.as<float>(), begin, end, draw, [](double v) { return static_cast<float>(v); },
        [](float v) { return v; });
  default: // f64: the callers take integer dtypes apart
    return drawRange(
        buf.as<double>(), begin, end, draw, [](double v) { return v; }, [](double v) { return v; });
  }
}

/// A float buffer of kParallelDraw elements or more draws each chunk of kChunkElements from its
/// own stream, seeded by one draw of `rng` plus the chunk's index, on every core: the values
/// do not depend on the thread count. Smaller ones take rng's own stream, element by element.
static constexpr int64_t kParallelDraw = int64_t(1) << 22;

template <class Sample> static void fillFloats(HostBuffer &buf, Random &rng, Sample sample) {
  if (buf.numel() < kParallelDraw) {
    drawFloats(buf, 0, buf.numel(), [&] { return sample(rng); });
    return;
  }
  uint64_t base = rng.next();
  forChunks(buf.numel(), kChunkElements, [&](int64_t index, int64_t begin, int64_t end) {
    Random own(base + static_cast<uint64_t>(index));
    drawFloats(buf, begin, end, [&] { return sample(own); });
  });
}

void tessel::harness::fillUniform(HostBuffer &buf, Random &rng, double lo, double hi) {
  if (!isInt(buf.dtype())) {
    fillFloats(buf, rng, [=](Random &r) { return r.uniform(lo, hi); });
    return;
  }
  for (int64_t i = 0; i < buf.numel(); ++i) {
    int64_t v = 0;
    while (v == 0)
      v = rng.integer(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
    buf.setInt(i, v);
  }
}

void tessel::harness::fillNormal(HostBuffer &buf, Random &rng, double mean, double stddev) {
  if (!isInt(buf.dtype())) {
    fillFloats(buf, rng, [=](Random &r) { return mean + stddev * r.normal(); });
    return;
  }
  for (int64_t i = 0; i < buf.numel(); ++i)
    do
      buf.set(i, mean + stddev * rng.normal());
    while (buf.get(i) == 0.0);
}
