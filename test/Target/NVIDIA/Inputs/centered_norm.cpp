// LayerNorm's forward with x - mean left unmasked (the variance masks d * d instead), so that
// x - mean after the variance's barrier is a tree of one loaded bf16 word and the mean, which
// RematerializeAcrossBarriers recomputes (rematerialize-across-barriers.test). The library's
// layernorm masks d itself: recomputed, its small rows were slower on an H100 (session 61).
#include <tessel/dsl.h>

using namespace tessel::dsl;

struct CenteredConfig {
  int BLOCK = 16384;
  int num_warps = 8;
};
TESSEL_CONFIG(CenteredConfig, BLOCK, num_warps)

template <class T>
void centered_norm(const CenteredConfig &c, Ptr<T> out, Ptr<f32> mean_out, Ptr<T> in, Int stride,
                   Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                             // (BLOCK)
  Mask m = cols < n_cols;                                          // (BLOCK)
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0)); // (BLOCK)
  Float mean = sum(x, 0) / n_cols;
  Tile<f32> d = x - mean; // (BLOCK)
  Float r = 1.0 / sqrt(sum(where(m, d * d, 0.0), 0) / n_cols + eps);
  store(out + row * stride + cols, cast<T>(d * r), m);
  store(mean_out + row, mean); // the mean is live after the variance, as in layernorm
}
TESSEL_KERNEL(centered_norm, DTYPES(bf16), ARGS(out, mean_out, in, stride, n_cols, eps),
              CONFIGS(CenteredConfig{}))
