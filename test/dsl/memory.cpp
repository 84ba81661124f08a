// Pointer arithmetic keeps the per-row part scalar; masks and other broadcast to the pointer's
// shape; hints; atomics; barrier.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 128; };
TESSEL_CONFIG(Config, BLOCK)

void memory(const Config &c, Ptr<f32> out, Ptr<f32> in, Ptr<i32> counts, Int stride, Int n) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                          // (BLOCK)
  Mask m = cols < n;                                            // (BLOCK)
  Tile<f32> x = load(in + row * stride + cols, m, -inf,
                     {.cache = Cache::cg, .evict = Evict::evict_first});  // (BLOCK)
  store(out + row * stride + cols, x, m, {.cache = Cache::cs});
  Float first = load(in + row * stride);
  store(out - 1, first);
  Tile<f32> grid2 = load(in + cols(_, None) * stride + cols(None, _), m(None, _), 0.0);  // (BLOCK, BLOCK)
  store(out + cols(_, None) + cols(None, _), grid2);
  atomic_add(out + cols, x, m);
  atomic_max(out + cols, x, m, Sem::relaxed, Scope::cta);
  atomic_xchg(counts + cols, 1);
  atomic_cas(counts, 0, 1);
  store(out + cols, 0.0);
  barrier();
  store(out - 2, load(out + 5));
}
TESSEL_KERNEL(memory, ARGS(out, in, counts, stride, n), CONFIGS(Config{}))

// CHECK-LABEL: func.func @memory__BLOCK_128(
// CHECK-DAG:   %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : tensor<128xf32>
// CHECK:       %[[PID:.*]] = tile.program_id 0
// CHECK:       %[[ROW:.*]] = arith.extsi %[[PID]] : i32 to i64
// CHECK:       %[[COLS:.*]] = tile.arange 0, 128 : tensor<128xi32>
// CHECK:       %[[M:.*]] = arith.cmpi slt
// `in + row * stride + cols`: a scalar addptr for the row, then a splat and a tile addptr.
// CHECK:       %[[OFF:.*]] = arith.muli %[[ROW]], %arg3 : i64
// CHECK:       %[[BASE:.*]] = tile.addptr %arg1, %[[OFF]] : !tile.ptr<f32>, i64
// CHECK:       %[[SPLAT:.*]] = tile.splat %[[BASE]] : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
// CHECK:       %[[PTRS:.*]] = tile.addptr %[[SPLAT]], %[[COLS]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
// CHECK:       %[[X:.*]] = tile.load %[[PTRS]], %[[M]], %[[NEGINF]] cache = cg evict = evict_first : tensor<128x!tile.ptr<f32>>
// CHECK:       tile.store %{{.*}}, %[[X]], %[[M]] cache = cs : tensor<128x!tile.ptr<f32>>
// CHECK:       %[[FIRST:.*]] = tile.load %[[BASE]] : !tile.ptr<f32>
// CHECK:       %[[PREV:.*]] = tile.addptr %arg0, %c-1_i64 : !tile.ptr<f32>, i64
// CHECK:       tile.store %[[PREV]], %[[FIRST]] : !tile.ptr<f32>
// A (1, 128) mask broadcasts to the (128, 128) pointers.
// CHECK:       %[[M2:.*]] = tile.expand_dims %[[M]] {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
// CHECK:       %[[MB:.*]] = tile.broadcast %[[M2]] : tensor<1x128xi1> -> tensor<128x128xi1>
// CHECK:       tile.load %{{.*}}, %[[MB]], %{{.*}} : tensor<128x128x!tile.ptr<f32>>
// CHECK:       tile.atomic_rmw add, acq_rel, gpu, %{{.*}}, %[[X]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK:       tile.atomic_rmw max, relaxed, cta, %{{.*}}, %[[X]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK:       tile.atomic_rmw xchg, acq_rel, gpu, %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<i32>>
// CHECK:       tile.atomic_cas acq_rel, gpu, %arg2, %c0_i32, %c1_i32 : !tile.ptr<i32>
// CHECK:       tile.store
// CHECK-NEXT:  tile.barrier
// CHECK-NEXT:  tile.addptr %arg0, %c5_i64
