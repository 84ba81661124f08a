//===- cross_entropy.cpp - cross-entropy loss and its gradient ------------===//
//
// Per row (token) of logits (n_rows, n_cols), with labels (i64) and ignore_index:
//   loss[row] = logsumexp(logits[row, :]) - logits[row, label]   (0 when label == ignore_index)
// computed in f32 with an online softmax over vocabulary blocks (the row is read once).
// One program per row; grid = (n_rows,). Reduction over rows (mean over the non-ignored rows,
// or sum) is the caller's; a mean over zero rows is NaN, as in PyTorch (case C4).
//
//===----------------------------------------------------------------------===//
#include "RowSpaces.h"

#include <tessel/dsl.h>

using namespace tessel::dsl;

struct CrossEntropyConfig {
  int BLOCK = 4096;
  int num_warps = 8;
};
TESSEL_CONFIG(CrossEntropyConfig, BLOCK, num_warps)

/// The running max m and the running sum d of exp(x - m) over the row at `base`: the row's
/// logsumexp is m + log(d).
template <class T>
std::tuple<Float, Float> online_softmax(int block, Ptr<T> base, Int n_cols) {
  Tile<i32> cols = arange(0, block); // (BLOCK)
  return for_range(0, n_cols, block, std::tuple{Float(-inf), Float(0.0)},
                   [&](Int start, Float m, Float d) {
                     Tile<i64> offs = start + cols;                                    // (BLOCK)
                     Tile<f32> x = cast<f32>(load(base + offs, offs < n_cols, -inf)); // (BLOCK)
                     Float nm = maximum(m, max(x, 0));
                     return std::tuple{nm, d * exp(m - nm) + sum(exp(x - nm), 0)};
                   });
}

/// loss (n_rows) f32. The target logit is only read for rows that are not ignored.
template <class T>
void cross_entropy(const CrossEntropyConfig &c, Ptr<f32> loss, Ptr<T> logits, Ptr<i64> labels,
                   Int stride, Int n_cols, Int ignore_index) {
  Int row = program_id(0);
  Int label = load(labels + row);
  Ptr<T> base = logits + row * stride;
  auto [m, d] = online_softmax(c.BLOCK, base, n_cols);
  Bool valid = label != ignore_index;
  Float target = cast<f32>(load(base + label, valid, 0.0));
  Float lo = log(d) + m - target;
  store(loss + row, where(valid, lo, 0.0));
}
TESSEL_KERNEL(cross_entropy, DTYPES(f32, f16, bf16),
              ARGS(loss, logits, labels, stride, n_cols, ignore_index),
              CONFIGS(CrossEntropyConfig{.BLOCK = 4096, .num_warps = 8},
                      CrossEntropyConfig{.BLOCK = 8192, .num_warps = 16}))
TESSEL_TUNE(cross_entropy, loopedRowSpace<CrossEntropyConfig>())

/// How the per-row losses were reduced in the forward pass; decides the upstream gradient.
TESSEL_ENUM(Reduction, none, mean, sum)

struct CrossEntropyBackwardConfig {
  int BLOCK = 4096;
  Reduction reduction = Reduction::mean;
  int num_warps = 8;
};
TESSEL_CONFIG(CrossEntropyBackwardConfig, BLOCK, reduction, num_warps)

/// dlogits[row, j] = (softmax(logits[row])_j - [j == label]) * g, where g is dloss[row]
/// (reduction none: one upstream value per row, case C3), dloss[0] (sum) or dloss[0] / n_valid
/// (mean over the n_valid non-ignored rows). Ignored rows get exactly 0 (selected, never
/// multiplied, so a mean over zero rows cannot produce NaN: case C4). The gradient is computed
/// in f32 and rounded once to T (case C2). dlogits may alias logits (in place).
template <class T>
void cross_entropy_backward(const CrossEntropyBackwardConfig &c, Ptr<T> dlogits, Ptr<T> logits,
                            Ptr<i64> labels, Ptr<f32> dloss, Int stride, Int dstride,
                            Int n_cols, Int ignore_index, Int n_valid) {
  Int row = program_id(0);
  Int label = load(labels + row);
  Ptr<T> base = logits + row * stride;
  Ptr<T> dbase = dlogits + row * dstride;
  auto [m, d] = online_softmax(c.BLOCK, base, n_cols);
  Float lse = m + log(d);
  Float g;
  if (c.reduction == Reduction::none)
    g = load(dloss + row);
  else if (c.reduction == Reduction::sum)
    g = load(dloss);
  else
    g = load(dloss) / n_valid;
  Bool ignored = label == ignore_index;
  Tile<i32> cols = arange(0, c.BLOCK); // (BLOCK)
  for_range(0, n_cols, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + cols;                                   // (BLOCK)
    Mask mask = offs < n_cols;                                       // (BLOCK)
    Tile<f32> x = cast<f32>(load(base + offs, mask, -inf));          // (BLOCK)
    Tile<f32> p = exp(x - lse);                                      // (BLOCK)
    Tile<f32> grad = (p - cast<f32>(offs == label)) * g;             // (BLOCK)
    store(dbase + offs, cast<T>(where(ignored, 0.0, grad)), mask);
  });
}
TESSEL_KERNEL(cross_entropy_backward, DTYPES(f32, f16, bf16),
              ARGS(dlogits, logits, labels, dloss, stride, dstride, n_cols, ignore_index,
                   n_valid),
              CONFIGS(CrossEntropyBackwardConfig{.reduction = Reduction::none},
                      CrossEntropyBackwardConfig{.reduction = Reduction::mean},
                      CrossEntropyBackwardConfig{.reduction = Reduction::sum}))
