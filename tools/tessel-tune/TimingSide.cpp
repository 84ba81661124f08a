//===- TimingSide.cpp - the timing half, shared by both tools -------------===//
#include "TimingSide.h"

#include "tessel/AMD/Runtime/HipExecutor.h"
#include "tessel/NVIDIA/Runtime/CudaExecutor.h"

#ifndef TESSEL_TUNE_NO_INTERPRETER
#include "tessel/Interpreter/Interpreter.h"
#endif

#include <fmt/format.h>

using namespace tessel;
using namespace tessel::harness;
using namespace tessel::tune;

void tune::registerTimingExecutors() {
  rt::registerCudaExecutor();
  rt::registerHipExecutor();
#ifndef TESSEL_TUNE_NO_INTERPRETER
  interp::registerInterpreterExecutor();
#endif
}

std::unique_ptr<Executor> tune::createTimingExecutor(const std::string &target,
                                                     std::string &error) {
  std::string name = target;
  if (name.empty()) {
    for (const char *gpu : {"cuda", "hip"}) {
      const ExecutorEntry *e = findExecutor(gpu);
      if (name.empty() && e && (!e->available || e->available()))
        name = gpu;
    }
    if (name.empty() && findExecutor("interpreter"))
      name = "interpreter";
  }
  const ExecutorEntry *entry = name.empty() ? nullptr : findExecutor(name);
  if (!entry) {
    error = name.empty() || name == "interpreter"
                ? "no GPU found and the interpreter is not in this build (use tessel-tune)"
                : "unknown timing target '" + name + "' (cuda, hip, interpreter)";
    return nullptr;
  }
  if (entry->available && !entry->available()) {
    error = name + ": no device found (" + entry->description + ")";
    return nullptr;
  }
  return entry->create();
}

bool tune::tuneDirectory(Executor &ex, const std::string &dir, tuning::TuningCache &cache,
                         const tuning::TuneOptions &options, bool printSpace) {
  tuning::Manifest m;
  if (Status s = tuning::loadManifest(dir, m); !s) {
    fmt::print(stderr, "tessel-tune: error: {}\n", s.message());
    return false;
  }
  if (printSpace && !m.spaceSummary.empty())
    fmt::print("{} {}: {}\n", m.kernel, m.dtype, m.spaceSummary);
  std::vector<tuning::ShapeResult> results;
  if (Status s = tuning::tuneManifest(ex, m, cache, options, results); !s) {
    fmt::print(stderr, "tessel-tune: error: {}: {}\n", dir, s.message());
    return false;
  }
  bool ok = true;
  for (const tuning::ShapeResult &r : results)
    ok = ok && (r.cacheHit || r.verified);
  return ok;
}
