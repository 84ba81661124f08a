#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Cfg {
  int BLOCK = 4096;
  int ROWS = 1;
  int num_warps = 16;
};
TESSEL_CONFIG(Cfg, BLOCK, ROWS, num_warps)

// B: one row per step, the next row's x and dy loaded before this row's reductions.
template <class T>
void rmsbw_pf(const Cfg &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<T> dy, Ptr<T> x, Ptr<T> w,
              Int stride, Int n_rows, Int n_cols, Int rows_per_program, Float eps) {
  Int pid = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  Int first = pid * rows_per_program;
  Int last = minimum(first + rows_per_program, n_rows);
  Int r0 = minimum(first, n_rows - 1);
  Tile<T> x0 = load(x + r0 * stride + cols, m, 0.0);
  Tile<T> g0 = load(dy + r0 * stride + cols, m, 0.0);
  auto [dw, xl, gl] = for_range(first, last, 1, std::tuple{zeros<f32>({c.BLOCK}), x0, g0},
                                [&](Int row, Tile<f32> acc, Tile<T> xc, Tile<T> gc) {
                                  Int nx = minimum(row + 1, last - 1);
                                  Tile<T> xn = load(x + nx * stride + cols, m, 0.0);
                                  Tile<T> gn = load(dy + nx * stride + cols, m, 0.0);
                                  Tile<f32> xr = cast<f32>(xc);
                                  Tile<f32> g = cast<f32>(gc);
                                  Float r = 1.0 / sqrt(sum(xr * xr, 0) / n_cols + eps);
                                  Tile<f32> next = acc + g * xr * r;
                                  Tile<f32> gw = g * wt;
                                  Float k = sum(gw * xr, 0) * r * r * r / n_cols;
                                  store(dx + row * stride + cols, cast<T>(gw * r - xr * k), m);
                                  return std::tuple{next, xn, gn};
                                });
  store(dw_partial + pid * n_cols + cols, dw, m);
}
TESSEL_KERNEL(rmsbw_pf, DTYPES(bf16),
              ARGS(dx, dw_partial, dy, x, w, stride, n_rows, n_cols, rows_per_program, eps),
              CONFIGS(Cfg{}))

// D: ROWS rows per step as a (ROWS, BLOCK) tile; dW accumulated per tile row, summed at the end.
template <class T>
void rmsbw_2d(const Cfg &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<T> dy, Ptr<T> x, Ptr<T> w,
              Int stride, Int n_rows, Int n_cols, Int rows_per_program, Float eps) {
  Int pid = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  Tile<i32> rr = arange(0, c.ROWS);
  Int first = pid * rows_per_program;
  Int last = minimum(first + rows_per_program, n_rows);
  Tile<f32> dw =
      for_range(first, last, c.ROWS, zeros<f32>({c.ROWS, c.BLOCK}), [&](Int row, Tile<f32> acc) {
        Tile<i64> rows = row + rr;
        Mask mm = (rows(_, None) < last) & m(None, _);
        Tile<i64> offs = rows(_, None) * stride + cols(None, _);
        Tile<f32> xr = cast<f32>(load(x + offs, mm, 0.0));
        Tile<f32> g = cast<f32>(load(dy + offs, mm, 0.0));
        Tile<f32> r = 1.0 / sqrt(sum(xr * xr, 1) / n_cols + eps);
        Tile<f32> next = acc + g * xr * r(_, None);
        Tile<f32> gw = g * wt(None, _);
        Tile<f32> k = sum(gw * xr, 1) * r * r * r / n_cols;
        store(dx + offs, cast<T>(gw * r(_, None) - xr * k(_, None)), mm);
        return next;
      });
  store(dw_partial + pid * n_cols + cols, sum(dw, 0), m);
}
TESSEL_KERNEL(rmsbw_2d, DTYPES(bf16),
              ARGS(dx, dw_partial, dy, x, w, stride, n_rows, n_cols, rows_per_program, eps),
              CONFIGS(Cfg{.ROWS = 2}))

// E: ROWS rows per step and the next step's rows loaded before this step's reductions.
template <class T>
void rmsbw_2dpf(const Cfg &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<T> dy, Ptr<T> x, Ptr<T> w,
                Int stride, Int n_rows, Int n_cols, Int rows_per_program, Float eps) {
  Int pid = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  Tile<i32> rr = arange(0, c.ROWS);
  Int first = pid * rows_per_program;
  Int last = minimum(first + rows_per_program, n_rows);
  auto ld = [&](Ptr<T> p, Int row) {
    Tile<i64> rows = minimum(row + rr, last - 1);
    return load(p + rows(_, None) * stride + cols(None, _), m(None, _), 0.0);
  };
  Int r0 = minimum(first, n_rows - 1);
  auto [dw, xl, gl] = for_range(first, last, c.ROWS,
                                std::tuple{zeros<f32>({c.ROWS, c.BLOCK}), ld(x, r0), ld(dy, r0)},
                                [&](Int row, Tile<f32> acc, Tile<T> xc, Tile<T> gc) {
                                  Tile<T> xn = ld(x, row + c.ROWS);
                                  Tile<T> gn = ld(dy, row + c.ROWS);
                                  Tile<i64> rows = row + rr;
                                  Mask mm = (rows(_, None) < last) & m(None, _);
                                  Tile<i64> offs = rows(_, None) * stride + cols(None, _);
                                  Tile<f32> xr = cast<f32>(xc);
                                  Tile<f32> g = cast<f32>(gc);
                                  Tile<f32> r = 1.0 / sqrt(sum(xr * xr, 1) / n_cols + eps);
                                  Tile<f32> next = acc + where(mm, g * xr * r(_, None), 0.0);
                                  Tile<f32> gw = g * wt(None, _);
                                  Tile<f32> k = sum(gw * xr, 1) * r * r * r / n_cols;
                                  store(dx + offs, cast<T>(gw * r(_, None) - xr * k(_, None)), mm);
                                  return std::tuple{next, xn, gn};
                                });
  store(dw_partial + pid * n_cols + cols, sum(dw, 0), m);
}
TESSEL_KERNEL(rmsbw_2dpf, DTYPES(bf16),
              ARGS(dx, dw_partial, dy, x, w, stride, n_rows, n_cols, rows_per_program, eps),
              CONFIGS(Cfg{.ROWS = 2}))
