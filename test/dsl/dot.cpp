// dot: f16/bf16 accumulate in f32 from zero or from an accumulator, i8 in i32, f32 with a
// precision.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BM = 32; int BN = 16; int BK = 64; };
TESSEL_CONFIG(Config, BM, BN, BK)

void dots(const Config &c, Ptr<f16> a, Ptr<f16> b, Ptr<f32> out, Ptr<i8> qa, Ptr<i32> qout) {
  Tile<i32> m = arange(0, c.BM)(_, None);                   // (BM, 1)
  Tile<i32> n = arange(0, c.BN)(None, _);                   // (1, BN)
  Tile<i32> ka = arange(0, c.BK)(None, _);                  // (1, BK)
  Tile<i32> kb = arange(0, c.BK)(_, None);                  // (BK, 1)
  Tile<f16> at = load(a + m * c.BK + ka);                   // (BM, BK)
  Tile<f16> bt = load(b + kb * c.BN + n);                   // (BK, BN)
  Tile<f32> acc = dot(at, bt);                              // (BM, BN)
  acc = dot(at, bt, acc);                                   // (BM, BN)
  Tile<f32> a32 = cast<f32>(at);                            // (BM, BK)
  acc = dot(a32, cast<f32>(bt), acc, Precision::tf32);      // (BM, BN)
  store(out + m * c.BN + n, acc);
  Tile<i8> qat = load(qa + m * c.BK + ka);                  // (BM, BK)
  Tile<i8> qbt = load(qa + kb * c.BN + n);                  // (BK, BN)
  store(qout + m * c.BN + n, dot(qat, qbt));                // (BM, BN)
}
TESSEL_KERNEL(dots, ARGS(a, b, out, qa, qout), CONFIGS(Config{}))

// CHECK-LABEL: func.func @dots__BM_32__BN_16__BK_64(
// CHECK-DAG:   %[[IZERO:.*]] = arith.constant dense<0> : tensor<32x16xi32>
// CHECK-DAG:   %[[FZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<32x16xf32>
// CHECK:       %[[A:.*]] = tile.load %{{.*}} : tensor<32x64x!tile.ptr<f16>>
// CHECK:       %[[B:.*]] = tile.load %{{.*}} : tensor<64x16x!tile.ptr<f16>>
// CHECK:       %[[D0:.*]] = tile.dot %[[A]], %[[B]], %[[FZERO]] : tensor<32x64xf16> * tensor<64x16xf16> -> tensor<32x16xf32>
// CHECK:       %[[D1:.*]] = tile.dot %[[A]], %[[B]], %[[D0]] : tensor<32x64xf16> * tensor<64x16xf16> -> tensor<32x16xf32>
// CHECK:       tile.dot %{{.*}}, %{{.*}}, %[[D1]] precision = tf32 : tensor<32x64xf32> * tensor<64x16xf32> -> tensor<32x16xf32>
// CHECK:       tile.dot %{{.*}}, %{{.*}}, %[[IZERO]] : tensor<32x64xi8> * tensor<64x16xi8> -> tensor<32x16xi32>
