//===- Reference.h - double-precision reference kernels ----------*- C++ -*-===//
//
// The reference every kernel result is checked against: plain loops in double precision over
// the inputs as the kernel saw them (already rounded to their dtype). Matrices are row-major
// and contiguous unless strides say otherwise (gemm); shapes are given in the comments as
// (rows, cols).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_REFERENCE_H
#define TESSEL_HARNESS_REFERENCE_H

#include <cstdint>
#include <vector>

namespace tessel::harness::ref {

using Vec = std::vector<double>;

/// out = x + y, elementwise.
Vec vectorAdd(const Vec &x, const Vec &y);
/// Row softmax of x (rows, cols): exp(x - max) / sum.
Vec softmax(const Vec &x, int64_t rows, int64_t cols);
/// RMSNorm of x (rows, cols) with weight w (cols): x / sqrt(mean(x^2) + eps) * w.
Vec rmsNorm(const Vec &x, const Vec &w, int64_t rows, int64_t cols, double eps);
/// Each row's rstd = 1 / sqrt(mean(x^2) + eps), as rmsNorm uses it.
Vec rmsNormRstd(const Vec &x, int64_t rows, int64_t cols, double eps);
/// LayerNorm of x (rows, cols): (x - mean) / sqrt(var + eps) * w + b (biased variance).
Vec layerNorm(const Vec &x, const Vec &w, const Vec &b, int64_t rows, int64_t cols, double eps);
/// Each row's mean and rstd = 1 / sqrt(var + eps) (biased variance), as layerNorm uses them.
void layerNormStats(const Vec &x, int64_t rows, int64_t cols, double eps, Vec &mean, Vec &rstd);
/// silu(a) * b = a / (1 + exp(-a)) * b.
Vec swiglu(const Vec &a, const Vec &b);
/// gelu(a) * b with the exact (erf) GELU, PyTorch's default.
Vec geglu(const Vec &a, const Vec &b);
/// erf GELU.
double gelu(double x);
/// RoPE, rotate-half convention, for x (B, H, S, D) with cos/sin (B, S, D):
/// out = x * cos + rotate_half(x) * sin, rotate_half(x) = concat(-x[D/2:], x[:D/2]).
Vec ropeRotateHalf(const Vec &x, const Vec &cos, const Vec &sin, int64_t b, int64_t h, int64_t s,
                   int64_t d);
/// One row of ropeRotateHalf: out[d] = x[d] cos[d] + rotate_half(x)[d] sin[d], d < D.
void ropeRotateHalfRow(const double *x, const double *cos, const double *sin, int64_t d,
                       double *out);

enum class Reduction { none, sum, mean };

/// Cross-entropy forward of logits (n, v) and labels (n): per-row loss (0 for an ignored row)
/// and the reduced loss (none: not used; sum: sum; mean: sum / #non-ignored, NaN when every
/// label is ignored, as PyTorch). With label smoothing eps and z-loss scale z (Liger-Kernel's
/// label_smoothing and lse_square_scale) a row's loss is
///   (1 - eps) * (lse - x[label]) + eps * (lse - sum_j x[j] / v) + z * lse^2.
struct CrossEntropy {
  Vec loss;     ///< (n)
  double total; ///< reduced loss
};
CrossEntropy crossEntropy(const Vec &logits, const std::vector<int64_t> &labels, int64_t n,
                          int64_t v, int64_t ignoreIndex, Reduction red, double smoothing = 0,
                          double zLoss = 0);
/// Each row's logsumexp of logits (n, v): (n).
Vec logSumExp(const Vec &logits, int64_t n, int64_t v);
/// d loss / d logits (n, v) for an upstream gradient `gradOut` ((n) for reduction none, one
/// value otherwise): (softmax * (1 + 2 z lse) - (1 - eps) * onehot - eps / v) * scale per row,
/// scale = gradOut[i] (none), gradOut (sum), gradOut / #non-ignored (mean); ignored rows get 0.
Vec crossEntropyBackward(const Vec &logits, const std::vector<int64_t> &labels, int64_t n,
                         int64_t v, int64_t ignoreIndex, Reduction red, const Vec &gradOut,
                         double smoothing = 0, double zLoss = 0);

enum class Activation { none, relu, gelu, silu };
/// Where the elements of gemm's operands live, in elements: a(i, p) = a[i * am + p * ak],
/// b(p, j) = b[p * bk + j * bn] (a transposed or padded buffer, as the kernel reads it).
struct GemmStrides {
  int64_t am, ak, bk, bn;
};
/// c (m, n) = act(a (m, k) * b (k, n) + bias (n)), c row-major and contiguous; `bias` empty for
/// none. Each c(i, j) sums over p in increasing order whatever the blocking; rows are spread
/// over threads when the product is large (a 4096^3 reference takes seconds, not minutes).
Vec gemm(const Vec &a, const Vec &b, const Vec &bias, int64_t m, int64_t n, int64_t k,
         Activation act, const GemmStrides &strides);
/// The same with a (m, k) and b (k, n) row-major and contiguous.
Vec gemm(const Vec &a, const Vec &b, const Vec &bias, int64_t m, int64_t n, int64_t k,
         Activation act);

} // namespace tessel::harness::ref

#endif // TESSEL_HARNESS_REFERENCE_H
