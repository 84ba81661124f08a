// Value conversions and bitcasts.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 16; };
TESSEL_CONFIG(Config, BLOCK)

void casts(const Config &c, Ptr<f32> pf, Ptr<bf16> pb, Ptr<f16> ph, Ptr<i8> pi8, Ptr<i1> pm,
           Ptr<i32> pi) {
  Tile<i32> r = arange(0, c.BLOCK);               // (BLOCK)
  Tile<bf16> b = load(pb + r);                    // (BLOCK)
  Tile<f32> f = b.to<f32>();                      // (BLOCK)
  store(pf + r, f);
  store(pb + r, cast<bf16>(f));
  store(ph + r, cast<f16>(b));                    // same width: through f32
  store(pi8 + r, cast<i8>(f));
  store(pf + r, cast<f32>(r < 3));
  store(pm + r, cast<i1>(f));
  store(pi + r, f.bitcast<i32>());
  store(pi + r, cast<i32>(cast<i8>(r)));
}
TESSEL_KERNEL(casts, ARGS(pf, pb, ph, pi8, pm, pi), CONFIGS(Config{}))

// CHECK-LABEL: func.func @casts__BLOCK_16(
// CHECK:     %[[B:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<bf16>>
// CHECK:     %[[F:.*]] = arith.extf %[[B]] : tensor<16xbf16> to tensor<16xf32>
// CHECK:     arith.truncf %[[F]] : tensor<16xf32> to tensor<16xbf16>
// bf16 -> f16 goes through f32 (the extf is shared after CSE).
// CHECK:     arith.truncf %[[F]] : tensor<16xf32> to tensor<16xf16>
// CHECK:     arith.fptosi %[[F]] : tensor<16xf32> to tensor<16xi8>
// CHECK:     %[[M:.*]] = arith.cmpi slt
// CHECK:     arith.uitofp %[[M]] : tensor<16xi1> to tensor<16xf32>
// CHECK:     arith.cmpf une, %[[F]], %{{.*}} : tensor<16xf32>
// CHECK:     arith.bitcast %[[F]] : tensor<16xf32> to tensor<16xi32>
// CHECK:     %[[T:.*]] = arith.trunci %{{.*}} : tensor<16xi32> to tensor<16xi8>
// CHECK:     arith.extsi %[[T]] : tensor<16xi8> to tensor<16xi32>
