// Every op carries the user's file:line:col, including ops of the operators.
// RUN: tesselc %s -o - --mlir-print-debuginfo | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 64; };
TESSEL_CONFIG(Config, BLOCK)

void located(const Config &c, Ptr<f32> out, Ptr<f32> in, Int n) {
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n;
  Tile<f32> x = load(in + cols, m, 0.0);
  store(out + cols, exp(x) * 2, m);
}
TESSEL_KERNEL(located, ARGS(out, in, n), CONFIGS(Config{}))

// The kernel's own location is its TESSEL_KERNEL line; arguments are named after ARGS.
// CHECK:      #loc = loc("{{.*}}locations.cpp":15:1)
// CHECK:      func.func @located__BLOCK_64(%arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32} loc("out"(#loc)), %arg1: {{.*}} loc("in"(#loc)), %arg2: i64 loc("n"(#loc)))
// CHECK:      tile.arange 0, 64 : tensor<64xi32> loc(#[[ARANGE:loc[0-9]+]])
// CHECK:      arith.cmpi slt, {{.*}} loc(#[[CMP:loc[0-9]+]])
// CHECK:      tile.load {{.*}} loc(#[[LOAD:loc[0-9]+]])
// CHECK:      math.exp {{.*}} loc(#[[EXP:loc[0-9]+]])
// CHECK:      arith.mulf {{.*}} loc(#[[MUL:loc[0-9]+]])
// CHECK:      tile.store {{.*}} loc(#[[STORE:loc[0-9]+]])
// CHECK-DAG:  #[[ARANGE]] = loc("{{.*}}locations.cpp":10:
// CHECK-DAG:  #[[CMP]] = loc("{{.*}}locations.cpp":11:
// CHECK-DAG:  #[[LOAD]] = loc("{{.*}}locations.cpp":12:
// CHECK-DAG:  #[[EXP]] = loc("{{.*}}locations.cpp":13:
// CHECK-DAG:  #[[MUL]] = loc("{{.*}}locations.cpp":13:
// CHECK-DAG:  #[[STORE]] = loc("{{.*}}locations.cpp":13:
