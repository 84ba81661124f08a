//===- Compare.h - checking kernel outputs against references ----*- C++ -*-===//
//
// The metric is the relative error ||out - ref||_2 / ||ref||_2 computed in double, with a bound
// per dtype (defaultTolerance). A result passes only when, in addition:
//   - no element still holds the poison pattern written before the run (unwritten output);
//   - no element is NaN or infinite where the reference is finite ("NaN never passes");
//   - where the reference itself is NaN (PyTorch's mean over no element, case C4) the output
//     is NaN too, and a reference infinity is matched by the same infinity.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_COMPARE_H
#define TESSEL_HARNESS_COMPARE_H

#include "tessel/Harness/HostBuffer.h"

#include <string>
#include <vector>

namespace tessel::harness {

/// Pass bound on the relative error; when ||ref|| is 0 the max abs error is held to `abs`.
struct Tolerance {
  double rel = 1e-5;
  double abs = 1e-6;
  /// Also bound every element (numpy.allclose, torch.testing.assert_close):
  /// |out - ref| <= atol + rtol * |ref|, so one wrong element among millions fails.
  bool elementwise = false;
  double atol = 0, rtol = 0;
};

/// f32: rel 1e-5; f64: 1e-12; f16 and bf16: 1e-2; integers: exact (0).
Tolerance defaultTolerance(DType t);

struct Comparison {
  double maxAbsError = 0;   ///< max |out - ref| over finite pairs
  double relError = 0;      ///< ||out - ref|| / ||ref|| (max abs error when ||ref|| == 0)
  int64_t worstIndex = -1;  ///< element of the max abs error
  int64_t unwritten = 0;    ///< elements still holding the poison pattern
  int64_t badNonFinite = 0; ///< NaN/Inf where the reference differs
  int64_t firstBad = -1;    ///< first unwritten or bad non-finite element
  int64_t checked = 0;      ///< elements compared
  int64_t outside = 0;      ///< elementwise: finite elements past atol + rtol * |ref|
  int64_t firstOutside = -1;
  bool pass = false;
  /// "max_abs_err=1.2e-07 rel_err=3.4e-08 (bound 1e-05)" plus what failed.
  std::string summary;
};

/// Compares `out` elements [begin, end) (all when end < 0) with `ref` (one double per element
/// of `out`).
Comparison compare(const HostBuffer &out, const std::vector<double> &ref, Tolerance tol,
                   int64_t begin = 0, int64_t end = -1);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_COMPARE_H
