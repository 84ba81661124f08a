//===- Sort.h - sort, sort_with_indices, topk -------------------*- C++ -*-===//
//
// Sorting along an axis of a tile, as library functions over the DSL's own ops (Triton's
// tl.sort / tl.topk live in its standard library the same way; no IR op of their own):
//   Tile<T> s = sort(x);                            ascending along the last axis
//   auto [v, i] = sort_with_indices(x, 0, true);    descending along axis 0, i32 indices
//   auto [v, i] = topk(x, 8);                       the 8 largest, largest first
//
// The algorithm is Batcher's bitonic sorting network (K. E. Batcher, "Sorting networks and their
// applications", AFIPS 1968), built as Triton's `_compare_and_swap` / `_bitonic_merge`
// (python/triton/language/standard.py): for an axis of n = 2^m elements, m (m + 1) / 2
// compare-and-swap stages. Stage (k, j) pairs element i with element i ^ j: the tile is reshaped
// to (numel / 2j, 2, j), the pair's two integer bit patterns are combined by an xor reduction
// over the size-2 axis and broadcast back, so each element gets its partner's bits exactly
// (x ^ (x ^ p) = p: -0.0 and NaN payloads survive); then a where keeps or swaps by the order and
// the block's direction (blocks with bit k of i set run the other way until the final merge).
// Each stage is thus a reshape + reduction, which on the GPU goes through shared memory:
// O(log^2 n) of them, O(n log^2 n) compares. topk(x, k) sorts blocks of k, then halves the axis
// log2(n / k) times (Batcher's half-cleaner keeps the better k of two blocks) and re-merges, as
// Triton's topk.
//
// Order, for every dtype: ascending (or, with `descending`, its reverse) where
//   - floats: NaN is greater than every number (torch.sort puts NaN last, or first when
//     descending), -0.0 and 0.0 compare equal, -inf < ... < inf;
//   - integers are signed; i1: false < true.
// sort_with_indices and topk break ties by the original index, the lower index first in both
// directions, so they equal a stable sort (torch.sort(stable=True), numpy's
// argsort(kind='stable')) and are deterministic. sort alone has no indices: the order of equal
// values (-0.0 vs 0.0, NaNs with different payloads) is unspecified.
//
// Limits (today): the axis length n and topk's k must be powers of two. Any rank up to 4 (the
// network's reshapes are rank 3 whatever the batch dimensions).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_SORT_H
#define TESSEL_DSL_SORT_H

#include "tessel/dsl/SplitJoin.h"

namespace tessel::dsl {

namespace detail {

/// a > b in the sort order: signed for integers; for floats NaN above every number (-0.0 ==
/// 0.0). `a`, `b`: values of the compared dtype; the result is a mask.
inline RawValue sortGreater(const RawValue &a, const RawValue &b, Loc l) {
  RawValue gt = binary(BinaryOp::gt, a, b, l);
  if (!isFloat(a.dtype))
    return gt;
  RawValue aNan = binary(BinaryOp::ne, a, a, l), bNan = binary(BinaryOp::ne, b, b, l);
  return binary(BinaryOp::bit_or, gt,
                binary(BinaryOp::bit_and, aNan, unary(UnaryOp::logical_not, bNan, l), l), l);
}

/// a == b in the sort order (two NaNs are equal, -0.0 == 0.0).
inline RawValue sortEqual(const RawValue &a, const RawValue &b, Loc l) {
  RawValue eq = binary(BinaryOp::eq, a, b, l);
  if (!isFloat(a.dtype))
    return eq;
  return binary(
      BinaryOp::bit_or, eq,
      binary(BinaryOp::bit_and, binary(BinaryOp::ne, a, a, l), binary(BinaryOp::ne, b, b, l), l),
      l);
}

/// The rows being sorted, along the last axis (n long): `bits`, the integer bits of the values
/// (toBits), compared as `cmp` (the value dtype; i8 for i1), and optionally `idx`, their i32
/// original indices, of the same shape. `descending` selects the order that a merge in the
/// ascending direction produces.
struct SortRows {
  RawValue bits;
  RawValue idx;
  bool hasIdx = false;
  DType cmp = DType::i32;
  bool descending = false;
};

/// Each element's partner i ^ j along the last axis of the integer tile `b`: reshaped to
/// (numel / 2j, 2, j), the xor of each pair (a reduction over the size-2 axis) xor-ed with the
/// element itself. Bit-exact.
inline RawValue partnerOf(const RawValue &b, int64_t j, Loc l) {
  int64_t outer = b.shape.numel() / (2 * j);
  RawValue y = reshape(b, Shape{outer, 2, j}, l);
  RawValue args[2];
  beginCombiner(/*scan=*/false, y, 1, /*reverse=*/false, args, l);
  RawValue pairXor =
      endCombiner(binary(BinaryOp::bit_xor, args[0], args[1], l), /*keepDims=*/true, l);
  return reshape(binary(BinaryOp::bit_xor, pairXor, y, l), b.shape, l);
}

/// The mask "bit `bit` of the position along the rows is set", (n), or none (id < 0) for
/// bit >= n: the blocks of one compare-and-swap stage that run in the reverse direction.
inline RawValue positionBit(int64_t n, int64_t bit, Loc l) {
  if (bit >= n)
    return RawValue{};
  RawValue iota = arange(0, n, l);
  return binary(BinaryOp::ne, binary(BinaryOp::bit_and, iota, constInt(bit, DType::i32, l), l),
                constInt(0, DType::i32, l), l);
}

/// One compare-and-swap stage (Triton's _compare_and_swap): element i and i ^ j end up in order
/// (the one that comes first at the lower position), reversed where `flip` (a (n) mask, or none)
/// is set.
inline void compareAndSwap(SortRows &r, int64_t j, const RawValue &flip, Loc l) {
  int64_t n = r.bits.shape[r.bits.shape.rank() - 1];
  RawValue low = unary(UnaryOp::logical_not, positionBit(n, j, l), l); // (n): i is the left one
  RawValue pBits = partnerOf(r.bits, j, l);
  RawValue left = select(low, r.bits, pBits, l), right = select(low, pBits, r.bits, l);
  if (isFloat(r.cmp)) {
    left = cast(left, r.cmp, /*bitcast=*/true, l);
    right = cast(right, r.cmp, /*bitcast=*/true, l);
  }
  // Whether left must come after right.
  RawValue after = r.descending ? sortGreater(right, left, l) : sortGreater(left, right, l);
  RawValue pIdx;
  if (r.hasIdx) {
    pIdx = partnerOf(r.idx, j, l);
    RawValue leftIdx = select(low, r.idx, pIdx, l), rightIdx = select(low, pIdx, r.idx, l);
    RawValue tieAfter = binary(BinaryOp::bit_and, sortEqual(left, right, l),
                               binary(BinaryOp::gt, leftIdx, rightIdx, l), l);
    after = binary(BinaryOp::bit_or, after, tieAfter, l);
  }
  RawValue swap = flip.id >= 0 ? binary(BinaryOp::bit_xor, after, flip, l) : after;
  r.bits = select(swap, pBits, r.bits, l);
  if (r.hasIdx)
    r.idx = select(swap, pIdx, r.idx, l);
}

/// Bitonic merges of blocks of 2, 4, ..., `upTo` elements along the rows (Triton's
/// _bitonic_merge per size): afterwards each block of `upTo` is sorted, in r's order where bit
/// `upTo` of its position is clear and reversed where it is set (all in order for upTo = n).
inline void bitonicSortBlocks(SortRows &r, int64_t upTo, Loc l) {
  int64_t n = r.bits.shape[r.bits.shape.rank() - 1];
  for (int64_t k = 2; k <= upTo; k *= 2) {
    RawValue flip = positionBit(n, k, l);
    for (int64_t j = k / 2; j >= 1; j /= 2)
      compareAndSwap(r, j, flip, l);
  }
}

/// Keeps, of each pair of adjacent blocks of k elements along the rows (the first in order, the
/// second reversed: a bitonic sequence of 2k), the k that come first, elementwise: the first
/// half of a bitonic merge's first stage (Batcher's half-cleaner). (..., n) -> (..., n / 2), a
/// bitonic sequence per block of k.
inline void keepFirstHalves(SortRows &r, int64_t k, Loc l) {
  int last = r.bits.shape.rank() - 1;
  Shape pairs{r.bits.shape.numel() / (2 * k), 2, k}, half = r.bits.shape;
  half[last] /= 2;
  RawValue pb = reshape(r.bits, pairs, l);
  RawValue aBits = reshape(pickSlot(pb, 1, 0, false, l), half, l);
  RawValue bBits = reshape(pickSlot(pb, 1, 1, false, l), half, l);
  RawValue a = aBits, b = bBits;
  if (isFloat(r.cmp)) {
    a = cast(aBits, r.cmp, /*bitcast=*/true, l);
    b = cast(bBits, r.cmp, /*bitcast=*/true, l);
  }
  RawValue aAfter = r.descending ? sortGreater(b, a, l) : sortGreater(a, b, l);
  RawValue aIdx, bIdx;
  if (r.hasIdx) {
    RawValue pi = reshape(r.idx, pairs, l);
    aIdx = reshape(pickSlot(pi, 1, 0, false, l), half, l);
    bIdx = reshape(pickSlot(pi, 1, 1, false, l), half, l);
    aAfter = binary(
        BinaryOp::bit_or, aAfter,
        binary(BinaryOp::bit_and, sortEqual(a, b, l), binary(BinaryOp::gt, aIdx, bIdx, l), l), l);
  }
  r.bits = select(aAfter, bBits, aBits, l);
  if (r.hasIdx)
    r.idx = select(aAfter, bIdx, aIdx, l);
}

/// The first k of each row in order (k = n: the sorted rows): blocks of k are sorted with
/// alternating directions, then halved (keepFirstHalves) and re-merged, log2(n / k) times
/// (Triton's topk construction). k and n powers of two, k <= n.
inline void bitonicFirstK(SortRows &r, int64_t k, Loc l) {
  bitonicSortBlocks(r, k, l);
  int last = r.bits.shape.rank() - 1;
  while (r.bits.shape[last] > k) {
    keepFirstHalves(r, k, l);
    RawValue flip = positionBit(r.bits.shape[last], k, l);
    for (int64_t j = k / 2; j >= 1; j /= 2)
      compareAndSwap(r, j, flip, l);
  }
}

inline bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// The checked axis of a sort-like call `what` on `x` (0..rank-1).
inline int sortAxis(const RawValue &x, int axis, const char *what, Loc l) {
  if (x.id < 0)
    fail(l, (std::string(what) + " of an unassigned tile").c_str());
  int rank = x.shape.rank();
  if (rank == 0)
    fail(l, (std::string(what) + " of a scalar; it sorts along an axis of a tile").c_str());
  if (axis < -rank || axis >= rank)
    fail(l, (std::string(what) + ": axis " + std::to_string(axis) +
             " is out of range for a tile of shape " + shapeText(x.shape) + " (use " +
             std::to_string(-rank) + ".." + std::to_string(rank - 1) + ")")
                .c_str());
  axis = axis < 0 ? axis + rank : axis;
  int64_t n = x.shape[axis];
  if (!isPowerOfTwo(n)) {
    int64_t up = 1;
    while (up < n)
      up *= 2;
    fail(l, (std::string(what) + ": the axis has " + std::to_string(n) + " elements (shape " +
             shapeText(x.shape) + ", axis " + std::to_string(axis) +
             "); the bitonic sort needs a power of two (a current limit): pad it to " +
             std::to_string(up) + " with values that sort last (e.g. load with other = inf, or " +
             "-inf for a descending sort or topk)")
                .c_str());
  }
  return axis;
}

/// Sorts `x` along `axis` (checked by sortAxis) and keeps the first `k` of each sorted row
/// (k = 0: all); writes the values and, with `withIdx`, the i32 indices.
inline void sortAlong(const RawValue &x, int axis, bool descending, bool withIdx, int64_t k,
                      RawValue &values, RawValue &indices, Loc l) {
  int rank = x.shape.rank();
  int32_t perm[kMaxRank];
  for (int i = 0; i < rank; ++i)
    perm[i] = i;
  perm[axis] = rank - 1;
  perm[rank - 1] = axis;
  bool moved = axis != rank - 1;
  RawValue t = moved ? trans(x, perm, rank, l) : x; // the sorted axis last
  if (k == 0)
    k = t.shape[rank - 1];
  SortRows r;
  r.bits = toBits(t, l);
  r.cmp = x.dtype == DType::i1 ? DType::i8 : x.dtype;
  r.descending = descending;
  r.hasIdx = withIdx;
  if (withIdx)
    r.idx = broadcastTo(arange(0, t.shape[rank - 1], l), t.shape, l);
  bitonicFirstK(r, k, l);
  values = fromBits(r.bits, x.dtype, l);
  if (moved)
    values = trans(values, perm, rank, l);
  if (withIdx)
    indices = moved ? trans(r.idx, perm, rank, l) : r.idx;
}

} // namespace detail

/// `x` sorted along `axis` (default the last; negative counts from the end), ascending, or
/// descending when `descending`: same shape and dtype as x. Any dtype: floats with NaN after
/// every number (first when descending) and -0.0 == 0.0 (their relative order, and that of
/// NaNs, unspecified); integers signed; i1 false < true. Values move bit-exactly.
/// Algorithm: Batcher's bitonic sorting network, log2(n) (log2(n) + 1) / 2 compare-and-swap
/// stages for an axis of n elements, each a reshape to (..., 2, j) + a reduction (shared memory
/// on the GPU); another axis than the last is transposed there and back.
/// Errors (at your line): n not a power of two (the current limit; pad with values that sort
/// last), an axis out of range, a scalar.
template <DTypeTag T>
Tile<T> sort(const Tile<T> &x, int axis = -1, bool descending = false, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  int a = detail::sortAxis(x.raw(), axis, "sort", l);
  detail::RawValue values, indices;
  detail::sortAlong(x.raw(), a, descending, /*withIdx=*/false, 0, values, indices, l);
  return Tile<T>(values);
}

/// sort() with the permutation: `auto [v, i] = sort_with_indices(x, axis, descending);` gives
/// the sorted values (x's shape and dtype) and Tile<i32> i of the same shape, the index along
/// `axis` in x of each sorted element (v = take_along_axis(x, i, axis)). Equal values keep their
/// original order in both directions (ties to the lower index), so this is a stable sort
/// (torch.sort(x, stable=True), numpy.argsort(kind='stable')) and deterministic; NaNs are equal
/// to each other, -0.0 equal to 0.0. Same algorithm, limits and errors as sort(); the indices
/// travel through the network with the values (a second reduction per stage).
template <DTypeTag T>
std::pair<Tile<T>, Tile<i32>> sort_with_indices(const Tile<T> &x, int axis = -1,
                                                bool descending = false, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  int a = detail::sortAxis(x.raw(), axis, "sort_with_indices", l);
  detail::RawValue values, indices;
  detail::sortAlong(x.raw(), a, descending, /*withIdx=*/true, 0, values, indices, l);
  return {Tile<T>(values), Tile<i32>(indices)};
}

/// The `k` largest elements along `axis` (default the last), largest first, and their i32
/// indices along the axis: `auto [v, i] = topk(x, 8);` makes two tiles of x's shape with that
/// axis k long. Equal values come lower index first (the first k of a stable descending sort,
/// as torch.topk on distinct values); NaN counts as the largest. k and the axis length n must be
/// powers of two, k <= n (a current limit).
/// Algorithm (Triton's tl.topk construction): blocks of k are bitonic-sorted in alternating
/// directions (log2(k) (log2(k) + 1) / 2 stages), then log2(n / k) times each pair of adjacent
/// blocks keeps its elementwise better half (Batcher's half-cleaner: two where + sum picks per
/// tile) and re-merges it (log2(k) stages) at half the size: cheaper than a full sort for k < n.
/// Errors (at your line): k or n not a power of two, k > n or k < 1, an axis out of range, a
/// scalar.
template <DTypeTag T>
std::pair<Tile<T>, Tile<i32>> topk(const Tile<T> &x, int k, int axis = -1, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  int a = detail::sortAxis(x.raw(), axis, "topk", l);
  int64_t n = x.raw().shape[a];
  std::string bad = "topk: k = " + std::to_string(k);
  if (k < 1)
    detail::fail(l, (bad + " must be at least 1").c_str());
  if (k > n)
    detail::fail(l, (bad + " is larger than the axis length " + std::to_string(n)).c_str());
  if (!detail::isPowerOfTwo(k)) {
    int64_t up = 1;
    while (up < k)
      up *= 2;
    detail::fail(l, (bad + " must be a power of two (a current limit): take k = " +
                     std::to_string(up) + " and keep the first " + std::to_string(k))
                        .c_str());
  }
  detail::RawValue values, indices;
  detail::sortAlong(x.raw(), a, /*descending=*/true, /*withIdx=*/true, k, values, indices, l);
  return {Tile<T>(values), Tile<i32>(indices)};
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_SORT_H
