// program_id / num_programs are i32 in the IR and widened to i64 Ints; arange is an i32 tile;
// zeros / full splat a scalar.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 128; };
TESSEL_CONFIG(Config, BLOCK)

void grid(const Config &c, Ptr<i64> out, Ptr<f32> fout) {
  Int pid = program_id(1);
  Int n = num_programs(2);
  store(out, pid * n);
  Tile<i32> r = arange(4, 4 + c.BLOCK);         // (BLOCK)
  store(out + r, cast<i64>(r));
  store(fout + r, zeros<f32>({c.BLOCK}));
  store(fout + r, full<f32>({c.BLOCK}, 2.5));
  store(fout + r, full({c.BLOCK}, cast<f32>(pid)));
}
TESSEL_KERNEL(grid, ARGS(out, fout), CONFIGS(Config{}))

// CHECK-LABEL: func.func @grid__BLOCK_128(
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-DAG:     %[[FULL:.*]] = arith.constant dense<2.500000e+00> : tensor<128xf32>
// CHECK:         %[[PID:.*]] = tile.program_id 1
// CHECK:         %[[PID64:.*]] = arith.extsi %[[PID]] : i32 to i64
// CHECK:         %[[NP:.*]] = tile.num_programs 2
// CHECK:         %[[NP64:.*]] = arith.extsi %[[NP]] : i32 to i64
// CHECK:         %[[PROD:.*]] = arith.muli %[[PID64]], %[[NP64]] : i64
// CHECK:         tile.store %arg0, %[[PROD]] : !tile.ptr<i64>
// CHECK:         %[[R:.*]] = tile.arange 4, 132 : tensor<128xi32>
// CHECK:         %[[FP:.*]] = tile.addptr %{{.*}}, %[[R]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
// CHECK:         tile.store %[[FP]], %[[ZERO]]
// CHECK:         tile.store %[[FP]], %[[FULL]]
// CHECK:         %[[F:.*]] = arith.sitofp %[[PID64]] : i64 to f32
// CHECK:         %[[S:.*]] = tile.splat %[[F]] : f32 -> tensor<128xf32>
// CHECK:         tile.store %[[FP]], %[[S]]
