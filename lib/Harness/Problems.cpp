//===- Problems.cpp - problem specs of the library kernels -----------------===//
//
// Parameter orders (the kernels in test/kernels and dsl/kernels follow them; binding by name
// takes over when a variant's metadata names its parameters):
//   vector_add(x, y, out, n)                                   grid cdiv(n, BLOCK)
//   softmax(out, in, stride, n_cols)                           grid rows
//   row_max(out, in, stride, n_cols)                           grid rows
//   rmsnorm(out, x, w, stride, n_cols, eps)                    grid rows
//   add_rmsnorm(out, residual, x, w, stride, n_cols, eps)      grid rows; residual += x in place
//   layernorm(out, x, w, b, stride, n_cols, eps)               grid rows
//   swiglu / geglu(out, a, b, n)                               grid cdiv(n, BLOCK)
//   rope(q, k, cos, sin, seq_len, n_qh, n_kh, head_dim)        grid (B*S, max(n_qh, n_kh))
//   cross_entropy(logits, labels, loss, total, stride, n_cols, ignore_index, scale)  grid rows
//   cross_entropy_bwd(dlogits, logits, labels, grad_scale, stride, n_cols, ignore_index) grid rows
//   gemm(a, b, c, bias, M, N, K, stride_am, stride_bk, stride_cm)
//                                      grid cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), GROUP_M order
//
//===----------------------------------------------------------------------===//
#include "tessel/Harness/Problem.h"
#include "tessel/Harness/Random.h"
#include "tessel/Harness/Reference.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>

using namespace tessel::harness;

std::vector<int64_t> tessel::harness::parseShape(const std::string &s) {
  std::vector<int64_t> shape;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find_first_of("xX,", i);
    std::string part = s.substr(i, j == std::string::npos ? std::string::npos : j - i);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      return {};
    if (part.size() > 15)
      return {};
    shape.push_back(std::strtoll(part.c_str(), nullptr, 10));
    if (shape.back() <= 0)
      return {};
    if (j == std::string::npos)
      break;
    if (j + 1 == s.size())
      return {};
    i = j + 1;
  }
  return shape;
}

namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Helpers shared by every spec.
struct Builder {
  const ProblemOptions &o;
  Problem &p;
  Random rng;
  Builder(const ProblemOptions &o, Problem &p) : o(o), p(p), rng(o.seed) {}

  int64_t config(std::initializer_list<const char *> names, int64_t fallback) const {
    for (const char *n : names)
      for (const auto &[k, v] : o.config) {
        std::string a = k, b = n;
        std::transform(a.begin(), a.end(), a.begin(), ::tolower);
        std::transform(b.begin(), b.end(), b.begin(), ::tolower);
        if (a == b)
          return v;
      }
    return fallback;
  }
  std::string option(const std::string &key, const std::string &fallback) const {
    auto it = o.options.find(key);
    return it == o.options.end() ? fallback : it->second;
  }
  int input(const std::string &name, DType t, std::vector<int64_t> shape, double lo = -1,
            double hi = 1) {
    ProblemBuffer b;
    b.name = name;
    b.host = HostBuffer(t, std::move(shape));
    fillUniform(b.host, rng, lo, hi);
    p.buffers.push_back(std::move(b));
    return static_cast<int>(p.buffers.size()) - 1;
  }
  int output(const std::string &name, DType t, std::vector<int64_t> shape) {
    ProblemBuffer b;
    b.name = name;
    b.host = HostBuffer(t, std::move(shape));
    b.host.fillPoison();
    b.output = true;
    b.input = false;
    b.tol = defaultTolerance(t);
    p.buffers.push_back(std::move(b));
    return static_cast<int>(p.buffers.size()) - 1;
  }
  void ptr(const std::string &name, int buffer, std::vector<std::string> aliases = {}) {
    ProblemArg a;
    a.name = name, a.aliases = std::move(aliases), a.kind = LaunchArg::Kind::Buffer;
    a.buffer = buffer;
    p.args.push_back(a);
  }
  void i64(const std::string &name, int64_t v, std::vector<std::string> aliases = {}) {
    ProblemArg a;
    a.name = name, a.aliases = std::move(aliases), a.kind = LaunchArg::Kind::Int, a.i = v;
    p.args.push_back(a);
  }
  void f64(const std::string &name, double v, std::vector<std::string> aliases = {}) {
    ProblemArg a;
    a.name = name, a.aliases = std::move(aliases), a.kind = LaunchArg::Kind::Float, a.f = v;
    p.args.push_back(a);
  }
  std::vector<double> values(int b) const { return p.buffers[b].host.toDoubles(); }
  void describe() {
    p.description = o.name + " " + name(o.dtype) + " [" + shapeString(o.shape) + "]";
  }
};

using Spec = std::function<Status(Builder &)>;

Status needRank(const ProblemOptions &o, size_t rank, const char *what) {
  if (o.shape.size() != rank)
    return Status::error("problem " + o.name + ": expected a shape " + what + ", got '" +
                         shapeString(o.shape) + "'");
  return Status::ok();
}

Status floatDType(const ProblemOptions &o) {
  if (!isFloat(o.dtype))
    return Status::error("problem " + o.name + ": dtype " + name(o.dtype) +
                         " is not supported (f16, bf16, f32, f64)");
  return Status::ok();
}

/// Rows x cols from a rank-1 (one row) or rank-2 shape.
Status rowsCols(const ProblemOptions &o, int64_t &rows, int64_t &cols) {
  if (o.shape.size() == 1)
    rows = 1, cols = o.shape[0];
  else if (o.shape.size() == 2)
    rows = o.shape[0], cols = o.shape[1];
  else
    return Status::error("problem " + o.name + ": expected a shape ROWSxCOLS, got '" +
                         shapeString(o.shape) + "'");
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

/// vector_add, swiglu, geglu: out = f(a, b) over n elements; option tail=T keeps only the
/// last T elements of each tensor in memory and runs only the programs that touch them.
Status elementwise(Builder &b, const char *aName, const char *bName,
                   std::vector<double> (*f)(const std::vector<double> &,
                                            const std::vector<double> &)) {
  const ProblemOptions &o = b.o;
  if (Status s = floatDType(o); !s)
    return s;
  int64_t n = 1;
  for (int64_t d : o.shape)
    n *= d;
  int64_t block = b.config({"BLOCK", "BLOCK_SIZE"}, 1024);
  int64_t tail = std::atoll(b.option("tail", "0").c_str());
  int64_t start = 0;
  if (tail > 0 && tail < n)
    start = ((n - tail) / block) * block; // first element of the first program that runs
  int64_t len = n - start;
  int x = b.input(aName, o.dtype, {len});
  int y = b.input(bName, o.dtype, {len});
  int out = b.output("out", o.dtype, {len});
  for (int i : {x, y, out})
    b.p.buffers[i].pointerOffset = -start;
  b.p.buffers[out].reference = f(b.values(x), b.values(y));
  b.ptr(aName, x, {"x_ptr", "a_ptr", "x", "a", "gate", "input"});
  b.ptr(bName, y, {"y_ptr", "b_ptr", "y", "b", "up"});
  b.ptr("out", out, {"out_ptr", "output", "output_ptr", "o", "c"});
  b.i64("n", n, {"n_elements", "numel", "size"});
  b.p.launch.grid.x = cdiv(n, block);
  b.p.launch.firstProgram = start / block;
  b.p.elements = n;
  b.p.bytes = 3 * n * static_cast<int64_t>(sizeOf(o.dtype));
  b.describe();
  if (start)
    b.p.description += " (last " + std::to_string(len) + " elements, programs " +
                       std::to_string(start / block) + ".." +
                       std::to_string(b.p.launch.grid.x - 1) + ")";
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Row-wise
//===----------------------------------------------------------------------===//

Status softmax(Builder &b) {
  int64_t rows, cols;
  if (Status s = rowsCols(b.o, rows, cols); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int out = b.output("out", b.o.dtype, {rows, cols});
  int in = b.input("in", b.o.dtype, {rows, cols}, -4, 4);
  b.p.buffers[out].reference = ref::softmax(b.values(in), rows, cols);
  b.ptr("out", out, {"out_ptr", "output", "output_ptr", "y"});
  b.ptr("in", in, {"in_ptr", "input", "input_ptr", "x"});
  b.i64("stride", cols, {"row_stride", "input_row_stride", "x_stride"});
  b.i64("n_cols", cols, {"cols", "ncols", "n"});
  b.p.launch.grid.x = rows;
  b.p.elements = rows * cols;
  b.p.bytes = 2 * rows * cols * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}

/// out[row] = max(in[row, :]) in f32 (case C9's masked max).
Status rowMax(Builder &b) {
  int64_t rows, cols;
  if (Status s = rowsCols(b.o, rows, cols); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
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
  b.i64("stride", cols, {"row_stride"});
  b.i64("n_cols", cols, {"cols", "n"});
  b.p.launch.grid.x = rows;
  b.p.elements = rows * cols;
  b.p.bytes = rows * cols * static_cast<int64_t>(sizeOf(b.o.dtype)) + 4 * rows;
  b.describe();
  return Status::ok();
}

Status rmsnorm(Builder &b) {
  int64_t rows, cols;
  if (Status s = rowsCols(b.o, rows, cols); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  double eps = 1e-6;
  int out = b.output("out", b.o.dtype, {rows, cols});
  int x = b.input("x", b.o.dtype, {rows, cols});
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  b.p.buffers[out].reference = ref::rmsNorm(b.values(x), b.values(w), rows, cols, eps);
  b.ptr("out", out, {"out_ptr", "y", "y_ptr", "output"});
  b.ptr("x", x, {"x_ptr", "in", "input"});
  b.ptr("w", w, {"w_ptr", "weight", "weight_ptr"});
  b.i64("stride", cols, {"row_stride", "x_stride"});
  b.i64("n_cols", cols, {"cols", "n"});
  b.f64("eps", eps, {"epsilon"});
  b.p.launch.grid.x = rows;
  b.p.elements = rows * cols;
  b.p.bytes = (2 * rows * cols + cols) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}

Status addRmsnorm(Builder &b) {
  int64_t rows, cols;
  if (Status s = rowsCols(b.o, rows, cols); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  double eps = 1e-6;
  int out = b.output("out", b.o.dtype, {rows, cols});
  int res = b.input("residual", b.o.dtype, {rows, cols});
  int x = b.input("x", b.o.dtype, {rows, cols});
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  std::vector<double> sum = ref::vectorAdd(b.values(x), b.values(res));
  b.p.buffers[out].reference = ref::rmsNorm(sum, b.values(w), rows, cols, eps);
  ProblemBuffer &r = b.p.buffers[res];
  r.output = true;
  r.reference = sum;
  r.tol = defaultTolerance(b.o.dtype);
  b.ptr("out", out, {"out_ptr", "y", "output"});
  b.ptr("residual", res, {"residual_ptr", "res", "r"});
  b.ptr("x", x, {"x_ptr", "in", "input"});
  b.ptr("w", w, {"w_ptr", "weight"});
  b.i64("stride", cols, {"row_stride"});
  b.i64("n_cols", cols, {"cols", "n"});
  b.f64("eps", eps, {"epsilon"});
  b.p.launch.grid.x = rows;
  b.p.elements = rows * cols;
  b.p.bytes = (4 * rows * cols + cols) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}

Status layernorm(Builder &b) {
  int64_t rows, cols;
  if (Status s = rowsCols(b.o, rows, cols); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  double eps = 1e-5;
  int out = b.output("out", b.o.dtype, {rows, cols});
  int x = b.input("x", b.o.dtype, {rows, cols}, -2, 3); // a nonzero mean: C1 catches padding
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  int bias = b.input("b", b.o.dtype, {cols});
  b.p.buffers[out].reference =
      ref::layerNorm(b.values(x), b.values(w), b.values(bias), rows, cols, eps);
  b.ptr("out", out, {"out_ptr", "y", "output"});
  b.ptr("x", x, {"x_ptr", "in", "input"});
  b.ptr("w", w, {"w_ptr", "weight"});
  b.ptr("b", bias, {"b_ptr", "bias", "bias_ptr"});
  b.i64("stride", cols, {"row_stride"});
  b.i64("n_cols", cols, {"cols", "n"});
  b.f64("eps", eps, {"epsilon"});
  b.p.launch.grid.x = rows;
  b.p.elements = rows * cols;
  b.p.bytes = (2 * rows * cols + 2 * cols) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// RoPE
//===----------------------------------------------------------------------===//

/// Shape BxHQxHKxSxD: q (B, HQ, S, D) and k (B, HK, S, D) rotated in place with cos/sin
/// (B, S, D) (cos/sin per batch, case C5).
Status rope(Builder &b) {
  if (Status s = needRank(b.o, 5, "BxHQxHKxSxD"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t B = b.o.shape[0], HQ = b.o.shape[1], HK = b.o.shape[2], S = b.o.shape[3],
          D = b.o.shape[4];
  if (D % 2)
    return Status::error("problem rope: head_dim " + std::to_string(D) + " must be even");
  int q = b.input("q", b.o.dtype, {B, HQ, S, D});
  int k = b.input("k", b.o.dtype, {B, HK, S, D});
  int c = b.input("cos", b.o.dtype, {B, S, D});
  int s = b.input("sin", b.o.dtype, {B, S, D});
  std::vector<double> cv = b.values(c), sv = b.values(s);
  for (int i : {q, k}) {
    ProblemBuffer &pb = b.p.buffers[i];
    pb.output = true;
    pb.tol = defaultTolerance(b.o.dtype);
    pb.reference = ref::ropeRotateHalf(pb.host.toDoubles(), cv, sv, B, i == q ? HQ : HK, S, D);
  }
  b.ptr("q", q, {"q_ptr"});
  b.ptr("k", k, {"k_ptr"});
  b.ptr("cos", c, {"cos_ptr"});
  b.ptr("sin", s, {"sin_ptr"});
  b.i64("seq_len", S, {"s", "seq", "n_tokens"});
  b.i64("n_qh", HQ, {"n_q_heads", "hq", "q_heads"});
  b.i64("n_kh", HK, {"n_k_heads", "hk", "k_heads"});
  b.i64("head_dim", D, {"d", "hd"});
  b.p.launch.grid = {B * S, std::max(HQ, HK), 1};
  b.p.elements = B * (HQ + HK) * S * D;
  b.p.bytes = (2 * b.p.elements + 2 * B * S * D) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Cross-entropy
//===----------------------------------------------------------------------===//

Status reduction(const Builder &b, ref::Reduction &r) {
  std::string s = b.option("reduction", "mean");
  if (s == "mean")
    r = ref::Reduction::mean;
  else if (s == "sum")
    r = ref::Reduction::sum;
  else if (s == "none")
    r = ref::Reduction::none;
  else
    return Status::error("problem " + b.o.name + ": reduction must be mean, sum or none, got '" +
                         s + "'");
  return Status::ok();
}

/// Labels in [0, V) with option ignore=none|some|all|K (some: rows 1, 4, 7, ... are ignored;
/// K: the first K of those rows).
std::vector<int64_t> labels(Builder &b, int64_t n, int64_t v, int64_t ignoreIndex) {
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
void setTrueProb(Builder &b, int logits, const std::vector<int64_t> &lab, int64_t n, int64_t v,
                 int64_t ignoreIndex) {
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

Status crossEntropy(Builder &b) {
  int64_t n, v;
  if (Status s = rowsCols(b.o, n, v); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  ref::Reduction red;
  if (Status s = reduction(b, red); !s)
    return s;
  const int64_t ignoreIndex = -100;
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = labels(b, n, v, ignoreIndex);
  int labelsBuf = b.input("labels", DType::i64, {n});
  for (int64_t i = 0; i < n; ++i)
    b.p.buffers[labelsBuf].host.setInt(i, lab[i]);
  int loss = b.output("loss", DType::f32, {n});
  int total = b.output("total", DType::f32, {1});
  ProblemBuffer &t = b.p.buffers[total];
  t.input = true; // accumulated with atomic adds: starts at 0
  t.host.set(0, 0.0);
  int64_t valid =
      std::count_if(lab.begin(), lab.end(), [&](int64_t l) { return l != ignoreIndex; });
  double scale = red == ref::Reduction::mean ? 1.0 / static_cast<double>(valid) : 1.0;
  if (red == ref::Reduction::mean && valid == 0)
    scale = INFINITY; // 0 * inf = NaN: PyTorch's mean over no element
  ref::CrossEntropy r = ref::crossEntropy(b.values(logits), lab, n, v, ignoreIndex, red);
  b.p.buffers[loss].reference = r.loss;
  b.p.buffers[loss].tol = defaultTolerance(b.o.dtype == DType::f64 ? DType::f64 : DType::f32);
  if (b.o.dtype == DType::f16 || b.o.dtype == DType::bf16)
    b.p.buffers[loss].tol = {1e-4, 1e-5}; // f32 math on exact 16-bit inputs
  t.reference = {red == ref::Reduction::none ? 0.0 : r.total};
  t.tol = {1e-5, 1e-5};
  if (red == ref::Reduction::none)
    t.checkEnd = 0; // not produced
  b.ptr("logits", logits, {"logits_ptr", "x", "x_ptr", "input"});
  b.ptr("labels", labelsBuf, {"labels_ptr", "target", "target_ptr", "y", "y_ptr"});
  b.ptr("loss", loss, {"loss_ptr", "losses"});
  b.ptr("total", total, {"total_ptr", "loss_sum", "reduced"});
  b.i64("stride", v, {"row_stride", "logits_stride"});
  b.i64("n_cols", v, {"vocab", "v", "n_vocab", "cols"});
  b.i64("ignore_index", ignoreIndex, {"ignore"});
  b.f64("scale", scale, {"loss_scale", "reduction_scale"});
  b.p.launch.grid.x = n;
  b.p.elements = n * v;
  b.p.bytes = n * v * static_cast<int64_t>(sizeOf(b.o.dtype)) + 12 * n;
  b.describe();
  b.p.description +=
      " reduction=" + b.option("reduction", "mean") + " ignore=" + b.option("ignore", "some");
  return Status::ok();
}

Status crossEntropyBwd(Builder &b) {
  int64_t n, v;
  if (Status s = rowsCols(b.o, n, v); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  ref::Reduction red;
  if (Status s = reduction(b, red); !s)
    return s;
  const int64_t ignoreIndex = -100;
  int dlogits = b.output("dlogits", b.o.dtype, {n, v});
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = labels(b, n, v, ignoreIndex);
  setTrueProb(b, logits, lab, n, v, ignoreIndex);
  int labelsBuf = b.input("labels", DType::i64, {n});
  for (int64_t i = 0; i < n; ++i)
    b.p.buffers[labelsBuf].host.setInt(i, lab[i]);
  // Upstream gradient: one per token for none (all different, case C3), else one value.
  std::vector<double> gradOut(red == ref::Reduction::none ? n : 1);
  for (double &g : gradOut)
    g = b.rng.uniform(0.5, 2.0);
  int64_t valid =
      std::count_if(lab.begin(), lab.end(), [&](int64_t l) { return l != ignoreIndex; });
  int gs = b.input("grad_scale", DType::f32, {n});
  for (int64_t i = 0; i < n; ++i) {
    double s = red == ref::Reduction::none  ? gradOut[i]
               : red == ref::Reduction::sum ? gradOut[0]
                                            : gradOut[0] / static_cast<double>(valid);
    b.p.buffers[gs].host.set(i, s);
  }
  std::vector<double> gsv = b.values(gs); // the scales as the kernel sees them (f32)
  std::vector<double> g = ref::crossEntropyBackward(b.values(logits), lab, n, v, ignoreIndex,
                                                    ref::Reduction::none, gsv);
  b.p.buffers[dlogits].reference = g;
  b.ptr("dlogits", dlogits, {"dlogits_ptr", "grad", "grad_ptr", "dx", "dx_ptr"});
  b.ptr("logits", logits, {"logits_ptr", "x", "x_ptr"});
  b.ptr("labels", labelsBuf, {"labels_ptr", "target", "target_ptr"});
  b.ptr("grad_scale", gs, {"grad_scale_ptr", "grad_out", "dloss", "scale"});
  b.i64("stride", v, {"row_stride"});
  b.i64("n_cols", v, {"vocab", "v", "cols"});
  b.i64("ignore_index", ignoreIndex, {"ignore"});
  b.p.launch.grid.x = n;
  b.p.elements = n * v;
  b.p.bytes = 2 * n * v * static_cast<int64_t>(sizeOf(b.o.dtype)) + 12 * n;
  b.describe();
  b.p.description +=
      " reduction=" + b.option("reduction", "mean") + " ignore=" + b.option("ignore", "some");
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// GEMM
//===----------------------------------------------------------------------===//

/// Shape MxNxK; c = act(a * b + bias) with option act=none|relu|gelu|silu and bias=0|1 (the
/// kernel variant's ACT / HAS_BIAS config must agree).
Status gemm(Builder &b) {
  if (Status s = needRank(b.o, 3, "MxNxK"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t M = b.o.shape[0], N = b.o.shape[1], K = b.o.shape[2];
  std::string act = b.option("act", "none");
  ref::Activation a = ref::Activation::none;
  if (act == "relu")
    a = ref::Activation::relu;
  else if (act == "gelu")
    a = ref::Activation::gelu;
  else if (act == "silu")
    a = ref::Activation::silu;
  else if (act != "none")
    return Status::error("problem gemm: act must be none, relu, gelu or silu, got '" + act + "'");
  bool hasBias = b.option("bias", act == "none" ? "0" : "1") == "1";
  int ab = b.input("a", b.o.dtype, {M, K});
  int bb = b.input("b", b.o.dtype, {K, N});
  int c = b.output("c", b.o.dtype, {M, N});
  int bias = b.input("bias", b.o.dtype, {N});
  b.p.buffers[c].reference = ref::gemm(
      b.values(ab), b.values(bb), hasBias ? b.values(bias) : std::vector<double>{}, M, N, K, a);
  b.ptr("a", ab, {"a_ptr"});
  b.ptr("b", bb, {"b_ptr"});
  b.ptr("c", c, {"c_ptr", "out", "out_ptr"});
  b.ptr("bias", bias, {"bias_ptr"});
  b.i64("M", M);
  b.i64("N", N);
  b.i64("K", K);
  b.i64("stride_am", K, {"lda"});
  b.i64("stride_bk", N, {"ldb"});
  b.i64("stride_cm", N, {"ldc"});
  int64_t bm = b.config({"BLOCK_M"}, 64), bn = b.config({"BLOCK_N"}, 64);
  b.p.launch.grid.x = cdiv(M, bm) * cdiv(N, bn);
  b.p.elements = M * N;
  b.p.bytes = (M * K + K * N + M * N) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  b.p.description += " act=" + act + (hasBias ? " bias" : "");
  return Status::ok();
}

struct Entry {
  const char *name;
  Spec spec;
  const char *help;
};

const std::vector<Entry> &specs() {
  static const std::vector<Entry> table = {
      {"vector_add", [](Builder &b) { return elementwise(b, "x", "y", ref::vectorAdd); },
       "vector_add(x, y, out, n): out = x + y. Shape: any (flattened). Config BLOCK. Option "
       "tail=T: allocate only the last T elements and run only their programs (C6)."},
      {"swiglu", [](Builder &b) { return elementwise(b, "a", "b", ref::swiglu); },
       "swiglu(a, b, out, n): out = silu(a) * b. Config BLOCK."},
      {"geglu", [](Builder &b) { return elementwise(b, "a", "b", ref::geglu); },
       "geglu(a, b, out, n): out = gelu_erf(a) * b. Config BLOCK."},
      {"softmax", softmax, "softmax(out, in, stride, n_cols): row softmax. Shape ROWSxCOLS."},
      {"row_max", rowMax, "row_max(out, in, stride, n_cols): out (f32) = max of each row (C9)."},
      {"rmsnorm", rmsnorm, "rmsnorm(out, x, w, stride, n_cols, eps): shape ROWSxCOLS, eps 1e-6."},
      {"add_rmsnorm", addRmsnorm,
       "add_rmsnorm(out, residual, x, w, stride, n_cols, eps): residual += x (written back), "
       "out = rmsnorm(residual) * w."},
      {"layernorm", layernorm,
       "layernorm(out, x, w, b, stride, n_cols, eps): biased variance, eps 1e-5 (C1)."},
      {"rope", rope,
       "rope(q, k, cos, sin, seq_len, n_qh, n_kh, head_dim): shape BxHQxHKxSxD, q and k "
       "rotated in place (rotate-half), cos/sin (B, S, D); grid (B*S, max(HQ, HK)) (C5)."},
      {"cross_entropy", crossEntropy,
       "cross_entropy(logits, labels, loss, total, stride, n_cols, ignore_index, scale): shape "
       "NxV; loss[i] per row (0 when ignored), total += loss[i] * scale with atomics. Options "
       "reduction=mean|sum|none, ignore=none|some|all (C4)."},
      {"cross_entropy_bwd", crossEntropyBwd,
       "cross_entropy_bwd(dlogits, logits, labels, grad_scale, stride, n_cols, ignore_index): "
       "dlogits = (softmax - onehot) * grad_scale[row], 0 for ignored rows. Options as "
       "cross_entropy, ignore=K (K ignored rows), true_prob=P (C2, C3, C4)."},
      {"gemm", gemm,
       "gemm(a, b, c, bias, M, N, K, stride_am, stride_bk, stride_cm): shape MxNxK, c = act(a*b "
       "+ bias). Config BLOCK_M, BLOCK_N (grid). Options act=none|relu|gelu|silu, bias=0|1 (C7)."},
  };
  return table;
}

} // namespace

std::vector<std::string> tessel::harness::problemNames() {
  std::vector<std::string> names;
  for (const Entry &e : specs())
    names.push_back(e.name);
  return names;
}

std::string tessel::harness::problemHelp() {
  std::string s;
  for (const Entry &e : specs())
    s += std::string("  ") + e.name + ": " + e.help + "\n";
  return s;
}

Status tessel::harness::makeProblem(const ProblemOptions &opts, Problem &out) {
  for (const Entry &e : specs()) {
    if (opts.name != e.name)
      continue;
    if (opts.shape.empty())
      return Status::error("problem " + opts.name + ": needs a shape (--shape)");
    Problem p;
    p.name = opts.name;
    Builder b(opts, p);
    if (Status s = e.spec(b); !s)
      return s;
    out = std::move(p);
    return Status::ok();
  }
  std::string names;
  for (const std::string &n : problemNames())
    names += (names.empty() ? "" : ", ") + n;
  return Status::error("unknown problem '" + opts.name + "' (known: " + names + ")");
}
