//===- vector_add.cpp - out = x + y, element-wise -------------------------===//
//
// One program per BLOCK elements; grid = (cdiv(n, BLOCK),). Offsets are i64 (program_id is an
// i64 Int), so tensors over 2^31 elements work (case C6).
//
//===----------------------------------------------------------------------===//
#include "RowSpaces.h"

#include <tessel/dsl.h>

using namespace tessel::dsl;

struct VectorAddConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(VectorAddConfig, BLOCK, num_warps)

/// out[i] = x[i] + y[i] for i < n.
template <class T>
void vector_add(const VectorAddConfig &c, Ptr<T> x, Ptr<T> y, Ptr<T> out, Int n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                              // (BLOCK)
  Tile<T> sum = load(x + offs, m) + load(y + offs, m);            // (BLOCK)
  store(out + offs, sum, m);
}
TESSEL_KERNEL(vector_add, DTYPES(f32, f16, bf16), ARGS(x, y, out, n),
              CONFIGS(VectorAddConfig{.BLOCK = 1024, .num_warps = 4},
                      VectorAddConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(vector_add, elementwiseSpace<VectorAddConfig>())
