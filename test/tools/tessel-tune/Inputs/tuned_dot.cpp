// A K loop of dots whose space has configs over the H200's limits: 64 warps (2048 threads) and
// a 4-stage ring of 64x512 and 512x64 f16 operands (512 KB of shared memory).
#include <tessel/dsl.h>

using namespace tessel::dsl;

struct DotConfig {
  int BLOCK_M = 64;
  int BLOCK_N = 64;
  int BLOCK_K = 32;
  int num_warps = 8;
  int num_stages = 1;
};
TESSEL_CONFIG(DotConfig, BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages)

/// out (BLOCK_M, BLOCK_N) = a (BLOCK_M, K) . b (K, BLOCK_N), row-major, K a multiple of BLOCK_K.
void tuned_dot(const DotConfig &c, Ptr<f16> a, Ptr<f16> b, Ptr<f32> out, Int K) {
  Tile<i32> rm = arange(0, c.BLOCK_M);                              // (BLOCK_M)
  Tile<i32> rn = arange(0, c.BLOCK_N);                              // (BLOCK_N)
  Tile<i32> rk = arange(0, c.BLOCK_K);                              // (BLOCK_K)
  Tile<f32> acc = zeros<f32>({c.BLOCK_M, c.BLOCK_N});               // (BLOCK_M, BLOCK_N)
  acc = for_range(0, K, c.BLOCK_K, acc, [&](Int k, Tile<f32> acc) {
    Tile<f16> av = load(a + rm(_, None) * K + (k + rk)(None, _));   // (BLOCK_M, BLOCK_K)
    Tile<f16> bv = load(b + (k + rk)(_, None) * c.BLOCK_N + rn(None, _)); // (BLOCK_K, BLOCK_N)
    return dot(av, bv, acc);                                        // (BLOCK_M, BLOCK_N)
  });
  store(out + rm(_, None) * c.BLOCK_N + rn(None, _), acc);
}
TESSEL_KERNEL(tuned_dot, ARGS(a, b, out, K), CONFIGS(DotConfig{}))
TESSEL_TUNE(tuned_dot, Space<DotConfig>()
                           .field(&DotConfig::BLOCK_K, {32, 512})
                           .field(&DotConfig::num_stages, {1, 4})
                           .field(&DotConfig::num_warps, {8, 64})
                           .grid("1"))
