//===- Gelu.h - the GELU formulas the GeGLU kernels take -------------*- C++ -*-===//
//
// GeGLU's forward (swiglu.cpp) and backward (swiglu_backward.cpp) kernels take the same choice
// of GELU, PyTorch's F.gelu `approximate` argument: the exact one with erf ('none') or the
// tanh approximation ('tanh').
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_KERNELS_GELU_H
#define TESSEL_KERNELS_GELU_H

#include <tessel/dsl.h>

TESSEL_ENUM(GeluApprox, none, tanh)

/// The tanh approximation's 0.5 (1 + tanh(k (g + 0.044715 g^3))), k = sqrt(2 / pi), written as
/// sigmoid(2 k (g + 0.044715 g^3)), the same function ((1 + tanh(y)) / 2 = sigmoid(2 y)): one
/// exp2 and one division (each a single fast instruction on the GPU targets) where a math
/// library's tanh takes about twenty, which the GeGLU kernels, a few flops per byte, feel; and 1 + tanh(y)
/// does not cancel for large negative y. gelu_tanh(g) = g * geluTanhCdf(g).
inline tessel::dsl::Tile<tessel::dsl::f32>
geluTanhCdf(const tessel::dsl::Tile<tessel::dsl::f32> &g) {
  return sigmoid(1.5957691216057308 * (g + 0.044715 * g * g * g));
}

#endif // TESSEL_KERNELS_GELU_H
