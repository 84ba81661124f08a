//===- CrossEntropy.cpp - cross-entropy, forward and backward -------------===//
//
// Per-row losses of NxV logits (and their host-side reduction), and the logits' gradient, with
// options label_smoothing=E and z_loss=Z (the kernels' last two arguments, 0 by default).
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessel::harness::problems {

/// The reduction: the variant's `reduction` config field when it has one, else the option.
static Status reduction(const Builder &b, ref::Reduction &r, std::string &name) {
  name = b.text("reduction", b.option("reduction", "mean"));
  if (name == "mean")
    r = ref::Reduction::mean;
  else if (name == "sum")
    r = ref::Reduction::sum;
  else if (name == "none")
    r = ref::Reduction::none;
  else
    return Status::error("problem " + b.o.name + ": reduction must be mean, sum or none, got '" +
                         name + "'");
  return Status::ok();
}

/// Labels in [0, V) with option ignore=none|some|all|K (some: rows 1, 4, 7, ... are ignored;
/// K: the first K of those rows).
static std::vector<int64_t> labels(Builder &b, int64_t n, int64_t v, int64_t ignoreIndex) {
  std::string ig = b.option("ignore", "some");
  int64_t count = ig.find_first_not_of("0123456789") == std::string::npos && !ig.empty()
                      ? std::atoll(ig.c_str())
                      : (ig == "some" ? n : 0);
  std::vector<int64_t> l(n);
  for (int64_t i = 0; i < n; ++i) {
    l[i] = b.rng.integer(0, v - 1);
    if (ig == "all" || (i % 3 == 1 && count-- > 0))
      l[i] = ignoreIndex;
  }
  return l;
}

/// Option true_prob=P: raises each row's label logit so that its softmax probability is P
/// (before rounding the logit to the dtype), case C2.
static void setTrueProb(Builder &b, int logits, const std::vector<int64_t> &lab, int64_t n,
                        int64_t v, int64_t ignoreIndex) {
  std::string ps = b.option("true_prob", "");
  if (ps.empty())
    return;
  double p = std::atof(ps.c_str());
  HostBuffer &x = b.p.buffers[logits].host;
  for (int64_t i = 0; i < n; ++i) {
    if (lab[i] == ignoreIndex)
      continue;
    double rest = 0;
    for (int64_t j = 0; j < v; ++j)
      if (j != lab[i])
        rest += std::exp(x.get(i * v + j));
    x.set(i * v + lab[i], std::log(p / (1 - p) * rest));
  }
}

static int labelsBuffer(Builder &b, const std::vector<int64_t> &lab) {
  int buf = b.input("labels", DType::i64, {static_cast<int64_t>(lab.size())});
  for (size_t i = 0; i < lab.size(); ++i)
    b.p.buffers[buf].host.setInt(static_cast<int64_t>(i), lab[i]);
  return buf;
}

/// The label of a row whose loss is ignored (PyTorch's default).
constexpr int64_t kIgnoreIndex = -100;

/// A float option (0 when not given), rounded to f32 as the kernel receives it; a value
/// that is not a number is an error.
static Status floatOption(const Builder &b, const std::string &key, double &out) {
  std::string text = b.option(key, "");
  out = 0;
  if (text.empty())
    return Status::ok();
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v))
    return Status::error("problem " + b.o.name + ": option " + key + "=" + text +
                         " is not a finite number");
  out = static_cast<double>(static_cast<float>(v));
  return Status::ok();
}

/// What both problems read first: NxV rows of a float dtype, the loss reduction (option or
/// config `reduction`), and options label_smoothing=E (eps) and z_loss=Z (the z-loss scale),
/// both 0 by default.
struct LossRows {
  int64_t n = 0, v = 0;
  ref::Reduction red = ref::Reduction::mean;
  std::string redName;
  double smoothing = 0, zLoss = 0;
};
static Status lossRows(Builder &b, LossRows &l) {
  if (Status s = rowsCols(b.o, l.n, l.v); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  if (Status s = floatOption(b, "label_smoothing", l.smoothing); !s)
    return s;
  if (Status s = floatOption(b, "z_loss", l.zLoss); !s)
    return s;
  return reduction(b, l.red, l.redName);
}

/// The kernels' last two arguments.
static void smoothingArgs(Builder &b, const LossRows &l) {
  b.f64("label_smoothing", l.smoothing, {"smoothing", "eps"});
  b.f64("z_loss", l.zLoss, {"lse_square_scale"});
}

/// The arguments the cross-entropy kernels share, each under every name the problems accept:
/// the logits and labels, and the row geometry (stride, dstride for a gradient output, n_cols).
static void logitsLabelsArgs(Builder &b, int logits, int labels) {
  b.ptr("logits", logits, {"logits_ptr", "x", "x_ptr", "input"});
  b.ptr("labels", labels, {"labels_ptr", "target", "target_ptr", "y", "y_ptr"});
}
static void dlogitsArg(Builder &b, int dlogits) {
  b.ptr("dlogits", dlogits, {"dlogits_ptr", "grad", "grad_ptr", "dx", "dx_ptr"});
}
static void rowArgs(Builder &b, int64_t v, bool gradient) {
  b.i64("stride", v, {"row_stride", "logits_stride"});
  if (gradient)
    b.i64("dstride", v, {"dlogits_stride", "grad_stride"});
  b.i64("n_cols", v, {"vocab", "v", "n_vocab", "cols"});
}

/// The rows whose label is not ignored.
static int64_t countValid(const std::vector<int64_t> &lab) {
  return std::count_if(lab.begin(), lab.end(), [](int64_t l) { return l != kIgnoreIndex; });
}

/// One program per row, `tensors` NxV tensors of the dtype moved (plus 12 bytes a row: label
/// and loss) for the bandwidth report.
static Status launchLossRows(Builder &b, const LossRows &l, int64_t tensors) {
  b.p.launch.grid.x = l.n;
  b.p.elements = l.n * l.v;
  b.p.bytes = tensors * l.n * l.v * static_cast<int64_t>(sizeOf(b.o.dtype)) + 12 * l.n;
  b.describe();
  b.p.description += " reduction=" + l.redName + " ignore=" + b.option("ignore", "some");
  if (l.smoothing != 0)
    b.p.description += " label_smoothing=" + b.option("label_smoothing", "");
  if (l.zLoss != 0)
    b.p.description += " z_loss=" + b.option("z_loss", "");
  return Status::ok();
}

/// loss[row] per row (0 when ignored; label smoothing and z-loss as ref::crossEntropy), and the
/// reduction of the losses computed on the host
/// from the kernel's output (a derived buffer): mean over the non-ignored rows (NaN when there
/// is none, as PyTorch, case C4), sum, or none (nothing more to check).
Status crossEntropy(Builder &b) {
  LossRows rows;
  if (Status s = lossRows(b, rows); !s)
    return s;
  const int64_t n = rows.n, v = rows.v;
  int loss = b.output("loss", DType::f32, {n});
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = labels(b, n, v, kIgnoreIndex);
  int labelsBuf = labelsBuffer(b, lab);
  // The per-row losses chunk by chunk of rows (no float64 copy of all the logits: 8 GB at
  // 8192x128256), then their reduction in row order, as ref::crossEntropy adds them.
  ref::CrossEntropy r{std::vector<double>(n, 0.0), 0.0};
  b.forRowChunks(logits, n, v, [&](const std::vector<double> &x, int64_t first, int64_t count) {
    std::vector<int64_t> chunkLabels(lab.begin() + first, lab.begin() + first + count);
    ref::CrossEntropy c = ref::crossEntropy(x, chunkLabels, count, v, kIgnoreIndex,
                                            ref::Reduction::none, rows.smoothing, rows.zLoss);
    std::copy(c.loss.begin(), c.loss.end(), r.loss.begin() + first);
  });
  int64_t counted = 0;
  double sum = 0;
  for (int64_t i = 0; i < n; ++i)
    if (lab[i] != kIgnoreIndex) {
      ++counted;
      sum += r.loss[i];
    }
  r.total = rows.red == ref::Reduction::mean ? (counted ? sum / counted : std::nan("")) : sum;
  b.p.buffers[loss].reference = r.loss;
  b.p.buffers[loss].tol = {1e-5, 1e-6}; // f32 math on the (exact) stored logits
  int total = b.output("reduced", DType::f64, {1});
  ProblemBuffer &t = b.p.buffers[total];
  t.derived = true;
  t.input = false;
  t.reference = {rows.red == ref::Reduction::none ? 0.0 : r.total};
  t.tol = {1e-5, 1e-6};
  if (rows.red == ref::Reduction::none)
    t.checkEnd = 0;
  int64_t valid = countValid(lab);
  b.p.derive = [loss, total, red = rows.red, valid](Problem &p) {
    const HostBuffer &l = p.buffers[loss].host;
    double sum = 0;
    for (int64_t i = 0; i < l.numel(); ++i)
      sum += l.get(i);
    // PyTorch's mean over zero rows: 0 / 0 = NaN.
    double value = red == ref::Reduction::mean ? sum / static_cast<double>(valid) : sum;
    p.buffers[total].host.set(0, value);
  };
  b.ptr("loss", loss, {"loss_ptr", "losses"});
  logitsLabelsArgs(b, logits, labelsBuf);
  rowArgs(b, v, /*gradient=*/false);
  b.i64("ignore_index", kIgnoreIndex, {"ignore"});
  smoothingArgs(b, rows);
  return launchLossRows(b, rows, 1);
}

/// dlogits = (softmax * (1 + 2 z lse) - (1 - eps) * onehot - eps / V) * g per row (eps = z = 0:
/// (softmax - onehot) * g), g = dloss[row] (reduction none, a different value
/// per token, case C3), dloss[0] (sum) or dloss[0] / n_valid (mean); ignored rows get 0.
Status crossEntropyBackward(Builder &b) {
  LossRows rows;
  if (Status s = lossRows(b, rows); !s)
    return s;
  const int64_t n = rows.n, v = rows.v;
  int dlogits = b.output("dlogits", b.o.dtype, {n, v});
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = labels(b, n, v, kIgnoreIndex);
  setTrueProb(b, logits, lab, n, v, kIgnoreIndex);
  int labelsBuf = labelsBuffer(b, lab);
  int dloss = b.input("dloss", DType::f32, {rows.red == ref::Reduction::none ? n : 1}, 0.5, 2.0);
  int64_t valid = countValid(lab);
  // The per-row scale as the kernel forms it in f32.
  std::vector<double> g = b.values(dloss), scale(n);
  for (int64_t i = 0; i < n; ++i)
    scale[i] = rows.red == ref::Reduction::none  ? g[i]
               : rows.red == ref::Reduction::sum ? g[0]
                                                 : double(float(g[0]) / float(valid));
  b.p.buffers[dlogits].reference =
      ref::crossEntropyBackward(b.values(logits), lab, n, v, kIgnoreIndex, ref::Reduction::none,
                                scale, rows.smoothing, rows.zLoss);
  dlogitsArg(b, dlogits);
  logitsLabelsArgs(b, logits, labelsBuf);
  b.ptr("dloss", dloss, {"dloss_ptr", "grad_out", "grad_output"});
  rowArgs(b, v, /*gradient=*/true);
  b.i64("ignore_index", kIgnoreIndex, {"ignore"});
  b.i64("n_valid", valid, {"n_non_ignore"});
  smoothingArgs(b, rows);
  return launchLossRows(b, rows, 2);
}

/// The buffer dlogits is checked in: with `inplace` (option inplace=1) the logits' own, which
/// holds the gradient after the run, else a new NxV output.
static int gradientBuffer(Builder &b, int logits, std::vector<double> grad, bool inplace, int64_t n,
                          int64_t v) {
  if (inplace) {
    ProblemBuffer &x = b.p.buffers[logits];
    x.output = true;
    x.tol = defaultTolerance(b.o.dtype);
    x.reference = std::move(grad);
    return logits;
  }
  int dlogits = b.output("dlogits", b.o.dtype, {n, v});
  b.p.buffers[dlogits].reference = std::move(grad);
  return dlogits;
}

/// Both at once (kernel cross_entropy_fused): loss[row] as crossEntropy, lse[row] (each row's
/// logsumexp) and dlogits as crossEntropyBackward for one upstream scale g = grad_scale[0] on
/// every row. Option inplace=1 makes dlogits the logits buffer itself (fused linear
/// cross-entropy's use): the kernel must read the target logit before any gradient overwrites
/// it.
Status crossEntropyFused(Builder &b) {
  LossRows rows;
  if (Status s = lossRows(b, rows); !s)
    return s;
  const int64_t n = rows.n, v = rows.v;
  bool inplace = b.option("inplace", "0") == "1";
  int loss = b.output("loss", DType::f32, {n});
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = labels(b, n, v, kIgnoreIndex);
  setTrueProb(b, logits, lab, n, v, kIgnoreIndex);
  int labelsBuf = labelsBuffer(b, lab);
  int scale = b.input("grad_scale", DType::f32, {1}, 0.5, 2.0);
  std::vector<double> values = b.values(logits);
  ref::CrossEntropy r = ref::crossEntropy(values, lab, n, v, kIgnoreIndex, ref::Reduction::sum,
                                          rows.smoothing, rows.zLoss);
  b.p.buffers[loss].reference = r.loss;
  // With true_prob the loss is -log(P) (1e-3 at P = 0.999), the difference of lse and x[t],
  // both about 10: f32 leaves ~1e-6 absolute there, 1e-3 relative.
  b.p.buffers[loss].tol = {b.option("true_prob", "").empty() ? 1e-5 : 1e-2, 1e-6};
  int lse = b.output("lse", DType::f32, {n});
  b.p.buffers[lse].reference = ref::logSumExp(values, n, v);
  b.p.buffers[lse].tol = {1e-5, 1e-6};
  std::vector<double> g(n, b.values(scale)[0]);
  std::vector<double> grad = ref::crossEntropyBackward(
      values, lab, n, v, kIgnoreIndex, ref::Reduction::none, g, rows.smoothing, rows.zLoss);
  int dlogits = gradientBuffer(b, logits, std::move(grad), inplace, n, v);
  b.ptr("loss", loss, {"loss_ptr", "losses"});
  b.ptr("lse", lse, {"lse_ptr", "logsumexp"});
  dlogitsArg(b, dlogits);
  logitsLabelsArgs(b, logits, labelsBuf);
  b.ptr("grad_scale", scale, {"dloss", "dloss_ptr", "scale"});
  rowArgs(b, v, /*gradient=*/true);
  b.i64("ignore_index", kIgnoreIndex, {"ignore"});
  smoothingArgs(b, rows);
  if (Status s = launchLossRows(b, rows, 2); !s)
    return s;
  if (inplace)
    b.p.description += " inplace";
  return Status::ok();
}

/// Option col_offset = off (a window's first column), `fallback` when absent.
static Status colOffset(const Builder &b, int64_t fallback, int64_t &off) {
  std::string text = b.option("col_offset", std::to_string(fallback));
  char *end = nullptr;
  off = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || off < 0)
    return Status::error("problem " + b.o.name + ": option col_offset=" + text +
                         " is not a non-negative integer");
  return Status::ok();
}

/// Labels of n rows for a window of v columns at `off` of a wider row: rows 0, 3, 6, ... have
/// their label in the window, rows 2, 5, ... below it when there is room, else above it (rows
/// 1, 4, ... ignored, or not with ignore=none).
static std::vector<int64_t> windowLabels(Builder &b, int64_t n, int64_t v, int64_t off) {
  std::vector<int64_t> lab = labels(b, n, v, kIgnoreIndex);
  for (int64_t i = 0; i < n; ++i)
    if (lab[i] != kIgnoreIndex && i % 3 != 0)
      lab[i] += (i % 2 == 0 && off >= v) ? 0 : off + v;
    else if (lab[i] != kIgnoreIndex)
      lab[i] += off;
  return lab;
}

/// The window's logits (n, v) turned into their gradient given each row's logsumexp `lse`:
/// (exp(x - lse) - [off + j == label]) * g, 0 for ignored rows.
static std::vector<double> windowGradient(const std::vector<double> &logits,
                                          const std::vector<double> &lse,
                                          const std::vector<int64_t> &lab, int64_t n, int64_t v,
                                          int64_t off, double g) {
  std::vector<double> grad(n * v, 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; lab[i] != kIgnoreIndex && j < v; ++j)
      grad[i * v + j] = (std::exp(logits[i * v + j] - lse[i]) - (off + j == lab[i])) * g;
  return grad;
}

/// The lse input of a window's rows: the window's logsumexp + log(3), standing for a row of
/// three windows of similar mass, stored in f32; returns the values as stored.
static std::vector<double> windowLse(Builder &b, int lse, const std::vector<double> &logits,
                                     int64_t n, int64_t v) {
  std::vector<double> ref = ref::logSumExp(logits, n, v);
  for (int64_t i = 0; i < n; ++i)
    b.p.buffers[lse].host.set(i, ref[i] + std::log(3.0));
  return b.values(lse);
}

/// A window of columns [off, off + W) of NxV' logits (shape NxW, option col_offset=off, W by
/// default) and its gradient given each row's logsumexp over all V' columns (kernel
/// cross_entropy_backward_lse, fused linear cross-entropy's vocabulary chunks): dlogits =
/// (exp(x - lse) - [off + j == label]) * g, 0 for ignored rows (windowLabels, windowLse).
/// Option inplace=1 as crossEntropyFused.
Status crossEntropyBackwardLse(Builder &b) {
  int64_t n = 0, v = 0, off = 0;
  if (Status s = rowsCols(b.o, n, v); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  if (Status s = colOffset(b, v, off); !s)
    return s;
  bool inplace = b.option("inplace", "0") == "1";
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = windowLabels(b, n, v, off);
  int labelsBuf = labelsBuffer(b, lab);
  std::vector<double> values = b.values(logits);
  int lse = b.input("lse", DType::f32, {n});
  std::vector<double> lseRef = windowLse(b, lse, values, n, v);
  int scale = b.input("grad_scale", DType::f32, {1}, 0.5, 2.0);
  std::vector<double> grad = windowGradient(values, lseRef, lab, n, v, off, b.values(scale)[0]);
  int dlogits = gradientBuffer(b, logits, std::move(grad), inplace, n, v);
  dlogitsArg(b, dlogits);
  logitsLabelsArgs(b, logits, labelsBuf);
  b.ptr("lse", lse, {"lse_ptr", "logsumexp"});
  b.ptr("grad_scale", scale, {"dloss", "dloss_ptr", "scale"});
  rowArgs(b, v, /*gradient=*/true);
  b.i64("col_offset", off, {"offset", "vocab_offset"});
  b.i64("ignore_index", kIgnoreIndex, {"ignore"});
  b.p.launch.grid.x = n;
  b.p.elements = n * v;
  b.p.bytes = 2 * n * v * static_cast<int64_t>(sizeOf(b.o.dtype)) + 12 * n;
  b.describe();
  b.p.description += " col_offset=" + std::to_string(off) +
                     " ignore=" + b.option("ignore", "some") + (inplace ? " inplace" : "");
  return Status::ok();
}

/// Shape MxNxK: cross_entropy_backward_lse's window computed from its operands (kernel
/// gemm_ce_backward): the logits x (M, K) @ w (N, K)^T, x and w row-major as fused linear
/// cross-entropy holds the input and a slice of nn.Linear's weight, and their gradient c (M, N)
/// = (exp(logits - lse) - [off + j == label]) * g, 0 for ignored rows; labels, lse and option
/// col_offset as cross_entropy_backward_lse's (the logits in double precision from the stored
/// operands).
Status gemmCrossEntropyBackward(Builder &b) {
  if (Status s = needRank(b.o, 3, "MxNxK"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t M = b.o.shape[0], N = b.o.shape[1], K = b.o.shape[2], off = 0;
  if (Status s = colOffset(b, N, off); !s)
    return s;
  int x = b.input("a", b.o.dtype, {M, K});
  int w = b.input("b", b.o.dtype, {N, K});
  int c = b.output("c", b.o.dtype, {M, N});
  std::vector<int64_t> lab = windowLabels(b, M, N, off);
  int labelsBuf = labelsBuffer(b, lab);
  int lse = b.input("lse", DType::f32, {M});
  int scale = b.input("grad_scale", DType::f32, {1}, 0.5, 2.0);
  // Timing only (the autotuner): the product's reference, which the lse input also needs,
  // costs more than the timing; lse keeps its random values.
  if (b.o.reference) {
    ref::GemmStrides st{K, 1, 1, K}; // b(p, j) = w[j * K + p]: w^T
    std::vector<double> logits =
        ref::gemm(b.values(x), b.values(w), {}, M, N, K, ref::Activation::none, st);
    std::vector<double> lseRef = windowLse(b, lse, logits, M, N);
    b.p.buffers[c].reference = windowGradient(logits, lseRef, lab, M, N, off, b.values(scale)[0]);
  }
  b.ptr("a", x, {"x", "a_ptr"});
  b.ptr("b", w, {"w", "b_ptr"});
  b.ptr("c", c, {"out", "dlogits", "c_ptr"});
  b.ptr("labels", labelsBuf, {"labels_ptr", "target", "target_ptr"});
  b.ptr("lse", lse, {"lse_ptr", "logsumexp"});
  b.ptr("grad_scale", scale, {"dloss", "dloss_ptr", "scale"});
  b.i64("M", M);
  b.i64("N", N);
  b.i64("K", K);
  b.i64("col_offset", off, {"offset", "vocab_offset"});
  b.i64("ignore_index", kIgnoreIndex, {"ignore"});
  b.i64("stride_am", K, {"lda"});
  b.i64("stride_ak", 1);
  b.i64("stride_bk", 1);
  b.i64("stride_bn", K, {"ldb"});
  b.i64("stride_cm", N, {"ldc"});
  b.i64("stride_cn", 1);
  int64_t bm = b.config({"BLOCK_M"}, 64), bn = b.config({"BLOCK_N"}, 64);
  b.p.launch.grid.x = cdiv(M, bm) * cdiv(N, bn);
  b.p.elements = M * N;
  b.p.bytes = (M * K + N * K + M * N) * static_cast<int64_t>(sizeOf(b.o.dtype)) + 12 * M;
  b.describe();
  b.p.description += " col_offset=" + std::to_string(off) + " ignore=" + b.option("ignore", "some");
  return Status::ok();
}

} // namespace tessel::harness::problems
