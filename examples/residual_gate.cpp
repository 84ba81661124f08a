//===- residual_gate.cpp - a user kernel: gated residual add --------------===//
//
// Not a library kernel: what a user writes for their own model, then checks and times with
// tessel-run's raw mode against a reference of their own (README, "Your own kernel").
//   out[i] = residual[i] + tanh(gate[i]) * x[i]    (bf16 in and out, f32 math)
// over n elements, one program per BLOCK elements: grid = (cdiv(n, BLOCK),).
//
//===----------------------------------------------------------------------===//
#include <tessel/dsl.h>

using namespace tessel::dsl;

struct GateConfig {
  int BLOCK = 2048;
  int num_warps = 8;
};
TESSEL_CONFIG(GateConfig, BLOCK, num_warps)

template <class T>
void residual_gate(const GateConfig &c, Ptr<T> out, Ptr<T> residual, Ptr<T> gate, Ptr<T> x,
                   Int n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                              // (BLOCK)
  Tile<f32> r = cast<f32>(load(residual + offs, m));              // (BLOCK)
  Tile<f32> g = cast<f32>(load(gate + offs, m));                  // (BLOCK)
  Tile<f32> v = cast<f32>(load(x + offs, m));                     // (BLOCK)
  store(out + offs, cast<T>(r + tanh(g) * v), m);
}
TESSEL_KERNEL(residual_gate, DTYPES(bf16), ARGS(out, residual, gate, x, n),
              CONFIGS(GateConfig{}))
