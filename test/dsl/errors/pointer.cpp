// Loads and stores need pointers; pointer offsets are integers.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void load_non_pointer(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, 64));         // (64)
  // CHECK: pointer.cpp:[[@LINE+1]]:{{[0-9]+}}: error: load needs a pointer (Ptr<T>, a tile of pointers or a block pointer), got a tile of f32 [64]
  Tile<f32> y = load(x);
}
TESSEL_KERNEL(load_non_pointer, ARGS(a), CONFIGS(C{}))

void masked_load_non_pointer(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, 64));         // (64)
  // CHECK: pointer.cpp:[[@LINE+1]]:{{[0-9]+}}: error: load needs a pointer (Ptr<T>, a tile of pointers or a block pointer), got a tile of f32 [64]
  Tile<f32> y = load(x, x > 0.0, 0.0);
}
TESSEL_KERNEL(masked_load_non_pointer, ARGS(a), CONFIGS(C{}))

void store_non_pointer(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, 64));         // (64)
  // CHECK: pointer.cpp:[[@LINE+1]]:{{[0-9]+}}: error: store needs a pointer (Ptr<T>, a tile of pointers or a block pointer), got a tile of f32 [64]
  store(x, 1.0);
}
TESSEL_KERNEL(store_non_pointer, ARGS(a), CONFIGS(C{}))

void float_offsets(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, 64));         // (64)
  // CHECK: pointer.cpp:[[@LINE+1]]:{{[0-9]+}}: error: pointer offsets must be integers, got a tile of f32 [64]
  Ptr<f32> p = a + x;
}
TESSEL_KERNEL(float_offsets, ARGS(a), CONFIGS(C{}))
// CHECK-NOT: error:
