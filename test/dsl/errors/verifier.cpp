// What only the tile dialect's verifier checks is still reported at the user's line.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void atomic_and_float(const C &c, Ptr<f32> a) {
  // CHECK: verifier.cpp:[[@LINE+1]]:{{[0-9]+}}: error: 'tile.atomic_rmw' op atomic and needs an integer (i8 to i64) pointee, got 'f32'
  atomic_and(a + arange(0, 64), 1.0);
}
TESSEL_KERNEL(atomic_and_float, ARGS(a), CONFIGS(C{}))
// CHECK-NOT: error:
