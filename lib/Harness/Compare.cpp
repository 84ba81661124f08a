//===- Compare.cpp - checking kernel outputs against references ------------===//
#include "tessel/Harness/Compare.h"
#include "tessel/Harness/Parallel.h"
#include "tessel/Harness/Poison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace tessel::harness;

Tolerance tessel::harness::defaultTolerance(DType t) {
  switch (t) {
  case DType::f32:
    return {1e-5, 1e-6};
  case DType::f64:
    return {1e-12, 1e-13};
  case DType::f16:
  case DType::bf16:
    return {1e-2, 1e-3};
  default:
    return {0, 0};
  }
}

namespace {
/// What compare() gathers over a range of elements (the Comparison's counts, first indices and
/// max error, and the two sums); chunks merge in index order.
struct Partial {
  Comparison c;
  double diff2 = 0, ref2 = 0;

  void merge(const Partial &o) {
    c.checked += o.c.checked;
    c.unwritten += o.c.unwritten;
    c.badNonFinite += o.c.badNonFinite;
    c.outside += o.c.outside;
    if (c.firstBad < 0)
      c.firstBad = o.c.firstBad;
    if (c.firstOutside < 0)
      c.firstOutside = o.c.firstOutside;
    if (o.c.worstIndex >= 0 && (c.worstIndex < 0 || o.c.maxAbsError > c.maxAbsError)) {
      c.maxAbsError = o.c.maxAbsError;
      c.worstIndex = o.c.worstIndex;
    }
    diff2 += o.diff2;
    ref2 += o.ref2;
  }
};
} // namespace

/// Elements [begin, end) of `out` (their doubles in `o`, their poison marks in `poisoned`).
static Partial compareRange(const double *o, const std::vector<bool> &poisoned,
                            const std::vector<double> &ref, Tolerance tol, int64_t begin,
                            int64_t end) {
  Partial p;
  Comparison &c = p.c;
  for (int64_t i = begin; i < end; ++i) {
    ++c.checked;
    if (poisoned[i - begin]) {
      if (c.firstBad < 0)
        c.firstBad = i;
      ++c.unwritten;
      continue;
    }
    double v = o[i - begin], r = ref[i];
    if (!std::isfinite(v) || !std::isfinite(r)) {
      bool same = (std::isnan(v) && std::isnan(r)) || v == r;
      if (!same) {
        if (c.firstBad < 0)
          c.firstBad = i;
        ++c.badNonFinite;
      }
      continue;
    }
    double d = std::fabs(v - r);
    if (tol.elementwise && d > tol.atol + tol.rtol * std::fabs(r) && c.outside++ == 0)
      c.firstOutside = i;
    if (d > c.maxAbsError || c.worstIndex < 0) {
      c.maxAbsError = std::max(c.maxAbsError, d);
      c.worstIndex = i;
    }
    p.diff2 += d * d;
    p.ref2 += r * r;
  }
  return p;
}

Comparison tessel::harness::compare(const HostBuffer &out, const std::vector<double> &ref,
                                    Tolerance tol, int64_t begin, int64_t end) {
  Comparison c;
  if (end < 0)
    end = out.numel();
  uint64_t poison = poisonBits(out.dtype());
  // Per chunk of kChunkElements, merged in order: the sums do not depend on the thread count,
  // and a buffer of one chunk adds in the serial order.
  int64_t n = std::max<int64_t>(0, end - begin);
  std::vector<Partial> parts((n + kChunkElements - 1) / kChunkElements);
  forChunks(n, kChunkElements, [&](int64_t index, int64_t lo, int64_t hi) {
    lo += begin;
    hi += begin;
    // Scratch per thread, reused from chunk to chunk.
    thread_local std::vector<double> o;
    thread_local std::vector<bool> poisoned;
    o.resize(hi - lo);
    out.toDoubles(lo, hi, o.data());
    poisoned.assign(hi - lo, false);
    int64_t first;
    if (out.countBits(poison, lo, hi, first))
      for (int64_t i = first; i < hi; ++i)
        poisoned[i - lo] = out.bits(i) == poison;
    parts[index] = compareRange(o.data(), poisoned, ref, tol, lo, hi);
  });
  Partial all;
  for (const Partial &p : parts)
    all.merge(p);
  c = all.c;
  double diff2 = all.diff2, ref2 = all.ref2;
  c.relError = ref2 > 0 ? std::sqrt(diff2 / ref2) : c.maxAbsError;
  double bound = ref2 > 0 ? tol.rel : tol.abs;
  c.pass = c.unwritten == 0 && c.badNonFinite == 0 && c.relError <= bound && c.outside == 0;
  c.summary = fmt::format("max_abs_err={:.3g} rel_err={:.3g} (bound {:.3g})", c.maxAbsError,
                          c.relError, bound);
  if (c.unwritten)
    c.summary +=
        fmt::format(", {} element(s) never written (first at {})", c.unwritten, c.firstBad);
  if (c.badNonFinite)
    c.summary +=
        fmt::format(", {} unexpected NaN/Inf element(s) (first at {})", c.badNonFinite, c.firstBad);
  if (c.outside)
    c.summary += fmt::format(", {} element(s) past atol {:.3g} + rtol {:.3g} * |ref| (first at {}: "
                             "got {:.6g}, expected {:.6g})",
                             c.outside, tol.atol, tol.rtol, c.firstOutside, out.get(c.firstOutside),
                             ref[c.firstOutside]);
  if (!c.pass && c.worstIndex >= 0 && c.relError > bound)
    c.summary += fmt::format(", worst at element {}: got {:.3g}, expected {:.3g}", c.worstIndex,
                             out.get(c.worstIndex), ref[c.worstIndex]);
  return c;
}
