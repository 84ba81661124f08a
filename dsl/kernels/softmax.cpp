//===- softmax.cpp - row-wise softmax -------------------------------------===//
//
// out[row, :] = softmax(in[row, :]) computed in f32; one program per row; grid = (n_rows,).
// `softmax` holds a row in one block (BLOCK >= n_cols); `softmax_looped` walks rows longer
// than a block: an online max/sum pass, then a pass that writes the result.
//
//===----------------------------------------------------------------------===//
#include "OnlineSoftmax.h"
#include "RowSpaces.h"

#include <tessel/dsl.h>

using namespace tessel::dsl;

struct SoftmaxConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(SoftmaxConfig, BLOCK, num_warps)

/// One row per program, n_cols <= BLOCK. Masked lanes load -inf: they add exp(-inf) = 0 to
/// the sum and cannot win the max (case C9).
template <class T>
void softmax(const SoftmaxConfig &c, Ptr<T> out, Ptr<T> in, Int in_stride, Int out_stride,
             Int n_cols) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                                 // (BLOCK)
  Mask m = cols < n_cols;                                              // (BLOCK)
  Tile<f32> x = cast<f32>(load(in + row * in_stride + cols, m, -inf)); // (BLOCK)
  Tile<f32> num = exp_shifted(x, max(x, 0));                           // (BLOCK)
  Tile<f32> y = num * (1.0 / sum(num, 0)); // (BLOCK): a multiply, not a division per element
  store(out + row * out_stride + cols, cast<T>(y), m);
}
TESSEL_KERNEL(softmax, DTYPES(f32, f16, bf16), ARGS(out, in, in_stride, out_stride, n_cols),
              CONFIGS(SoftmaxConfig{.BLOCK = 1024, .num_warps = 4},
                      SoftmaxConfig{.BLOCK = 4096, .num_warps = 8},
                      SoftmaxConfig{.BLOCK = 16384, .num_warps = 16}))
TESSEL_TUNE(softmax, oneBlockRowSpace<SoftmaxConfig>())

/// Any n_cols: pass 1 finds the row's max m and the sum d of exp(x - m) in one read
/// (rowSoftmaxStats, OnlineSoftmax.h); pass 2 writes exp(x - m) / d, last block first.
template <class T>
void softmax_looped(const SoftmaxConfig &c, Ptr<T> out, Ptr<T> in, Int in_stride,
                    Int out_stride, Int n_cols) {
  Int row = program_id(0);
  Ptr<T> src = in + row * in_stride;
  Ptr<T> dst = out + row * out_stride;
  auto [m, d, unused] = rowSoftmaxStats(c.BLOCK, src, n_cols, /*withSum=*/false);
  Float inv = 1.0 / d;
  Tile<i32> cols = arange(0, c.BLOCK); // (BLOCK)
  for_blocks_reversed(n_cols, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + cols;                                   // (BLOCK)
    Mask mask = offs < n_cols;                                       // (BLOCK)
    Tile<f32> x = cast<f32>(load(src + offs, mask, -inf));           // (BLOCK)
    store(dst + offs, cast<T>(exp_shifted(x, m) * inv), mask);
  });
}
TESSEL_KERNEL(softmax_looped, DTYPES(f32, f16, bf16),
              ARGS(out, in, in_stride, out_stride, n_cols),
              CONFIGS(SoftmaxConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(softmax_looped, viewedRowSpace<SoftmaxConfig>())
