//===- ManifestWriter.h - writing a tuning directory's manifest.json -*- C++ -*-===//
//
// The compile side's half of tessel/Tuning/Manifest.h (its reader, without LLVM): the same
// fields, written with llvm::json and atomically (docs/Autotuning.md, "The tuning directory").
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_TUNE_MANIFESTWRITER_H
#define TESSEL_TOOLS_TESSEL_TUNE_MANIFESTWRITER_H

#include "SpacePruning.h"

#include "tessel/Tuning/Manifest.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace tessel::tune {

/// Writes `m` (its `dir` is where) plus the pruning numbers, for the record: `notTimedSpilling`
/// variants were compiled, then left out of every shape's timing for their spills
/// (tessel/Tuning/SpillPruning.h).
llvm::Error writeManifest(const tuning::Manifest &m, const PruneReport &report, int compiled,
                          int failed, double compileSeconds, int notTimedSpilling);

} // namespace tessel::tune

#endif // TESSEL_TOOLS_TESSEL_TUNE_MANIFESTWRITER_H
