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

#endif // TESSEL_KERNELS_GELU_H
