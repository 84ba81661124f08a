//===- Tuner.h - timing a tuning directory's variants -------------*- C++ -*-===//
//
// The timing side of the autotuner: for each shape of a manifest, look the key up in the
// tuning cache; on a miss time every variant the shape may use on the executor (the GPU's
// cold-L2, event-timed median; the interpreter's wall clock stands in where there is no GPU),
// verify the fastest against the problem's double-precision reference (the next fastest when
// it fails), and store it in the cache. No MLIR or LLVM: tessel-tune-gpu runs it on machines
// with only the driver.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TUNING_TUNER_H
#define TESSEL_TUNING_TUNER_H

#include "tessel/Harness/Executor.h"
#include "tessel/Harness/Problem.h"
#include "tessel/Tuning/Manifest.h"
#include "tessel/Tuning/TuningCache.h"

#include <string>
#include <vector>

namespace tessel::tuning {

struct TuneOptions {
  int warmup = 10;
  int reps = 100; ///< timed launches per variant; the median counts
  /// Untimed launches of each variant for at least this many milliseconds before its timing
  /// (0: `warmup` launches only). A GPU under sustained load leaves its boost clock at its power
  /// limit; a benchmark that repeats a kernel for ~100 ms (Triton's do_bench) sees that clock,
  /// a burst of `reps` launches may not (session 52's benchmark GPU: the M >= 2048 GEMMs 6-30%
  /// slower under do_bench than in a 20-launch burst). Counted in the launches' own timed
  /// durations, each still after the L2 flush and a host sync: sustained load for kernels of a
  /// millisecond or more, not for 10-us ones. Recorded in the cache entry (`warm_ms`).
  double warmMs = 0;
  bool force = false; ///< time even when the cache has the key
  uint64_t seed = 0;  ///< the problem's inputs
  bool quiet = false; ///< no per-variant progress lines
};

struct ShapeResult {
  std::vector<int64_t> shape;
  bool cacheHit = false;
  std::string winner;
  double ms = 0;
  int timed = 0, failed = 0;
  bool verified = false;
  double seconds = 0; ///< wall time of this shape's tuning
};

/// What the tuner builds `shape`'s problem from on `ex` (the config is each variant's): the
/// manifest's problem, dtype and options, `seed`, whether the reference is built, and the
/// device's multiprocessors (a persistent GEMM's problem launches one program on each; 0, the
/// interpreter's, gives 3). An error names a dtype the manifest spells wrong.
harness::Status problemOptions(const harness::Executor &ex, const Manifest &m,
                               const ManifestShape &shape, uint64_t seed, bool reference,
                               harness::ProblemOptions &out);

/// The cache key of `shape` on the executor's device.
TuningKey tuningKey(const harness::Executor &ex, const Manifest &m, const ManifestShape &shape);

/// Tunes every shape of `m` (see the top of this file); prints progress on stdout and saves
/// the cache after each shape. An error means setup failed (a variant that fails to run is
/// counted in ShapeResult::failed and skipped).
harness::Status tuneManifest(harness::Executor &ex, const Manifest &m, TuningCache &cache,
                             const TuneOptions &options, std::vector<ShapeResult> &results);

} // namespace tessel::tuning

#endif // TESSEL_TUNING_TUNER_H
