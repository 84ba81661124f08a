//===- rmsnorm.cpp - RMSNorm, and RMSNorm with a fused residual add -------===//
//
// out[row, :] = x / sqrt(mean(x^2) + eps) * w, in f32; one program per row, grid = (n_rows,)
// (rmsnorm_rows: ROWS rows per program).
// Every variant writes rstd[row] = 1 / sqrt(mean(x^2) + eps) (f32, n_rows) for
// rmsnorm_backward, as Liger-Kernel's forward saves it: the backward then runs one row reduction
// instead of two. The add_ variants first form x = in + res and store it (the residual stream of the next
// layer): back into res (add_rmsnorm) or into sum_out (add_rmsnorm_out). The _looped variants
// handle rows longer than one block in two passes.
//
//===----------------------------------------------------------------------===//
#include "RowBlock.h"
#include "RowSpaces.h"

#include <tessel/dsl.h>

#include <optional>

using namespace tessel::dsl;

struct RMSNormConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(RMSNormConfig, BLOCK, num_warps)

/// n_cols <= BLOCK. Masked lanes load 0 and add nothing to the sum of squares.
template <class T>
void rmsnorm(const RMSNormConfig &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w,
             Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                                // (BLOCK)
  Mask m = cols < n_cols;                                             // (BLOCK)
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));    // (BLOCK)
  auto loadW = [&] { return cast<f32>(load(w + cols, m, 0.0)); };      // (BLOCK)
  // Up to 8 warps and 16 elements a thread, the weights load right after x, in flight with it
  // (32768x1000 on 2 and 4 warps and 16384x4096 on 8: 1.0-2.4% faster). Otherwise after the
  // reduction, where only x is live: 4096 columns on 16 warps lose programs per SM to the
  // registers w holds (6% slower), and 16384-wide rows would spill (docs/Performance.md,
  // session 57).
  std::optional<Tile<f32>> early;
  if (c.num_warps <= 8 && c.BLOCK <= 16 * 32 * c.num_warps)
    early = loadW();
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  Tile<f32> wt = early ? *early : loadW();                            // (BLOCK)
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(rmsnorm, DTYPES(f32, f16, bf16), ARGS(out, rstd, in, w, stride, n_cols, eps),
              CONFIGS(RMSNormConfig{.BLOCK = 1024, .num_warps = 4},
                      RMSNormConfig{.BLOCK = 4096, .num_warps = 8},
                      RMSNormConfig{.BLOCK = 16384, .num_warps = 16}))
TESSEL_TUNE(rmsnorm, oneBlockRowSpace<RMSNormConfig>())

/// rmsnorm on ROWS rows per program (RowsConfig): grid = (cdiv(n_rows, ROWS),); n_cols <=
/// BLOCK. For short rows (up to 512 columns in tessel.ops), where one row per program leaves
/// most lanes idle (RowSpaces.h).
template <class T>
void rmsnorm_rows(const RowsConfig &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w,
                  Int stride, Int n_rows, Int n_cols, Float eps) {
  Tile<i64> rows = program_id(0) * c.ROWS + arange(0, c.ROWS);            // (ROWS)
  Tile<i32> cols = arange(0, c.BLOCK);                                    // (BLOCK)
  Mask cm = cols < n_cols;                                                // (BLOCK)
  auto [rm, m, offs] = rowBlock(rows, n_rows, cols, cm, stride);
  Tile<f32> x = cast<f32>(load(in + offs, m, 0.0));                       // (ROWS, BLOCK)
  Tile<f32> r = 1.0 / sqrt(sum(x * x, 1) / n_cols + eps);                 // (ROWS)
  Tile<f32> wt = cast<f32>(load(w + cols, cm, 0.0));                      // (BLOCK)
  store(out + offs, cast<T>(x * r(_, None) * wt(None, _)), m);
  store(rstd + rows, r, rm);
}
TESSEL_KERNEL(rmsnorm_rows, DTYPES(f32, f16, bf16),
              ARGS(out, rstd, in, w, stride, n_rows, n_cols, eps),
              // tessel-tune's choices on the H200 at 262144x128 and 131072x256 bf16, 1-3% ahead
              // of 16 x 128 on 2 warps and 16 x 256 on 4. At 512 its 4 rows on 1 warp (64 per
              // thread) spill SGPRs on gfx942: on 2 warps, within 1-3% of it on the H200. At 64
              // columns 8 rows on 1 warp (16 rows spill SGPRs on gfx90a; not timed).
              CONFIGS(RowsConfig{.ROWS = 8, .BLOCK = 64, .num_warps = 1},
                      RowsConfig{.ROWS = 8, .BLOCK = 128, .num_warps = 1},
                      RowsConfig{.ROWS = 8, .BLOCK = 256, .num_warps = 2},
                      RowsConfig{.ROWS = 4, .BLOCK = 512, .num_warps = 2}))
TESSEL_TUNE(rmsnorm_rows, rowsSpace())

/// The fused residual add of one row: sum = in + res, rounded to T, is stored at `sum_dst`
/// (the next layer reads it rounded), then out = rmsnorm(in + res) from the f32 sum. A plain
/// C++ function: its ops are emitted inline in each kernel below.
template <class T>
void add_rmsnorm_row(const RMSNormConfig &c, Ptr<T> out, Ptr<T> sum_dst, Ptr<f32> rstd,
                     Ptr<T> in, Ptr<T> res, Ptr<T> w, Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                                // (BLOCK)
  Mask m = cols < n_cols;                                             // (BLOCK)
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));    // (BLOCK)
  x += cast<f32>(load(res + row * stride + cols, m, 0.0));            // (BLOCK)
  store(sum_dst + row * stride + cols, cast<T>(x), m);
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  // After the reduction, as in rmsnorm: only x is live across it, so that 16384 columns on 16
  // warps fit two programs per SM without spills (docs/Performance.md).
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));                   // (BLOCK)
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}

/// Fused residual add in place: res <- in + res, out = rmsnorm(in + res).
template <class T>
void add_rmsnorm(const RMSNormConfig &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> res,
                 Ptr<T> w, Int stride, Int n_cols, Float eps) {
  add_rmsnorm_row(c, out, res, rstd, in, res, w, stride, n_cols, eps);
}
TESSEL_KERNEL(add_rmsnorm, DTYPES(f32, f16, bf16),
              ARGS(out, rstd, in, res, w, stride, n_cols, eps),
              CONFIGS(RMSNormConfig{.BLOCK = 1024, .num_warps = 4},
                      RMSNormConfig{.BLOCK = 4096, .num_warps = 8},
                      RMSNormConfig{.BLOCK = 16384, .num_warps = 16}))
TESSEL_TUNE(add_rmsnorm, oneBlockRowSpace<RMSNormConfig>())

/// Fused residual add out of place: sum_out <- in + res, out = rmsnorm(in + res); in and res
/// are only read. What tessel.ops.rms_norm(x, w, residual=r) runs: the caller's residual stays
/// as it was without a copy of it first (a copy + add_rmsnorm moves 6 rows of traffic, this 4).
template <class T>
void add_rmsnorm_out(const RMSNormConfig &c, Ptr<T> out, Ptr<T> sum_out, Ptr<f32> rstd,
                     Ptr<T> in, Ptr<T> res, Ptr<T> w, Int stride, Int n_cols, Float eps) {
  add_rmsnorm_row(c, out, sum_out, rstd, in, res, w, stride, n_cols, eps);
}
TESSEL_KERNEL(add_rmsnorm_out, DTYPES(f32, f16, bf16),
              ARGS(out, sum_out, rstd, in, res, w, stride, n_cols, eps),
              CONFIGS(RMSNormConfig{.BLOCK = 1024, .num_warps = 4},
                      RMSNormConfig{.BLOCK = 4096, .num_warps = 8},
                      RMSNormConfig{.BLOCK = 16384, .num_warps = 16}))
TESSEL_TUNE(add_rmsnorm_out, oneBlockRowSpace<RMSNormConfig>())

/// Any n_cols: pass 1 accumulates the sum of squares block by block, pass 2 normalizes.
template <class T>
void rmsnorm_looped(const RMSNormConfig &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w,
                    Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Ptr<T> src = in + row * stride;
  Ptr<T> dst = out + row * stride;
  Tile<i32> cols = arange(0, c.BLOCK); // (BLOCK)
  Float ss = for_range(0, n_cols, c.BLOCK, Float(0.0), [&](Int start, Float acc) {
    Tile<i64> offs = start + cols;                                  // (BLOCK)
    Tile<f32> x = cast<f32>(load(src + offs, offs < n_cols, 0.0)); // (BLOCK)
    return acc + sum(x * x, 0);
  });
  Float r = 1.0 / sqrt(ss / n_cols + eps);
  store(rstd + row, r);
  for_range(0, n_cols, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + cols;                         // (BLOCK)
    Mask mask = offs < n_cols;                             // (BLOCK)
    Tile<f32> x = cast<f32>(load(src + offs, mask, 0.0));  // (BLOCK)
    Tile<f32> wt = cast<f32>(load(w + offs, mask, 0.0));   // (BLOCK)
    store(dst + offs, cast<T>(x * r * wt), mask);
  });
}
TESSEL_KERNEL(rmsnorm_looped, DTYPES(f32, f16, bf16),
              ARGS(out, rstd, in, w, stride, n_cols, eps),
              CONFIGS(RMSNormConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(rmsnorm_looped, loopedRowSpace<RMSNormConfig>())

/// Fused residual add for any n_cols: pass 1 writes res <- in + res and accumulates the sum of
/// squares of the residual as stored (rounded to T); pass 2 re-reads it and normalizes, so both
/// passes see the same values (as PyTorch's rms_norm(x + res) on T tensors does).
template <class T>
void add_rmsnorm_looped(const RMSNormConfig &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in,
                        Ptr<T> res, Ptr<T> w, Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Ptr<T> x_row = in + row * stride;
  Ptr<T> res_row = res + row * stride;
  Ptr<T> out_row = out + row * stride;
  Tile<i32> cols = arange(0, c.BLOCK); // (BLOCK)
  Float ss = for_range(0, n_cols, c.BLOCK, Float(0.0), [&](Int start, Float acc) {
    Tile<i64> offs = start + cols;                                       // (BLOCK)
    Mask mask = offs < n_cols;                                           // (BLOCK)
    Tile<T> sum_t = cast<T>(cast<f32>(load(x_row + offs, mask, 0.0)) +
                            cast<f32>(load(res_row + offs, mask, 0.0))); // (BLOCK)
    store(res_row + offs, sum_t, mask);
    Tile<f32> x = cast<f32>(sum_t);                                      // (BLOCK)
    return acc + sum(x * x, 0);
  });
  Float r = 1.0 / sqrt(ss / n_cols + eps);
  store(rstd + row, r);
  for_range(0, n_cols, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + cols;                             // (BLOCK)
    Mask mask = offs < n_cols;                                 // (BLOCK)
    Tile<f32> x = cast<f32>(load(res_row + offs, mask, 0.0));  // (BLOCK)
    Tile<f32> wt = cast<f32>(load(w + offs, mask, 0.0));       // (BLOCK)
    store(out_row + offs, cast<T>(x * r * wt), mask);
  });
}
TESSEL_KERNEL(add_rmsnorm_looped, DTYPES(f32, f16, bf16),
              ARGS(out, rstd, in, res, w, stride, n_cols, eps),
              CONFIGS(RMSNormConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(add_rmsnorm_looped, loopedRowSpace<RMSNormConfig>())
