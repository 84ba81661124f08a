//===- layernorm.cpp - LayerNorm ------------------------------------------===//
//
// out[row, :] = (x - mean) / sqrt(var + eps) * w + b, statistics in f32 over the n_cols valid
// lanes only (masked lanes take no part in the mean or the variance: case C1); one program
// per row, grid = (n_rows,) (layernorm_rows: ROWS rows per program). mean[row] and rstd[row] = 1 / sqrt(var + eps) (f32, n_rows each)
// are written for layernorm_backward, as PyTorch's native_layer_norm returns them: the
// backward then runs two row reductions instead of four.
//
//===----------------------------------------------------------------------===//
#include "RowBlock.h"
#include "RowSpaces.h"

#include <tessel/dsl.h>

#include <optional>
#include <type_traits>

using namespace tessel::dsl;

struct LayerNormConfig {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(LayerNormConfig, BLOCK, num_warps)

/// n_cols <= BLOCK.
template <class T>
void layernorm(const LayerNormConfig &c, Ptr<T> out, Ptr<f32> mean_out, Ptr<f32> rstd_out,
               Ptr<T> in, Ptr<T> w, Ptr<T> bias, Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);                             // (BLOCK)
  Mask m = cols < n_cols;                                          // (BLOCK)
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0)); // (BLOCK)
  // bf16, up to 8 warps and 16 elements a thread (32 on up to 4 warps): w and b are issued
  // right after x, kept as bf16 with evict_last (every program reads them) and widened only
  // where they are used, so that the backend overlaps them with the reductions at about the
  // registers of the late order, as inductor's kernel does. With them, rsqrt rather than
  // 1 / sqrt, whose rounding slow path keeps the loads from moving past it. 32768x1000: 2.0%
  // faster on 1 and 2 warps. Wider configs keep the late order (16384 columns on 16 warps early:
  // about twice the registers, 27% slower), and so do f16 and f32 (not timed; their early tiles
  // take more registers than bf16's), with 1 / sqrt: there rsqrt gained nothing and made a
  // wide config spill on another backend (docs/Performance.md, session 72).
  bool early = std::is_same_v<T, bf16> && c.num_warps <= 8 &&
               (c.BLOCK <= 16 * 32 * c.num_warps ||
                (c.num_warps <= 4 && c.BLOCK <= 32 * 32 * c.num_warps));
  LoadHints shared{.evict = Evict::evict_last};
  std::optional<Tile<T>> wr, br;
  if (early) {
    wr = load(w + cols, m, shared);
    br = load(bias + cols, m, shared);
  }
  Float mean = sum(x, 0) / n_cols;
  Tile<f32> d = where(m, x - mean, 0.0);                           // (BLOCK)
  Float var = sum(d * d, 0) / n_cols;
  Float r = early ? rsqrt(var + eps) : 1.0 / sqrt(var + eps);
  Tile<f32> wt = cast<f32>(early ? *wr : load(w + cols, m));       // (BLOCK)
  Tile<f32> bt = cast<f32>(early ? *br : load(bias + cols, m));    // (BLOCK)
  store(out + row * stride + cols, cast<T>(d * r * wt + bt), m);
  store(mean_out + row, mean);
  store(rstd_out + row, r);
}
TESSEL_KERNEL(layernorm, DTYPES(f32, f16, bf16),
              ARGS(out, mean, rstd, in, w, bias, stride, n_cols, eps),
              CONFIGS(LayerNormConfig{.BLOCK = 1024, .num_warps = 4},
                      LayerNormConfig{.BLOCK = 4096, .num_warps = 8},
                      LayerNormConfig{.BLOCK = 16384, .num_warps = 16}))
TESSEL_TUNE(layernorm, oneBlockRowSpace<LayerNormConfig>())

/// layernorm on ROWS rows per program (RowsConfig): grid = (cdiv(n_rows, ROWS),); n_cols <=
/// BLOCK. For short rows (up to 512 columns in tessel.ops), where one row per program leaves
/// most lanes idle (RowSpaces.h).
template <class T>
void layernorm_rows(const RowsConfig &c, Ptr<T> out, Ptr<f32> mean_out, Ptr<f32> rstd_out,
                    Ptr<T> in, Ptr<T> w, Ptr<T> bias, Int stride, Int n_rows, Int n_cols,
                    Float eps) {
  Tile<i64> rows = program_id(0) * c.ROWS + arange(0, c.ROWS);            // (ROWS)
  Tile<i32> cols = arange(0, c.BLOCK);                                    // (BLOCK)
  Mask cm = cols < n_cols;                                                // (BLOCK)
  auto [rm, m, offs] = rowBlock(rows, n_rows, cols, cm, stride);
  Tile<f32> x = cast<f32>(load(in + offs, m, 0.0));                       // (ROWS, BLOCK)
  Tile<f32> mean = sum(x, 1) / n_cols;                                    // (ROWS)
  Tile<f32> d = where(m, x - mean(_, None), 0.0);                         // (ROWS, BLOCK)
  Tile<f32> r = 1.0 / sqrt(sum(d * d, 1) / n_cols + eps);                 // (ROWS)
  Tile<f32> wt = cast<f32>(load(w + cols, cm));                           // (BLOCK)
  Tile<f32> bt = cast<f32>(load(bias + cols, cm));                        // (BLOCK)
  store(out + offs, cast<T>(d * r(_, None) * wt(None, _) + bt(None, _)), m);
  store(mean_out + rows, mean, rm);
  store(rstd_out + rows, r, rm);
}
TESSEL_KERNEL(layernorm_rows, DTYPES(f32, f16, bf16),
              ARGS(out, mean, rstd, in, w, bias, stride, n_rows, n_cols, eps),
              // tessel-tune's choices on the H200 at 262144x128 and 131072x256 bf16, 1-3% ahead
              // of 16 x 128 on 2 warps and 16 x 256 on 4. At 512 its 4 rows on 1 warp (64 per
              // thread) spill SGPRs on gfx942: on 2 warps, within 1-3% of it on the H200. At 64
              // columns 8 rows on 1 warp (16 rows spill SGPRs on gfx90a; not timed).
              CONFIGS(RowsConfig{.ROWS = 8, .BLOCK = 64, .num_warps = 1},
                      RowsConfig{.ROWS = 8, .BLOCK = 128, .num_warps = 1},
                      RowsConfig{.ROWS = 8, .BLOCK = 256, .num_warps = 2},
                      RowsConfig{.ROWS = 4, .BLOCK = 512, .num_warps = 2}))
TESSEL_TUNE(layernorm_rows, rowsSpace())

/// Any n_cols, in three passes: the mean, the variance around it, the output.
template <class T>
void layernorm_looped(const LayerNormConfig &c, Ptr<T> out, Ptr<f32> mean_out,
                      Ptr<f32> rstd_out, Ptr<T> in, Ptr<T> w, Ptr<T> bias, Int stride,
                      Int n_cols, Float eps) {
  Int row = program_id(0);
  Ptr<T> src = in + row * stride;
  Ptr<T> dst = out + row * stride;
  Tile<i32> cols = arange(0, c.BLOCK); // (BLOCK)
  Float total = for_range(0, n_cols, c.BLOCK, Float(0.0), [&](Int start, Float acc) {
    Tile<i64> offs = start + cols;                                  // (BLOCK)
    Tile<f32> x = cast<f32>(load(src + offs, offs < n_cols, 0.0)); // (BLOCK)
    return acc + sum(x, 0);
  });
  Float mean = total / n_cols;
  Float sq = for_range(0, n_cols, c.BLOCK, Float(0.0), [&](Int start, Float acc) {
    Tile<i64> offs = start + cols;                          // (BLOCK)
    Mask mask = offs < n_cols;                              // (BLOCK)
    Tile<f32> x = cast<f32>(load(src + offs, mask, 0.0));   // (BLOCK)
    Tile<f32> d = where(mask, x - mean, 0.0);               // (BLOCK)
    return acc + sum(d * d, 0);
  });
  Float r = 1.0 / sqrt(sq / n_cols + eps);
  store(mean_out + row, mean);
  store(rstd_out + row, r);
  for_range(0, n_cols, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + cols;                          // (BLOCK)
    Mask mask = offs < n_cols;                              // (BLOCK)
    Tile<f32> x = cast<f32>(load(src + offs, mask, 0.0));   // (BLOCK)
    Tile<f32> wt = cast<f32>(load(w + offs, mask));         // (BLOCK)
    Tile<f32> bt = cast<f32>(load(bias + offs, mask));      // (BLOCK)
    store(dst + offs, cast<T>((x - mean) * r * wt + bt), mask);
  });
}
TESSEL_KERNEL(layernorm_looped, DTYPES(f32, f16, bf16),
              ARGS(out, mean, rstd, in, w, bias, stride, n_cols, eps),
              CONFIGS(LayerNormConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(layernorm_looped, loopedRowSpace<LayerNormConfig>())
