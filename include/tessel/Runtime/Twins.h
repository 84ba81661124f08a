//===- Twins.h - a variant's specialized twins in kernel directories -*- C++ -*-===//
//
// A specialized twin (tesselc's automatic `__div8`, or `--twin=SUFFIX:...`) is the same kernel
// compiled under promises about its arguments (an integer divisible by N or equal to a value);
// its metadata names the variant it `specializes` (docs/Artifacts.md). A launcher runs the
// first twin whose promises the arguments keep, the most promising first, else the variant.
// No MLIR, LLVM or GPU: the launchers' runtime reads these.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNTIME_TWINS_H
#define TESSEL_RUNTIME_TWINS_H

#include "tessel/Harness/KernelMetadata.h"

#include <string>
#include <utility>
#include <vector>

namespace tessel::rt {

/// How much a twin promises: (arguments equal to a constant, arguments divisible by more than
/// 1). Twins are tried in decreasing order, as tessel.kernels' launch orders them.
std::pair<int, int> promisesOf(const harness::KernelMetadata &twin);

/// The twins of `base` in `dirs`: every `<base>__*.json` whose `specializes` is `base`, by the
/// first directory that holds a name (as a variant is looked up), the most promises first,
/// ties by name. Returns their variant names; a file that does not read is skipped (a
/// launcher then cannot take it, and the variant itself still runs).
std::vector<std::string> findTwins(const std::vector<std::string> &dirs, const std::string &base);

} // namespace tessel::rt

#endif // TESSEL_RUNTIME_TWINS_H
