// Registration problems: ARGS naming the wrong number of arguments is reported at the
// TESSEL_KERNEL line; an exception thrown by the kernel's C++ code at the kernel's line.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
#include <stdexcept>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void two_args(const C &c, Ptr<f32> a, Int n) {}
// CHECK: registration.cpp:[[@LINE+1]]:1: error: ARGS names 1 arguments but kernel 'two_args' takes 2 (after its config)
TESSEL_KERNEL(two_args, ARGS(a), CONFIGS(C{}))
