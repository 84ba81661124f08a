//===- Registry.cpp - the problems, their parameters and help -------------===//
//
// The one table of problems: each one's parameter order (that of the kernels of dsl/kernels and
// of the templates in test/kernels/Inputs), shape, grid and options. tessel-run --list-problems
// prints it, docs/Interpreter.md holds it as markdown (test/Interpreter/problem-table.test
// compares the two), and makeProblem checks every spec's arguments against it. A variant whose
// metadata names its parameters binds by name instead of by this order.
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <unistd.h>

using namespace tessel::harness;
using namespace tessel::harness::problems;

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
    // 0 is a legal extent (case C17: n = 0 launches an empty grid, a no-op).
    shape.push_back(std::strtoll(part.c_str(), nullptr, 10));
    if (j == std::string::npos)
      break;
    if (j + 1 == s.size())
      return {};
    i = j + 1;
  }
  return shape;
}

namespace {

struct Entry {
  const char *name;
  const char *params; ///< the kernel's parameters in order, ", "-separated
  const char *shape;  ///< what --shape means
  const char *grid;
  std::function<Status(Builder &)> spec;
  const char *help; ///< what it computes, its config fields and options
  /// Elements of its largest buffer for a shape (default: the shape's product); with an
  /// overflow flag.
  std::function<int64_t(const ProblemOptions &, bool &)> elements = {};
};

/// Product of `dims` (a shape's), `overflow` set past 2^62.
int64_t product(const std::vector<int64_t> &dims, bool &overflow) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d != 0 && n > (int64_t(1) << 62) / d)
      overflow = true;
    n = overflow ? 0 : n * d;
  }
  return n;
}

/// The largest operand of an MxNxK product, the memory guard's count.
int64_t gemmElements(const ProblemOptions &o, bool &overflow) {
  const std::vector<int64_t> &s = o.shape;
  if (s.size() != 3)
    return 0; // the spec reports the shape
  int64_t mk = product({s[0], s[2]}, overflow), kn = product({s[2], s[1]}, overflow),
          mn = product({s[0], s[1]}, overflow);
  return std::max({mk, kn, mn});
}

/// Split-K adds a workspace of up to 16 x M x N f32: 2 x M x N at the guard's 32 bytes each.
int64_t gemmSplitKElements(const ProblemOptions &o, bool &overflow) {
  int64_t e = gemmElements(o, overflow);
  return o.shape.size() == 3 ? e + 2 * product({o.shape[0], o.shape[1]}, overflow) : e;
}

const std::vector<Entry> &entries() {
  static const std::vector<Entry> table = {
      {"vector_add", "x, y, out, n", "any (flattened)", "cdiv(n, BLOCK)", vectorAdd,
       "out = x + y. Shape: any (flattened). Config BLOCK. Option tail=T: allocate only the "
       "last T elements and run only their programs (C6).",
       [](const ProblemOptions &o, bool &overflow) -> int64_t {
         int64_t n = product(o.shape, overflow);
         auto tail = o.options.find("tail");
         int64_t t = tail == o.options.end() ? 0 : std::atoll(tail->second.c_str());
         // tail=T holds T elements and the start of their first program's block.
         return t > 0 && !overflow ? std::min(n, t + (int64_t(1) << 16)) : n;
       }},
      {"swiglu", "out, gate, up, n", "any", "cdiv(n, BLOCK)", swiglu,
       "out = silu(gate) * up. Config BLOCK."},
      {"geglu", "out, gate, up, n", "any", "cdiv(n, BLOCK)", geglu,
       "out = gelu(gate) * up, erf GELU or tanh when the config (or option) approximate = tanh. "
       "Config BLOCK."},
      {"softmax", "out, in, in_stride, out_stride, n_cols", "ROWSxCOLS", "rows", softmax,
       "row softmax. Shape ROWSxCOLS."},
      {"row_max", "out, in, stride, n_cols", "ROWSxCOLS", "rows", rowMax,
       "out (f32) = max of each row (C9)."},
      {"cumsum", "out, in, stride, n_cols", "ROWSxCOLS", "rows", cumsum,
       "out[r, j] = in[r, 0] + ... + in[r, j], accumulated in f32."},
      {"rmsnorm", "out, rstd, in, w, stride, n_cols, eps", "ROWSxCOLS", "rows", rmsnorm,
       "shape ROWSxCOLS, eps 1e-6; rstd = 1 / sqrt(mean(x^2) + eps) per row (f32, compared "
       "too)."},
      {"rmsnorm_rows", "out, rstd, in, w, stride, n_rows, n_cols, eps", "ROWSxCOLS",
       "cdiv(rows, ROWS)", rmsnormRows, "rmsnorm's, ROWS (config) rows per program."},
      {"add_rmsnorm", "out, rstd, in, res, w, stride, n_cols, eps", "ROWSxCOLS", "rows", addRmsnorm,
       "res += in (written back), out = rmsnorm(res) * w, and rmsnorm's rstd."},
      {"add_rmsnorm_out", "out, sum_out, rstd, in, res, w, stride, n_cols, eps", "ROWSxCOLS",
       "rows", addRmsnormOut,
       "sum_out = in + res (res only read), out = rmsnorm(sum_out) * w, and rmsnorm's rstd."},
      {"layernorm", "out, mean, rstd, in, w, bias, stride, n_cols, eps", "ROWSxCOLS", "rows",
       layernorm,
       "biased variance, eps 1e-5 (C1); mean and rstd = 1 / sqrt(var + eps) per row (f32, "
       "compared too)."},
      {"layernorm_rows", "out, mean, rstd, in, w, bias, stride, n_rows, n_cols, eps", "ROWSxCOLS",
       "cdiv(rows, ROWS)", layernormRows, "layernorm's, ROWS (config) rows per program."},
      {"rmsnorm_backward",
       "dx, dw_partial, dy, x, w, rstd, stride, n_rows, n_cols, rows_per_program", "ROWSxCOLS",
       "cdiv(rows, rows_per_program)", rmsnormBackward,
       "rmsnorm's dx, and dW's partial sums over each program's rows_per_program rows (f32, "
       "compared too), from the forward's rstd (f32, eps 1e-6). Option rows_per_program=R "
       "(default cdiv(rows, 16))."},
      {"add_rmsnorm_backward",
       "dx, dw_partial, dy, ds, x, w, rstd, stride, n_rows, n_cols, rows_per_program", "ROWSxCOLS",
       "cdiv(rows, rows_per_program)", addRmsnormBackward,
       "rmsnorm_backward of add_rmsnorm's sum x (the norm's input): dx also adds ds, the "
       "gradient of the sum from the residual stream."},
      {"rmsnorm_dw_reduce", "dw, dw_partial, n_partial, n_cols", "PARTSxCOLS", "cdiv(cols, BLOCK)",
       rmsnormDwReduce,
       "dw (COLS) = the column sums of dw_partial (PARTSxCOLS, f32). Config BLOCK (columns per "
       "program)."},
      {"layernorm_backward",
       "dx, dw_partial, db_partial, dy, x, w, mean, rstd, stride, n_rows, n_cols, "
       "rows_per_program",
       "ROWSxCOLS", "cdiv(rows, rows_per_program)", layernormBackward,
       "layernorm's dx, and dW's and dB's partial sums over each program's rows_per_program rows "
       "(f32, compared too), from the forward's mean and rstd (f32, eps 1e-5). Option "
       "rows_per_program=R (default cdiv(rows, 16))."},
      {"swiglu_backward", "dgate, dup, dout, gate, up, n", "any", "cdiv(n, BLOCK)", swigluBackward,
       "s = sigmoid(gate): dgate = dout * up * s * (1 + gate * (1 - s)), dup = dout * gate * s. "
       "Config BLOCK."},
      {"geglu_backward", "dgate, dup, dout, gate, up, n", "any", "cdiv(n, BLOCK)", gegluBackward,
       "dgate = dout * up * gelu'(gate), dup = dout * gelu(gate), erf GELU or tanh when the "
       "config (or option) approximate = tanh. Config BLOCK."},
      {"rope",
       "q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride, q_head_stride, "
       "k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride, cos_seq_stride, "
       "cos_half_offset",
       "BxHQxHKxSxD", "B * S", rope,
       "shape BxHQxHKxSxD, q (B, HQ, S, D) and k (B, HK, S, D) rotated in place (rotate-half), "
       "f32 cos/sin (B, S, D); grid B*S (C5)."},
      {"rope_out",
       "q_out, k_out, q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride, "
       "q_head_stride, k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride, "
       "cos_seq_stride, cos_half_offset",
       "BxHQxHKxSxD", "B * S", ropeOut,
       "as rope, into q_out and k_out (q's and k's strides); q and k must come back unchanged."},
      {"rope_seq_out",
       "q_out, k_out, q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride, "
       "q_head_stride, k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride, "
       "cos_seq_stride, cos_half_offset",
       "BxHQxHKxSxD", "(cdiv(S, BLOCK_S), B)", ropeSeqOut,
       "as rope_out, by blocks of BLOCK_S tokens of one batch (config BLOCK_S, default 16)."},
      {"rope_qk",
       "q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride, q_head_stride, "
       "k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride, cos_seq_stride, "
       "cos_half_offset",
       "BxHQxHKxSxD", "(cdiv(S, BLOCK_S), HQ + HK, B)", ropeQk,
       "as rope, by blocks of BLOCK_S tokens of one head of q or k (config BLOCK_S, default 8)."},
      {"rope_flat",
       "out, x, cos, sin, seq_len, batch_stride, head_stride, seq_stride, cos_batch_stride, "
       "cos_seq_stride, cos_half_offset, sin_first, sin_second, sin_sign",
       "BxHxSxD", "(cdiv(S, BLOCK_S), H, B)", ropeFlat,
       "one tensor x (B, H, S, D) rotated into out with tables in x's dtype, BLOCK_S tokens of "
       "one head a program (config BLOCK_S, default 8). Options cos=per_batch|shared, "
       "table=full|half, direction=forward|backward (the transpose: sin_sign -1, halves "
       "swapped)."},
      {"cross_entropy",
       "loss, logits, labels, stride, n_cols, ignore_index, label_smoothing, z_loss", "NxV", "rows",
       crossEntropy,
       "shape NxV; loss[i] per row (0 when ignored) = (1 - eps) * (lse - x[label]) + eps * (lse "
       "- mean(x)) + z * lse^2; the reduction of the losses (host side) is checked too. Options "
       "reduction=mean|sum|none, ignore=none|some|all|K (C4), label_smoothing=eps, z_loss=z "
       "(default 0)."},
      {"cross_entropy_backward",
       "dlogits, logits, labels, dloss, stride, dstride, n_cols, ignore_index, n_valid, "
       "label_smoothing, z_loss",
       "NxV", "rows", crossEntropyBackward,
       "dlogits = (softmax * (1 + 2 z lse) - (1 - eps) * onehot - eps / V) * g, 0 for ignored "
       "rows. Config (or option) reduction; options ignore=..., true_prob=P (C2, C3, C4), "
       "label_smoothing=eps, z_loss=z."},
      {"cross_entropy_fused",
       "loss, lse, dlogits, logits, labels, grad_scale, stride, dstride, n_cols, ignore_index, "
       "label_smoothing, z_loss",
       "NxV", "rows", crossEntropyFused,
       "cross_entropy's loss, each row's logsumexp and cross_entropy_backward's dlogits for g = "
       "grad_scale[0] in one kernel. Options ignore=..., true_prob=P, label_smoothing=eps, "
       "z_loss=z, inplace=1 (dlogits is the logits' buffer)."},
      {"cross_entropy_backward_lse",
       "dlogits, logits, labels, lse, grad_scale, stride, dstride, n_cols, col_offset, "
       "ignore_index",
       "NxW", "rows", crossEntropyBackwardLse,
       "a window of W columns at col_offset (option, default W) of each row and its gradient "
       "(exp(x - lse) - onehot) * g given the row's logsumexp; labels in, below and above the "
       "window. Options ignore=..., inplace=1."},
      {"moe_routing", "expert_ids, counts, offsets, lock, n, n_experts", "NxE", "cdiv(n, BLOCK)",
       moeRouting,
       "shape NxE: n i32 expert ids in [0, E] (E: a dropped token; option dropped=0: none), "
       "counts (E) = the histogram, offsets (E) = its exclusive prefix sum, exact; counts and "
       "lock start at zero.",
       [](const ProblemOptions &o, bool &) -> int64_t {
         return o.shape.size() == 2 ? o.shape[0] + 2 * o.shape[1] : 0;
       }},
      {"top_k_top_p_mask",
       "out, logits, top_k, top_p, cand_vals, cand_cols, chunk_stats, counters, in_stride, "
       "out_stride, n_cols",
       "ROWSxV", "(rows, chunks)", topKTopPMask,
       "shape ROWSxV; out = logits where kept by the row's top-k (k i32, ties at the k-th value "
       "kept; k <= 0 or >= V: off) and top-p (p f32, softmax mass over the top-k kept values; "
       "ties kept; p >= 1: off), -inf elsewhere; NaN never kept. Compared exactly, either "
       "answer accepted within 1e-5 of p * Z_k (the top-p band). Options k=K, p=P: every row's "
       "(default: a mix of typical, edge and off values per row); chunks=S: programs per row "
       "(grid y; default V / 64 clamped to 1..4)."},
      {"gemm",
       "a, b, out, bias, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, "
       "stride_cn",
       "MxNxK", "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", gemm,
       "shape MxNxK, out = act(a*b + bias). Config BLOCK_M, BLOCK_N (grid), ACT, HAS_BIAS (or "
       "options act=..., bias=0|1) (C7). Options a_order=row|col, b_order=row|col (col: stored "
       "transposed), lda=L (a's leading dimension, >= K row-major, >= M col-major; the padding "
       "holds random values); check_rows=R compares R sampled rows (and that every element "
       "was written).",
       gemmElements},
      {"gemm_split_k",
       "a, b, out, bias, workspace, locks, M, N, K, stride_am, stride_ak, stride_bk, "
       "stride_bn, stride_cm, stride_cn",
       "MxNxK", "(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), S)", gemmSplitK,
       "gemm's problem and options with K cut into S slices (grid y): workspace (S x M x N "
       "f32, NaN-poisoned) and locks (an i32 per tile, zeros) are the kernel's. S from option "
       "split_k=S, else config SPLIT_K when non-zero, else a heuristic of the shape "
       "(splitKFor in Gemm.cpp).",
       gemmSplitKElements},
      {"gemm_persistent",
       "a, b, out, bias, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, "
       "stride_cn",
       "MxNxK", "min(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), P)", gemmPersistent,
       "gemm's problem and options, run by P programs that each take every P-th tile: P from "
       "option programs=P, else the GPU's multiprocessors, else 3.",
       gemmElements},
      {"gemm_stream_k",
       "a, b, out, bias, workspace, locks, M, N, K, stride_am, stride_ak, stride_bk, "
       "stride_bn, stride_cm, stride_cn",
       "MxNxK", "min(P, cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) * cdiv(K, BLOCK_K))", gemmStreamK,
       "gemm's problem and options, run by P programs that share the tiles' K-blocks equally "
       "(stream-K): P from option programs=P, else spans aligned to a row of tiles on the "
       "GPU's multiprocessors, else on 3 (streamKPrograms in Gemm.cpp); "
       "workspace (P x 2 x BLOCK_M x BLOCK_N f32, NaN-poisoned) and locks (an i32 per tile, "
       "zeros) are the kernel's.",
       gemmSplitKElements},
      {"gemm_residual",
       "a, b, out, bias, residual, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, "
       "stride_cm, stride_cn, stride_rm, stride_rn",
       "MxNxK", "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", gemmResidual,
       "gemm's problem and options, out = act(a*b + bias) + residual, residual (M, N) "
       "row-major.",
       [](const ProblemOptions &o, bool &overflow) -> int64_t {
         int64_t e = gemmElements(o, overflow);
         return o.shape.size() == 3 ? e + product({o.shape[0], o.shape[1]}, overflow) : e;
       }},
      {"gemm_swiglu", "x, w_gate, w_up, out, M, N, K, stride_xm, stride_wn, stride_om", "MxNxK",
       "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", gemmSwiglu,
       "shape MxNxK, out = silu(x w_gate^T) * (x w_up^T): the SwiGLU up-projection in one kernel, "
       "x (M, K), w_gate and w_up (N, K) as nn.Linear stores them. Option check_rows=R as "
       "gemm's.",
       [](const ProblemOptions &o, bool &overflow) -> int64_t {
         const std::vector<int64_t> &s = o.shape;
         if (s.size() != 3)
           return 0;
         return 2 * std::max({product({s[0], s[2]}, overflow), product({s[2], s[1]}, overflow),
                              product({s[0], s[1]}, overflow)});
       }},
      {"gemm_ce_backward",
       "a, b, c, labels, lse, grad_scale, M, N, K, col_offset, ignore_index, stride_am, "
       "stride_ak, stride_bk, stride_bn, stride_cm, stride_cn",
       "MxNxK", "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", gemmCrossEntropyBackward,
       "cross_entropy_backward_lse's window from its operands: c = (exp(a b^T - lse) - onehot) "
       "* g, a (M, K) and b (N, K) row-major (fused linear cross-entropy's input and a slice "
       "of the weight), 0 for ignored rows. Options col_offset=C, ignore=...",
       gemmElements},
  };
  return table;
}

/// The spec's arguments must be the table's parameters, in order: the table is what users and
/// the docs read.
Status checkParams(const Entry &e, const Problem &p) {
  std::string built;
  for (const ProblemArg &a : p.args)
    built += (built.empty() ? "" : ", ") + a.name;
  if (built != e.params)
    return Status::error("problem " + std::string(e.name) + ": the spec builds (" + built +
                         ") but the registry lists (" + e.params + ")");
  return Status::ok();
}

} // namespace

std::vector<std::string> tessel::harness::problemNames() {
  std::vector<std::string> names;
  for (const Entry &e : entries())
    names.push_back(e.name);
  return names;
}

std::string tessel::harness::problemHelp() {
  std::string s;
  for (const Entry &e : entries())
    s += fmt::format("  {0}: {0}({1}): {2}\n", e.name, e.params, e.help);
  return s;
}

std::string tessel::harness::problemTableMarkdown() {
  std::string s = "| problem | parameters | shape | grid |\n|---|---|---|---|\n";
  for (const Entry &e : entries())
    s += fmt::format("| {} | {} | {} | {} |\n", e.name, e.params, e.shape, e.grid);
  return s;
}

/// Physical memory of this machine in bytes (0 when unknown).
static int64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && pageSize > 0 ? int64_t(pages) * pageSize : 0;
}

Status tessel::harness::makeProblem(const ProblemOptions &optsIn, Problem &out) {
  ProblemOptions opts = optsIn;
  // Kernel names of the library map to their problems: *_looped, *_block_ptr and *_atomics
  // variants, the norms' *_rows_backward (their backward's arguments and grid), old names.
  for (const std::string suffix : {"_looped", "_block_ptr", "_atomics"})
    if (opts.name.size() > suffix.size() &&
        opts.name.compare(opts.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      opts.name.resize(opts.name.size() - suffix.size());
  if (opts.name == "cross_entropy_bwd")
    opts.name = "cross_entropy_backward";
  if (opts.name == "rmsnorm_rows_backward" || opts.name == "layernorm_rows_backward" ||
      opts.name == "add_rmsnorm_rows_backward")
    opts.name = opts.name.substr(0, opts.name.find("_rows")) + "_backward";
  for (const Entry &e : entries()) {
    if (opts.name != e.name)
      continue;
    if (opts.shape.empty())
      return Status::error("problem " + opts.name + ": needs a shape (--shape)");
    // Inputs, outputs and their float64 copies for the reference: refused here, with the
    // numbers, rather than by std::bad_alloc (the harness is built without exceptions).
    bool overflow = false;
    int64_t elements = e.elements ? e.elements(opts, overflow) : product(opts.shape, overflow);
    const int64_t kBytesPerElement = 32;
    int64_t memory = physicalMemoryBytes();
    if (overflow || (memory > 0 && elements > memory / kBytesPerElement))
      return Status::error(fmt::format(
          "problem {}: shape {} needs about {} of host memory for its buffers and float64 "
          "reference; this machine has {:.1f} GiB",
          opts.name, shapeString(opts.shape),
          overflow ? std::string("more than 2^62 elements' worth")
                   : fmt::format("{:.1f} GiB", double(elements) * kBytesPerElement / (1 << 30)),
          double(memory) / (1 << 30)));
    Problem p;
    p.name = opts.name;
    Builder b(opts, p);
    if (Status s = e.spec(b); !s)
      return s;
    if (!b.badOption.empty())
      return Status::error(b.badOption);
    for (const auto &[key, value] : opts.options)
      if (!b.optionsRead.count(key)) {
        std::string known;
        for (const std::string &k : b.optionsRead)
          known += (known.empty() ? "" : ", ") + k;
        return Status::error(
            "problem " + opts.name + " has no option '" + key + "'" +
            (known.empty() ? " (it takes none)" : " (its options: " + known + ")"));
      }
    if (Status s = checkParams(e, p); !s)
      return s;
    p.configRead = b.configRead;
    out = std::move(p);
    return Status::ok();
  }
  std::string names;
  for (const std::string &n : problemNames())
    names += (names.empty() ? "" : ", ") + n;
  return Status::error("unknown problem '" + opts.name + "' (known: " + names + ")");
}
