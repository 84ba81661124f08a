//===- AMD.h - the AMD adapter ----------------------------------*- C++ -*-===//
//
// The adapter for AMD Instinct GPUs (CDNA2 gfx90a, CDNA3 gfx942): ROCDL lowering hooks, ocml
// math, and code generation through LLVM's AMDGPU backend to an hsaco code object.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_AMD_AMD_H
#define TESSEL_AMD_AMD_H

#include "tessel/Target/TargetInfo.h"

namespace tessel::amd {

/// The adapter for "gfx90a" or "gfx942"; null for other architectures.
std::unique_ptr<TargetInfo> createTargetInfo(llvm::StringRef arch);

/// Registers the "hip" family (hip:<arch> for every architecture above, ROCDL) in the target
/// registry.
void registerAMDTarget();

/// Directory of the ROCm device libraries (ocml.bc, ockl.bc): $TESSEL_ROCM_DEVICE_LIBS, then
/// $ROCM_PATH/amdgcn/bitcode, /opt/rocm/amdgcn/bitcode, Debian's
/// /usr/lib/x86_64-linux-gnu/amdgcn/bitcode. Empty when none holds ocml.bc.
std::string findDeviceLibs();

/// ld.lld for the hsaco link: $TESSEL_LLD, LLVM 19's ld.lld, then ld.lld-19 / ld.lld on PATH.
/// Empty when not found.
std::string findLld();

} // namespace tessel::amd

#endif // TESSEL_AMD_AMD_H
