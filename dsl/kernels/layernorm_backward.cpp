//===- layernorm_backward.cpp - LayerNorm's gradients: dX, partial dW and dB ===//
//
// For out = xhat * w + b with xhat = (x - mean) * r, r = 1 / sqrt(var + eps) over a row of
// n_cols (biased variance), and g = dy * w:
//   dx = r * (g - mean(g) - xhat * mean(g * xhat))
//   dw = sum over rows of dy * xhat,   db = sum over rows of dy
// mean and r come from the forward (layernorm writes them per row, as PyTorch's
// native_layer_norm), so each row takes two block reductions (mean(g), mean(g * xhat)) instead
// of four: at 16384 columns on 32 warps a row is latency-bound on its reductions. dW and dB are reduced in two steps, as RMSNorm's (rmsnorm_backward.cpp): per-program partial
// rows here, then rmsnorm_dw_reduce (a column sum) for each. Grid: (cdiv(n_rows,
// rows_per_program),).
//
//===----------------------------------------------------------------------===//
#include "RowBlock.h"
#include "RowSpaces.h"

#include <tessel/dsl.h>

#include <optional>

using namespace tessel::dsl;

struct LayerNormBackwardConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(LayerNormBackwardConfig, BLOCK, num_warps)

/// n_cols <= BLOCK. dx, dy and x are (n_rows, n_cols) with row stride `stride`; w (n_cols);
/// mean and rstd (n_rows) f32, the forward's; dw_partial and db_partial (cdiv(n_rows,
/// rows_per_program), n_cols) f32, contiguous. Masked lanes take no part in the sums (case C1).
template <class T>
void layernorm_backward(const LayerNormBackwardConfig &c, Ptr<T> dx, Ptr<f32> dw_partial,
                        Ptr<f32> db_partial, Ptr<T> dy, Ptr<T> x, Ptr<T> w, Ptr<f32> mean,
                        Ptr<f32> rstd, Int stride, Int n_rows, Int n_cols,
                        Int rows_per_program) {
  Int pid = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);              // (BLOCK)
  Mask m = cols < n_cols;                           // (BLOCK)
  // As rmsnorm_backward: at 16 elements per thread of 32-lane warps w is loaded again for each
  // row (from L1) rather than held (benchmark GPU: 4096x16384 on 16384 / 32 warps 340 -> 289 us, 212 ->
  // 164 bytes spilled).
  std::optional<Tile<f32>> held_w;                     // (BLOCK)
  if (c.BLOCK != 16 * 32 * c.num_warps)
    held_w = cast<f32>(load(w + cols, m, 0.0));
  auto weights = [&] { return held_w ? *held_w : cast<f32>(load(w + cols, m, 0.0)); };
  Int first = pid * rows_per_program;
  Int last = minimum(first + rows_per_program, n_rows);
  auto [dw, db] = for_range(
      first, last, 1, std::tuple{zeros<f32>({c.BLOCK}), zeros<f32>({c.BLOCK})},
      [&](Int row, Tile<f32> dw_acc, Tile<f32> db_acc) {
        Tile<f32> xr = cast<f32>(load(x + row * stride + cols, m, 0.0)); // (BLOCK)
        Tile<f32> dyr = cast<f32>(load(dy + row * stride + cols, m, 0.0)); // (BLOCK)
        Float r = load(rstd + row);
        // Masked lanes' xhat is -mean * r, not 0, but dy and w load 0 there, so it meets
        // only zeros (dy * xhat, g * xhat) and the masked store.
        Tile<f32> xhat = (xr - load(mean + row)) * r;                    // (BLOCK)
        // The sums take dy in as soon as xhat exists and g replaces dy: one row tile fewer
        // lives across the last two reductions (no spills at 16384 on 16 warps on gfx90a).
        Tile<f32> dw_next = dw_acc + dyr * xhat;                         // (BLOCK)
        Tile<f32> db_next = db_acc + dyr;                                // (BLOCK)
        Tile<f32> g = dyr * weights();                                   // (BLOCK)
        Float mg = sum(g, 0) / n_cols;
        Float mgx = sum(g * xhat, 0) / n_cols;
        store(dx + row * stride + cols, cast<T>((g - mg - xhat * mgx) * r), m);
        return std::tuple{dw_next, db_next};
      });
  store(dw_partial + pid * n_cols + cols, dw, m);
  store(db_partial + pid * n_cols + cols, db, m);
}
TESSEL_KERNEL(layernorm_backward, DTYPES(f32, f16, bf16),
              ARGS(dx, dw_partial, db_partial, dy, x, w, mean, rstd, stride, n_rows, n_cols,
                   rows_per_program),
              // Rows up to 8192 here: 16384 on 16 warps (AMD's limit per program) spills 16
              // bytes on gfx90a and gfx942 (f16 and bf16 without the __div8 twin) and about
              // 700 on sm_90a; benchmarks/gpu/prepare.sh adds 32-warp configs, 16384 included,
              // for sm_90a. 4096 on 16 warps (64 registers) fits two programs, 32 warps, per
              // sm_90a SM, where 8 warps at 128 fit two of 8.
              CONFIGS(LayerNormBackwardConfig{.BLOCK = 1024, .num_warps = 4},
                      LayerNormBackwardConfig{.BLOCK = 4096, .num_warps = 8},
                      LayerNormBackwardConfig{.BLOCK = 4096, .num_warps = 16},
                      LayerNormBackwardConfig{.BLOCK = 8192, .num_warps = 16}))
TESSEL_TUNE(layernorm_backward, oneBlockRowBackwardSpace<LayerNormBackwardConfig>())

/// layernorm_backward on ROWS rows per step (RowsConfig), as rmsnorm_rows_backward: for short
/// rows (tessel.ops: up to 512 columns). Same arguments and grid as layernorm_backward.
template <class T>
void layernorm_rows_backward(const RowsConfig &c, Ptr<T> dx, Ptr<f32> dw_partial,
                             Ptr<f32> db_partial, Ptr<T> dy, Ptr<T> x, Ptr<T> w, Ptr<f32> mean,
                             Ptr<f32> rstd, Int stride, Int n_rows, Int n_cols,
                             Int rows_per_program) {
  Int pid = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                                      // (BLOCK)
  Mask cm = cols < n_cols;                                                  // (BLOCK)
  Tile<f32> wt = cast<f32>(load(w + cols, cm, 0.0));                        // (BLOCK)
  Int first = pid * rows_per_program;
  Int last = minimum(first + rows_per_program, n_rows);
  auto [dw, db] = for_range(
      first, last, c.ROWS,
      std::tuple{zeros<f32>({c.ROWS, c.BLOCK}), zeros<f32>({c.ROWS, c.BLOCK})},
      [&](Int start, Tile<f32> dw_acc, Tile<f32> db_acc) {
        Tile<i64> rows = start + arange(0, c.ROWS);                         // (ROWS)
        auto [rm, m, offs] = rowBlock(rows, last, cols, cm, stride);
        Tile<f32> xr = cast<f32>(load(x + offs, m, 0.0));                   // (ROWS, BLOCK)
        Tile<f32> dyr = cast<f32>(load(dy + offs, m, 0.0));                 // (ROWS, BLOCK)
        Tile<f32> r = load(rstd + rows, rm, 0.0);                           // (ROWS)
        Tile<f32> mu = load(mean + rows, rm, 0.0);                          // (ROWS)
        // Masked lanes' xhat meets only zeros (dy and w load 0 there), as in layernorm_backward.
        Tile<f32> xhat = (xr - mu(_, None)) * r(_, None);                   // (ROWS, BLOCK)
        Tile<f32> dw_next = dw_acc + dyr * xhat;                            // (ROWS, BLOCK)
        Tile<f32> db_next = db_acc + dyr;                                   // (ROWS, BLOCK)
        Tile<f32> g = dyr * wt(None, _);                                    // (ROWS, BLOCK)
        Tile<f32> mg = sum(g, 1) / n_cols;                                  // (ROWS)
        Tile<f32> mgx = sum(g * xhat, 1) / n_cols;                          // (ROWS)
        store(dx + offs, cast<T>((g - mg(_, None) - xhat * mgx(_, None)) * r(_, None)), m);
        return std::tuple{dw_next, db_next};
      });
  store(dw_partial + pid * n_cols + cols, sum(dw, 0), cm);
  store(db_partial + pid * n_cols + cols, sum(db, 0), cm);
}
TESSEL_KERNEL(layernorm_rows_backward, DTYPES(f32, f16, bf16),
              ARGS(dx, dw_partial, db_partial, dy, x, w, mean, rstd, stride, n_rows, n_cols,
                   rows_per_program),
              // tessel-tune's choices on the H200 at 262144x128, 131072x256 and 65536x512 bf16
              // (64 rows per program): 8 or 16 elements per thread; 64 columns by analogy.
              CONFIGS(RowsConfig{.ROWS = 4, .BLOCK = 64, .num_warps = 1},
                      RowsConfig{.ROWS = 2, .BLOCK = 128, .num_warps = 1},
                      RowsConfig{.ROWS = 2, .BLOCK = 256, .num_warps = 2},
                      RowsConfig{.ROWS = 2, .BLOCK = 512, .num_warps = 2}))
TESSEL_TUNE(layernorm_rows_backward, rowsBackwardSpace())
