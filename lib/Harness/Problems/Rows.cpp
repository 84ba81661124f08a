//===- Rows.cpp - softmax, row_max and the norms --------------------------===//
//
// One program per row of a ROWSxCOLS input: softmax, row_max, cumsum, rmsnorm, add_rmsnorm,
// add_rmsnorm_out, layernorm; ROWS rows per program: rmsnorm_rows, layernorm_rows.
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <algorithm>
#include <cmath>

namespace tessel::harness::problems {

namespace {
/// ROWSxCOLS of a float dtype, from the options.
Status floatRows(Builder &b, int64_t &rows, int64_t &cols) {
  if (Status s = rowsCols(b.o, rows, cols); !s)
    return s;
  return floatDType(b.o);
}

/// A ROWSxCOLS float problem's shape and its "out" and "in" buffers, both ROWSxCOLS.
struct RowsInOut {
  int64_t rows = 0, cols = 0;
  int out = -1, in = -1;
};

/// Reads the shape, then makes out and in (values in [lo, hi]) in that order: the seeded inputs
/// are drawn in the order buffers are made.
Status rowsInOut(Builder &b, RowsInOut &r, double lo = -1, double hi = 1) {
  if (Status s = floatRows(b, r.rows, r.cols); !s)
    return s;
  r.out = b.output("out", b.o.dtype, {r.rows, r.cols});
  r.in = b.input("in", b.o.dtype, {r.rows, r.cols}, lo, hi);
  return Status::ok();
}

/// One program per row; `moved` elements of the problem's dtype read or written (plus
/// `extraBytes`) for the bandwidth report.
Status launchRows(Builder &b, int64_t rows, int64_t cols, int64_t moved, int64_t extraBytes = 0) {
  b.p.launch.grid.x = rows;
  b.p.elements = rows * cols;
  b.p.bytes = moved * static_cast<int64_t>(sizeOf(b.o.dtype)) + extraBytes;
  b.describe();
  return Status::ok();
}

/// The eps of rmsnorm and add_rmsnorm.
constexpr double kRmsNormEps = 1e-6;

/// RMSNorm's arguments, in the registry's order: out, `sumOut` (add_rmsnorm_out's sum; -1:
/// none), rstd (rows, f32) and in (rows, cols), `residual` (the residual of add_rmsnorm), the
/// weight w (cols), the row stride, n_cols and eps.
void normArgs(Builder &b, int out, int rstd, int in, int w, int64_t cols, double eps,
              int residual = -1, int sumOut = -1, int64_t nRows = -1) {
  b.ptr("out", out, {"out_ptr", "y", "y_ptr", "output"});
  if (sumOut >= 0)
    b.ptr("sum_out", sumOut, {"residual_out", "res_out"});
  b.ptr("rstd", rstd, {"rstd_out", "rstd_ptr"});
  b.ptr("in", in, {"x", "x_ptr", "in_ptr", "input"});
  if (residual >= 0)
    b.ptr("res", residual, {"residual", "residual_ptr", "res_ptr", "r"});
  b.ptr("w", w, {"w_ptr", "weight", "weight_ptr"});
  b.i64("stride", cols, {"row_stride", "x_stride"});
  if (nRows >= 0)
    b.i64("n_rows", nRows, {"rows"});
  b.i64("n_cols", cols, {"cols", "n"});
  b.f64("eps", eps, {"epsilon"});
}

/// The *_rows kernels' launch: ROWS (config) rows per program.
void launchRowBlocks(Builder &b, int64_t rows) {
  b.p.launch.grid.x = cdiv(rows, b.config({"ROWS"}, 1));
}
} // namespace

Status softmax(Builder &b) {
  RowsInOut io;
  if (Status s = rowsInOut(b, io, -4, 4); !s)
    return s;
  auto [rows, cols, out, in] = io;
  std::vector<double> &ref = b.p.buffers[out].reference;
  ref.resize(rows * cols);
  b.forRowChunks(in, rows, cols, [&](const std::vector<double> &x, int64_t first, int64_t n) {
    std::vector<double> y = ref::softmax(x, n, cols);
    std::copy(y.begin(), y.end(), ref.begin() + first * cols);
  });
  b.ptr("out", out, {"out_ptr", "output", "output_ptr", "y"});
  b.ptr("in", in, {"in_ptr", "input", "input_ptr", "x"});
  b.i64("in_stride", cols, {"stride", "row_stride", "input_row_stride", "x_stride"});
  b.i64("out_stride", cols, {"output_row_stride", "y_stride"});
  b.i64("n_cols", cols, {"cols", "ncols", "n"});
  return launchRows(b, rows, cols, 2 * rows * cols);
}

/// out[r, j] = in[r, 0] + ... + in[r, j]: the row-wise inclusive cumsum (torch.cumsum(x, -1)).
Status cumsum(Builder &b) {
  RowsInOut io;
  if (Status s = rowsInOut(b, io, -1, 1); !s)
    return s;
  auto [rows, cols, out, in] = io;
  std::vector<double> x = b.values(in), r(x.size());
  for (int64_t i = 0; i < rows; ++i) {
    double acc = 0;
    for (int64_t j = 0; j < cols; ++j)
      r[i * cols + j] = acc += x[i * cols + j];
  }
  b.p.buffers[out].reference = r;
  b.ptr("out", out, {"out_ptr", "output", "y"});
  b.ptr("in", in, {"in_ptr", "input", "x"});
  b.i64("stride", cols, {"row_stride", "in_stride"});
  b.i64("n_cols", cols, {"cols", "n"});
  return launchRows(b, rows, cols, 2 * rows * cols);
}

/// out[row] = max(in[row, :]) in f32 (case C9's masked max).
Status rowMax(Builder &b) {
  int64_t rows, cols;
  if (Status s = floatRows(b, rows, cols); !s)
    return s;
  int out = b.output("out", DType::f32, {rows});
  int in = b.input("in", b.o.dtype, {rows, cols}, -4, 4);
  std::vector<double> x = b.values(in), r(rows);
  for (int64_t i = 0; i < rows; ++i)
    r[i] = *std::max_element(x.begin() + i * cols, x.begin() + (i + 1) * cols);
  b.p.buffers[out].reference = r;
  b.p.buffers[out].tol = {0, 0}; // a max is exact
  b.ptr("out", out, {"out_ptr", "output"});
  b.ptr("in", in, {"in_ptr", "input", "x"});
  b.i64("stride", cols, {"row_stride", "in_stride"});
  b.i64("n_cols", cols, {"cols", "n"});
  return launchRows(b, rows, cols, rows * cols, 4 * rows);
}

/// rmsnorm, or rmsnorm_rows (`rowBlocks`: n_rows passed, ROWS rows per program).
static Status rmsnormProblem(Builder &b, bool rowBlocks) {
  RowsInOut io;
  if (Status s = rowsInOut(b, io); !s)
    return s;
  auto [rows, cols, out, x] = io;
  int rstd = b.output("rstd", DType::f32, {rows});
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  std::vector<double> W = b.values(w), &ref = b.p.buffers[out].reference,
                      &rstdRef = b.p.buffers[rstd].reference;
  ref.resize(rows * cols);
  rstdRef.resize(rows);
  b.forRowChunks(x, rows, cols, [&](const std::vector<double> &X, int64_t first, int64_t n) {
    std::vector<double> y = ref::rmsNorm(X, W, n, cols, kRmsNormEps);
    std::copy(y.begin(), y.end(), ref.begin() + first * cols);
    std::vector<double> r = ref::rmsNormRstd(X, n, cols, kRmsNormEps);
    std::copy(r.begin(), r.end(), rstdRef.begin() + first);
  });
  b.p.buffers[rstd].tol = defaultTolerance(b.o.dtype);
  normArgs(b, out, rstd, x, w, cols, kRmsNormEps, -1, -1, rowBlocks ? rows : -1);
  Status s = launchRows(b, rows, cols, 2 * rows * cols + cols, 4 * rows);
  if (rowBlocks)
    launchRowBlocks(b, rows);
  return s;
}

Status rmsnorm(Builder &b) { return rmsnormProblem(b, /*rowBlocks=*/false); }
Status rmsnormRows(Builder &b) { return rmsnormProblem(b, /*rowBlocks=*/true); }

/// add_rmsnorm: res <- in + res, out = rmsnorm(in + res) * w; outOfPlace (add_rmsnorm_out):
/// the sum into sum_out instead, and res must come back bit for bit.
static Status addRmsnormProblem(Builder &b, bool outOfPlace) {
  RowsInOut io;
  if (Status s = rowsInOut(b, io); !s)
    return s;
  auto [rows, cols, out, x] = io;
  int sumOut = outOfPlace ? b.output("sum_out", b.o.dtype, {rows, cols}) : -1;
  int rstd = b.output("rstd", DType::f32, {rows});
  int res = b.input("res", b.o.dtype, {rows, cols});
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  std::vector<double> sum = ref::vectorAdd(b.values(x), b.values(res));
  b.p.buffers[out].reference = ref::rmsNorm(sum, b.values(w), rows, cols, kRmsNormEps);
  // The looped variants take the statistics on the sum rounded to the dtype (as stored), the
  // reference on the exact sum: rstd is held to the dtype's bound, as out is.
  b.p.buffers[rstd].reference = ref::rmsNormRstd(sum, rows, cols, kRmsNormEps);
  b.p.buffers[rstd].tol = defaultTolerance(b.o.dtype);
  ProblemBuffer &r = b.p.buffers[res];
  r.output = true; // compared after the run either way
  r.reference = outOfPlace ? r.host.toDoubles() : sum;
  r.tol = outOfPlace ? Tolerance{0, 0} : defaultTolerance(b.o.dtype);
  if (outOfPlace)
    b.p.buffers[sumOut].reference = std::move(sum);
  normArgs(b, out, rstd, x, w, cols, kRmsNormEps, /*residual=*/res, sumOut);
  return launchRows(b, rows, cols, 4 * rows * cols + cols, 4 * rows);
}

Status addRmsnorm(Builder &b) { return addRmsnormProblem(b, /*outOfPlace=*/false); }
Status addRmsnormOut(Builder &b) { return addRmsnormProblem(b, /*outOfPlace=*/true); }

/// out, and the per-row mean and rstd (f32) that layernorm_backward reads; `rowBlocks`:
/// layernorm_rows (n_rows passed, ROWS rows per program).
static Status layernormProblem(Builder &b, bool rowBlocks) {
  RowsInOut io;
  if (Status s = rowsInOut(b, io, -2, 3); !s) // a nonzero mean: C1 catches padding
    return s;
  auto [rows, cols, out, x] = io;
  double eps = 1e-5;
  int mean = b.output("mean", DType::f32, {rows});
  int rstd = b.output("rstd", DType::f32, {rows});
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  int bias = b.input("bias", b.o.dtype, {cols});
  std::vector<double> W = b.values(w), B = b.values(bias), &ref = b.p.buffers[out].reference,
                      &meanRef = b.p.buffers[mean].reference,
                      &rstdRef = b.p.buffers[rstd].reference;
  ref.resize(rows * cols);
  meanRef.resize(rows);
  rstdRef.resize(rows);
  b.forRowChunks(x, rows, cols, [&](const std::vector<double> &X, int64_t first, int64_t n) {
    std::vector<double> y = ref::layerNorm(X, W, B, n, cols, eps), m, r;
    std::copy(y.begin(), y.end(), ref.begin() + first * cols);
    ref::layerNormStats(X, n, cols, eps, m, r);
    std::copy(m.begin(), m.end(), meanRef.begin() + first);
    std::copy(r.begin(), r.end(), rstdRef.begin() + first);
  });
  b.ptr("out", out, {"out_ptr", "y", "y_ptr", "output"});
  b.ptr("mean", mean, {"mean_out", "mean_ptr"});
  b.ptr("rstd", rstd, {"rstd_out", "rstd_ptr"});
  b.ptr("in", x, {"x", "x_ptr", "in_ptr", "input"});
  b.ptr("w", w, {"w_ptr", "weight", "weight_ptr"});
  b.ptr("bias", bias, {"b", "b_ptr", "bias_ptr"});
  b.i64("stride", cols, {"row_stride", "x_stride"});
  if (rowBlocks)
    b.i64("n_rows", rows, {"rows"});
  b.i64("n_cols", cols, {"cols", "n"});
  b.f64("eps", eps, {"epsilon"});
  Status s = launchRows(b, rows, cols, 2 * rows * cols + 2 * cols, 8 * rows);
  if (rowBlocks)
    launchRowBlocks(b, rows);
  return s;
}

Status layernorm(Builder &b) { return layernormProblem(b, /*rowBlocks=*/false); }
Status layernormRows(Builder &b) { return layernormProblem(b, /*rowBlocks=*/true); }

} // namespace tessel::harness::problems
