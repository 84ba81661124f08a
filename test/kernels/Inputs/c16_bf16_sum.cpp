// Case C16: the sum of a bf16 row accumulates in f32 and returns f32 (sumType); the kernel
// stores the f32 sum and its bf16 rounding.
#include <tessel/dsl.h>
using namespace tessel::dsl;
struct SumConfig { int BLOCK = 256; int num_warps = 2; };
TESSEL_CONFIG(SumConfig, BLOCK, num_warps)
void row_sum(const SumConfig &c, Ptr<bf16> x, Ptr<f32> out, Ptr<bf16> out16) {
  Tile<bf16> v = load(x + arange(0, c.BLOCK));
  Tile<f32> s = sum(v, 0); // a rank-1 tile sums to a scalar (a tile of rank 0)
  store(out, s);
  store(out16, cast<bf16>(s));
}
TESSEL_KERNEL(row_sum, ARGS(x, out, out16), CONFIGS(SumConfig{}))
