// Operators: numpy broadcasting, the promotion table (wider int wins, int with float gives
// the float, f16 with bf16 gives f32, literals adopt the tile's type), comparisons, bit ops.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 64; };
TESSEL_CONFIG(Config, BLOCK)

void arith(const Config &c, Ptr<i64> pi, Ptr<f32> pf, Ptr<i1> pb, Ptr<f16> ph, Ptr<bf16> pbf,
           Int n, Float x) {
  Tile<i32> r = arange(0, c.BLOCK);               // (BLOCK)
  Tile<i64> wide = r + n;                         // (BLOCK) i32 + i64 -> i64
  store(pi + r, wide * 3 - r / 2 + r % 5);
  store(pi + r, (wide << 2) >> 1);
  store(pi + r, (wide & 7) | (wide ^ -1));
  Tile<f32> f = r * 0.5;                          // (BLOCK) i32 * double literal -> f32
  store(pf + r, f + x);
  Tile<f16> h = load(ph + r);                     // (BLOCK)
  Tile<bf16> bh = load(pbf + r);                  // (BLOCK)
  store(pf + r, h + bh);                          // f16 + bf16 -> f32
  store(ph + r, h * 2 + 1.0);                     // literals adopt f16
  store(pb + r, (r < n) & (f >= x) | !(r == 3) ^ (r != 4));
  store(pf + r, -f);
  store(pi + r, -wide);
  store(pi + r, ~wide);
  Tile<f32> acc = f;                              // (BLOCK)
  acc += x;
  acc *= 2;
  store(pf + r, acc);
  Tile<i32> row = r(None, _) + r(_, None);        // (BLOCK, BLOCK)
  store(pi + row, cast<i64>(row));
}
TESSEL_KERNEL(arith, ARGS(pi, pf, pb, ph, pbf, n, x), CONFIGS(Config{}))

// CHECK-LABEL: func.func @arith__BLOCK_64(
// CHECK:         %[[R:.*]] = tile.arange 0, 64 : tensor<64xi32>
// i32 + i64: the i32 tile is sign-extended, the i64 scalar splatted.
// CHECK:         %[[R64:.*]] = arith.extsi %[[R]] : tensor<64xi32> to tensor<64xi64>
// CHECK:         %[[N:.*]] = tile.splat %arg5 : i64 -> tensor<64xi64>
// CHECK:         %[[WIDE:.*]] = arith.addi %[[R64]], %[[N]] : tensor<64xi64>
// CHECK-DAG:     arith.remsi %[[R]], %{{.*}} : tensor<64xi32>
// CHECK-DAG:     arith.divsi %[[R]], %{{.*}} : tensor<64xi32>
// CHECK-DAG:     arith.muli %[[WIDE]], %{{.*}} : tensor<64xi64>
// Operands of one expression are traced in the C++ compiler's evaluation order: DAG.
// CHECK-DAG:     arith.shli %[[WIDE]]
// CHECK-DAG:     arith.shrsi
// CHECK-DAG:     arith.xori %[[WIDE]]
// CHECK-DAG:     arith.andi %[[WIDE]]
// CHECK:         arith.ori
// i32 * 0.5: an int with a float literal is f32.
// CHECK:         %[[RF:.*]] = arith.sitofp %[[R]] : tensor<64xi32> to tensor<64xf32>
// CHECK:         %[[F:.*]] = arith.mulf %[[RF]], %{{.*}} : tensor<64xf32>
// CHECK:         %[[X:.*]] = tile.splat %arg6 : f32 -> tensor<64xf32>
// CHECK:         arith.addf %[[F]], %[[X]] : tensor<64xf32>
// f16 + bf16 is f32.
// CHECK:         %[[H:.*]] = tile.load %{{.*}} : tensor<64x!tile.ptr<f16>>
// CHECK:         %[[B:.*]] = tile.load %{{.*}} : tensor<64x!tile.ptr<bf16>>
// CHECK:         %[[HF:.*]] = arith.extf %[[H]] : tensor<64xf16> to tensor<64xf32>
// CHECK:         %[[BF:.*]] = arith.extf %[[B]] : tensor<64xbf16> to tensor<64xf32>
// CHECK:         arith.addf %[[HF]], %[[BF]] : tensor<64xf32>
// Literals adopt f16.
// CHECK:         arith.mulf %[[H]], %{{.*}} : tensor<64xf16>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : tensor<64xf16>
// Comparisons and logic on masks.
// CHECK-DAG:     arith.cmpi ne, %[[R]]
// CHECK-DAG:     arith.cmpi eq, %[[R]]
// CHECK-DAG:     arith.xori %{{.*}}, %{{.*}} : tensor<64xi1>
// CHECK-DAG:     arith.cmpf oge
// CHECK-DAG:     arith.cmpi slt, %[[R64]], %[[N]] : tensor<64xi64>
// CHECK-DAG:     arith.andi %{{.*}} : tensor<64xi1>
// CHECK:         arith.ori %{{.*}} : tensor<64xi1>
// CHECK:         arith.negf %[[F]]
// CHECK:         arith.subi %{{.*}}, %[[WIDE]]
// Broadcasting (1, 64) + (64, 1).
// CHECK:         %[[COL:.*]] = tile.expand_dims %[[R]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
// CHECK:         %[[ROW:.*]] = tile.expand_dims %[[R]] {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
// CHECK:         %[[ROWB:.*]] = tile.broadcast %[[ROW]] : tensor<1x64xi32> -> tensor<64x64xi32>
// CHECK:         %[[COLB:.*]] = tile.broadcast %[[COL]] : tensor<64x1xi32> -> tensor<64x64xi32>
// CHECK:         arith.addi %[[ROWB]], %[[COLB]] : tensor<64x64xi32>
