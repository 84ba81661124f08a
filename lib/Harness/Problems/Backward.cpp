//===- Backward.cpp - the gradients of RMSNorm and SwiGLU -----------------===//
//
// rmsnorm_backward (dx and per-program partial dW sums; add_rmsnorm_backward's dx also adds
// the residual stream's gradient ds), rmsnorm_dw_reduce (the partial sums
// added into dW), layernorm_backward (dx, partial dW and dB sums), swiglu_backward and
// geglu_backward (dgate, dup), each against a double-precision reference of the gradient formulas
// in dsl/kernels/{rmsnorm,layernorm,swiglu}_backward.cpp.
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <cmath>
#include <cstdlib>

namespace tessel::harness::problems {

namespace {
constexpr double kRmsNormEps = 1e-6; // as rmsnorm's problem

/// The output buffer `out` compared with `reference` within its dtype's tolerance.
void expect(Builder &b, int out, std::vector<double> reference) {
  b.p.buffers[out].reference = std::move(reference);
}

/// ROWSxCOLS of a float dtype and the rows each program walks: option rows_per_program=R,
/// else 16 programs (the GPU's one per SM in miniature).
Status rowsPerProgram(Builder &b, int64_t &rows, int64_t &cols, int64_t &per) {
  if (Status s = rowsCols(b.o, rows, cols); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  per = std::atoll(b.option("rows_per_program", "0").c_str());
  if (per <= 0)
    per = std::max<int64_t>(1, cdiv(rows, 16));
  return Status::ok();
}
} // namespace

namespace {
/// rmsnorm_backward, and with `residual` add_rmsnorm_backward (dx also takes ds).
Status rmsnormBackwardProblem(Builder &b, bool residual) {
  int64_t rows = 0, cols = 0, per = 0;
  if (Status s = rowsPerProgram(b, rows, cols, per); !s)
    return s;
  int64_t programs = cdiv(rows, per);
  DType t = b.o.dtype;
  int dx = b.output("dx", t, {rows, cols});
  int partial = b.output("dw_partial", DType::f32, {programs, cols});
  int dy = b.input("dy", t, {rows, cols});
  int ds = residual ? b.input("ds", t, {rows, cols}) : -1;
  int x = b.input("x", t, {rows, cols});
  int w = b.input("w", t, {cols}, 0.5, 1.5);
  std::vector<double> X = b.values(x), G = b.values(dy), W = b.values(w);
  std::vector<double> DS = residual ? b.values(ds) : std::vector<double>(rows * cols, 0.0);
  std::vector<double> DX(rows * cols), DW(programs * cols, 0.0);
  // The forward's rstd (rmsnorm's output), rounded to f32 as it stores it; the reference keeps
  // it in double.
  std::vector<double> rstd = ref::rmsNormRstd(X, rows, cols, kRmsNormEps);
  int rstdIn = b.input("rstd", DType::f32, {rows});
  for (int64_t r = 0; r < rows; ++r)
    b.p.buffers[rstdIn].host.set(r, rstd[r]);
  for (int64_t r = 0; r < rows; ++r) {
    const double *xr = &X[r * cols], *gr = &G[r * cols];
    double dot = 0;
    for (int64_t j = 0; j < cols; ++j)
      dot += gr[j] * W[j] * xr[j];
    double rs = rstd[r];
    double k = dot * rs * rs * rs / double(cols);
    for (int64_t j = 0; j < cols; ++j) {
      DX[r * cols + j] = gr[j] * W[j] * rs - xr[j] * k + DS[r * cols + j];
      DW[(r / per) * cols + j] += gr[j] * xr[j] * rs;
    }
  }
  expect(b, dx, std::move(DX));
  expect(b, partial, std::move(DW));
  b.ptr("dx", dx);
  b.ptr("dw_partial", partial);
  b.ptr("dy", dy, {"grad_out", "dout"});
  if (residual)
    b.ptr("ds", ds, {"grad_sum", "dres"});
  b.ptr("x", x, {"in", "input"});
  b.ptr("w", w, {"weight"});
  b.ptr("rstd", rstdIn);
  b.i64("stride", cols, {"row_stride"});
  b.i64("n_rows", rows, {"rows"});
  b.i64("n_cols", cols, {"cols"});
  b.i64("rows_per_program", per);
  b.p.launch.grid.x = programs;
  b.p.elements = rows * cols;
  b.p.bytes =
      (residual ? 4 : 3) * rows * cols * int64_t(sizeOf(t)) + programs * cols * 4 + 4 * rows;
  b.describe();
  return Status::ok();
}
} // namespace

Status rmsnormBackward(Builder &b) { return rmsnormBackwardProblem(b, false); }

Status addRmsnormBackward(Builder &b) { return rmsnormBackwardProblem(b, true); }

Status rmsnormDwReduce(Builder &b) {
  int64_t parts = 0, cols = 0;
  if (Status s = rowsCols(b.o, parts, cols); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int dw = b.output("dw", b.o.dtype, {cols});
  int partial = b.input("dw_partial", DType::f32, {parts, cols});
  std::vector<double> P = b.values(partial), DW(cols, 0.0);
  for (int64_t i = 0; i < parts; ++i)
    for (int64_t j = 0; j < cols; ++j)
      DW[j] += P[i * cols + j];
  expect(b, dw, std::move(DW));
  b.ptr("dw", dw);
  b.ptr("dw_partial", partial);
  b.i64("n_partial", parts);
  b.i64("n_cols", cols, {"cols"});
  b.p.launch.grid.x = cdiv(cols, b.config({"BLOCK"}, 256));
  b.p.elements = parts * cols;
  b.p.bytes = parts * cols * 4 + cols * int64_t(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}

Status layernormBackward(Builder &b) {
  int64_t rows = 0, cols = 0, per = 0;
  if (Status s = rowsPerProgram(b, rows, cols, per); !s)
    return s;
  int64_t programs = cdiv(rows, per);
  constexpr double eps = 1e-5; // as layernorm's problem
  DType t = b.o.dtype;
  int dx = b.output("dx", t, {rows, cols});
  int dwPartial = b.output("dw_partial", DType::f32, {programs, cols});
  int dbPartial = b.output("db_partial", DType::f32, {programs, cols});
  int dy = b.input("dy", t, {rows, cols});
  int x = b.input("x", t, {rows, cols}, -2, 3); // a nonzero mean: C1 catches padding
  int w = b.input("w", t, {cols}, 0.5, 1.5);
  std::vector<double> X = b.values(x), G = b.values(dy), W = b.values(w), mean, rstd;
  // The forward's statistics (layernorm's mean and rstd outputs), rounded to f32 as it
  // stores them; the reference keeps them in double.
  ref::layerNormStats(X, rows, cols, eps, mean, rstd);
  int meanIn = b.input("mean", DType::f32, {rows});
  int rstdIn = b.input("rstd", DType::f32, {rows});
  for (int64_t r = 0; r < rows; ++r) {
    b.p.buffers[meanIn].host.set(r, mean[r]);
    b.p.buffers[rstdIn].host.set(r, rstd[r]);
  }
  std::vector<double> DX(rows * cols), DW(programs * cols, 0.0), DB(programs * cols, 0.0);
  std::vector<double> xhat(cols), g(cols);
  for (int64_t r = 0; r < rows; ++r) {
    const double *xr = &X[r * cols], *gr = &G[r * cols];
    double mg = 0, mgx = 0;
    for (int64_t j = 0; j < cols; ++j) {
      xhat[j] = (xr[j] - mean[r]) * rstd[r];
      g[j] = gr[j] * W[j];
      mg += g[j], mgx += g[j] * xhat[j];
    }
    mg /= double(cols), mgx /= double(cols);
    for (int64_t j = 0; j < cols; ++j) {
      DX[r * cols + j] = (g[j] - mg - xhat[j] * mgx) * rstd[r];
      DW[(r / per) * cols + j] += gr[j] * xhat[j];
      DB[(r / per) * cols + j] += gr[j];
    }
  }
  expect(b, dx, std::move(DX));
  expect(b, dwPartial, std::move(DW));
  expect(b, dbPartial, std::move(DB));
  b.ptr("dx", dx);
  b.ptr("dw_partial", dwPartial);
  b.ptr("db_partial", dbPartial);
  b.ptr("dy", dy, {"grad_out", "dout"});
  b.ptr("x", x, {"in", "input"});
  b.ptr("w", w, {"weight"});
  b.ptr("mean", meanIn);
  b.ptr("rstd", rstdIn);
  b.i64("stride", cols, {"row_stride"});
  b.i64("n_rows", rows, {"rows"});
  b.i64("n_cols", cols, {"cols"});
  b.i64("rows_per_program", per);
  b.p.launch.grid.x = programs;
  b.p.elements = rows * cols;
  b.p.bytes = 3 * rows * cols * int64_t(sizeOf(t)) + 2 * programs * cols * 4 + 8 * rows;
  b.describe();
  return Status::ok();
}

namespace {
/// act(g) and act'(g) of a gated linear unit.
using Activation = void (*)(double g, double &act, double &dact);

void silu(double g, double &act, double &dact) {
  double s = 1.0 / (1.0 + std::exp(-g));
  act = g * s;
  dact = s * (1.0 + g * (1.0 - s));
}
void geluErf(double g, double &act, double &dact) {
  double cdf = 0.5 * (1.0 + std::erf(g / std::sqrt(2.0)));
  act = g * cdf;
  dact = cdf + g * std::exp(-0.5 * g * g) / std::sqrt(2.0 * M_PI);
}
void geluTanh(double g, double &act, double &dact) {
  double k = std::sqrt(2.0 / M_PI), t = std::tanh(k * (g + 0.044715 * g * g * g));
  act = 0.5 * g * (1.0 + t);
  dact = 0.5 * (1.0 + t) + 0.5 * g * (1.0 - t * t) * k * (1.0 + 3 * 0.044715 * g * g);
}

/// dgate = dout * up * act'(gate), dup = dout * act(gate), over any shape (flattened).
Status gluBackward(Builder &b, Activation f) {
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t n = 1;
  for (int64_t d : b.o.shape)
    n *= d;
  DType t = b.o.dtype;
  int dgate = b.output("dgate", t, {n});
  int dup = b.output("dup", t, {n});
  int dout = b.input("dout", t, {n});
  int gate = b.input("gate", t, {n}, -4, 4);
  int up = b.input("up", t, {n});
  // Timing only (the autotuner, which rebuilds this problem for every BLOCK: its grid) skips
  // the reference, seconds of host work at the benchmark's 235M elements.
  if (b.o.reference) {
    std::vector<double> D = b.values(dout), G = b.values(gate), U = b.values(up), DG(n), DU(n);
    for (int64_t i = 0; i < n; ++i) {
      double act = 0, dact = 0;
      f(G[i], act, dact);
      DG[i] = D[i] * U[i] * dact;
      DU[i] = D[i] * act;
    }
    expect(b, dgate, std::move(DG));
    expect(b, dup, std::move(DU));
  }
  b.ptr("dgate", dgate);
  b.ptr("dup", dup);
  b.ptr("dout", dout, {"grad_out", "dy"});
  b.ptr("gate", gate, {"a"});
  b.ptr("up", up, {"b"});
  b.i64("n", n, {"n_elements", "numel"});
  b.p.launch.grid.x = cdiv(n, b.config({"BLOCK", "BLOCK_SIZE"}, 1024));
  b.p.elements = n;
  b.p.bytes = 5 * n * int64_t(sizeOf(t));
  b.describe();
  return Status::ok();
}
} // namespace

Status swigluBackward(Builder &b) { return gluBackward(b, silu); }

Status gegluBackward(Builder &b) {
  bool tanh = b.text("approximate", b.option("approximate", "none")) == "tanh";
  return gluBackward(b, tanh ? geluTanh : geluErf);
}

} // namespace tessel::harness::problems
