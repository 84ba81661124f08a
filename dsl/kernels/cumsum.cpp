//===- cumsum.cpp - row-wise inclusive prefix sum -------------------------===//
//
// out[r, j] = in[r, 0] + ... + in[r, j] (torch.cumsum(x, dim=-1)), accumulated in f32; one
// program per row; grid = (n_rows,). The row goes by in blocks of BLOCK: each block is scanned
// (tile.scan; on the GPUs in registers and shuffles, ScanOpToLLVM.cpp) and offset by the running
// total of the blocks before it, which the loop carries.
//
//===----------------------------------------------------------------------===//
#include "RowSpaces.h"

#include <tessel/dsl.h>

using namespace tessel::dsl;

struct CumsumConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(CumsumConfig, BLOCK, num_warps)

template <class T>
void cumsum_looped(const CumsumConfig &c, Ptr<T> out, Ptr<T> in, Int stride, Int n_cols) {
  Int row = program_id(0);
  Ptr<T> src = in + row * stride;
  Ptr<T> dst = out + row * stride;
  Tile<i32> cols = arange(0, c.BLOCK); // (BLOCK)
  for_range(0, n_cols, c.BLOCK, Float(0.0), [&](Int start, Float carry) {
    Tile<i64> offs = start + cols;                               // (BLOCK)
    Mask m = offs < n_cols;                                      // (BLOCK)
    Tile<f32> x = cast<f32>(load(src + offs, m, 0.0));           // (BLOCK)
    store(dst + offs, cast<T>(cumsum(x, 0) + carry), m);
    return carry + sum(x, 0);
  });
}
TESSEL_KERNEL(cumsum_looped, DTYPES(f32, f16, bf16), ARGS(out, in, stride, n_cols),
              CONFIGS(CumsumConfig{}, CumsumConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(cumsum_looped, loopedRowSpace<CumsumConfig>())
