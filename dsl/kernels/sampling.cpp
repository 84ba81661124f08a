//===- sampling.cpp - top-k / top-p (nucleus) mask of logits ---------------===//
//
// top_k_top_p_mask: the logits filter of LLM sampling (vLLM's apply_top_k_top_p, FlashInfer's
// top_k_top_p masks), one program per row; grid = (n_rows,).
//
//   logits  [n_rows, V] f32, f16 or bf16, rows in_stride elements apart
//   top_k   [n_rows] i32: k of the row; k <= 0 or k >= V turns top-k off for the row
//   top_p   [n_rows] f32: p of the row; p >= 1 (or NaN) turns top-p off for the row
//   out     [n_rows, V] the logits' dtype, rows out_stride apart: out = logits where kept, -inf
//           elsewhere. out may be logits itself (in place): each element is read before it is
//           written, by the same program.
//
// Kept, per row (x the row's logits as f32, exact for every input dtype):
//   - top-k: x >= t_k, t_k the k-th largest value of the row. Every value tied with t_k is
//     kept (as vLLM's sort-based apply_top_k_top_p), so a row may keep more than k.
//   - top-p, among the top-k kept values S: x >= t_p, t_p the largest value of S such that
//     the softmax mass of S's values >= t_p is >= p (softmax over S only, computed in f32; in
//     exact arithmetic an element is kept iff the mass strictly above its value is < p).
//     Every value tied with t_p is kept; the row's largest value is always kept (p <= 0
//     keeps only it).
//   - NaN is never kept (out = -inf there) and counts as -inf for the ranks and the mass (a
//     NaN logit is an upstream bug; masking it keeps a sampler from ever picking it). -inf is
//     an ordinary value: it ranks lowest and adds no mass; kept or not, it is written -inf.
//     -0.0 and 0.0 are the same value (tied), as the float comparison x >= t says.
//
// Algorithm: radix select, most significant digit first (the select of PyTorch's torch.topk,
// radixSelect in aten/src/ATen/native/cuda/SortingRadixSelect.cuh, one program per row as
// there), over the 32-bit order-preserving key of the f32 value: the float's bits with the sign
// bit flipped for positives and all bits flipped for negatives, so that unsigned key order is
// float order. 4 bits per pass, 8 passes, each a walk over the row. A pass counts, for each
// value d of the current digit, the candidates (the elements whose key starts with the digits
// chosen so far) whose digit is >= d: a compare of the block's digits against arange(0, 16),
// accumulated per thread in registers through the walk and summed over the block once at its
// end (a count "at or above" per bin, so the bins need no scan). The digit chosen is the
// largest d whose count at or above, plus the count above the prefix, reaches k. After 8
// passes the prefix is t_k's key exactly. t_p is the same select with the bins holding sums of
// exp(x - max) over the top-k kept candidates and the target p * Z_k; its first pass is also
// the online pass for the row max and Z_k (the sum of bin 0; the bins are rescaled when the max
// grows, as softmax_looped's denominator). A last pass writes the masked row. A row with top-k
// off skips its 8 passes, one with top-p off skips its 8 (scf.if on the row's k and p), and the
// top-k select stops once the k largest are separated from the rest (kthLargestKey): at most
// 9 passes over the row for either filter alone, 17 for both (the row is read from L2 after
// the first when it fits: 64 rows of 128256 f32 are 33 MB).
//
// Precision: counts are exact, so t_k is exact. The top-p mass is summed in f32 (per thread
// along the walk, then a tree over the block), with a relative error of a few 1e-7 of Z_k
// against float64 (a few 1e-6 at worst): a value whose mass strictly above it lies that close
// to p * Z_k may have its elements kept or dropped either way. The harness problem accepts
// either answer within 1e-5 of p * Z_k (lib/Harness/Problems/Sampling.cpp).
//
//===----------------------------------------------------------------------===//
#include <tessel/dsl.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <tuple>

using namespace tessel::dsl;

struct SamplingConfig {
  int BLOCK = 1024;
  int num_warps = 8;
};
TESSEL_CONFIG(SamplingConfig, BLOCK, num_warps)

namespace {

constexpr int kDigitBits = 4;
constexpr int kBins = 1 << kDigitBits; // 16 values of a digit
constexpr int kKeyBits = 32;
constexpr int32_t kSignBit = std::numeric_limits<int32_t>::min();

/// One block of a row: the logits as f32 with NaN made -inf and -0.0 made 0.0 (the keys then
/// order exactly as the float comparison does), `offs` the columns, masked lanes -inf.
template <class T> Tile<f32> loadBlock(Ptr<T> src, const Tile<i64> &offs, const Mask &inRow) {
  Tile<f32> x = cast<f32>(load(src + offs, inRow, -inf)); // (BLOCK)
  x = where(x != x, -inf, x);                              // NaN: unordered, so != is true
  return where(x == 0.0, 0.0, x);                          // -0.0 == 0.0
}

/// The order-preserving key as a signed i32: positives keep their bits, negatives get their
/// 31 magnitude bits flipped, so signed key order is float order (-inf lowest). Its unsigned
/// form (the radix digits) is `signedKey ^ kSignBit`.
Tile<i32> signedKey(const Tile<f32> &x) {
  Tile<i32> bits = bitcast<i32>(x);
  return where(bits < 0, bits ^ 0x7FFFFFFF, bits);
}

/// Mask of the key bits above the digit at `shift` (the digits already chosen).
int32_t prefixMask(int shift) {
  return shift + kDigitBits >= kKeyBits ? 0 : int32_t(~((uint32_t(1) << (shift + kDigitBits)) - 1));
}

/// A block of the row as a (W, E) tile, W = num_warps rows of E = BLOCK / W columns, and the
/// bins' per-thread partial sums as (W, 16, E): the layout pass puts the warps along W and the
/// lanes along E, so every thread accumulates its own elements' 16 bins in registers through
/// the whole pass and the bins are summed over the block once, after the loop. (A (16, BLOCK)
/// tile reduced over BLOCK gets its warps along the bins instead, each warp then reading the
/// whole block.)
struct BlockShape {
  int W, E;
  explicit BlockShape(const SamplingConfig &c) : W(c.num_warps), E(c.BLOCK / c.num_warps) {}
  /// (W, E): the column of each element within the block.
  Tile<i32> cols() const { return arange(0, W)(_, None) * E + arange(0, E)(None, _); }
  /// (W, 16, E): candidate `cand` with digit >= bin.
  Mask atOrAbove(const Tile<i32> &digit, const Mask &cand) const {
    Tile<i32> bins = arange(0, kBins);
    return (digit(_, None, _) >= bins(None, _, None)) & cand(_, None, _);
  }
};

/// (16): the per-thread partial bins (W, 16, E) summed.
template <class V> Tile<V> binTotals(const Tile<V> &acc) { return sum(sum(acc, 2), 0); }

/// Radix select of the largest digit: `atOrAbove[d]` (16) counts (or masses) of the candidates
/// whose digit is >= d, `above` those above every candidate, `target` what must be reached.
/// Returns the digit and the new `above` (what lies above the chosen digit). `positive`:
/// the bin must also hold something (top-p's mass when p <= 0: the largest value stays).
template <class V>
std::tuple<Tile<i32>, Tile<V>> pickDigit(const Tile<V> &atOrAbove, const Tile<V> &above,
                                         const Tile<V> &target, bool positive) {
  Tile<i32> bins = arange(0, kBins);       // (16)
  Tile<V> reached = above + atOrAbove;      // (16), non-increasing in d
  Mask ok = reached >= target;              // (16)
  if (positive)
    ok = ok & (reached > 0);
  // No digit reaches the target only through rounding (top-p's f32 mass): digit 0 then keeps
  // every candidate.
  Tile<i32> digit = max(where(ok, bins, 0), 0);
  Tile<V> next = above + sum(where(bins == digit + 1, atOrAbove, 0), 0);
  return {digit, next};
}

/// The signed key of the k-th largest element of the row (1 <= k <= n_cols), or a key that
/// separates the same k-and-ties largest from the rest: the radix select stops early (the
/// passes left are skipped, scf.if) once every candidate of the chosen digit is needed, i.e.
/// the count at or above it is k exactly; the prefix with zero digits below then keeps exactly
/// them and what lies above. With distinct values that is once the digits read tell the k-th
/// largest from the (k+1)-th: 5 to 7 passes of the 8 for f32 logits uniform in [-8, 8), V =
/// 32000 or 128256, k = 1, 50 or 1000 (the top digits are mostly sign and exponent, which the
/// row's values share).
template <class T>
Tile<i32> kthLargestKey(const SamplingConfig &c, Ptr<T> src, Int n_cols, const Tile<i32> &k) {
  BlockShape g(c);
  Tile<i32> cols = g.cols(), bins = arange(0, kBins); // (W, E), (16)
  // One pass of the digit at `shift` -> (prefix, above, done); prefix: unsigned key space.
  auto pass = [&](int shift, const Tile<i32> &prefix, const Tile<i32> &above) {
    int32_t high = prefixMask(shift);
    Tile<i32> acc = for_range(
        0, n_cols, c.BLOCK, zeros<i32>({g.W, kBins, g.E}), [&](Int start, Tile<i32> acc) {
          Tile<i64> offs = start + cols;                                     // (W, E)
          Mask inRow = offs < n_cols;                                        // (W, E)
          Tile<i32> key = signedKey(loadBlock(src, offs, inRow)) ^ kSignBit; // (W, E)
          Mask cand = inRow & ((key & high) == prefix);                      // (W, E)
          Tile<i32> digit = (key >> shift) & (kBins - 1);                    // (W, E)
          return acc + cast<i32>(g.atOrAbove(digit, cand));                  // (W, 16, E)
        });
    Tile<i32> counts = binTotals(acc); // (16)
    auto [d, nextAbove] = pickDigit<i32>(counts, above, k, /*positive=*/false);
    Mask exact = above + sum(where(bins == d, counts, 0), 0) == k;
    return std::tuple{Tile<i32>(prefix | (d << shift)), Tile<i32>(nextAbove), exact};
  };
  Tile<i32> prefix, above;
  Mask done;
  std::tie(prefix, above, done) = pass(kKeyBits - kDigitBits, full<i32>({}, 0), full<i32>({}, 0));
  for (int shift = kKeyBits - 2 * kDigitBits; shift >= 0; shift -= kDigitBits)
    std::tie(prefix, above, done) = if_then_else(
        done, [&] { return std::tuple{prefix, above, done}; },
        [&] { return pass(shift, prefix, above); });
  return prefix ^ kSignBit;
}

/// The signed key of t_p among the elements with key >= `kthKey` (top-p's threshold).
template <class T>
Tile<i32> topPKey(const SamplingConfig &c, Ptr<T> src, Int n_cols, const Tile<i32> &kthKey,
                  const Float &p) {
  BlockShape g(c);
  Tile<i32> cols = g.cols(), bins = arange(0, kBins); // (W, E), (16)
  // The first pass (top digit, every candidate) is the online max and Z_k pass: the bins are
  // rescaled by exp(m_old - m_new) when the max grows. m starts at the lowest finite f32, not
  // -inf, so that exp(x - m) and exp(m_old - m_new) are never exp(-inf + inf) = NaN.
  const int top = kKeyBits - kDigitBits;
  auto [rowMax, topAcc] = for_range(
      0, n_cols, c.BLOCK,
      std::tuple{Float(-std::numeric_limits<float>::max()), zeros<f32>({g.W, kBins, g.E})},
      [&](Int start, Float m, Tile<f32> acc) {
        Tile<i64> offs = start + cols;                               // (W, E)
        Mask inRow = offs < n_cols;                                  // (W, E)
        Tile<f32> x = loadBlock(src, offs, inRow);                   // (W, E)
        Tile<i32> skey = signedKey(x);                               // (W, E)
        Mask cand = inRow & (skey >= kthKey);                        // (W, E)
        Tile<i32> digit = ((skey ^ kSignBit) >> top) & (kBins - 1); // (W, E)
        Float nm = maximum(m, max(x));
        Tile<f32> e = exp(x - nm); // (W, E)
        return std::tuple{nm, acc * exp(m - nm) +
                                  where(g.atOrAbove(digit, cand), e(_, None, _), 0.0)};
      });
  Tile<f32> topMass = binTotals(topAcc); // (16)
  // Bin 0 holds every top-k kept element: Z_k.
  Float target = p * sum(where(bins == 0, topMass, 0.0), 0);
  Tile<f32> zero = full<f32>({}, 0.0);
  auto [d0, above0] = pickDigit<f32>(topMass, zero, target, /*positive=*/true);
  Tile<i32> prefix = d0 << top; // unsigned key space
  Tile<f32> above = above0;
  for (int shift = top - kDigitBits; shift >= 0; shift -= kDigitBits) {
    int32_t high = prefixMask(shift);
    Tile<f32> acc = for_range(
        0, n_cols, c.BLOCK, zeros<f32>({g.W, kBins, g.E}), [&](Int start, Tile<f32> acc) {
          Tile<i64> offs = start + cols;                                   // (W, E)
          Mask inRow = offs < n_cols;                                      // (W, E)
          Tile<f32> x = loadBlock(src, offs, inRow);                       // (W, E)
          Tile<i32> skey = signedKey(x);                                   // (W, E)
          Tile<i32> key = skey ^ kSignBit;                                 // (W, E)
          Mask cand = inRow & (skey >= kthKey) & ((key & high) == prefix); // (W, E)
          Tile<i32> digit = (key >> shift) & (kBins - 1);                  // (W, E)
          Tile<f32> e = exp(x - rowMax);                                   // (W, E)
          return acc + where(g.atOrAbove(digit, cand), e(_, None, _), 0.0);
        });
    Tile<f32> mass = binTotals(acc); // (16)
    auto [d, nextAbove] = pickDigit<f32>(mass, above, target, /*positive=*/true);
    prefix = prefix | (d << shift);
    above = nextAbove;
  }
  return prefix ^ kSignBit;
}

} // namespace

template <class T>
void top_k_top_p_mask(const SamplingConfig &c, Ptr<T> out, Ptr<T> logits, Ptr<i32> top_k,
                      Ptr<f32> top_p, Int in_stride, Int out_stride, Int n_cols) {
  Int row = program_id(0);
  Ptr<T> src = logits + row * in_stride;
  Ptr<T> dst = out + row * out_stride;
  Tile<i32> k = load(top_k + row);
  Float p = load(top_p + row);
  // Rows with a filter off skip its passes; the threshold is then the lowest key (keep all).
  Tile<i32> kthKey = if_then_else(
      (k > 0) & (k < n_cols), [&] { return kthLargestKey(c, src, n_cols, k); },
      [&] { return kSignBit; });
  Tile<i32> pKey = if_then_else(
      p < 1.0, [&] { return topPKey(c, src, n_cols, kthKey, p); }, [&] { return kSignBit; });
  Tile<i32> threshold = maximum(kthKey, pKey);
  Tile<i32> cols = arange(0, c.BLOCK);
  for_range(0, n_cols, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + cols;                                     // (BLOCK)
    Mask inRow = offs < n_cols;                                        // (BLOCK)
    Tile<T> raw = load(src + offs, inRow);                             // (BLOCK)
    Tile<f32> x = cast<f32>(raw);                                      // (BLOCK)
    Mask kept = (x == x) & (signedKey(where(x == 0.0, 0.0, x)) >= threshold); // (BLOCK)
    store(dst + offs, where(kept, raw, -inf), inRow);
  });
}
TESSEL_KERNEL(top_k_top_p_mask, DTYPES(f32, f16, bf16),
              ARGS(out, logits, top_k, top_p, in_stride, out_stride, n_cols),
              CONFIGS(SamplingConfig{}, SamplingConfig{.BLOCK = 1024, .num_warps = 16},
                      SamplingConfig{.BLOCK = 512, .num_warps = 4}))
// Up to 8 elements of the row per thread (NVIDIA's 32 lanes), each holding its 16 bins in
// registers through a pass. The CONFIGS keep 4 or 2, spill-free on every target (BLOCK 2048
// spills SGPRs on gfx942 and gfx90a with 8 warps, and VGPRs with 16: 1024 threads on AMD).
TESSEL_TUNE(top_k_top_p_mask, Space<SamplingConfig>()
                                  .field(&SamplingConfig::BLOCK, pow2(256, 4096))
                                  .field(&SamplingConfig::num_warps, {2, 4, 8, 16})
                                  .where([](const SamplingConfig &c) {
                                    return c.BLOCK >= 32 * c.num_warps &&
                                           c.BLOCK <= 8 * 32 * c.num_warps;
                                  })
                                  .key("n_cols", Bucket::pow2)
                                  .where([](const SamplingConfig &c, const Keys &k) {
                                    return c.BLOCK <= std::max<int64_t>(k["n_cols"], 256);
                                  })
                                  .grid("n_rows"))
