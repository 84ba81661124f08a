//===- OnlineSoftmax.h - a row's max and sum of exponentials, one pass ---*- C++ -*-===//
//
// The first pass of the looped row kernels (softmax_looped, the cross-entropy kernels): the max
// m of a row and the sum d of exp(x - m), over a row walked BLOCK elements at a time, with the
// online rescaling of Milakov & Gimelshein, "Online normalizer calculation for softmax" (2018).
//
// Each block is viewed as (BLOCK / VEC, VEC), VEC the elements of T in one 16-byte vector, so
// that the blocked layout gives every view row to one thread: each thread keeps its own max and
// sum per view row, and nothing inside the loop crosses threads. One block-wide reduction at the
// end combines them. A scalar running max and sum instead cost a block-wide max and sum (shuffles,
// a shared-memory round trip and barriers) per block: 32 blocks per row of a 128256-entry
// vocabulary at BLOCK 4096, with the loads of the next block waiting behind them. The price is
// one extra exp per VEC elements (the rescale of a view row's sum).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_KERNELS_ONLINESOFTMAX_H
#define TESSEL_KERNELS_ONLINESOFTMAX_H

#include <tessel/dsl.h>

#include <tuple>

/// Elements of T in one 16-byte vector: the width of a view row.
template <class T> constexpr int vectorElems() {
  return 128 / tessel::dsl::bitWidth(T::dtype);
}

/// exp(x - shift) as exp2(x * log2(e) - shift * log2(e)): with fp-fusion, one fma and the
/// hardware's exp2 per element where exp(x - shift) costs a subtract, a multiply and the exp2
/// (the scaled shift is computed once per row). Rounding shift * log2(e) moves every result by the same
/// factor, at most ulp(shift) in the exponent: the size of the rounding of lse = m + log(d).
/// Flash attention folds its softmax scale the same way (Dao, "FlashAttention-2", 2023, §3.1).
template <class X, class S> auto exp_shifted(const X &x, const S &shift) {
  constexpr double log2e = 1.4426950408889634;
  return tessel::dsl::exp2(x * log2e - shift * log2e);
}

/// A max to subtract from a row's logits: m, or 0 where m is -inf (every element seen so far
/// is -inf), so that exp(-inf - 0) = 0 rather than exp(-inf + inf) = NaN. NaN stays NaN.
inline tessel::dsl::Tile<tessel::dsl::f32> finiteOrZero(const tessel::dsl::Tile<tessel::dsl::f32> &m) {
  using namespace tessel::dsl;
  return where(m == -inf, 0.0, m);
}

/// Over the row of n_cols elements at `base`: the max m, the sum d of exp(x - m), and, with
/// `withSum`, the sum s of x (masked-off lanes add 0; without it s is 0). The row's logsumexp is
/// m + log(d); a row of -inf gives m = -inf and d = 0; a NaN anywhere gives NaN. `block` must be
/// a multiple of vectorElems<T>() (an error at the caller's line otherwise).
template <class T>
std::tuple<tessel::dsl::Float, tessel::dsl::Float, tessel::dsl::Float>
rowSoftmaxStats(int block, tessel::dsl::Ptr<T> base, tessel::dsl::Int n_cols, bool withSum,
                TESSEL_DSL_LOC) {
  using namespace tessel::dsl;
  constexpr int vec = vectorElems<T>();
  if (block % vec != 0 || block < vec)
    detail::fail(detail::Loc::from(loc),
                 "rowSoftmaxStats: BLOCK must be a multiple of the elements of one 16-byte vector "
                 "(8 for f16/bf16, 4 for f32)");
  int rows = block / vec;
  // (rows, vec): view row r is the block's elements [r * vec, r * vec + vec).
  Tile<i32> view = expand_dims(arange(0, rows), 1) * vec + expand_dims(arange(0, vec), 0);
  auto init = std::tuple{full<f32>({rows}, -inf), zeros<f32>({rows}), zeros<f32>({rows})};
  auto [m, d, s] = for_range(
      0, n_cols, block, init, [&](Int start, Tile<f32> m, Tile<f32> d, Tile<f32> s) {
        Tile<i64> offs = start + view;                                    // (rows, vec)
        Mask mask = offs < n_cols;                                        // (rows, vec)
        Tile<f32> x = cast<f32>(load(base + offs, mask, -inf));          // (rows, vec)
        Tile<f32> nm = maximum(m, max(x, 1));                             // (rows)
        Tile<f32> shift = finiteOrZero(nm);                               // (rows)
        Tile<f32> nd = d * exp(m - shift) + sum(exp_shifted(x, expand_dims(shift, 1)), 1); // (rows)
        Tile<f32> ns = withSum ? s + sum(where(mask, x, 0.0), 1) : s;    // (rows)
        return std::tuple{nm, nd, ns};
      });
  Float rowMax = max(m, 0);
  Float rowSum = sum(d * exp(m - finiteOrZero(rowMax)), 0);
  return {rowMax, rowSum, withSum ? sum(s, 0) : Float(0.0)};
}

/// `body(start)` for the starts of a row's blocks, last block first. A second pass over a row
/// that the first pass walked forwards meets the lines it read last first: those that L2 most
/// likely still holds when many rows are in flight at once. (Forwards, it would meet the oldest
/// first and, in an LRU cache smaller than the rows in flight, miss on every line.)
template <class F> void for_blocks_reversed(tessel::dsl::Int n_cols, int block, F &&body) {
  using namespace tessel::dsl;
  Int last = (n_cols - 1) / block * block; // start of the last block (no block when n_cols = 0)
  for_range(0, n_cols, block, [&](Int i) { body(last - i); });
}

#endif // TESSEL_KERNELS_ONLINESOFTMAX_H
