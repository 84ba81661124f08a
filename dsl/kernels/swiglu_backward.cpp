//===- swiglu_backward.cpp - the gated linear units' gradients ------------===//
//
// For out = act(gate) * up, element-wise in f32: dgate = dout * up * act'(gate), dup = dout *
// act(gate). SwiGLU: act = silu, with s = sigmoid(gate), act' = s * (1 + gate * (1 - s)).
// GeGLU: act = gelu (erf, or its tanh approximation, as the forward kernels in swiglu.cpp).
// gate and up are read once; the forward pass saves only its inputs. Grid: (cdiv(n, BLOCK),).
//
//===----------------------------------------------------------------------===//
#include "Gelu.h"
#include "RowSpaces.h"

#include <tessel/dsl.h>

using namespace tessel::dsl;

struct GLUBackwardConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(GLUBackwardConfig, BLOCK, num_warps)

/// All tensors hold n contiguous elements; dgate may alias gate and dup may alias up (in place).
template <class T>
void swiglu_backward(const GLUBackwardConfig &c, Ptr<T> dgate, Ptr<T> dup, Ptr<T> dout,
                     Ptr<T> gate, Ptr<T> up, Int n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                              // (BLOCK)
  Tile<f32> d = cast<f32>(load(dout + offs, m));                  // (BLOCK)
  Tile<f32> g = cast<f32>(load(gate + offs, m));                  // (BLOCK)
  Tile<f32> u = cast<f32>(load(up + offs, m));                    // (BLOCK)
  Tile<f32> s = sigmoid(g);                                       // (BLOCK)
  store(dgate + offs, cast<T>(d * u * s * (1.0 + g * (1.0 - s))), m);
  store(dup + offs, cast<T>(d * g * s), m);
}
TESSEL_KERNEL(swiglu_backward, DTYPES(f32, f16, bf16), ARGS(dgate, dup, dout, gate, up, n),
              CONFIGS(GLUBackwardConfig{.BLOCK = 1024, .num_warps = 4},
                      GLUBackwardConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(swiglu_backward, elementwiseSpace<GLUBackwardConfig>())

struct GeGLUBackwardConfig {
  int BLOCK = 1024;
  GeluApprox approximate = GeluApprox::none;
  int num_warps = 4;
};
TESSEL_CONFIG(GeGLUBackwardConfig, BLOCK, approximate, num_warps)

/// As swiglu_backward, for gelu(gate) * up:
///   erf:  gelu' = 0.5 (1 + erf(g / sqrt 2)) + g exp(-g^2 / 2) / sqrt(2 pi)
///   tanh: with t = tanh(k (g + 0.044715 g^3)), k = sqrt(2 / pi),
///         gelu' = 0.5 (1 + t) + 0.5 g (1 - t^2) k (1 + 3 * 0.044715 g^2);
///         with s = 0.5 (1 + t) (geluTanhCdf), 1 - t^2 = 4 s (1 - s):
///         gelu' = s + 2 g s (1 - s) k (1 + 3 * 0.044715 g^2)
template <class T>
void geglu_backward(const GeGLUBackwardConfig &c, Ptr<T> dgate, Ptr<T> dup, Ptr<T> dout,
                    Ptr<T> gate, Ptr<T> up, Int n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                              // (BLOCK)
  Tile<f32> d = cast<f32>(load(dout + offs, m));                  // (BLOCK)
  Tile<f32> g = cast<f32>(load(gate + offs, m));                  // (BLOCK)
  Tile<f32> u = cast<f32>(load(up + offs, m));                    // (BLOCK)
  Tile<f32> act, dact;                                            // (BLOCK)
  if (c.approximate == GeluApprox::tanh) {
    Tile<f32> s = geluTanhCdf(g); // (BLOCK)
    act = g * s;
    dact = s + 2.0 * g * s * (1.0 - s) * 0.7978845608028654 * (1.0 + 0.134145 * g * g);
  } else {
    Tile<f32> cdf = 0.5 * (1.0 + erf(g * 0.7071067811865476)); // (BLOCK)
    act = g * cdf;
    dact = cdf + g * exp(-0.5 * g * g) * 0.3989422804014327;
  }
  store(dgate + offs, cast<T>(d * u * dact), m);
  store(dup + offs, cast<T>(d * act), m);
}
TESSEL_KERNEL(geglu_backward, DTYPES(f32, f16, bf16), ARGS(dgate, dup, dout, gate, up, n),
              CONFIGS(GeGLUBackwardConfig{.BLOCK = 1024, .num_warps = 4},
                      GeGLUBackwardConfig{.BLOCK = 4096, .num_warps = 8},
                      GeGLUBackwardConfig{.BLOCK = 4096, .approximate = GeluApprox::tanh,
                                          .num_warps = 8}))
// approximate stays at its default (none), as geglu's space.
TESSEL_TUNE(geglu_backward, elementwiseSpace<GeGLUBackwardConfig>())
