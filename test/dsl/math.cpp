// Element-wise math on f32 tiles; maximum/minimum propagate NaN (arith.maximumf/minimumf);
// sigmoid expands to 1 / (1 + exp(-x)); where is arith.select; cdiv is integer ceil division.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 32; };
TESSEL_CONFIG(Config, BLOCK)

void math_ops(const Config &c, Ptr<f32> p, Ptr<i32> q, Int n) {
  Tile<i32> r = arange(0, c.BLOCK);               // (BLOCK)
  Tile<f32> x = load(p + r);                      // (BLOCK)
  store(p + r, exp(x) + exp2(x) + log(x) + log2(x));
  store(p + r, sqrt(x) + rsqrt(x) + abs(x) + sin(x) + cos(x) + tanh(x));
  store(p + r, sigmoid(x) + erf(x) + floor(x) + ceil(x));
  store(p + r, maximum(x, 0.0) + minimum(x, x * 2));
  store(p + r, fma(x, x, x));
  store(p + r, where(r < n, x, 0.0));
  store(q + r, abs(r) + maximum(r, 3));
  store(q, cast<i32>(cdiv(n, c.BLOCK)));
}
TESSEL_KERNEL(math_ops, ARGS(p, q, n), CONFIGS(Config{}))

// CHECK-LABEL: func.func @math_ops__BLOCK_32(
// CHECK:     %[[X:.*]] = tile.load %{{.*}} : tensor<32x!tile.ptr<f32>>
// CHECK-DAG: math.exp %[[X]] : tensor<32xf32>
// CHECK-DAG: math.exp2 %[[X]]
// CHECK-DAG: math.log %[[X]]
// CHECK-DAG: math.log2 %[[X]]
// CHECK-DAG: math.sqrt %[[X]]
// CHECK-DAG: math.rsqrt %[[X]]
// CHECK-DAG: math.absf %[[X]]
// CHECK-DAG: math.sin %[[X]]
// CHECK-DAG: math.cos %[[X]]
// CHECK-DAG: math.tanh %[[X]]
// CHECK-DAG: math.erf %[[X]]
// CHECK-DAG: math.floor %[[X]]
// CHECK-DAG: math.ceil %[[X]]
// sigmoid(x) = 1 / (1 + exp(-x))
// CHECK:     %[[NEG:.*]] = arith.negf %[[X]]
// CHECK:     %[[E:.*]] = math.exp %[[NEG]]
// CHECK:     %[[D:.*]] = arith.addf %[[E]], %[[ONE:.*]] : tensor<32xf32>
// CHECK:     arith.divf %[[ONE]], %[[D]]
// CHECK-DAG: arith.minimumf %[[X]]
// CHECK-DAG: arith.maximumf %[[X]]
// CHECK:     math.fma %[[X]], %[[X]], %[[X]] : tensor<32xf32>
// CHECK:     %[[M:.*]] = arith.cmpi slt
// CHECK:     arith.select %[[M]], %[[X]], %{{.*}} : tensor<32xi1>, tensor<32xf32>
// CHECK-DAG: arith.maxsi
// CHECK-DAG: math.absi
// cdiv(n, 32) = (n + 31) / 32
// CHECK:     %[[S:.*]] = arith.addi %arg2, %c31_i64 : i64
// CHECK:     arith.divsi %[[S]], %c32_i64 : i64
