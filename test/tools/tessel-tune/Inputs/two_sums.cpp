// A row kernel whose 4096-wide config on one warp passes the register estimate (128 f32 a
// thread: about 144 registers) but spills: x and y, 128 words a thread each, both stay live
// across the two reductions. On 4 warps (32 words a thread each) it fits.
#include <tessel/dsl.h>

using namespace tessel::dsl;

struct RowConfig {
  int BLOCK = 1024;
  int num_warps = 1;
};
TESSEL_CONFIG(RowConfig, BLOCK, num_warps)

/// out = x * sum(y) + y * sum(x) over each row of n_cols <= BLOCK f32 (one row a program).
void two_sums(const RowConfig &c, Ptr<f32> x, Ptr<f32> y, Ptr<f32> out, Int n_cols) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                        // (BLOCK)
  Mask m = cols < n_cols;                                     // (BLOCK)
  Tile<f32> xv = load(x + row * n_cols + cols, m, 0.0);       // (BLOCK)
  Tile<f32> yv = load(y + row * n_cols + cols, m, 0.0);       // (BLOCK)
  store(out + row * n_cols + cols, xv * sum(yv, 0) + yv * sum(xv, 0), m);
}
TESSEL_KERNEL(two_sums, ARGS(x, y, out, n_cols), CONFIGS(RowConfig{}))
TESSEL_TUNE(two_sums, Space<RowConfig>()
                          .field(&RowConfig::BLOCK, {1024, 4096})
                          .field(&RowConfig::num_warps, {1, 4})
                          .key("n_cols", Bucket::pow2)
                          .valid([](const RowConfig &c, const Keys &k) {
                            return c.BLOCK >= k["n_cols"];
                          })
                          .grid("n_rows"))
