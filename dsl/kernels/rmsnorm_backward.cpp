//===- rmsnorm_backward.cpp - RMSNorm's gradients: dX and partial dW ------===//
//
// For out = x * r * w with r = 1 / sqrt(mean(x^2) + eps) over a row of n_cols:
//   dx = r * (dy * w) - x * r^3 * sum(dy * w * x) / n_cols
//   dw = sum over rows of dy * x * r
// r is the forward's (rmsnorm writes rstd per row), so each row takes one block reduction
// (sum(dy * w * x)) instead of two.
// dW is reduced in two steps, as Liger-Kernel does: each program walks rows_per_program rows
// and writes its partial sums (one f32 row of dw_partial), then rmsnorm_dw_reduce adds the
// partial rows into dw. Grid: (cdiv(n_rows, rows_per_program),); tessel.ops launches as many
// programs as fit on the GPU at once, whose rows keep loads in flight on every SM.
// add_rmsnorm_backward and add_rmsnorm_rows_backward are the gradient of add_rmsnorm's
// s = x + residual: dx also takes ds, the gradient that reached s from the residual stream.
//
//===----------------------------------------------------------------------===//
#include "RowBlock.h"
#include "RowSpaces.h"

#include <tessel/dsl.h>

#include <optional>

using namespace tessel::dsl;

struct RMSNormBackwardConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(RMSNormBackwardConfig, BLOCK, num_warps)

/// The one-row body of rmsnorm_backward and add_rmsnorm_backward: with `ds`, the residual
/// stream's gradient is added to dx before it is rounded (add_rmsnorm's s = x + residual feeds
/// both the norm and the next layer), which saves the separate dx + ds pass: 3 row tensors of
/// traffic, about 100 us at bf16 4096x16384 on the H200.
template <class T>
void rmsnormBackwardRows(const RMSNormBackwardConfig &c, Ptr<T> dx, Ptr<f32> dw_partial,
                         Ptr<T> dy, std::optional<Ptr<T>> ds, Ptr<T> x, Ptr<T> w, Ptr<f32> rstd,
                         Int stride, Int n_rows, Int n_cols, Int rows_per_program) {
  Int pid = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                   // (BLOCK)
  Mask m = cols < n_cols;                                // (BLOCK)
  // At 16 elements per thread of 32-lane warps, w is loaded again for each row (from L1)
  // rather than held: the 16 registers it frees decide the spills and programs per SM of those
  // configs (benchmark GPU: 16384x4096 on 4096 / 8 warps 155 -> 126 us, 97 -> 64 registers, four
  // programs per SM). At 32 per thread (128 registers, one program per SM either way) the loads
  // cost more than they free (4096x16384 on 16384 / 16 warps 147 -> 157 us). On 64-lane waves
  // the same configs hold 8 per lane and reload too (not measured there).
  std::optional<Tile<f32>> held_w;                     // (BLOCK)
  if (c.BLOCK != 16 * 32 * c.num_warps)
    held_w = cast<f32>(load(w + cols, m, 0.0));
  auto weights = [&] { return held_w ? *held_w : cast<f32>(load(w + cols, m, 0.0)); };
  Int first = pid * rows_per_program;
  Int last = minimum(first + rows_per_program, n_rows);
  Tile<f32> dw = for_range(first, last, 1, zeros<f32>({c.BLOCK}), [&](Int row, Tile<f32> acc) {
    Tile<f32> xr = cast<f32>(load(x + row * stride + cols, m, 0.0));  // (BLOCK)
    Tile<f32> g = cast<f32>(load(dy + row * stride + cols, m, 0.0));  // (BLOCK)
    Float r = load(rstd + row);
    // dy goes into the sum before gw replaces it: one row tile fewer across the last reduction.
    Tile<f32> next = acc + g * xr * r;                                // (BLOCK)
    Tile<f32> gw = g * weights();                                     // (BLOCK)
    Float k = sum(gw * xr, 0) * r * r * r / n_cols;
    Tile<f32> d = gw * r - xr * k;                                    // (BLOCK)
    if (ds)
      d = d + cast<f32>(load(*ds + row * stride + cols, m, 0.0));
    store(dx + row * stride + cols, cast<T>(d), m);
    return next;
  });
  store(dw_partial + pid * n_cols + cols, dw, m);
}

/// n_cols <= BLOCK. dx, dy and x are (n_rows, n_cols) with row stride `stride`; w (n_cols);
/// rstd (n_rows) f32, the forward's; dw_partial (cdiv(n_rows, rows_per_program), n_cols) f32,
/// contiguous. dx may alias dy.
template <class T>
void rmsnorm_backward(const RMSNormBackwardConfig &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<T> dy,
                      Ptr<T> x, Ptr<T> w, Ptr<f32> rstd, Int stride, Int n_rows, Int n_cols,
                      Int rows_per_program) {
  rmsnormBackwardRows<T>(c, dx, dw_partial, dy, std::nullopt, x, w, rstd, stride, n_rows,
                         n_cols, rows_per_program);
}
TESSEL_KERNEL(rmsnorm_backward, DTYPES(f32, f16, bf16),
              ARGS(dx, dw_partial, dy, x, w, rstd, stride, n_rows, n_cols, rows_per_program),
              // 16384 on 16 warps (AMD's limit) keeps 32 f32 per tile per thread: on sm_90a
              // its twin spills 212 bytes per thread; 8192 does not. 4096 on 16 warps (63
              // registers) fits two programs, 32 warps, per sm_90a SM, where 8 warps at 128
              // fit two of 8. benchmarks/gpu/prepare.sh adds 32-warp configs for sm_90a.
              CONFIGS(RMSNormBackwardConfig{.BLOCK = 1024, .num_warps = 4},
                      RMSNormBackwardConfig{.BLOCK = 4096, .num_warps = 8},
                      RMSNormBackwardConfig{.BLOCK = 4096, .num_warps = 16},
                      RMSNormBackwardConfig{.BLOCK = 8192, .num_warps = 16},
                      RMSNormBackwardConfig{.BLOCK = 16384, .num_warps = 16}))
TESSEL_TUNE(rmsnorm_backward, oneBlockRowBackwardSpace<RMSNormBackwardConfig>())

/// rmsnorm_backward of add_rmsnorm's s = x + residual: dx = rmsnorm's dx + ds, with ds
/// (n_rows, n_cols, row stride `stride`) the gradient that reached s from the residual stream;
/// x here is s (rmsnorm's input). dx may alias dy or ds.
template <class T>
void add_rmsnorm_backward(const RMSNormBackwardConfig &c, Ptr<T> dx, Ptr<f32> dw_partial,
                          Ptr<T> dy, Ptr<T> ds, Ptr<T> x, Ptr<T> w, Ptr<f32> rstd, Int stride,
                          Int n_rows, Int n_cols, Int rows_per_program) {
  rmsnormBackwardRows<T>(c, dx, dw_partial, dy, ds, x, w, rstd, stride, n_rows, n_cols,
                         rows_per_program);
}
TESSEL_KERNEL(add_rmsnorm_backward, DTYPES(f32, f16, bf16),
              ARGS(dx, dw_partial, dy, ds, x, w, rstd, stride, n_rows, n_cols, rows_per_program),
              // rmsnorm_backward's up to 8192: at 16384 on 16 warps the variant without the
              // __div8 twin's vector loads spills 27-62 VGPRs on gfx90a, gfx942 and gfx1100
              // (a fourth row tile of addresses). tessel.ops adds ds separately for longer
              // rows; benchmarks/gpu/prepare.sh adds 16384 on 32 warps for sm_90a.
              CONFIGS(RMSNormBackwardConfig{.BLOCK = 1024, .num_warps = 4},
                      RMSNormBackwardConfig{.BLOCK = 4096, .num_warps = 8},
                      RMSNormBackwardConfig{.BLOCK = 4096, .num_warps = 16},
                      RMSNormBackwardConfig{.BLOCK = 8192, .num_warps = 16}))
TESSEL_TUNE(add_rmsnorm_backward, oneBlockRowBackwardSpace<RMSNormBackwardConfig>())

/// rmsnorm_backward on ROWS rows per step (RowsConfig), each row reduced inside one warp when
/// num_warps <= ROWS: for short rows (tessel.ops: up to 512 columns), where one row per step
/// leaves most lanes idle. dW's partial sums stay (ROWS, BLOCK) until the program's last row and
/// are added over the rows once. Same arguments and grid as rmsnorm_backward; a program's rows
/// need not be a multiple of ROWS. With `ds`, dx = rmsnorm's dx + ds (add_rmsnorm_rows_backward).
template <class T>
void rmsnormRowsBackwardSteps(const RowsConfig &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<T> dy,
                              std::optional<Ptr<T>> ds, Ptr<T> x, Ptr<T> w, Ptr<f32> rstd,
                              Int stride, Int n_rows, Int n_cols, Int rows_per_program) {
  Int pid = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                                      // (BLOCK)
  Mask cm = cols < n_cols;                                                  // (BLOCK)
  Tile<f32> wt = cast<f32>(load(w + cols, cm, 0.0));                        // (BLOCK)
  Int first = pid * rows_per_program;
  Int last = minimum(first + rows_per_program, n_rows);
  Tile<f32> dw = for_range(
      first, last, c.ROWS, zeros<f32>({c.ROWS, c.BLOCK}), [&](Int start, Tile<f32> acc) {
        Tile<i64> rows = start + arange(0, c.ROWS);                         // (ROWS)
        auto [rm, m, offs] = rowBlock(rows, last, cols, cm, stride);
        Tile<f32> xr = cast<f32>(load(x + offs, m, 0.0));                   // (ROWS, BLOCK)
        Tile<f32> g = cast<f32>(load(dy + offs, m, 0.0));                   // (ROWS, BLOCK)
        Tile<f32> r = load(rstd + rows, rm, 0.0);                           // (ROWS)
        Tile<f32> next = acc + g * xr * r(_, None);                         // (ROWS, BLOCK)
        Tile<f32> gw = g * wt(None, _);                                     // (ROWS, BLOCK)
        Tile<f32> k = sum(gw * xr, 1) * r * r * r / n_cols;                 // (ROWS)
        Tile<f32> d = gw * r(_, None) - xr * k(_, None);                    // (ROWS, BLOCK)
        if (ds)
          d = d + cast<f32>(load(*ds + offs, m, 0.0));
        store(dx + offs, cast<T>(d), m);
        return next;
      });
  store(dw_partial + pid * n_cols + cols, sum(dw, 0), cm);
}

/// rmsnormRowsBackwardSteps without a residual gradient.
template <class T>
void rmsnorm_rows_backward(const RowsConfig &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<T> dy,
                           Ptr<T> x, Ptr<T> w, Ptr<f32> rstd, Int stride, Int n_rows, Int n_cols,
                           Int rows_per_program) {
  rmsnormRowsBackwardSteps<T>(c, dx, dw_partial, dy, std::nullopt, x, w, rstd, stride, n_rows,
                              n_cols, rows_per_program);
}
TESSEL_KERNEL(rmsnorm_rows_backward, DTYPES(f32, f16, bf16),
              ARGS(dx, dw_partial, dy, x, w, rstd, stride, n_rows, n_cols, rows_per_program),
              // tessel-tune's choices on the H200 at 262144x128, 131072x256 and 65536x512 bf16
              // (64 rows per program): 8 or 16 elements per thread; 64 columns by analogy.
              CONFIGS(RowsConfig{.ROWS = 4, .BLOCK = 64, .num_warps = 1},
                      RowsConfig{.ROWS = 2, .BLOCK = 128, .num_warps = 1},
                      RowsConfig{.ROWS = 2, .BLOCK = 256, .num_warps = 2},
                      RowsConfig{.ROWS = 2, .BLOCK = 512, .num_warps = 2}))
TESSEL_TUNE(rmsnorm_rows_backward, rowsBackwardSpace())

/// add_rmsnorm_backward on ROWS rows per step, as rmsnorm_rows_backward.
template <class T>
void add_rmsnorm_rows_backward(const RowsConfig &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<T> dy,
                               Ptr<T> ds, Ptr<T> x, Ptr<T> w, Ptr<f32> rstd, Int stride,
                               Int n_rows, Int n_cols, Int rows_per_program) {
  rmsnormRowsBackwardSteps<T>(c, dx, dw_partial, dy, ds, x, w, rstd, stride, n_rows, n_cols,
                              rows_per_program);
}
TESSEL_KERNEL(add_rmsnorm_rows_backward, DTYPES(f32, f16, bf16),
              ARGS(dx, dw_partial, dy, ds, x, w, rstd, stride, n_rows, n_cols, rows_per_program),
              CONFIGS(RowsConfig{.ROWS = 4, .BLOCK = 64, .num_warps = 1},
                      RowsConfig{.ROWS = 2, .BLOCK = 128, .num_warps = 1},
                      RowsConfig{.ROWS = 2, .BLOCK = 256, .num_warps = 2},
                      RowsConfig{.ROWS = 2, .BLOCK = 512, .num_warps = 2}))
TESSEL_TUNE(add_rmsnorm_rows_backward, rowsBackwardSpace())

struct ColumnSumConfig {
  int BLOCK = 32;   // columns per program
  int BLOCK_P = 64; // partial rows per step
  int num_warps = 4;
};
TESSEL_CONFIG(ColumnSumConfig, BLOCK, BLOCK_P, num_warps)

/// dw[j] = sum over i < n_partial of dw_partial[i, j], in f32, rounded once to T.
/// dw_partial (n_partial, n_cols) f32 contiguous; grid = (cdiv(n_cols, BLOCK),).
/// Each step loads a (BLOCK_P, BLOCK) tile of partial rows and adds it into a tile of running
/// sums, reduced over its rows once at the end: BLOCK_P rows in flight per step rather than
/// one, and narrow column blocks, so that 4096 columns still make 128 programs.
template <class T>
void rmsnorm_dw_reduce(const ColumnSumConfig &c, Ptr<T> dw, Ptr<f32> dw_partial, Int n_partial,
                       Int n_cols) {
  Tile<i64> cols = program_id(0) * c.BLOCK + arange(0, c.BLOCK);       // (BLOCK)
  Mask m = cols < n_cols;                                              // (BLOCK)
  Tile<i32> rows = arange(0, c.BLOCK_P);                               // (BLOCK_P)
  Tile<f32> sums = for_range(
      0, n_partial, c.BLOCK_P, zeros<f32>({c.BLOCK_P, c.BLOCK}), [&](Int i, Tile<f32> acc) {
        Tile<i64> r = i + rows;                                        // (BLOCK_P)
        Mask rm = (r(_, None) < n_partial) & m(None, _);               // (BLOCK_P, BLOCK)
        return acc + load(dw_partial + r(_, None) * n_cols + cols(None, _), rm, 0.0);
      });                                                              // (BLOCK_P, BLOCK)
  store(dw + cols, cast<T>(sum(sums, 0)), m);
}
TESSEL_KERNEL(rmsnorm_dw_reduce, DTYPES(f32, f16, bf16), ARGS(dw, dw_partial, n_partial, n_cols),
              // 32 f32 columns are one 128-byte line per partial row.
              CONFIGS(ColumnSumConfig{}))
