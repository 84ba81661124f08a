//===- Runner.h - one verified run of a problem on an executor ----*- C++ -*-===//
#ifndef TESSEL_HARNESS_RUNNER_H
#define TESSEL_HARNESS_RUNNER_H

#include "tessel/Harness/Compare.h"
#include "tessel/Harness/Executor.h"
#include "tessel/Harness/Problem.h"

#include <string>
#include <vector>

namespace tessel::harness {

struct OutputCheck {
  std::string buffer;
  Comparison comparison;
};

struct RunReport {
  bool pass = false;
  std::vector<OutputCheck> checks;
  double seconds = 0; ///< wall time of the launch
  std::string error;  ///< a failed launch (e.g. the interpreter's out-of-bounds report)
};

/// Binds the problem's arguments to the variant's parameters: by name when the variant names
/// every parameter and each matches an argument or alias (case-insensitive), else by position.
/// Fails when the counts differ or a pointer parameter gets a scalar.
Status bindArguments(const KernelMetadata &variant, const Problem &p, std::vector<int> &order);

/// Binds `p`'s arguments to `variant`'s parameters (bindArguments), then allocates and uploads
/// its buffers on `ex`: `ids[i]` is buffers[i]'s (-1 for a derived one), `args` the launch's
/// arguments in the variant's parameter order.
Status uploadArguments(Executor &ex, const KernelMetadata &variant, const Problem &p,
                       std::vector<BufferId> &ids, std::vector<LaunchArg> &args);

/// Allocates and uploads the buffers (outputs poisoned), launches, downloads and compares every
/// output. Returns an error only for setup failures; a failed launch is `report.error` with
/// report.pass false.
Status runProblem(Executor &ex, const KernelMetadata &variant, Problem &p, RunReport &report);

/// The lines tessel-run prints: one per output ("out: max_abs_err=... rel_err=... PASS").
std::string formatReport(const Problem &p, const RunReport &r);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_RUNNER_H
