//===- sampling.cpp - top-k / top-p (nucleus) mask of logits ---------------===//
//
// top_k_top_p_mask: the logits filter of LLM sampling (vLLM's apply_top_k_top_p, FlashInfer's
// top_k_top_p masks). grid = (n_rows, S): S programs per row, each over a chunk of whole
// BLOCKs of columns (1 <= S <= 128; S > 1 spreads a few rows over the GPU).
//
//   logits      [n_rows, V] f32, f16 or bf16, rows in_stride elements apart
//   top_k       [n_rows] i32: k of the row; k <= 0 or k >= V turns top-k off for the row
//   top_p       [n_rows] f32: p of the row; p >= 1 (or NaN) turns top-p off for the row
//   out         [n_rows, V] the logits' dtype, rows out_stride apart: out = logits where kept,
//               -inf elsewhere. out may be logits itself (in place): each element is read before
//               it is written, by the program that writes it.
//   cand_vals   [n_rows, V] the logits' dtype, cand_cols [n_rows, V] i32: workspaces (the
//               candidates, below), any contents
//   chunk_stats [n_rows, 128] i64: each chunk's max and softmax mass (two f32 bit patterns in
//               one word); zero before the first launch, every launch leaves it zero
//   counters    [n_rows, 2] i32: zero before the first launch; every launch leaves it zero
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
// Algorithm: bound, compact, select on the last arrival.
//   1. Each program walks its chunk once for its slot maxima (the running max of each of the
//      BLOCK positions of a block) and the chunk's max m_c and softmax mass Z_c (online, per
//      slot). From them a lower bound L on what the row keeps:
//      - top-k (k <= BLOCK): the k-th largest slot maximum. The k slots above it hold k
//        distinct elements of the row at least as large, so t_k >= L.
//      - top-p alone: m_U + ln((1 - p) Z_U / V), less a margin for f32 rounding, with (m_U,
//        Z_U) the max and mass of any set U of the row's chunks. The row's elements below it
//        weigh at most V e^(L - m) <= (1 - p) Z_U e^(m_U - m) <= (1 - p) Z, so those at or
//        above it weigh >= p Z and t_p >= L. U is the chunk and every chunk that has
//        published its (m_c, Z_c) by then: each program publishes right after its walk, as
//        one 64-bit word, so a reader sees a chunk's pair whole or not at all. The bound
//        rises by about ln |U|: programs that run together see most of the row (4 x randn
//        logits, 128256 columns, 15 chunks: a list of 6% of the row, measured on a GPU, where
//        one chunk's bound alone leaves about 23%).
//        (With top-k on, the list must hold all of the top k, whose mass is Z_k: top-k's
//        bound alone, none for k > BLOCK.)
//      The k-th largest of 1024 slot maxima leaves about k candidates per chunk on random
//      logits.
//   2. A second walk writes -inf over the elements below L (rows with both filters off: the
//      copy, NaN made -inf) and appends the others, the candidates, to the row's list in
//      cand_vals / cand_cols: a block's positions from a cumsum of its mask, its offset from
//      one atomic add on the row's candidate count.
//   3. The program takes a ticket (acq_rel, as moe_routing's). The last of the row's S to
//      arrive reads the candidate list and finds
//      t_k and t_p there by radix select, most significant digit first (the select of
//      PyTorch's torch.topk, radixSelect in aten/src/ATen/native/cuda/SortingRadixSelect.cuh),
//      over the 32-bit order-preserving key of the f32 value: the float's bits with the sign
//      bit flipped for positives and all bits flipped for negatives, so that unsigned key order
//      is float order. 4 bits per pass, at most 8 passes (f32; 4 for bf16 and 5 for f16, whose
//      low key bits follow from the high ones), each a walk over the list. A pass
//      counts, for each value d of the current digit, the candidates (the elements whose key
//      starts with the digits chosen so far) whose digit is >= d: a compare of the block's
//      digits against arange(0, 16), accumulated per thread in registers and summed over the
//      block once after the walk (a count "at or above" per bin, so the bins need no scan).
//      The digit chosen is the largest d whose count at or above, plus the count above the
//      prefix, reaches k; the top-k select stops once the k largest are separated from the
//      rest. t_p is the same select with the bins holding sums of exp(x - m) over the top-k
//      kept candidates and the target p * Z_k (p * Z with top-k off: the mass of the whole row,
//      from chunk_stats). With top-k off it first compacts the list, in place, to the top-p
//      bound of the whole row's max and mass (what falls below is written -inf), and skips the
//      digits that bound and the max share. With both on it compacts the list to the top-k
//      set after t_k; a set of at most 64 (BLOCK >= 1024) gets t_p from one bitonic sort and
//      a scan of its masses instead of the passes. It then writes the candidates' outputs and
//      zeroes chunk_stats and the counters. The list walks carry up to 8 elements per thread,
//      so that their loads are in flight together.
//   Each element of the row is read twice from memory and written once; the selects read the
//   candidates only. The list's order depends on the programs' timing, so the top-p mass is
//   summed in a varying order (within the precision below).
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
#include <functional>
#include <limits>
#include <tuple>
#include <utility>

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
constexpr int kMaxChunks = 128; // programs per row: chunk_stats holds 128 (max, mass) pairs
constexpr float kLowest = -std::numeric_limits<float>::max();
constexpr int64_t kLow32 = 0xFFFFFFFFLL;

/// The logits as f32 with NaN made -inf and -0.0 made 0.0: the keys then order exactly as the
/// float comparison does.
Tile<f32> clean(const Tile<f32> &x) {
  Tile<f32> y = where(x != x, -inf, x); // NaN: unordered, so != is true
  return where(y == 0.0, 0.0, y);       // -0.0 == 0.0
}

/// The order-preserving key as a signed i32: positives keep their bits, negatives get their
/// 31 magnitude bits flipped, so signed key order is float order (-inf lowest). Its unsigned
/// form (the radix digits) is `signedKey ^ kSignBit`.
Tile<i32> signedKey(const Tile<f32> &x) {
  Tile<i32> bits = bitcast<i32>(x);
  return where(bits < 0, bits ^ 0x7FFFFFFF, bits);
}

/// Mask of the key bits above the digit at `shift` (the digits already chosen); zero for the
/// top digit. Two shifts, each below 32 bits.
Tile<i32> prefixMask(const Tile<i32> &shift) {
  return (full<i32>({}, -1) << shift) << kDigitBits;
}

/// The shift of a select's pass `i` (pass 0: the top digit).
Tile<i32> passShift(const Int &i) { return cast<i32>(kKeyBits - kDigitBits - i * kDigitBits); }

/// A block as a (W, E) tile, W = num_warps rows of E = BLOCK / W columns, and the bins'
/// per-thread partial sums as (W, 16, E): the layout pass puts the warps along W and the
/// lanes along E, so every thread accumulates its own elements' 16 bins in registers through
/// the whole walk and the bins are summed over the block once, after the loop. (A (16, BLOCK)
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

/// Values a select walks: `blocks` blocks, block j a (W, E) tile of clean f32 values and the
/// mask of those in the set.
struct Values {
  Int blocks;
  std::function<std::pair<Tile<f32>, Mask>(Int)> block;
  int unroll = 1; ///< blocks per loop iteration (block(j) past the last: an empty mask)
  /// The lowest digit a pass must choose: the values come from a narrower float whose f32
  /// keys share their low bits given the higher ones (below).
  int lowShift = 0;
};

/// The shift of the lowest digit the keys of T's values can differ in. bf16 and f16 widen
/// exactly to f32 with 16 and 13 low mantissa bits zero, which the key keeps (positives) or
/// flips to ones (negatives): given the digits above, the low ones are one constant, so a
/// select stops there, and the prefix with zero low digits is the same threshold for every T
/// value (no T value lies strictly inside the group). Halves the passes for bf16, 8 to 5
/// for f16.
template <class T> constexpr int lowDigitShift() {
  constexpr int zeroBits = std::is_same_v<T, bf16> ? 16 : std::is_same_v<T, f16> ? 13 : 0;
  return zeroBits / kDigitBits * kDigitBits;
}

/// The radix passes of a select over `vals`: the digits from the top down to vals.lowShift.
int passCount(const Values &vals) { return (kKeyBits - vals.lowShift) / kDigitBits; }

/// Blocks of the candidate list a pass walks per loop iteration, so that their loads are in
/// flight together (the last program walks the list alone: a pass is latency-bound): up to 8
/// elements per thread (on 32 lanes), as registers allow without spills.
int listUnroll(const SamplingConfig &c) {
  return std::max(1, 8 / std::max(1, c.BLOCK / (32 * c.num_warps)));
}

/// Blocks per step of the last program's compaction of the list: one cumsum per step, whose
/// barriers dominate a step's time.
constexpr int kCompactBlocks = 4;

/// One radix pass: the bins (16) of the digit at `shift` over the values whose key starts with
/// `prefix` (unsigned key space, the digits above `shift`) and is >= `lowKey` (signed): their
/// count at or above each digit value (`m` unset), or their softmax mass exp(x - m).
template <class V>
Tile<V> radixBins(const SamplingConfig &c, const Values &vals, const Tile<i32> &shift,
                  const Tile<i32> &prefix, const Tile<i32> &lowKey, const Tile<f32> *m) {
  BlockShape g(c);
  Tile<i32> high = prefixMask(shift);
  const int u = vals.unroll;
  Int steps = cdiv(vals.blocks, u);
  Tile<V> acc = for_range(0, steps, 1, zeros<V>({g.W, kBins, g.E}), [&](Int i, Tile<V> acc) {
    for (int b = 0; b < u; ++b) {
      auto [x, in] = vals.block(i * u + b);                         // (W, E)
      Tile<i32> skey = signedKey(x);                                 // (W, E)
      Tile<i32> key = skey ^ kSignBit;                               // (W, E)
      Mask cand = in & (skey >= lowKey) & ((key & high) == prefix);  // (W, E)
      Mask at = g.atOrAbove((key >> shift) & (kBins - 1), cand);     // (W, 16, E)
      if constexpr (std::is_same_v<V, i32>)
        acc = acc + cast<i32>(at);
      else
        acc = acc + where(at, exp(x - *m)(_, None, _), 0.0);
    }
    return acc;
  });
  return binTotals(acc);
}

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

/// The signed key of the k-th largest of `vals` (1 <= k), or a key that separates the same
/// k-and-ties largest from the rest: the select stops early (the passes left are skipped,
/// scf.if) once every candidate of the chosen digit is needed, i.e. the count at or above it
/// is k exactly; the prefix with zero digits below then keeps exactly them and what lies
/// above. Fewer than k values: the lowest key of the last digits' candidates (all kept).
Tile<i32> kthLargestKey(const SamplingConfig &c, const Values &vals, const Tile<i32> &k) {
  Tile<i32> bins = arange(0, kBins), zero = full<i32>({}, 0);
  // One pass of the digit at `shift` -> (prefix, above, done); prefix: unsigned key space.
  auto pass = [&](const Tile<i32> &shift, const Tile<i32> &prefix, const Tile<i32> &above) {
    Tile<i32> counts = radixBins<i32>(c, vals, shift, prefix, full<i32>({}, kSignBit), nullptr);
    auto [d, nextAbove] = pickDigit<i32>(counts, above, k, /*positive=*/false); // counts: (16)
    Mask exact = above + sum(where(bins == d, counts, 0), 0) == k;
    return std::tuple{Tile<i32>(prefix | (d << shift)), Tile<i32>(nextAbove), exact};
  };
  // The passes as a loop, not unrolled: the code of one pass is several kilobytes, fetched
  // from memory when the kernel starts with a cold cache.
  auto selected = for_range(
      0, passCount(vals), 1, std::tuple{zero, zero, Mask(zero != 0)},
      [&](Int i, Tile<i32> prefix, Tile<i32> above, Mask done) {
        return if_then_else(
            done, [&] { return std::tuple{prefix, above, done}; },
            [&] { return pass(passShift(i), prefix, above); });
      });
  return std::get<0>(selected) ^ kSignBit;
}

/// The signed key of t_p among the values with key >= `kthKey`, `m` the row's max. The target
/// is p times their mass, or p * `zRow` where `useRowZ` (top-k off: the whole row's mass, of
/// which `vals` may hold only the part above the bound). Every such value's key lies in
/// [`lowKey`, key(m)]: the leading digits those two share are every value's, and need no pass
/// (2 of 8 for a top-p bound a dozen below a max near 17).
Tile<i32> topPKey(const SamplingConfig &c, const Values &vals, const Tile<i32> &kthKey,
                  const Tile<f32> &m, const Float &p, const Tile<f32> &zRow, const Mask &useRowZ,
                  const Tile<i32> &lowKey) {
  Tile<i32> bins = arange(0, kBins), highKey = signedKey(m);
  Tile<i32> spread = lowKey ^ highKey, high = highKey ^ kSignBit; // unsigned key space
  auto shared = [&](const Tile<i32> &shift) { return (spread >> shift) == 0; };
  auto digitOf = [&](const Tile<i32> &shift) {
    return ((high >> shift) & (kBins - 1)) << shift;
  };
  Tile<f32> zero = full<f32>({}, 0.0);
  Tile<i32> top = passShift(Int(0));
  auto [target, prefix, above] = if_then_else(
      shared(top) & useRowZ, [&] { return std::tuple{Tile<f32>(p * zRow), digitOf(top), zero}; },
      [&] {
        Tile<f32> topMass = radixBins<f32>(c, vals, top, full<i32>({}, 0), kthKey, &m); // (16)
        // Bin 0 holds every value at or above kthKey: Z_k.
        Tile<f32> t = p * where(useRowZ, zRow, sum(where(bins == 0, topMass, 0.0), 0));
        auto [d0, a] = pickDigit<f32>(topMass, zero, t, /*positive=*/true);
        return std::tuple{t, Tile<i32>(d0 << top), a};
      });
  // The passes below the top digit as a loop (kthLargestKey says why).
  auto selected = for_range(
      1, passCount(vals), 1, std::tuple{prefix, above},
      [&](Int i, Tile<i32> prefix, Tile<f32> above) {
        Tile<i32> shift = passShift(i);
        return if_then_else(
            shared(shift), [&] { return std::tuple{Tile<i32>(prefix | digitOf(shift)), above}; },
            [&] {
              Tile<f32> mass = radixBins<f32>(c, vals, shift, prefix, kthKey, &m); // (16)
              auto [d, nextAbove] = pickDigit<f32>(mass, above, target, /*positive=*/true);
              return std::tuple{Tile<i32>(prefix | (d << shift)), nextAbove};
            });
      });
  return std::get<0>(selected) ^ kSignBit;
}

/// The signed key of a lower bound on t_p (top-p alone) from a max `mx` and the softmax mass
/// `z` = sum exp(x - mx) of part of the row (the header's step 1 proves it):
/// mx + ln((1 - p) z / V), less a margin for the f32 rounding of the mass and the logarithm.
Tile<i32> topPBoundKey(const Tile<f32> &mx, const Tile<f32> &z, const Float &p, const Int &n_cols) {
  Tile<f32> b = mx + log((1.0 - maximum(p, 0.0)) * z / cast<f32>(n_cols));
  return signedKey(b - 1e-3 * (1.0 + abs(b)));
}

/// The largest top-k set whose t_p comes from one sort.
constexpr int kSorted = 64;

/// The signed key of t_p over the `n` <= kSorted values at `vals` (the whole top-k set), `m`
/// the row's max: sorted descending, t_p is the first value whose inclusive mass reaches
/// p * Z_k (every value above it then weighs less, and the values >= it at least that; the
/// largest value when p <= 0; the smallest when only f32 rounding keeps the total below the
/// target). A bitonic sort and a scan where a radix select takes up to 8 latency-bound passes.
template <class T>
Tile<i32> sortedTopPKey(const Ptr<T> &vals, const Int &n, const Tile<f32> &m, const Float &p,
                        const LoadHints &hints) {
  Tile<i32> i = arange(0, kSorted);
  Mask in = i < n;                                                        // (64)
  Tile<f32> x = sort(clean(cast<f32>(load(vals + i, in, -inf, hints))), 0, /*descending=*/true);
  Tile<f32> mass = cumsum(exp(x - m), 0);                                 // (64), inclusive
  Mask reach = in & (mass >= p * max(mass, 0));                           // (64)
  Tile<f32> tp = max(where(reach, x, -inf), 0);
  Tile<f32> smallest = min(where(in, x, inf), 0);
  return signedKey(where(sum(cast<i32>(reach), 0) > 0, tp, smallest));
}

/// A chunk's max and softmax mass as one word, the max's f32 bits above the mass's: one store
/// publishes both. A published word is never zero (a chunk's max is kLowest or its mass >= 1),
/// so zero reads as "not yet".
Tile<i64> packStats(const Tile<f32> &m, const Tile<f32> &z) {
  return (cast<i64>(bitcast<i32>(m)) << 32) | (cast<i64>(bitcast<i32>(z)) & kLow32);
}

/// The max and mass (relative to that max) of the chunks whose words `w` hold (zero words
/// skipped) together with (`m0`, `z0`).
std::pair<Tile<f32>, Tile<f32>> mergeStats(const Tile<i64> &w, const Tile<f32> &m0,
                                           const Tile<f32> &z0) {
  Tile<f32> ms = bitcast<f32>(cast<i32>(w >> 32)), zs = bitcast<f32>(cast<i32>(w & kLow32));
  Mask have = w != 0;
  Tile<f32> m = maximum(max(where(have, ms, kLowest), 0), m0);
  Tile<f32> z = sum(where(have, zs * exp(ms - m), 0.0), 0) + z0 * exp(m0 - m);
  return {m, z};
}

} // namespace

template <class T>
void top_k_top_p_mask(const SamplingConfig &c, Ptr<T> out, Ptr<T> logits, Ptr<i32> top_k,
                      Ptr<f32> top_p, Ptr<T> cand_vals, Ptr<i32> cand_cols,
                      Ptr<i64> chunk_stats, Ptr<i32> counters, Int in_stride, Int out_stride,
                      Int n_cols) {
  BlockShape g(c);
  Int row = program_id(0), chunk = program_id(1), chunks = num_programs(1);
  Ptr<T> src = logits + row * in_stride;
  Ptr<T> dst = out + row * out_stride;
  Ptr<T> vals = cand_vals + row * n_cols;
  Ptr<i32> colsOut = cand_cols + row * n_cols;
  Ptr<i32> count = counters + row * 2, tickets = counters + row * 2 + 1;
  Ptr<i64> stats = chunk_stats + row * kMaxChunks;
  Tile<i32> k = load(top_k + row);
  Float p = load(top_p + row);
  Mask kOn = (k > 0) & (k < n_cols), pOn = p < 1.0, anyOn = kOn | pOn;
  Int width = cdiv(cdiv(n_cols, chunks), c.BLOCK) * c.BLOCK;
  Int begin = chunk * width, end = minimum(begin + width, n_cols);
  Tile<i32> cols = g.cols(); // (W, E)

  // 1. Slot maxima and the per-slot online softmax mass: one exp per element, exp(-|x - max|).
  auto [slotMax, slotMass] = for_range(
      begin, end, c.BLOCK,
      std::tuple{full<f32>({g.W, g.E}, kLowest), zeros<f32>({g.W, g.E})},
      [&](Int start, Tile<f32> mx, Tile<f32> z) {
        Tile<i64> offs = start + cols;                                  // (W, E)
        Tile<f32> x = clean(cast<f32>(load(src + offs, offs < n_cols, -inf))); // (W, E)
        Tile<f32> nm = maximum(mx, x);
        Tile<f32> e = exp(minimum(mx, x) - nm);
        return std::tuple{nm, where(x > mx, z * e + 1.0, z + e)};
      });
  Tile<f32> chunkMax = max(max(slotMax, 1), 0);
  Tile<f32> chunkMass = sum(sum(slotMass * exp(slotMax - chunkMax), 1), 0);
  store(stats + chunk, packStats(chunkMax, chunkMass)); // published: other chunks bound with it
  Tile<i32> lowest = full<i32>({}, kSignBit);
  Tile<i32> ids = arange(0, kMaxChunks);
  Mask real = ids < chunks;
  LoadHints l2{.cache = Cache::cg};
  Tile<i32> boundK = if_then_else(
      kOn & (k <= c.BLOCK),
      [&] {
        // Slot maxima are T values, or kLowest where a slot saw none (then below every
        // finite T value's group, so the early stop keeps the same T values).
        Values slots{Int(1), [&](Int) { return std::pair{slotMax, cols >= 0}; }, 1,
                     lowDigitShift<T>()};
        return kthLargestKey(c, slots, k);
      },
      [&] { return lowest; });
  // With top-k on, the list must hold all of the top k (their mass is top-p's Z_k): top-k's
  // bound alone.
  Tile<i32> boundP = if_then_else(
      pOn & !kOn,
      [&] {
        Tile<i64> words = load(stats + ids, real & (ids != chunk), 0, l2); // (128)
        auto [mU, zU] = mergeStats(words, chunkMax, chunkMass);
        return topPBoundKey(mU, zU, p, n_cols);
      },
      [&] { return lowest; });
  Tile<i32> bound = where(kOn, boundK, boundP);

  // 2. Below the bound: -inf now (both filters off: the copy). The rest: the candidate list.
  Tile<i32> lane = arange(0, c.BLOCK);
  for_range(begin, end, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + lane;                           // (BLOCK)
    Mask inChunk = offs < n_cols; // chunks are whole blocks: the same as offs < end
    Tile<T> raw = load(src + offs, inChunk);                 // (BLOCK)
    Tile<f32> xf = cast<f32>(raw);                           // (BLOCK)
    Mask cand = inChunk & anyOn & (signedKey(clean(xf)) >= bound);
    store(dst + offs, where(anyOn | (xf != xf), -inf, raw), inChunk & !cand);
    Tile<i32> one = cast<i32>(cand);                         // (BLOCK)
    Tile<i32> total = sum(one, 0);
    when(total > 0, [&] { // most blocks of a top-k row hold none
      Tile<i32> at = atomic_add(count, total, Sem::relaxed) + cumsum(one, 0) - one; // (BLOCK)
      store(vals + at, raw, cand);
      store(colsOut + at, cast<i32>(offs), cand);
    });
  });

  // 3. The ticket: the last program of the row selects.
  Tile<i32> arrived = atomic_add(tickets, 1);
  when(arrived == cast<i32>(chunks) - 1, [&] {
    Int n = cast<i64>(load(count, l2));
    auto [m, z] = mergeStats(load(stats + ids, real, 0, l2), full<f32>({}, kLowest),
                             full<f32>({}, 0.0)); // every chunk's, published before its ticket
    // The list compacted in place to the entries whose key reaches `low` (a block's writes
    // land at or below the positions it read, after the cumsum's barriers); the others are
    // written -inf. Returns the entries kept.
    auto compact = [&](const Int &len, const Tile<i32> &low) {
      const int wide = kCompactBlocks * c.BLOCK;
      Tile<i32> wideLane = arange(0, wide);
      Int left = for_range(0, len, wide, Int(0), [&](Int start, Int kept) {
        Tile<i64> offs = start + wideLane;                                  // (wide)
        Mask in = offs < len;                                               // (wide)
        Tile<T> raw = load(vals + offs, in, l2);                            // (wide)
        Tile<i32> col = load(colsOut + offs, in, l2);                       // (wide)
        Mask keep = in & (signedKey(clean(cast<f32>(raw))) >= low);         // (wide)
        Tile<i32> one = cast<i32>(keep);                                    // (wide)
        Tile<i64> at = kept + cast<i64>(cumsum(one, 0) - one);              // (wide)
        store(vals + at, raw, keep);
        store(colsOut + at, col, keep);
        store(dst + col, where(keep, raw, -inf), in & !keep);
        return Int(kept + cast<i64>(sum(one, 0)));
      });
      barrier(); // the selects read what other threads moved
      return left;
    };
    auto listOf = [&](const Int &len) {
      return Values{cdiv(len, c.BLOCK),
                    [&, len](Int j) {
                      Tile<i64> offs = j * c.BLOCK + cols; // (W, E)
                      Mask in = offs < len;
                      return std::pair{clean(cast<f32>(load(vals + offs, in, -inf, l2))), in};
                    },
                    listUnroll(c), lowDigitShift<T>()};
    };
    // Top-p alone: the row's max and mass bound t_p tighter than a chunk's list did.
    Tile<i32> rowBound = topPBoundKey(m, z, p, n_cols);
    Int listed =
        if_then_else(pOn & !kOn, [&] { return compact(n, rowBound); }, [&] { return n; });
    Tile<i32> kthKey = if_then_else(
        kOn, [&] { return kthLargestKey(c, listOf(listed), k); }, [&] { return lowest; });
    // Both on: top-p runs over the top-k set alone, compacted; up to kSorted values get t_p
    // from a sort, without passes, where registers allow: at BLOCK 512 (128 to 168 registers
    // a thread at 4 and 8 warps) the sort's code makes the kernel spill 16 to 48 bytes.
    const bool sortedTopP = c.BLOCK >= 1024;
    Int topSet = if_then_else(
        kOn & pOn, [&] { return compact(listed, kthKey); }, [&] { return listed; });
    auto radixTopP = [&] {
      Tile<i32> low = maximum(kthKey, where(kOn, lowest, rowBound));
      return topPKey(c, listOf(topSet), kthKey, m, p, z, !kOn, low);
    };
    Tile<i32> pKey = if_then_else(
        pOn,
        [&] {
          if (!sortedTopP)
            return radixTopP();
          return if_then_else(
              kOn & (topSet <= kSorted), [&] { return sortedTopPKey(vals, topSet, m, p, l2); },
              radixTopP);
        },
        [&] { return lowest; });
    Tile<i32> threshold = maximum(kthKey, pKey);
    for_range(0, topSet, c.BLOCK, [&](Int start) {
      Tile<i64> offs = start + lane;                                  // (BLOCK)
      Mask in = offs < topSet;                                        // (BLOCK)
      Tile<T> raw = load(vals + offs, in, l2);                        // (BLOCK)
      Tile<i32> col = load(colsOut + offs, in, l2);                   // (BLOCK)
      Tile<f32> xf = cast<f32>(raw);                                  // (BLOCK)
      Mask kept = (xf == xf) & (signedKey(clean(xf)) >= threshold);   // (BLOCK)
      store(dst + col, where(kept, raw, -inf), in);
    });
    store(stats + ids, zeros<i64>({kMaxChunks}), real);
    store(count, 0);
    store(tickets, 0);
  });
}
TESSEL_KERNEL(top_k_top_p_mask, DTYPES(f32, f16, bf16),
              ARGS(out, logits, top_k, top_p, cand_vals, cand_cols, chunk_stats, counters,
                   in_stride, out_stride, n_cols),
              CONFIGS(SamplingConfig{}, SamplingConfig{.BLOCK = 512, .num_warps = 8},
                      SamplingConfig{.BLOCK = 512, .num_warps = 4}))
// Up to 8 elements of a block per thread (on 32-lane warps), each holding its 16 bins in
// registers through a pass. The CONFIGS keep 4 or 2, without scratch on every target (16 warps
// are 1024 threads on 64-lane wavefronts, 128 vector registers each: BLOCK 1024 spills 32 bytes
// there).
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
