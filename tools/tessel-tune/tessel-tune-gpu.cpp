//===- tessel-tune-gpu.cpp - the autotuner's timing side, without MLIR -----===//
//
//   tessel-tune-gpu DIR [--cache FILE] [--reps N] [--warmup N] [--warm-ms MS] [--force]
//                   [--time-on=cuda]
//
// Times the variants of every manifest under DIR (written by tessel-tune --compile-only on a
// machine with LLVM) on the GPU, verifies each winner, and writes the tuning cache. Links no
// MLIR or LLVM (check with ldd): GPU machines need only the driver. docs/Autotuning.md.
//
//===----------------------------------------------------------------------===//
#include "TimingSide.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>

using namespace tessel;
using namespace tessel::tune;

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  CLI::App app{"tessel-tune-gpu: time a tuning directory's variants on the GPU, verify the "
               "winner and write the tuning cache (docs/Autotuning.md)"};
  std::string dir, cachePath, timeOn;
  tuning::TuneOptions o;
  app.add_option("dir", dir, "Tuning directory (tessel-tune -o DIR --compile-only)")->required();
  app.add_option("--cache", cachePath,
                 "Tuning cache (default: $TESSEL_TUNING_CACHE, else "
                 "<cache dir>/tuning.json)");
  app.add_option("--time-on", timeOn, "cuda or hip (default: the GPU found)");
  app.add_option("--reps", o.reps, "Timed launches per variant (the median counts)");
  app.add_option("--warmup", o.warmup, "Untimed launches first");
  app.add_option("--warm-ms", o.warmMs,
                 "Untimed launches of each variant for at least this many ms first (the GPU's "
                 "clock under sustained load, as a ~100 ms benchmark sees it)");
  app.add_flag("--force", o.force, "Time even when the cache has the key");
  app.add_flag("-q,--quiet", o.quiet, "No line per variant");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  registerTimingExecutors();
  std::string error;
  std::unique_ptr<harness::Executor> ex = createTimingExecutor(timeOn, error);
  if (!ex) {
    fmt::print(stderr, "tessel-tune-gpu: error: {}\n", error);
    return 2;
  }
  tuning::TuningCache cache;
  if (harness::Status s = tuning::TuningCache::load(
          cachePath.empty() ? tuning::TuningCache::defaultPath() : cachePath, cache);
      !s) {
    fmt::print(stderr, "tessel-tune-gpu: error: {}\n", s.message());
    return 2;
  }
  std::vector<std::string> dirs = tuning::findManifestDirs(dir);
  if (dirs.empty()) {
    fmt::print(stderr,
               "tessel-tune-gpu: error: no manifest.json in {} or its subdirectories "
               "(write them with tessel-tune --compile-only -o {})\n",
               dir, dir);
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  bool ok = true;
  for (const std::string &d : dirs)
    ok = tuneDirectory(*ex, d, cache, o, /*printSpace=*/true) && ok;
  fmt::print("tessel-tune-gpu: {} directories in {:.1f} s; cache {}\n", dirs.size(),
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
             cache.path());
  return ok ? 0 : 1;
}
