// Shape ops: expand_dims, broadcast_to, reshape, trans, and x(_, None) subscripts.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int M = 4; int N = 8; };
TESSEL_CONFIG(Config, M, N)

void shapes(const Config &c, Ptr<i32> out) {
  Tile<i32> r = arange(0, c.M * c.N);                       // (M*N)
  Tile<i32> t = reshape(r, {c.M, c.N});                     // (M, N)
  Tile<i32> tt = trans(t);                                  // (N, M)
  Tile<i32> e = expand_dims(arange(0, c.N), 0);             // (1, N)
  Tile<i32> b = broadcast_to(e, {c.M, c.N});                // (M, N)
  Tile<i32> col = arange(0, c.M)(_, None);                  // (M, 1)
  Tile<i32> t3 = trans(expand_dims(t, 2), {2, 0, 1});       // (1, M, N)
  store(out + col * c.N + e, t + b + trans(tt) + reshape(t3, {c.M, c.N}));
}
TESSEL_KERNEL(shapes, ARGS(out), CONFIGS(Config{}))

// CHECK-LABEL: func.func @shapes__M_4__N_8(
// CHECK:       %[[R:.*]] = tile.arange 0, 32 : tensor<32xi32>
// CHECK:       %[[T:.*]] = tile.reshape %[[R]] : tensor<32xi32> -> tensor<4x8xi32>
// CHECK:       %[[E:.*]] = tile.expand_dims %{{.*}} {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
// CHECK:       %[[B:.*]] = tile.broadcast %[[E]] : tensor<1x8xi32> -> tensor<4x8xi32>
// CHECK:       tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
// CHECK:       %[[E3:.*]] = tile.expand_dims %[[T]] {axis = 2 : i32} : tensor<4x8xi32> -> tensor<4x8x1xi32>
// CHECK:       %[[T3:.*]] = tile.trans %[[E3]] {order = array<i32: 2, 0, 1>} : tensor<4x8x1xi32> -> tensor<1x4x8xi32>
// CHECK:       %[[BACK:.*]] = tile.reshape %[[T3]] : tensor<1x4x8xi32> -> tensor<4x8xi32>
// trans(trans(t)) folds away.
// CHECK:       %[[S1:.*]] = arith.addi %[[T]], %[[B]] : tensor<4x8xi32>
// CHECK:       %[[S2:.*]] = arith.addi %[[S1]], %[[T]] : tensor<4x8xi32>
// CHECK:       arith.addi %[[S2]], %[[BACK]] : tensor<4x8xi32>
