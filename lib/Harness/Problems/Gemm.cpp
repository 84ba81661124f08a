//===- Gemm.cpp - matrix product with bias and activation -----------------===//
//
// out = act(a * b + bias) with row- or column-major a and b and a padded leading dimension.
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <cstdlib>

namespace tessel::harness::problems {

/// A product's float dtype and its MxNxK shape.
static Status productShape(Builder &b, int64_t &M, int64_t &N, int64_t &K) {
  if (Status s = needRank(b.o, 3, "MxNxK"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  M = b.o.shape[0], N = b.o.shape[1], K = b.o.shape[2];
  return Status::ok();
}

/// Option `name` = a whole number of at most `digits` digits, at least `least`, into `value`
/// (unchanged when the option is absent); the error says what the number counts (`what`).
static Status countOption(Builder &b, const std::string &name, size_t digits, int64_t least,
                          const std::string &what, int64_t &value) {
  std::string text = b.option(name, "");
  if (text.empty())
    return Status::ok();
  int64_t v = 0;
  if (text.size() > digits || text.find_first_not_of("0123456789") != std::string::npos ||
      (v = std::strtoll(text.c_str(), nullptr, 10)) < least)
    return Status::error("problem " + b.o.name + ": " + name + " must be a number of " + what +
                         " >= " + std::to_string(least) + ", got '" + text + "'");
  value = v;
  return Status::ok();
}

/// Option check_rows = R: 0 when absent, else a number of rows >= 2.
static Status checkRowsOption(Builder &b, int64_t &rows) {
  rows = 0;
  return countOption(b, "check_rows", 9, 2, "rows", rows);
}

/// check_rows: R rows of a (M, K) spread evenly from the first to the last (the last tile's
/// edge included), recorded on `out` (M, N) as the rows it compares; returns them as a
/// row-major (R, K) matrix, whose product is those rows' reference alone.
static std::vector<double> sampleRows(ProblemBuffer &out, const std::vector<double> &a, int64_t M,
                                      int64_t N, int64_t K, const ref::GemmStrides &st,
                                      int64_t rows) {
  std::vector<double> rowsOfA(rows * K);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t i = r * (M - 1) / (rows - 1);
    out.checkRows.push_back(i);
    for (int64_t p = 0; p < K; ++p)
      rowsOfA[r * K + p] = a[i * st.am + p * st.ak];
  }
  out.rowLength = N;
  return rowsOfA;
}

/// Split-K's slice count when the variant leaves it to the launcher (SPLIT_K = 0): the count s
/// in 1..16 that minimises the time model waves(s) * (K / s + 512): the programs run in waves
/// of one per multiprocessor (`sms`: the device's, or 132, the GPU of the fitted sweep, when
/// the executor does not know; split-K configs fill most of a multiprocessor's shared memory
/// with their stages), waves(s) = cdiv(tiles * s, sms), and each takes its slice of K plus a
/// fixed cost worth 512 elements of K (launch, pipeline fill, the partial's round trip through the
/// workspace), fitted to the split-K sweep of benchmarks/gpu/results (2026-12-01). Ties go to
/// the smaller s; no slice gets fewer than 4 K-blocks. Examples (M <= 64, K = 4096):
/// BLOCK_N = 128, N = 4096 (32 tiles) -> 4; BLOCK_N = 64, N = 4096 (64 tiles) -> 2; N = 6144 at
/// BLOCK_N = 64 (96 tiles) -> 1: three waves of four slices cost more than one wave whole.
static int64_t splitKFor(int64_t tiles, int64_t K, int64_t blockK, int64_t sms) {
  constexpr int64_t maxSplits = 16, minBlocksPerSlice = 4;
  constexpr double fixedCostInK = 512;
  auto cost = [&](int64_t s) {
    return double(cdiv(tiles * s, sms)) * (double(K) / double(s) + fixedCostInK);
  };
  int64_t best = 1;
  for (int64_t s = 2; s <= maxSplits && s * minBlocksPerSlice <= cdiv(K, blockK); ++s)
    if (cost(s) < cost(best) - 1e-9)
      best = s;
  return best;
}

/// Shape MxNxK; out = act(a * b + bias). The activation and the bias come from the variant's
/// ACT / HAS_BIAS config fields when present, else from options act=none|relu|gelu|silu and
/// gemm_stream_k's programs on `sms` multiprocessors: spans of `per` iterations (K-blocks of a
/// tile) that divide a row of tiles' iterations (rowIters = cdiv(N, BLOCK_N) x K-blocks), so
/// that the programs on the rows of tiles run the same K-blocks of b in step (the kernel's
/// comment says why). per is the smallest such divisor of at least cdiv(iters, sms); when there
/// is none up to 5/4 of it (more would idle too many SMs), or a span takes more than a row, the
/// spans stay cdiv(iters, sms), out of step. Examples (128x128 tiles, 64 K-blocks,
/// 132 SMs): 256x6144x4096: 3072 per row, per 48, 128 programs; 256x4096x14336 (224 K-blocks):
/// 7168 per row, per 112, 128 programs.
static int64_t streamKPrograms(int64_t iters, int64_t rowIters, int64_t sms) {
  int64_t least = cdiv(iters, sms), per = least;
  for (int64_t d = least; d < rowIters && d * 4 <= least * 5; ++d)
    if (rowIters % d == 0) {
      per = d;
      break;
    }
  return cdiv(iters, per);
}

/// bias=0|1. Options a_order / b_order = row|col store a (M, K) or b (K, N) transposed
/// (col-major: a's stride_am = 1, b's stride_bk = 1), and lda = L pads a to a leading dimension
/// of L elements (its row stride, or its column stride when col-major). The buffers are sized
/// for the strides and the padding holds random values, so a kernel that reads it is caught.
/// out is (M, N) and contiguous: row-major, or col-major with c_order = col (stride_cm = 1,
/// stride_cn = M: the layout of c^T = b^T a^T, which tessel.ops.matmul launches for decode
/// products with the weight as a and the tokens as b). check_rows = R (row-major out only)
/// compares R rows spread from the first to the last with their double-precision reference
/// (and checks that every element was written): for products whose full reference would take
/// minutes on the host.
/// Schedule::splitK (problem gemm_split_k): grid (tiles, S) with S from option split_k = S, else
/// config SPLIT_K when non-zero, else splitKFor; the kernel also gets `workspace` (S x M x N
/// f32, NaN-poisoned) and `locks` (one i32 per tile, zeros) after bias.
/// With `residual` (problem gemm_residual): out = act(a * b + bias) + residual, residual (M, N)
/// row-major after bias, its strides stride_rm and stride_rn last.
/// Schedule::persistent (problem gemm_persistent): grid min(tiles, P), P from option
/// programs = P, else the device's multiprocessors, else 3 (the interpreter: programs of several
/// tiles, an uneven share). Schedule::streamK (problem gemm_stream_k): grid min(P, tiles x
/// K-blocks), P from option programs = P, else streamKPrograms of the multiprocessors (or 3);
/// workspace (P x 2 x BLOCK_M x BLOCK_N f32, NaN-poisoned) and
/// locks (an i32 per tile, zeros) after bias.
enum class Schedule { tiles, splitK, persistent, streamK };
static Status gemmProblem(Builder &b, Schedule schedule, bool residual = false) {
  bool splitK = schedule == Schedule::splitK;
  bool onPrograms = schedule == Schedule::persistent || schedule == Schedule::streamK;
  int64_t M, N, K;
  if (Status s = productShape(b, M, N, K); !s)
    return s;
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
  std::string aOrder = b.option("a_order", "row"), bOrder = b.option("b_order", "row"),
              cOrder = b.option("c_order", "row");
  for (const auto &[key, v] :
       {std::pair{"a_order", aOrder}, std::pair{"b_order", bOrder}, std::pair{"c_order", cOrder}})
    if (v != "row" && v != "col")
      return Status::error(std::string("problem gemm: ") + key + " must be row or col, got '" + v +
                           "'");
  bool aCol = aOrder == "col", bCol = bOrder == "col", cCol = cOrder == "col";
  // a's leading dimension: the distance between rows (row-major) or columns (col-major).
  int64_t aInner = aCol ? M : K, aOuter = aCol ? K : M;
  int64_t lda = aInner;
  std::string ldaText = b.option("lda", "");
  if (!ldaText.empty()) {
    if (ldaText.size() > 15 || ldaText.find_first_not_of("0123456789") != std::string::npos)
      return Status::error("problem gemm: lda must be a number of elements, got '" + ldaText + "'");
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
  int c =
      b.output("out", b.o.dtype, cCol ? std::vector<int64_t>{N, M} : std::vector<int64_t>{M, N});
  int bias = b.input("bias", b.o.dtype, {N});
  int res = residual ? b.input("residual", b.o.dtype, {M, N}) : -1;
  ref::GemmStrides st{aCol ? 1 : lda, aCol ? lda : 1, bCol ? 1 : N, bCol ? K : 1};
  std::vector<double> biasValues = hasBias ? b.values(bias) : std::vector<double>{};
  int64_t checkRows = 0;
  if (Status s = checkRowsOption(b, checkRows); !s)
    return s;
  if (checkRows > 0 && checkRows < M && cCol)
    return Status::error("problem gemm: check_rows samples rows of a row-major out; with "
                         "c_order=col leave check_rows out");
  if (!b.o.reference) {
    // Timing only (the autotuner): the product's reference costs more than the timing.
  } else if (checkRows > 0 && checkRows < M) {
    std::vector<double> rowsOfA = sampleRows(b.p.buffers[c], b.values(ab), M, N, K, st, checkRows);
    b.p.buffers[c].reference = ref::gemm(rowsOfA, b.values(bb), biasValues, checkRows, N, K, a,
                                         ref::GemmStrides{K, 1, st.bk, st.bn});
  } else {
    b.p.buffers[c].reference = ref::gemm(b.values(ab), b.values(bb), biasValues, M, N, K, a, st);
  }
  if (residual) {
    std::vector<double> &ref = b.p.buffers[c].reference, resValues = b.values(res);
    const std::vector<int64_t> &rows = b.p.buffers[c].checkRows;
    for (size_t i = 0; i < ref.size(); ++i) { // ref holds every row, or the sampled ones
      int64_t row = rows.empty() ? int64_t(i) / N : rows[i / N];
      ref[i] += resValues[row * N + int64_t(i) % N];
    }
  }
  if (cCol && !b.p.buffers[c].reference.empty()) { // to out's storage order: (N, M) row-major
    const std::vector<double> &rowMajor = b.p.buffers[c].reference;
    std::vector<double> colMajor(rowMajor.size());
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j)
        colMajor[j * M + i] = rowMajor[i * N + j];
    b.p.buffers[c].reference = std::move(colMajor);
  }
  b.ptr("a", ab, {"a_ptr"});
  b.ptr("b", bb, {"b_ptr"});
  b.ptr("out", c, {"c", "c_ptr", "out_ptr"});
  b.ptr("bias", bias, {"bias_ptr"});
  if (residual)
    b.ptr("residual", res, {"res"});
  int64_t bm = b.config({"BLOCK_M"}, 64), bn = b.config({"BLOCK_N"}, 64);
  int64_t tiles = cdiv(M, bm) * cdiv(N, bn), splits = 1;
  if (splitK) {
    splits = b.config({"SPLIT_K"}, 0);
    if (Status s = countOption(b, "split_k", 4, 1, "K slices", splits); !s)
      return s;
    if (splits <= 0)
      splits = splitKFor(tiles, K, b.config({"BLOCK_K"}, 64),
                         b.o.multiprocessors > 0 ? b.o.multiprocessors : 132);
    b.ptr("workspace", b.scratch("workspace", DType::f32, {splits, M, N}));
  }
  int64_t programs = b.o.multiprocessors > 0 ? b.o.multiprocessors : 3;
  if (onPrograms) {
    bool streamK = schedule == Schedule::streamK;
    int64_t kBlocks = cdiv(K, b.config({"BLOCK_K"}, 64));
    if (streamK)
      programs = streamKPrograms(tiles * kBlocks, cdiv(N, bn) * kBlocks, programs);
    if (Status s = countOption(b, "programs", 6, 1, "programs", programs); !s)
      return s;
    programs = std::min(programs, streamK ? tiles * kBlocks : tiles);
    if (streamK)
      b.ptr("workspace", b.scratch("workspace", DType::f32, {programs, 2, bm, bn}));
  }
  // One lock per tile, zeros, wherever programs share a tile's partial sums.
  if (splitK || schedule == Schedule::streamK)
    b.ptr("locks", b.scratch("locks", DType::i32, {tiles}, /*zero=*/true));
  b.i64("M", M);
  b.i64("N", N);
  b.i64("K", K);
  b.i64("stride_am", st.am, {"lda"});
  b.i64("stride_ak", st.ak);
  b.i64("stride_bk", st.bk, {"ldb"});
  b.i64("stride_bn", st.bn);
  b.i64("stride_cm", cCol ? 1 : N, {"ldc"});
  b.i64("stride_cn", cCol ? M : 1);
  if (residual) {
    b.i64("stride_rm", N);
    b.i64("stride_rn", 1);
  }
  b.p.launch.grid.x = tiles;
  b.p.launch.grid.y = splits;
  if (onPrograms)
    b.p.launch.grid.x = programs;
  b.p.elements = M * N;
  b.p.bytes =
      (M * K + K * N + (residual ? 2 : 1) * M * N) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  b.p.description += " act=" + act + (hasBias ? " bias" : "");
  if (splitK)
    b.p.description += " split_k=" + std::to_string(splits);
  if (onPrograms)
    b.p.description += " programs=" + std::to_string(b.p.launch.grid.x);
  if (aCol || bCol || lda != aInner)
    b.p.description += std::string(" a=") + (aCol ? "col" : "row") +
                       " b=" + (bCol ? "col" : "row") + " lda=" + std::to_string(lda);
  if (cCol)
    b.p.description += " c=col";
  return Status::ok();
}

Status gemm(Builder &b) { return gemmProblem(b, Schedule::tiles); }
Status gemmSplitK(Builder &b) { return gemmProblem(b, Schedule::splitK); }
Status gemmResidual(Builder &b) { return gemmProblem(b, Schedule::tiles, /*residual=*/true); }
Status gemmPersistent(Builder &b) { return gemmProblem(b, Schedule::persistent); }
Status gemmStreamK(Builder &b) { return gemmProblem(b, Schedule::streamK); }

/// Shape MxNxK; out (M, N) = silu(x w_gate^T) * (x w_up^T): the SwiGLU up-projection of an
/// LLM's MLP in one kernel. x (M, K) row-major; w_gate and w_up (N, K) row-major, as nn.Linear
/// stores them. The float64 reference computes both products with the gemm reference (the
/// sums in increasing K order) and combines them. Option check_rows = R as gemm's.
Status gemmSwiglu(Builder &b) {
  int64_t M, N, K;
  if (Status s = productShape(b, M, N, K); !s)
    return s;
  int x = b.input("x", b.o.dtype, {M, K});
  int wg = b.input("w_gate", b.o.dtype, {N, K});
  int wu = b.input("w_up", b.o.dtype, {N, K});
  int out = b.output("out", b.o.dtype, {M, N});
  ref::GemmStrides st{K, 1, 1, K}; // b(p, j) = w[j * K + p]: w^T
  std::vector<double> xs = b.values(x);
  int64_t rows = 0;
  if (Status s = checkRowsOption(b, rows); !s)
    return s;
  int64_t refRows = M;
  if (rows > 0 && rows < M) {
    xs = sampleRows(b.p.buffers[out], xs, M, N, K, st, rows);
    refRows = rows;
  }
  std::vector<double> g = ref::gemm(xs, b.values(wg), {}, refRows, N, K, ref::Activation::silu, st);
  std::vector<double> u = ref::gemm(xs, b.values(wu), {}, refRows, N, K, ref::Activation::none, st);
  for (size_t i = 0; i < g.size(); ++i)
    g[i] *= u[i];
  b.p.buffers[out].reference = std::move(g);
  b.ptr("x", x);
  b.ptr("w_gate", wg);
  b.ptr("w_up", wu);
  b.ptr("out", out);
  b.i64("M", M);
  b.i64("N", N);
  b.i64("K", K);
  b.i64("stride_xm", K);
  b.i64("stride_wn", K);
  b.i64("stride_om", N);
  int64_t bm = b.config({"BLOCK_M"}, 64), bn = b.config({"BLOCK_N"}, 64);
  b.p.launch.grid.x = cdiv(M, bm) * cdiv(N, bn);
  b.p.elements = M * N;
  b.p.bytes = (M * K + 2 * N * K + M * N) * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}

} // namespace tessel::harness::problems
