// An exception thrown by the kernel's own C++ code is reported at its TESSEL_KERNEL line.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
#include <stdexcept>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void throws(const C &c, Ptr<f32> a) {
  if (c.BLOCK > 32)
    throw std::runtime_error("BLOCK too large for this kernel");
}
// CHECK: exception.cpp:[[@LINE+1]]:1: error: kernel 'throws' threw an exception: BLOCK too large for this kernel
TESSEL_KERNEL(throws, ARGS(a), CONFIGS(C{}))
