#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Cfg {
  int BLOCK = 4096;
  int ROWS = 1;
  int num_warps = 16;
};
TESSEL_CONFIG(Cfg, BLOCK, ROWS, num_warps)

template <class T>
void lnbw_2dpf(const Cfg &c, Ptr<T> dx, Ptr<f32> dw_partial, Ptr<f32> db_partial, Ptr<T> dy,
               Ptr<T> x, Ptr<T> w, Int stride, Int n_rows, Int n_cols, Int rows_per_program,
               Float eps) {
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
  auto [dw, db, xl, gl] = for_range(
      first, last, c.ROWS,
      std::tuple{zeros<f32>({c.ROWS, c.BLOCK}), zeros<f32>({c.ROWS, c.BLOCK}), ld(x, r0),
                 ld(dy, r0)},
      [&](Int row, Tile<f32> dw_acc, Tile<f32> db_acc, Tile<T> xc, Tile<T> gc) {
        Tile<T> xn = ld(x, row + c.ROWS);
        Tile<T> gn = ld(dy, row + c.ROWS);
        Tile<i64> rows = row + rr;
        Mask mm = (rows(_, None) < last) & m(None, _);
        Tile<i64> offs = rows(_, None) * stride + cols(None, _);
        Tile<f32> xr = cast<f32>(xc);
        Tile<f32> dyr = where(mm, cast<f32>(gc), 0.0);
        Tile<f32> mean = sum(xr, 1) / n_cols;
        Tile<f32> d = where(m(None, _), xr - mean(_, None), 0.0);
        Tile<f32> r = 1.0 / sqrt(sum(d * d, 1) / n_cols + eps);
        Tile<f32> xhat = d * r(_, None);
        Tile<f32> dw_next = dw_acc + dyr * xhat;
        Tile<f32> db_next = db_acc + dyr;
        Tile<f32> g = dyr * wt(None, _);
        Tile<f32> mg = sum(g, 1) / n_cols;
        Tile<f32> mgx = sum(g * xhat, 1) / n_cols;
        store(dx + offs, cast<T>((g - mg(_, None) - xhat * mgx(_, None)) * r(_, None)), mm);
        return std::tuple{dw_next, db_next, xn, gn};
      });
  store(dw_partial + pid * n_cols + cols, sum(dw, 0), m);
  store(db_partial + pid * n_cols + cols, sum(db, 0), m);
}
TESSEL_KERNEL(lnbw_2dpf, DTYPES(bf16),
              ARGS(dx, dw_partial, db_partial, dy, x, w, stride, n_rows, n_cols, rows_per_program,
                   eps),
              CONFIGS(Cfg{.ROWS = 1}, Cfg{.ROWS = 2}))
