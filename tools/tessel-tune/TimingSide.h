//===- TimingSide.h - the timing half, shared by both tools -------*- C++ -*-===//
//
// tessel-tune (compile and time, links MLIR) and tessel-tune-gpu (time only, no MLIR or LLVM)
// pick the executor and tune directories the same way through these.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_TUNE_TIMINGSIDE_H
#define TESSEL_TOOLS_TESSEL_TUNE_TIMINGSIDE_H

#include "tessel/Harness/Executor.h"
#include "tessel/Tuning/Tuner.h"

#include <memory>
#include <string>

namespace tessel::tune {

/// Registers the executors of this build (the interpreter only where it is linked).
void registerTimingExecutors();

/// The executor named `target` ("cuda", "hip", "interpreter"), or with "" the first GPU that
/// finds a device, else the interpreter. Null with `error` set.
std::unique_ptr<harness::Executor> createTimingExecutor(const std::string &target,
                                                        std::string &error);

/// Tunes the manifest in `dir` (tessel/Tuning/Tuner.h), first printing the compile side's
/// numbers when `printSpace`. Returns false after printing an error or when a shape found no
/// variant that runs and verifies.
bool tuneDirectory(harness::Executor &ex, const std::string &dir, tuning::TuningCache &cache,
                   const tuning::TuneOptions &options, bool printSpace);

} // namespace tessel::tune

#endif // TESSEL_TOOLS_TESSEL_TUNE_TIMINGSIDE_H
