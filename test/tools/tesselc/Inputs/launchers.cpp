// Kernels for the launcher header tests: a grid over a config field (cdiv(n, BLOCK)), a grid
// with an extra size and a float scalar, a kernel without a declared grid, and a grid that
// names a pointer.
#include <tessel/dsl.h>

using namespace tessel::dsl;

struct AddConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(AddConfig, BLOCK, num_warps)

template <class T> void scaled_add(const AddConfig &c, Ptr<T> x, Ptr<T> y, Ptr<T> out, Int n,
                                   Float alpha) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                              // (BLOCK)
  store(out + offs, cast<T>(alpha * cast<f32>(load(x + offs, m)) + cast<f32>(load(y + offs, m))),
        m);
}
TESSEL_KERNEL(scaled_add, DTYPES(f32, bf16), ARGS(x, y, out, n, alpha),
              CONFIGS(AddConfig{.BLOCK = 2048, .num_warps = 8}, AddConfig{}))
TESSEL_TUNE(scaled_add, Space<AddConfig>()
                            .field(&AddConfig::BLOCK, pow2(256, 8192))
                            .key("n", Bucket::pow2)
                            .grid("cdiv(n, BLOCK)"))

/// out[row, :] = in[row, :] * 2 over rows of n_cols <= BLOCK; grid = (n_rows, n_batch).
void rows_twice(const AddConfig &c, Ptr<i32> out, Ptr<i32> in, Int n_cols) {
  Int row = program_id(0) + program_id(1) * num_programs(0);
  Tile<i32> cols = arange(0, c.BLOCK); // (BLOCK)
  Mask m = cols < n_cols;              // (BLOCK)
  store(out + row * n_cols + cols, load(in + row * n_cols + cols, m) * 2, m);
}
TESSEL_KERNEL(rows_twice, ARGS(out, in, n_cols), CONFIGS(AddConfig{}))
TESSEL_TUNE(rows_twice, Space<AddConfig>().grid("n_rows, max(n_batch, 1)"))

void no_grid(const AddConfig &c, Ptr<f32> out) { store(out + arange(0, c.BLOCK), 1.0); }
TESSEL_KERNEL(no_grid, ARGS(out), CONFIGS(AddConfig{}))

void pointer_grid(const AddConfig &c, Ptr<f32> out) { store(out + arange(0, c.BLOCK), 1.0); }
TESSEL_KERNEL(pointer_grid, ARGS(out), CONFIGS(AddConfig{}))
TESSEL_TUNE(pointer_grid, Space<AddConfig>().grid("cdiv(out, BLOCK)"))
