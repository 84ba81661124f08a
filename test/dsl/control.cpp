// for_range emits scf.for with carried values (none, one, a tuple); if_then_else / when emit
// scf.if; a plain C++ loop unrolls at trace time.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 64; };
TESSEL_CONFIG(Config, BLOCK)

void control(const Config &c, Ptr<f32> p, Int n) {
  Tile<i32> cols = arange(0, c.BLOCK);                      // (BLOCK)
  for_range(0, n, c.BLOCK, [&](Int start) { store(p + start + cols, 1.0); });
  Tile<f32> acc = for_range(0, n, c.BLOCK, zeros<f32>({c.BLOCK}),
                            [&](Int start, Tile<f32> acc) {
                              return acc + load(p + start + cols);
                            });                             // (BLOCK)
  auto [m, s] = for_range(1, 10, 2, std::tuple{Float(-inf), Float(0.0)},
                          [&](Int i, Float m, Float s) {
                            Float v = load(p + i);
                            return std::tuple{maximum(m, v), s + v};
                          });
  Float r = if_then_else(m > s, [&] { return m; }, [&] { return s * 2; });
  auto [u, v] = if_then_else(n > 3, [&] { return std::tuple{acc, r}; },
                             [&] { return std::tuple{acc * 2, r + 1}; });
  when(n == 0, [&] { store(p, r); });
  for (int unrolled = 0; unrolled < 2; ++unrolled)
    store(p + unrolled, v);
  store(p + cols, u);
}
TESSEL_KERNEL(control, ARGS(p, n), CONFIGS(Config{}))

// CHECK-LABEL: func.func @control__BLOCK_64(
// No carried values.
// CHECK:       scf.for %[[I:.*]] = %c0_i64 to %arg1 step %c64_i64  : i64 {
// CHECK:         tile.addptr %arg0, %[[I]] : !tile.ptr<f32>, i64
// CHECK:         tile.store
// CHECK-NEXT:  }
// One carried tile.
// CHECK:       %[[ACC:.*]] = scf.for %{{.*}} = %c0_i64 to %arg1 step %c64_i64 iter_args(%[[A:.*]] = %{{.*}}) -> (tensor<64xf32>)  : i64 {
// CHECK:         %[[L:.*]] = tile.load
// CHECK:         %[[N:.*]] = arith.addf %[[A]], %[[L]] : tensor<64xf32>
// CHECK:         scf.yield %[[N]] : tensor<64xf32>
// A tuple of carried scalars.
// CHECK:       %[[MS:.*]]:2 = scf.for %{{.*}} = %c1_i64 to %c10_i64 step %c2_i64 iter_args(%[[M:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (f32, f32)  : i64 {
// CHECK:         arith.maximumf %[[M]]
// CHECK:         arith.addf %[[S]]
// CHECK:         scf.yield %{{.*}}, %{{.*}} : f32, f32
// if_then_else with one result, then with two.
// CHECK:       %[[C:.*]] = arith.cmpf ogt, %[[MS]]#0, %[[MS]]#1 : f32
// CHECK:       %[[R:.*]] = scf.if %[[C]] -> (f32) {
// CHECK:         scf.yield %[[MS]]#0 : f32
// CHECK:       } else {
// CHECK:         arith.mulf %[[MS]]#1
// CHECK:       %[[UV:.*]]:2 = scf.if %{{.*}} -> (tensor<64xf32>, f32) {
// CHECK:         scf.yield %[[ACC]], %[[R]] : tensor<64xf32>, f32
// CHECK:       } else {
// when: no else branch.
// CHECK:       scf.if %{{.*}} {
// CHECK-NEXT:    tile.store %arg0, %[[R]] : !tile.ptr<f32>
// CHECK-NEXT:  }
// The plain C++ loop unrolled: two stores.
// CHECK:       tile.store %arg0, %[[UV]]#1 : !tile.ptr<f32>
// CHECK:       tile.store %{{.*}}, %[[UV]]#1 : !tile.ptr<f32>
// CHECK:       tile.store %{{.*}}, %[[UV]]#0 : tensor<64x!tile.ptr<f32>>
