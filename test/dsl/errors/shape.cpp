// Shape misuse is reported at the user's line with both shapes; each kernel stops at its
// first error and tesselc exits 1 after reporting all of them.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 128; };
TESSEL_CONFIG(C, BLOCK)

void binary_shapes(const C &c, Ptr<f32> p) {
  Tile<f32> a = load(p + arange(0, 128));        // (128)
  Tile<f32> b = load(p + arange(0, 64));         // (64)
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: shape mismatch in '+': [128] and [64] do not broadcast
  store(p + arange(0, 128), a + b);
}
TESSEL_KERNEL(binary_shapes, ARGS(p), CONFIGS(C{}))

void mask_shape(const C &c, Ptr<f32> p) {
  Mask m = arange(0, 128) < 10;                  // (128)
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: mask shape [128] does not match pointer shape [64]
  Tile<f32> x = load(p + arange(0, 64), m);
}
TESSEL_KERNEL(mask_shape, ARGS(p), CONFIGS(C{}))

void other_shape(const C &c, Ptr<f32> p) {
  Mask m = arange(0, 64) < 10;                   // (64)
  Tile<f32> o = zeros<f32>({32});                // (32)
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: 'other' shape [32] does not match pointer shape [64]
  Tile<f32> x = load(p + arange(0, 64), m, o);
}
TESSEL_KERNEL(other_shape, ARGS(p), CONFIGS(C{}))

void store_shape(const C &c, Ptr<f32> p) {
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the stored value shape [32] does not match pointer shape [64]
  store(p + arange(0, 64), zeros<f32>({32}));
}
TESSEL_KERNEL(store_shape, ARGS(p), CONFIGS(C{}))

void offset_shape(const C &c, Ptr<f32> p) {
  Ptr<f32> q = p + arange(0, 64);                // (64)
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: offset shape [32] does not broadcast with pointer shape [64]
  q = q + arange(0, 32);
}
TESSEL_KERNEL(offset_shape, ARGS(p), CONFIGS(C{}))

void broadcast_shape(const C &c, Ptr<f32> p) {
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot broadcast a tile of i32 [64] to [4, 32]
  Tile<i32> b = broadcast_to(arange(0, 64), {4, 32});
}
TESSEL_KERNEL(broadcast_shape, ARGS(p), CONFIGS(C{}))

void reshape_size(const C &c, Ptr<f32> p) {
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: cannot reshape a tile of i32 [64] (64 elements) to [4, 8] (32 elements)
  Tile<i32> r = reshape(arange(0, 64), {4, 8});
}
TESSEL_KERNEL(reshape_size, ARGS(p), CONFIGS(C{}))

void subscript_count(const C &c, Ptr<f32> p) {
  // CHECK: shape.cpp:[[@LINE+1]]:{{[0-9]+}}: error: subscript with 2 '_' for a tile of i32 [64]
  Tile<i32> r = arange(0, 64)(_, _);
}
TESSEL_KERNEL(subscript_count, ARGS(p), CONFIGS(C{}))
// CHECK-NOT: error:
