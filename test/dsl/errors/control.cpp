// Loops and branches: values made in a body must leave through its return value; carried
// values keep their shapes; both branches return the same types; conditions are i1 scalars.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void escape(const C &c, Ptr<f32> a, Int n) {
  Tile<f32> leaked;
  for_range(0, n, 1, [&](Int i) { leaked = load(a + i + arange(0, 64)); });
  // CHECK: control.cpp:[[@LINE+1]]:{{[0-9]+}}: error: this value was made inside a for_range, if_then_else or combiner body and is used outside it; return it from the body instead (a tile of f32 [64])
  store(a + arange(0, 64), leaked);
}
TESSEL_KERNEL(escape, ARGS(a, n), CONFIGS(C{}))

void carried_shape(const C &c, Ptr<f32> a, Int n) {
  // CHECK: control.cpp:[[@LINE+1]]:{{[0-9]+}}: error: for_range: the body returns carried value #0 as a tile of f32 [32] but it entered the loop as a tile of f32 [64]
  Tile<f32> acc = for_range(0, n, 1, zeros<f32>({64}), [&](Int i, Tile<f32> acc) {
    return zeros<f32>({32});
  });
}
TESSEL_KERNEL(carried_shape, ARGS(a, n), CONFIGS(C{}))

void branch_shapes(const C &c, Ptr<f32> a, Int n) {
  // CHECK: control.cpp:[[@LINE+1]]:{{[0-9]+}}: error: if_then_else: value #0 is a tile of f32 [64] in the then-branch but a tile of f32 [32] in the else-branch
  Tile<f32> r = if_then_else(n > 0, [&] { return zeros<f32>({64}); },
                             [&] { return zeros<f32>({32}); });
}
TESSEL_KERNEL(branch_shapes, ARGS(a, n), CONFIGS(C{}))

void tile_condition(const C &c, Ptr<f32> a, Int n) {
  // CHECK: control.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the condition of if_then_else / when must be an i1 scalar (a comparison of scalars), got a tile of i1 [64]
  when(arange(0, 64) < n, [&] { store(a, 1.0); });
}
TESSEL_KERNEL(tile_condition, ARGS(a, n), CONFIGS(C{}))

void unassigned(const C &c, Ptr<f32> a) {
  Tile<f32> x;
  // CHECK: control.cpp:[[@LINE+1]]:{{[0-9]+}}: error: use of an unassigned handle (declared without a value)
  store(a + arange(0, 64), x);
}
TESSEL_KERNEL(unassigned, ARGS(a), CONFIGS(C{}))
// CHECK-NOT: error:
