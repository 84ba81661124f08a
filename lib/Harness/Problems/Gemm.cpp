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

/// Shape MxNxK; out = act(a * b + bias). The activation and the bias come from the variant's
/// ACT / HAS_BIAS config fields when present, else from options act=none|relu|gelu|silu and
/// bias=0|1. Options a_order / b_order = row|col store a (M, K) or b (K, N) transposed
/// (col-major: a's stride_am = 1, b's stride_bk = 1), and lda = L pads a to a leading dimension
/// of L elements (its row stride, or its column stride when col-major). The buffers are sized
/// for the strides and the padding holds random values, so a kernel that reads it is caught.
/// out is (M, N) row-major and contiguous. check_rows = R compares R rows spread from the first
/// to the last with their double-precision reference (and checks that every element was
/// written): for products whose full reference would take minutes on the host.
Status gemm(Builder &b) {
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
  std::string aOrder = b.option("a_order", "row"), bOrder = b.option("b_order", "row");
  for (const auto &[key, v] : {std::pair{"a_order", aOrder}, std::pair{"b_order", bOrder}})
    if (v != "row" && v != "col")
      return Status::error(std::string("problem gemm: ") + key + " must be row or col, got '" + v +
                           "'");
  bool aCol = aOrder == "col", bCol = bOrder == "col";
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
  int c = b.output("out", b.o.dtype, {M, N});
  int bias = b.input("bias", b.o.dtype, {N});
  ref::GemmStrides st{aCol ? 1 : lda, aCol ? lda : 1, bCol ? 1 : N, bCol ? K : 1};
  std::vector<double> biasValues = hasBias ? b.values(bias) : std::vector<double>{};
  int64_t checkRows = 0;
  std::string rowsText = b.option("check_rows", "");
  if (!rowsText.empty() &&
      (rowsText.size() > 9 || rowsText.find_first_not_of("0123456789") != std::string::npos ||
       (checkRows = std::strtoll(rowsText.c_str(), nullptr, 10)) < 2))
    return Status::error("problem gemm: check_rows must be a number of rows >= 2, got '" +
                         rowsText + "'");
  if (checkRows > 0 && checkRows < M) {
    // R rows spread evenly from the first to the last (the last tile's edge included): their
    // reference alone, a (R, K) slice of a times b.
    ProblemBuffer &out = b.p.buffers[c];
    std::vector<double> av = b.values(ab), rowsOfA(checkRows * K);
    for (int64_t r = 0; r < checkRows; ++r) {
      int64_t i = r * (M - 1) / (checkRows - 1);
      out.checkRows.push_back(i);
      for (int64_t p = 0; p < K; ++p)
        rowsOfA[r * K + p] = av[i * st.am + p * st.ak];
    }
    out.rowLength = N;
    out.reference = ref::gemm(rowsOfA, b.values(bb), biasValues, checkRows, N, K, a,
                              ref::GemmStrides{K, 1, st.bk, st.bn});
  } else {
    b.p.buffers[c].reference = ref::gemm(b.values(ab), b.values(bb), biasValues, M, N, K, a, st);
  }
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
    b.p.description += std::string(" a=") + (aCol ? "col" : "row") +
                       " b=" + (bCol ? "col" : "row") + " lda=" + std::to_string(lda);
  return Status::ok();
}

/// Shape MxNxK; out (M, N) = silu(x w_gate^T) * (x w_up^T): the SwiGLU up-projection of an
/// LLM's MLP in one kernel. x (M, K) row-major; w_gate and w_up (N, K) row-major, as nn.Linear
/// stores them. The float64 reference computes both products with the gemm reference (the
/// sums in increasing K order) and combines them.
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
  std::vector<double> g = ref::gemm(xs, b.values(wg), {}, M, N, K, ref::Activation::silu, st);
  std::vector<double> u = ref::gemm(xs, b.values(wu), {}, M, N, K, ref::Activation::none, st);
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
