//===- Compare.cpp - checking kernel outputs against references ------------===//
#include "tessel/Harness/Compare.h"
#include "tessel/Harness/Poison.h"

#include <fmt/format.h>

#include <cmath>

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

Comparison tessel::harness::compare(const HostBuffer &out, const std::vector<double> &ref,
                                    Tolerance tol, int64_t begin, int64_t end) {
  Comparison c;
  if (end < 0)
    end = out.numel();
  uint64_t poison = poisonBits(out.dtype());
  double diff2 = 0, ref2 = 0;
  for (int64_t i = begin; i < end; ++i) {
    ++c.checked;
    if (out.bits(i) == poison) {
      if (c.firstBad < 0)
        c.firstBad = i;
      ++c.unwritten;
      continue;
    }
    double o = out.get(i), r = ref[i];
    if (!std::isfinite(o) || !std::isfinite(r)) {
      bool same = (std::isnan(o) && std::isnan(r)) || o == r;
      if (!same) {
        if (c.firstBad < 0)
          c.firstBad = i;
        ++c.badNonFinite;
      }
      continue;
    }
    double d = std::fabs(o - r);
    if (tol.elementwise && d > tol.atol + tol.rtol * std::fabs(r) && c.outside++ == 0)
      c.firstOutside = i;
    if (d > c.maxAbsError || c.worstIndex < 0) {
      c.maxAbsError = std::max(c.maxAbsError, d);
      c.worstIndex = i;
    }
    diff2 += d * d;
    ref2 += r * r;
  }
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
