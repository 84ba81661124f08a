//===- Problems.cpp - problem specs of the library kernels -----------------===//
//
// Parameter orders are those of the kernels of dsl/kernels (and of the hand-written templates in
// test/kernels/Inputs); a variant whose metadata names its parameters binds by name instead:
//   vector_add(x, y, out, n)                                     grid cdiv(n, BLOCK)
//   swiglu / geglu(out, gate, up, n)                             grid cdiv(n, BLOCK)
//   softmax(out, in, in_stride, out_stride, n_cols)              grid rows
//   row_max(out, in, stride, n_cols)                             grid rows
//   rmsnorm(out, in, w, stride, n_cols, eps)                     grid rows
//   add_rmsnorm(out, in, res, w, stride, n_cols, eps)            grid rows; res += in in place
//   layernorm(out, in, w, bias, stride, n_cols, eps)             grid rows
//   rope(q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride, q_head_stride,
//        k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride, cos_seq_stride,
//        cos_half_offset)                                        grid B * S
//   cross_entropy(loss, logits, labels, stride, n_cols, ignore_index)             grid rows
//   cross_entropy_backward(dlogits, logits, labels, dloss, stride, dstride, n_cols,
//                          ignore_index, n_valid)                                 grid rows
//   gemm(a, b, out, bias, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
//        stride_cn)                        grid cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), GROUP_M order
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
#include <utility>

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
  /// An enum config field of the variant (ACT = "relu"), or `fallback`.
  std::string text(const std::string &key, const std::string &fallback) const {
    for (const auto &[k, v] : o.configText) {
      std::string a = k, b = key;
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

using Binary = std::vector<double> (*)(const std::vector<double> &, const std::vector<double> &);

/// The GELU of geglu: erf (config approximate = none, the default) or tanh.
std::vector<double> gegluTanh(const std::vector<double> &a, const std::vector<double> &b) {
  std::vector<double> o(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    double x = a[i];
    o[i] = 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))) * b[i];
  }
  return o;
}

/// vector_add (x, y, out, n) and the GLUs (out, gate, up, n): out = f(first, second) over n
/// elements; option tail=T keeps only the last T elements of each tensor in memory and runs
/// only the programs that touch them (case C6).
Status elementwise(Builder &b, bool outFirst, const char *aName, const char *bName, Binary f,
                   std::vector<std::string> aAliases, std::vector<std::string> bAliases) {
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
  if (outFirst)
    b.ptr("out", out, {"out_ptr", "output", "output_ptr", "o", "y"});
  b.ptr(aName, x, aAliases);
  b.ptr(bName, y, bAliases);
  if (!outFirst)
    b.ptr("out", out, {"out_ptr", "output", "output_ptr", "o", "c"});
  b.i64("n", n, {"n_elements", "numel", "size"});
  b.p.launch.grid.x = cdiv(n, block);
  b.p.launch.firstProgram = start / block;
  b.p.elements = len; // the elements this run touches (all of them unless tail=T)
  b.p.bytes = 3 * len * static_cast<int64_t>(sizeOf(o.dtype));
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
  b.i64("in_stride", cols, {"stride", "row_stride", "input_row_stride", "x_stride"});
  b.i64("out_stride", cols, {"output_row_stride", "y_stride"});
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
  b.i64("stride", cols, {"row_stride", "in_stride"});
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
  int x = b.input("in", b.o.dtype, {rows, cols});
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  b.p.buffers[out].reference = ref::rmsNorm(b.values(x), b.values(w), rows, cols, eps);
  b.ptr("out", out, {"out_ptr", "y", "y_ptr", "output"});
  b.ptr("in", x, {"x", "x_ptr", "in_ptr", "input"});
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
  int x = b.input("in", b.o.dtype, {rows, cols});
  int res = b.input("res", b.o.dtype, {rows, cols});
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  std::vector<double> sum = ref::vectorAdd(b.values(x), b.values(res));
  b.p.buffers[out].reference = ref::rmsNorm(sum, b.values(w), rows, cols, eps);
  ProblemBuffer &r = b.p.buffers[res];
  r.output = true;
  r.reference = sum;
  r.tol = defaultTolerance(b.o.dtype);
  b.ptr("out", out, {"out_ptr", "y", "output"});
  b.ptr("in", x, {"x", "x_ptr", "in_ptr", "input"});
  b.ptr("res", res, {"residual", "residual_ptr", "res_ptr", "r"});
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
  int x = b.input("in", b.o.dtype, {rows, cols}, -2, 3); // a nonzero mean: C1 catches padding
  int w = b.input("w", b.o.dtype, {cols}, 0.5, 1.5);
  int bias = b.input("bias", b.o.dtype, {cols});
  b.p.buffers[out].reference =
      ref::layerNorm(b.values(x), b.values(w), b.values(bias), rows, cols, eps);
  b.ptr("out", out, {"out_ptr", "y", "output"});
  b.ptr("in", x, {"x", "x_ptr", "in_ptr", "input"});
  b.ptr("w", w, {"w_ptr", "weight"});
  b.ptr("bias", bias, {"b", "b_ptr", "bias_ptr"});
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

/// Shape BxHQxHKxSxD: q (B, HQ, S, D) and k (B, HK, S, D) rotated in place with f32 cos/sin
/// tables (B, S, D), one per batch (case C5). The variant's HALF must be D/2 and BLOCK_H at
/// least max(HQ, HK) when its config names them.
Status rope(Builder &b) {
  if (Status s = needRank(b.o, 5, "BxHQxHKxSxD"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t B = b.o.shape[0], HQ = b.o.shape[1], HK = b.o.shape[2], S = b.o.shape[3],
          D = b.o.shape[4];
  if (D % 2)
    return Status::error("problem rope: head_dim " + std::to_string(D) + " must be even");
  int64_t half = b.config({"HALF"}, D / 2), blockH = b.config({"BLOCK_H"}, std::max(HQ, HK));
  if (half != D / 2)
    return Status::error("problem rope: the variant has HALF = " + std::to_string(half) +
                         ", so head_dim must be " + std::to_string(2 * half) + ", not " +
                         std::to_string(D));
  if (blockH < std::max(HQ, HK))
    return Status::error("problem rope: the variant has BLOCK_H = " + std::to_string(blockH) +
                         ", fewer than the " + std::to_string(std::max(HQ, HK)) + " heads");
  // layout=bhsd (default): q (B, HQ, S, D); layout=bshd: q (B, S, HQ, D), a token's heads
  // contiguous as in the Triton anchor. cos=shared: one (S, D) table for every batch
  // (batch stride 0) instead of one per batch.
  bool bshd = b.option("layout", "bhsd") == "bshd";
  bool sharedCos = b.option("cos", "per_batch") == "shared";
  int64_t CB = sharedCos ? 1 : B;
  auto shapeOf = [&](int64_t H) {
    return bshd ? std::vector<int64_t>{B, S, H, D} : std::vector<int64_t>{B, H, S, D};
  };
  int q = b.input("q", b.o.dtype, shapeOf(HQ));
  int k = b.input("k", b.o.dtype, shapeOf(HK));
  int c = b.input("cos", DType::f32, {CB, S, D});
  int s = b.input("sin", DType::f32, {CB, S, D});
  std::vector<double> cv = b.values(c), sv = b.values(s);
  if (sharedCos) { // the reference takes one table per batch
    std::vector<double> c1 = cv, s1 = sv;
    cv.clear(), sv.clear();
    for (int64_t i = 0; i < B; ++i) {
      cv.insert(cv.end(), c1.begin(), c1.end());
      sv.insert(sv.end(), s1.begin(), s1.end());
    }
  }
  // (B, S, H, D) <-> (B, H, S, D) for the reference, which takes the latter.
  auto permute = [&](const std::vector<double> &x, int64_t H, bool toBHSD) {
    std::vector<double> y(x.size());
    for (int64_t bi = 0; bi < B; ++bi)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t si = 0; si < S; ++si)
          for (int64_t d = 0; d < D; ++d) {
            int64_t bhsd = ((bi * H + h) * S + si) * D + d, bshdI = ((bi * S + si) * H + h) * D + d;
            if (toBHSD)
              y[bhsd] = x[bshdI];
            else
              y[bshdI] = x[bhsd];
          }
    return y;
  };
  for (int i : {q, k}) {
    ProblemBuffer &pb = b.p.buffers[i];
    int64_t H = i == q ? HQ : HK;
    pb.output = true;
    pb.tol = defaultTolerance(b.o.dtype);
    std::vector<double> x = pb.host.toDoubles();
    if (bshd)
      x = permute(x, H, true);
    pb.reference = ref::ropeRotateHalf(x, cv, sv, B, H, S, D);
    if (bshd)
      pb.reference = permute(pb.reference, H, false);
  }
  b.ptr("q", q, {"q_ptr"});
  b.ptr("k", k, {"k_ptr"});
  b.ptr("cos", c, {"cos_ptr"});
  b.ptr("sin", s, {"sin_ptr"});
  b.i64("seq_len", S, {"s", "seq", "n_tokens"});
  b.i64("n_qh", HQ, {"n_q_heads", "hq", "q_heads"});
  b.i64("n_kh", HK, {"n_k_heads", "hk", "k_heads"});
  b.i64("q_batch_stride", HQ * S * D);
  b.i64("q_seq_stride", bshd ? HQ * D : D);
  b.i64("q_head_stride", bshd ? D : S * D);
  b.i64("k_batch_stride", HK * S * D);
  b.i64("k_seq_stride", bshd ? HK * D : D);
  b.i64("k_head_stride", bshd ? D : S * D);
  b.i64("cos_batch_stride", sharedCos ? 0 : S * D);
  b.i64("cos_seq_stride", D);
  b.i64("cos_half_offset", D / 2);
  b.p.launch.grid = {B * S, 1, 1};
  b.p.elements = B * (HQ + HK) * S * D;
  b.p.bytes = 2 * b.p.elements * static_cast<int64_t>(sizeOf(b.o.dtype)) + 8 * CB * S * D;
  b.describe();
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Cross-entropy
//===----------------------------------------------------------------------===//

/// The reduction: the variant's `reduction` config field when it has one, else the option.
Status reduction(const Builder &b, ref::Reduction &r, std::string &name) {
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

int labelsBuffer(Builder &b, const std::vector<int64_t> &lab) {
  int buf = b.input("labels", DType::i64, {static_cast<int64_t>(lab.size())});
  for (size_t i = 0; i < lab.size(); ++i)
    b.p.buffers[buf].host.setInt(static_cast<int64_t>(i), lab[i]);
  return buf;
}

/// loss[row] per row (0 when ignored), and the reduction of the losses computed on the host
/// from the kernel's output (a derived buffer): mean over the non-ignored rows (NaN when there
/// is none, as PyTorch, case C4), sum, or none (nothing more to check).
Status crossEntropy(Builder &b) {
  int64_t n, v;
  if (Status s = rowsCols(b.o, n, v); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  ref::Reduction red;
  std::string redName;
  if (Status s = reduction(b, red, redName); !s)
    return s;
  const int64_t ignoreIndex = -100;
  int loss = b.output("loss", DType::f32, {n});
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = labels(b, n, v, ignoreIndex);
  int labelsBuf = labelsBuffer(b, lab);
  ref::CrossEntropy r = ref::crossEntropy(b.values(logits), lab, n, v, ignoreIndex, red);
  b.p.buffers[loss].reference = r.loss;
  b.p.buffers[loss].tol = {1e-5, 1e-6}; // f32 math on the (exact) stored logits
  int total = b.output("reduced", DType::f64, {1});
  ProblemBuffer &t = b.p.buffers[total];
  t.derived = true;
  t.input = false;
  t.reference = {red == ref::Reduction::none ? 0.0 : r.total};
  t.tol = {1e-5, 1e-6};
  if (red == ref::Reduction::none)
    t.checkEnd = 0;
  int64_t valid =
      std::count_if(lab.begin(), lab.end(), [&](int64_t l) { return l != ignoreIndex; });
  b.p.derive = [loss, total, red, valid](Problem &p) {
    const HostBuffer &l = p.buffers[loss].host;
    double sum = 0;
    for (int64_t i = 0; i < l.numel(); ++i)
      sum += l.get(i);
    // PyTorch's mean over zero rows: 0 / 0 = NaN.
    double value = red == ref::Reduction::mean ? sum / static_cast<double>(valid) : sum;
    p.buffers[total].host.set(0, value);
  };
  b.ptr("loss", loss, {"loss_ptr", "losses"});
  b.ptr("logits", logits, {"logits_ptr", "x", "x_ptr", "input"});
  b.ptr("labels", labelsBuf, {"labels_ptr", "target", "target_ptr", "y", "y_ptr"});
  b.i64("stride", v, {"row_stride", "logits_stride"});
  b.i64("n_cols", v, {"vocab", "v", "n_vocab", "cols"});
  b.i64("ignore_index", ignoreIndex, {"ignore"});
  b.p.launch.grid.x = n;
  b.p.elements = n * v;
  b.p.bytes = n * v * static_cast<int64_t>(sizeOf(b.o.dtype)) + 12 * n;
  b.describe();
  b.p.description += " reduction=" + redName + " ignore=" + b.option("ignore", "some");
  return Status::ok();
}

/// dlogits = (softmax - onehot) * g per row, g = dloss[row] (reduction none, a different value
/// per token, case C3), dloss[0] (sum) or dloss[0] / n_valid (mean); ignored rows get 0.
Status crossEntropyBackward(Builder &b) {
  int64_t n, v;
  if (Status s = rowsCols(b.o, n, v); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  ref::Reduction red;
  std::string redName;
  if (Status s = reduction(b, red, redName); !s)
    return s;
  const int64_t ignoreIndex = -100;
  int dlogits = b.output("dlogits", b.o.dtype, {n, v});
  int logits = b.input("logits", b.o.dtype, {n, v}, -4, 4);
  std::vector<int64_t> lab = labels(b, n, v, ignoreIndex);
  setTrueProb(b, logits, lab, n, v, ignoreIndex);
  int labelsBuf = labelsBuffer(b, lab);
  int dloss = b.input("dloss", DType::f32, {red == ref::Reduction::none ? n : 1}, 0.5, 2.0);
  int64_t valid =
      std::count_if(lab.begin(), lab.end(), [&](int64_t l) { return l != ignoreIndex; });
  // The per-row scale as the kernel forms it in f32.
  std::vector<double> g = b.values(dloss), scale(n);
  for (int64_t i = 0; i < n; ++i)
    scale[i] = red == ref::Reduction::none  ? g[i]
               : red == ref::Reduction::sum ? g[0]
                                            : double(float(g[0]) / float(valid));
  b.p.buffers[dlogits].reference = ref::crossEntropyBackward(
      b.values(logits), lab, n, v, ignoreIndex, ref::Reduction::none, scale);
  b.ptr("dlogits", dlogits, {"dlogits_ptr", "grad", "grad_ptr", "dx", "dx_ptr"});
  b.ptr("logits", logits, {"logits_ptr", "x", "x_ptr"});
  b.ptr("labels", labelsBuf, {"labels_ptr", "target", "target_ptr"});
  b.ptr("dloss", dloss, {"dloss_ptr", "grad_out", "grad_output"});
  b.i64("stride", v, {"row_stride", "logits_stride"});
  b.i64("dstride", v, {"dlogits_stride", "grad_stride"});
  b.i64("n_cols", v, {"vocab", "v", "cols"});
  b.i64("ignore_index", ignoreIndex, {"ignore"});
  b.i64("n_valid", valid, {"n_non_ignore"});
  b.p.launch.grid.x = n;
  b.p.elements = n * v;
  b.p.bytes = 2 * n * v * static_cast<int64_t>(sizeOf(b.o.dtype)) + 12 * n;
  b.describe();
  b.p.description += " reduction=" + redName + " ignore=" + b.option("ignore", "some");
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// GEMM
//===----------------------------------------------------------------------===//

/// Shape MxNxK; out = act(a * b + bias). The activation and the bias come from the variant's
/// ACT / HAS_BIAS config fields when present, else from options act=none|relu|gelu|silu and
/// bias=0|1. Options a_order / b_order = row|col store a (M, K) or b (K, N) transposed
/// (col-major: a's stride_am = 1, b's stride_bk = 1), and lda = L pads a to a leading dimension
/// of L elements (its row stride, or its column stride when col-major). The buffers are sized
/// for the strides and the padding holds random values, so a kernel that reads it is caught.
/// out is (M, N) row-major and contiguous.
Status gemm(Builder &b) {
  if (Status s = needRank(b.o, 3, "MxNxK"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t M = b.o.shape[0], N = b.o.shape[1], K = b.o.shape[2];
  std::string act = b.text("ACT", b.option("act", "none"));
  ref::Activation a = ref::Activation::none;
  if (act == "relu")
    a = ref::Activation::relu;
  else if (act == "gelu")
    a = ref::Activation::gelu;
  else if (act == "silu")
    a = ref::Activation::silu;
  else if (act != "none")
    return Status::error("problem gemm: act must be none, relu, gelu or silu, got '" + act + "'");
  bool hasBias = b.config({"HAS_BIAS"}, b.option("bias", act == "none" ? "0" : "1") == "1");
  std::string aOrder = b.option("a_order", "row"), bOrder = b.option("b_order", "row");
  for (const auto &[key, v] : {std::pair{"a_order", aOrder}, std::pair{"b_order", bOrder}})
    if (v != "row" && v != "col")
      return Status::error(std::string("problem gemm: ") + key + " must be row or col, got '" +
                           v + "'");
  bool aCol = aOrder == "col", bCol = bOrder == "col";
  // a's leading dimension: the distance between rows (row-major) or columns (col-major).
  int64_t aInner = aCol ? M : K, aOuter = aCol ? K : M;
  int64_t lda = aInner;
  std::string ldaText = b.option("lda", "");
  if (!ldaText.empty()) {
    if (ldaText.size() > 15 || ldaText.find_first_not_of("0123456789") != std::string::npos)
      return Status::error("problem gemm: lda must be a number of elements, got '" + ldaText +
                           "'");
    lda = std::strtoll(ldaText.c_str(), nullptr, 10);
    if (lda < aInner)
      return Status::error("problem gemm: lda=" + ldaText + " is less than " +
                           (aCol ? "M=" : "K=") + std::to_string(aInner) + " (a (M, K) " +
                           (aCol ? "col-major needs a column stride of at least M"
                                 : "row-major needs a row stride of at least K") +
                           ")");
  }
  int ab = b.input("a", b.o.dtype, {aOuter, lda});
  int bb = b.input("b", b.o.dtype, bCol ? std::vector<int64_t>{N, K} : std::vector<int64_t>{K, N});
  int c = b.output("out", b.o.dtype, {M, N});
  int bias = b.input("bias", b.o.dtype, {N});
  ref::GemmStrides st{aCol ? 1 : lda, aCol ? lda : 1, bCol ? 1 : N, bCol ? K : 1};
  b.p.buffers[c].reference =
      ref::gemm(b.values(ab), b.values(bb), hasBias ? b.values(bias) : std::vector<double>{}, M,
                N, K, a, st);
  b.ptr("a", ab, {"a_ptr"});
  b.ptr("b", bb, {"b_ptr"});
  b.ptr("out", c, {"c", "c_ptr", "out_ptr"});
  b.ptr("bias", bias, {"bias_ptr"});
  b.i64("M", M);
  b.i64("N", N);
  b.i64("K", K);
  b.i64("stride_am", st.am, {"lda"});
  b.i64("stride_ak", st.ak);
  b.i64("stride_bk", st.bk, {"ldb"});
  b.i64("stride_bn", st.bn);
  b.i64("stride_cm", N, {"ldc"});
  b.i64("stride_cn", 1);
  int64_t bm = b.config({"BLOCK_M"}, 64), bn = b.config({"BLOCK_N"}, 64);
  b.p.launch.grid.x = cdiv(M, bm) * cdiv(N, bn);
  b.p.elements = M * N;
  b.p.bytes = (M * K + K * N + M * N) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  b.p.description += " act=" + act + (hasBias ? " bias" : "");
  if (aCol || bCol || lda != aInner)
    b.p.description += std::string(" a=") + (aCol ? "col" : "row") + " b=" +
                       (bCol ? "col" : "row") + " lda=" + std::to_string(lda);
  return Status::ok();
}

struct Entry {
  const char *name;
  Spec spec;
  const char *help;
};

const std::vector<Entry> &specs() {
  static const std::vector<Entry> table = {
      {"vector_add",
       [](Builder &b) {
         return elementwise(b, false, "x", "y", ref::vectorAdd, {"x_ptr", "a", "a_ptr", "input"},
                            {"y_ptr", "b", "b_ptr"});
       },
       "vector_add(x, y, out, n): out = x + y. Shape: any (flattened). Config BLOCK. Option "
       "tail=T: allocate only the last T elements and run only their programs (C6)."},
      {"swiglu",
       [](Builder &b) {
         return elementwise(b, true, "gate", "up", ref::swiglu, {"a", "gate_ptr", "x"},
                            {"b", "up_ptr", "y"});
       },
       "swiglu(out, gate, up, n): out = silu(gate) * up. Config BLOCK."},
      {"geglu",
       [](Builder &b) {
         bool tanh = b.text("approximate", b.option("approximate", "none")) == "tanh";
         return elementwise(b, true, "gate", "up", tanh ? gegluTanh : ref::geglu,
                            {"a", "gate_ptr", "x"}, {"b", "up_ptr", "y"});
       },
       "geglu(out, gate, up, n): out = gelu(gate) * up, erf GELU or tanh when the config (or "
       "option) approximate = tanh. Config BLOCK."},
      {"softmax", softmax,
       "softmax(out, in, in_stride, out_stride, n_cols): row softmax. Shape ROWSxCOLS."},
      {"row_max", rowMax, "row_max(out, in, stride, n_cols): out (f32) = max of each row (C9)."},
      {"rmsnorm", rmsnorm, "rmsnorm(out, in, w, stride, n_cols, eps): shape ROWSxCOLS, eps 1e-6."},
      {"add_rmsnorm", addRmsnorm,
       "add_rmsnorm(out, in, res, w, stride, n_cols, eps): res += in (written back), "
       "out = rmsnorm(res) * w."},
      {"layernorm", layernorm,
       "layernorm(out, in, w, bias, stride, n_cols, eps): biased variance, eps 1e-5 (C1)."},
      {"rope", rope,
       "rope(q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride, q_head_stride, "
       "k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride, cos_seq_stride, "
       "cos_half_offset): shape BxHQxHKxSxD, q (B, HQ, S, D) and k (B, HK, S, D) rotated in "
       "place (rotate-half), f32 cos/sin (B, S, D); grid B*S (C5)."},
      {"cross_entropy", crossEntropy,
       "cross_entropy(loss, logits, labels, stride, n_cols, ignore_index): shape NxV; loss[i] "
       "per row (0 when ignored); the reduction of the losses (host side) is checked too. "
       "Options reduction=mean|sum|none, ignore=none|some|all|K (C4)."},
      {"cross_entropy_backward", crossEntropyBackward,
       "cross_entropy_backward(dlogits, logits, labels, dloss, stride, dstride, n_cols, "
       "ignore_index, n_valid): dlogits = (softmax - onehot) * g, 0 for ignored rows. Config "
       "(or option) reduction; options ignore=..., true_prob=P (C2, C3, C4)."},
      {"gemm", gemm,
       "gemm(a, b, out, bias, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, "
       "stride_cn): shape MxNxK, out = act(a*b + bias). Config BLOCK_M, BLOCK_N (grid), ACT, "
       "HAS_BIAS (or options act=..., bias=0|1) (C7). Options a_order=row|col, b_order=row|col "
       "(col: stored transposed), lda=L (a's leading dimension, >= K row-major, >= M col-major; "
       "the padding holds random values)."},
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

Status tessel::harness::makeProblem(const ProblemOptions &optsIn, Problem &out) {
  ProblemOptions opts = optsIn;
  // Kernel names of the library map to their problems: *_looped variants, old names.
  const std::string suffix = "_looped";
  if (opts.name.size() > suffix.size() &&
      opts.name.compare(opts.name.size() - suffix.size(), suffix.size(), suffix) == 0)
    opts.name.resize(opts.name.size() - suffix.size());
  if (opts.name == "cross_entropy_bwd")
    opts.name = "cross_entropy_backward";
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
