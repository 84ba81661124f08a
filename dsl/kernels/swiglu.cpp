//===- swiglu.cpp - gated linear units: SwiGLU and GeGLU ------------------===//
//
// out = act(gate) * up, element-wise over n elements, in f32; one program per BLOCK elements;
// grid = (cdiv(n, BLOCK),).
//
//===----------------------------------------------------------------------===//
#include "RowSpaces.h"

#include "Gelu.h"

#include <tessel/dsl.h>

using namespace tessel::dsl;

struct GLUConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(GLUConfig, BLOCK, num_warps)

/// SwiGLU: silu(gate) * up = gate * sigmoid(gate) * up.
template <class T>
void swiglu(const GLUConfig &c, Ptr<T> out, Ptr<T> gate, Ptr<T> up, Int n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                              // (BLOCK)
  Tile<f32> g = cast<f32>(load(gate + offs, m));                  // (BLOCK)
  Tile<f32> u = cast<f32>(load(up + offs, m));                    // (BLOCK)
  store(out + offs, cast<T>(g * sigmoid(g) * u), m);
}
TESSEL_KERNEL(swiglu, DTYPES(f32, f16, bf16), ARGS(out, gate, up, n),
              CONFIGS(GLUConfig{.BLOCK = 1024, .num_warps = 4},
                      GLUConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(swiglu, elementwiseSpace<GLUConfig>())

struct GeGLUConfig {
  int BLOCK = 1024;
  GeluApprox approximate = GeluApprox::none;
  int num_warps = 4;
};
TESSEL_CONFIG(GeGLUConfig, BLOCK, approximate, num_warps)

/// GeGLU: gelu(gate) * up.
template <class T>
void geglu(const GeGLUConfig &c, Ptr<T> out, Ptr<T> gate, Ptr<T> up, Int n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                              // (BLOCK)
  Tile<f32> g = cast<f32>(load(gate + offs, m));                  // (BLOCK)
  Tile<f32> u = cast<f32>(load(up + offs, m));                    // (BLOCK)
  Tile<f32> act;                                                  // (BLOCK)
  if (c.approximate == GeluApprox::tanh)
    act = g * geluTanhCdf(g);
  else
    act = 0.5 * g * (1.0 + erf(g * 0.7071067811865476));
  store(out + offs, cast<T>(act * u), m);
}
TESSEL_KERNEL(geglu, DTYPES(f32, f16, bf16), ARGS(out, gate, up, n),
              CONFIGS(GeGLUConfig{.BLOCK = 1024, .num_warps = 4},
                      GeGLUConfig{.BLOCK = 4096, .num_warps = 8},
                      GeGLUConfig{.BLOCK = 4096, .approximate = GeluApprox::tanh,
                                  .num_warps = 8}))
TESSEL_TUNE(geglu, elementwiseSpace<GeGLUConfig>())
