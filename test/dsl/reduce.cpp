// Reductions (sum, max, min, argmax, argmin, keep_dims, a user combiner) and scans.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int M = 16; int N = 8; };
TESSEL_CONFIG(Config, M, N)

void reductions(const Config &c, Ptr<f32> p, Ptr<i32> q, Ptr<i8> b) {
  Tile<i32> rows = arange(0, c.M)(_, None);                 // (M, 1)
  Tile<i32> cols = arange(0, c.N)(None, _);                 // (1, N)
  Tile<f32> x = load(p + rows * c.N + cols);                // (M, N)
  store(p + arange(0, c.M), sum(x, 1));                     // (M)
  store(p + arange(0, c.N), max(x, 0));                     // (N)
  store(p, min(min(x, -1), 0));
  store(q + arange(0, c.M), argmax(x, 1));                  // (M)
  store(q + arange(0, c.N), argmin(x, 0));                  // (N)
  store(p + rows, sum(x, 1, /*keep_dims=*/true));           // (M, 1)
  store(p + arange(0, c.M),
        reduce(x, 1, [](Float a, Float v) { return a * v; }));       // (M)
  store(p + rows * c.N + cols, cumsum(x, 1));               // (M, N)
  store(p + rows * c.N + cols,
        scan(x, 0, [](Float a, Float v) { return maximum(a, v); }, /*reverse=*/true));  // (M, N)
  Tile<i8> bytes = load(b + arange(0, c.N));                // (N)
  store(q, sum(bytes, 0));                                  // i8 sums in i32
}
TESSEL_KERNEL(reductions, ARGS(p, q, b), CONFIGS(Config{}))

// CHECK-LABEL: func.func @reductions__M_16__N_8(
// CHECK:       %[[X:.*]] = tile.load %{{.*}} : tensor<16x8x!tile.ptr<f32>>
// CHECK:       %[[SUM:.*]] = tile.reduce(%[[X]]) axis = 1 : (tensor<16x8xf32>) -> tensor<16xf32> {
// CHECK:         arith.addf
// CHECK:       tile.reduce(%[[X]]) axis = 0 : (tensor<16x8xf32>) -> tensor<8xf32> {
// CHECK:         arith.maximumf
// CHECK:       %[[MIN1:.*]] = tile.reduce(%[[X]]) axis = 1 : (tensor<16x8xf32>) -> tensor<16xf32> {
// CHECK:         arith.minimumf
// CHECK:       tile.reduce(%[[MIN1]]) axis = 0 : (tensor<16xf32>) -> f32 {
// argmax: a (value, index) reduce; the first index wins ties and a NaN wins over numbers.
// CHECK:       %[[AM:.*]]:2 = tile.reduce(%[[X]], %{{.*}}) axis = 1 : (tensor<16x8xf32>, tensor<16x8xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
// CHECK:       ^bb0(%[[A:.*]]: f32, %[[IA:.*]]: i32, %[[V:.*]]: f32, %[[IV:.*]]: i32):
// CHECK:         arith.cmpf ogt, %[[A]], %[[V]] : f32
// CHECK:         arith.cmpf oeq, %[[A]], %[[V]] : f32
// CHECK:         arith.cmpi slt, %[[IA]], %[[IV]] : i32
// CHECK:         arith.cmpf uno, %[[A]], %[[A]] : f32
// CHECK:         %[[SV:.*]] = arith.select %[[KEEP:.*]], %[[A]], %[[V]] : f32
// CHECK:         %[[SI:.*]] = arith.select %[[KEEP]], %[[IA]], %[[IV]] : i32
// CHECK:         tile.yield %[[SV]], %[[SI]] : f32, i32
// CHECK:       tile.store %{{.*}}, %[[AM]]#1 : tensor<16x!tile.ptr<i32>>
// CHECK:       tile.reduce(%[[X]], %{{.*}}) axis = 0
// CHECK:         arith.cmpf olt
// keep_dims
// CHECK:       tile.expand_dims %[[SUM]] {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
// a user combiner
// CHECK:       tile.reduce(%[[X]]) axis = 1 : (tensor<16x8xf32>) -> tensor<16xf32> {
// CHECK:         arith.mulf
// CHECK:       tile.scan(%[[X]]) axis = 1 : (tensor<16x8xf32>) -> tensor<16x8xf32> {
// CHECK:         arith.addf
// CHECK:       tile.scan(%[[X]]) axis = 0 reverse : (tensor<16x8xf32>) -> tensor<16x8xf32> {
// CHECK:         arith.maximumf
// i8 sums in i32
// CHECK:       %[[WIDE:.*]] = arith.extsi %{{.*}} : tensor<8xi8> to tensor<8xi32>
// CHECK:       tile.reduce(%[[WIDE]]) axis = 0 : (tensor<8xi32>) -> i32 {
