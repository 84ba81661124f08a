//===- Reference.cpp - double-precision reference kernels ------------------===//
#include "tessel/Harness/Reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

using namespace tessel::harness;
using namespace tessel::harness::ref;

Vec ref::vectorAdd(const Vec &x, const Vec &y) {
  Vec o(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    o[i] = x[i] + y[i];
  return o;
}

Vec ref::softmax(const Vec &x, int64_t rows, int64_t cols) {
  Vec o(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const double *xr = &x[r * cols];
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < cols; ++c)
      m = std::isnan(xr[c]) || xr[c] > m ? xr[c] : m;
    double s = 0;
    for (int64_t c = 0; c < cols; ++c)
      s += std::exp(xr[c] - m);
    for (int64_t c = 0; c < cols; ++c)
      o[r * cols + c] = std::exp(xr[c] - m) / s;
  }
  return o;
}

Vec ref::rmsNormRstd(const Vec &x, int64_t rows, int64_t cols, double eps) {
  Vec rstd(rows);
  for (int64_t r = 0; r < rows; ++r) {
    double ss = 0;
    for (int64_t c = 0; c < cols; ++c)
      ss += x[r * cols + c] * x[r * cols + c];
    rstd[r] = 1.0 / std::sqrt(ss / cols + eps);
  }
  return rstd;
}

Vec ref::rmsNorm(const Vec &x, const Vec &w, int64_t rows, int64_t cols, double eps) {
  Vec o(x.size()), rstd = rmsNormRstd(x, rows, cols, eps);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      o[r * cols + c] = x[r * cols + c] * rstd[r] * w[c];
  return o;
}

void ref::layerNormStats(const Vec &x, int64_t rows, int64_t cols, double eps, Vec &mean,
                         Vec &rstd) {
  mean.assign(rows, 0.0);
  rstd.assign(rows, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    double m = 0;
    for (int64_t c = 0; c < cols; ++c)
      m += x[r * cols + c];
    m /= cols;
    double var = 0;
    for (int64_t c = 0; c < cols; ++c)
      var += (x[r * cols + c] - m) * (x[r * cols + c] - m);
    mean[r] = m;
    rstd[r] = 1.0 / std::sqrt(var / cols + eps);
  }
}

Vec ref::layerNorm(const Vec &x, const Vec &w, const Vec &b, int64_t rows, int64_t cols,
                   double eps) {
  Vec mean, rstd, o(x.size());
  layerNormStats(x, rows, cols, eps, mean, rstd);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      o[r * cols + c] = (x[r * cols + c] - mean[r]) * rstd[r] * w[c] + b[c];
  return o;
}

Vec ref::swiglu(const Vec &a, const Vec &b) {
  Vec o(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    o[i] = a[i] / (1.0 + std::exp(-a[i])) * b[i];
  return o;
}

double ref::gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

Vec ref::geglu(const Vec &a, const Vec &b) {
  Vec o(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    o[i] = gelu(a[i]) * b[i];
  return o;
}

Vec ref::ropeRotateHalf(const Vec &x, const Vec &cos, const Vec &sin, int64_t B, int64_t H,
                        int64_t S, int64_t D) {
  Vec o(x.size());
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t s = 0; s < S; ++s) {
        ropeRotateHalfRow(&x[((b * H + h) * S + s) * D], &cos[(b * S + s) * D],
                          &sin[(b * S + s) * D], D, &o[((b * H + h) * S + s) * D]);
      }
  return o;
}

void ref::ropeRotateHalfRow(const double *x, const double *cos, const double *sin, int64_t D,
                            double *out) {
  int64_t half = D / 2;
  for (int64_t d = 0; d < D; ++d) {
    double rot = d < half ? -x[d + half] : x[d - half];
    out[d] = x[d] * cos[d] + rot * sin[d];
  }
}

/// log-sum-exp of one row.
static double lse(const double *row, int64_t v) {
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < v; ++j)
    m = std::max(m, row[j]);
  double s = 0;
  for (int64_t j = 0; j < v; ++j)
    s += std::exp(row[j] - m);
  return m + std::log(s);
}

Vec ref::logSumExp(const Vec &logits, int64_t n, int64_t v) {
  Vec out(n);
  for (int64_t i = 0; i < n; ++i)
    out[i] = lse(logits.data() + i * v, v);
  return out;
}

CrossEntropy ref::crossEntropy(const Vec &logits, const std::vector<int64_t> &labels, int64_t n,
                               int64_t v, int64_t ignoreIndex, Reduction red, double smoothing,
                               double zLoss) {
  CrossEntropy ce{Vec(n, 0.0), 0.0};
  int64_t valid = 0;
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (labels[i] == ignoreIndex)
      continue;
    ++valid;
    const double *row = &logits[i * v];
    double l = lse(row, v), rowSum = 0;
    for (int64_t j = 0; j < v; ++j)
      rowSum += row[j];
    ce.loss[i] = (1 - smoothing) * (l - row[labels[i]]) + zLoss * l * l;
    if (smoothing != 0) // a -inf logit keeps the plain loss without smoothing
      ce.loss[i] += smoothing * (l - rowSum / v);
    sum += ce.loss[i];
  }
  ce.total = red == Reduction::mean ? (valid ? sum / valid : std::nan("")) : sum;
  return ce;
}

Vec ref::crossEntropyBackward(const Vec &logits, const std::vector<int64_t> &labels, int64_t n,
                              int64_t v, int64_t ignoreIndex, Reduction red, const Vec &gradOut,
                              double smoothing, double zLoss) {
  Vec g(logits.size(), 0.0);
  int64_t valid = 0;
  for (int64_t i = 0; i < n; ++i)
    valid += labels[i] != ignoreIndex;
  for (int64_t i = 0; i < n; ++i) {
    if (labels[i] == ignoreIndex)
      continue;
    double scale = red == Reduction::none  ? gradOut[i]
                   : red == Reduction::sum ? gradOut[0]
                                           : gradOut[0] / valid;
    const double *row = &logits[i * v];
    double l = lse(row, v);
    for (int64_t j = 0; j < v; ++j)
      g[i * v + j] = (std::exp(row[j] - l) * (1 + 2 * zLoss * l) -
                      (j == labels[i] ? 1 - smoothing : 0.0) - smoothing / v) *
                     scale;
  }
  return g;
}

Vec ref::gemm(const Vec &a, const Vec &b, const Vec &bias, int64_t m, int64_t n, int64_t k,
              Activation act, const GemmStrides &st) {
  // Both operands repacked row-major and contiguous, so the loops below are unit-stride
  // whatever the layouts.
  Vec ap(m * k), bp(k * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      ap[i * k + p] = a[i * st.am + p * st.ak];
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j)
      bp[p * n + j] = b[p * st.bk + j * st.bn];
  Vec c(m * n, 0.0);
  // A (kBlockK, kBlockN) block of b stays in cache while every row of the thread's rows passes
  // over it, 4 x 8 elements of c at a time held in registers (a naive i-p-j loop streams all
  // of b once per row: minutes at 4096^3). Each c(i, j) is loaded, summed over p in increasing
  // order and stored: the same additions in the same order as the naive loop, bit for bit.
  constexpr int64_t kBlockN = 256, kBlockK = 256, kR = 4, kC = 8;
  auto rows = [&](int64_t i0, int64_t i1) {
    for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
      int64_t j1 = std::min(n, j0 + kBlockN);
      for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
        int64_t p1 = std::min(k, p0 + kBlockK);
        int64_t i = i0;
        for (; i + kR <= i1; i += kR) {
          int64_t j = j0;
          for (; j + kC <= j1; j += kC) {
            double acc[kR][kC];
            for (int64_t r = 0; r < kR; ++r)
              for (int64_t q = 0; q < kC; ++q)
                acc[r][q] = c[(i + r) * n + j + q];
            for (int64_t p = p0; p < p1; ++p) {
              const double *bv = &bp[p * n + j];
              for (int64_t r = 0; r < kR; ++r) {
                double av = ap[(i + r) * k + p];
                for (int64_t q = 0; q < kC; ++q)
                  acc[r][q] += av * bv[q];
              }
            }
            for (int64_t r = 0; r < kR; ++r)
              for (int64_t q = 0; q < kC; ++q)
                c[(i + r) * n + j + q] = acc[r][q];
          }
          for (int64_t r = 0; r < kR; ++r) // the columns left of this block
            for (int64_t p = p0; p < p1; ++p)
              for (int64_t jj = j; jj < j1; ++jj)
                c[(i + r) * n + jj] += ap[(i + r) * k + p] * bp[p * n + jj];
        }
        for (; i < i1; ++i) // the rows left
          for (int64_t p = p0; p < p1; ++p)
            for (int64_t jj = j0; jj < j1; ++jj)
              c[i * n + jj] += ap[i * k + p] * bp[p * n + jj];
      }
    }
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double x = c[i * n + j] + (bias.empty() ? 0.0 : bias[j]);
        switch (act) {
        case Activation::none:
          break;
        case Activation::relu:
          x = x > 0 ? x : 0;
          break;
        case Activation::gelu:
          x = gelu(x);
          break;
        case Activation::silu:
          x = x / (1.0 + std::exp(-x));
          break;
        }
        c[i * n + j] = x;
      }
  };
  // Threads own disjoint rows, so the result does not depend on their number. Small products
  // (every lit test) stay on the calling thread.
  int64_t threads = 1;
  if (static_cast<double>(m) * n * k >= 1e8)
    threads = std::clamp<int64_t>(std::thread::hardware_concurrency(), 1, std::min<int64_t>(m, 64));
  if (threads == 1) {
    rows(0, m);
    return c;
  }
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t)
    pool.emplace_back(rows, m * t / threads, m * (t + 1) / threads);
  for (std::thread &th : pool)
    th.join();
  return c;
}

Vec ref::gemm(const Vec &a, const Vec &b, const Vec &bias, int64_t m, int64_t n, int64_t k,
              Activation act) {
  return gemm(a, b, bias, m, n, k, act, GemmStrides{k, 1, n, 1});
}
