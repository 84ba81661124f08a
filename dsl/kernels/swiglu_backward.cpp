//===- swiglu_backward.cpp - SwiGLU's gradients ---------------------------===//
//
// For out = silu(gate) * up, with s = sigmoid(gate), element-wise in f32:
//   dgate = dout * up * s * (1 + gate * (1 - s))
//   dup   = dout * gate * s
// gate and up are read once; the forward pass saves only its inputs. Grid: (cdiv(n, BLOCK),).
//
//===----------------------------------------------------------------------===//
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
