//===- DeviceLibs.h - ocml / ockl linking and the oclc constants -*- C++ -*-===//
#ifndef TESSEL_AMD_DEVICELIBS_H
#define TESSEL_AMD_DEVICELIBS_H

#include "AMDTargetInfo.h"

namespace llvm {
class Module;
}

namespace tessel::amd {

/// The code object version Tessel emits (AMDGPUUsage, "Code Object V5 Metadata"): LLVM 19's
/// default and ROCm 6.x's; ockl's __oclc_ABI_version must agree with it.
inline constexpr unsigned kCodeObjectVersion = 5;

/// Links ocml.bc and/or ockl.bc into `m` when `m` calls __ocml_* / __ockl_* functions (only
/// the functions needed, then internalized), and defines every __oclc_* control constant the
/// module then references, for `arch`. Does nothing when no library function is called.
mlir::LogicalResult linkDeviceLibs(llvm::Module &m, const ArchInfo &arch, std::string &error);

} // namespace tessel::amd

#endif // TESSEL_AMD_DEVICELIBS_H
