//===- LauncherHeader.h - the C++ launcher header of a kernel ----*- C++ -*-===//
//
// `tesselc --emit=header` writes `<kernel>.h` next to the variants: per dtype a typed launch
// function named after the kernel (pointers, scalars, the grid's extra sizes, a stream) that
// computes the grid from the kernel's declared expression (TESSEL_TUNE's .grid) and calls
// tessel::rt::Launcher (include/tessel/Runtime/Launcher.h), which picks the tuned config and
// the __div8 twin at run time. docs/Autotuning.md, "Launchers".
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSELC_LAUNCHERHEADER_H
#define TESSEL_TOOLS_TESSELC_LAUNCHERHEADER_H

#include "KernelRegistry.h"
#include "TuneRegistry.h"

#include <string>
#include <vector>

namespace tessel::dsl {

/// One dtype variant of the kernel: its default config's variant name, and the variant names
/// and raw values of its CONFIGS in order (the fallbacks' candidates).
struct HeaderVariant {
  const detail::VariantDef *variant;
  std::string defaultVariant;
  std::vector<std::string> configNames;
  std::vector<const void *> configs;
};

/// The header's text in `out`; false with `error` (which names the fix) when the kernel
/// declares no grid or the grid names a pointer argument.
bool generateLauncherHeader(const KernelInfo &kernel, const TuneInfo *space,
                            const std::vector<HeaderVariant> &variants, std::string &out,
                            std::string &error);

} // namespace tessel::dsl

#endif // TESSEL_TOOLS_TESSELC_LAUNCHERHEADER_H
