//===- SpillPruning.h - not timing variants that spill registers --*- C++ -*-===//
//
// The register estimate drops a config before compiling only when it clearly cannot fit
// (tools/tessel-tune/ResourceEstimate.h: a lower bound), so some survivors come back from the
// assembler with spills: rope_flat's 64 tokens on one warp spill and run 4.3x slower than its
// best (session 62). Once the binaries exist the assembler's count is exact, and a
// variant that spills is left out of a shape's timing when the shape admits one that does not
// (docs/Autotuning.md, "Pruning").
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TUNING_SPILLPRUNING_H
#define TESSEL_TUNING_SPILLPRUNING_H

#include "tessel/Tuning/Manifest.h"

#include <string>
#include <vector>

namespace tessel::tuning {

struct SpillPruneReport {
  /// Variants removed from at least one shape's list, as "name: spills N bytes per thread".
  std::vector<std::string> removed;
  /// Shapes that kept spilling variants because every variant they admit spills.
  int shapesAllSpilling = 0;
};

/// Removes from each shape of `m` the variants whose `spillBytes` is above zero, when the shape
/// also admits a variant known not to spill (`spillBytes` 0). Variants with no count (no
/// assembler ran) are kept and count as neither. The variants stay in `m.variants`: compiled,
/// and launchable by name.
SpillPruneReport dropSpillingVariants(Manifest &m);

} // namespace tessel::tuning

#endif // TESSEL_TUNING_SPILLPRUNING_H
