//===- NVIDIA.h - the NVIDIA adapter ----------------------------*- C++ -*-===//
#ifndef TESSEL_NVIDIA_NVIDIA_H
#define TESSEL_NVIDIA_NVIDIA_H

#include "tessel/Target/TargetInfo.h"

namespace tessel::nvidia {

/// The adapter for "sm_80", "sm_86", "sm_89", "sm_90" or "sm_90a"; null for other
/// architectures.
std::unique_ptr<TargetInfo> createTargetInfo(llvm::StringRef arch);

/// Registers the "cuda" family (cuda:<arch> for every architecture above, NVVM) in the target
/// registry.
void registerNVIDIATarget();

/// Where libdevice and ptxas are looked for: $TESSEL_LIBDEVICE / $TESSEL_PTXAS, then
/// $CUDA_HOME or /usr/local/cuda, then PATH (ptxas). Empty when not found.
std::string findLibdevice();
std::string findPtxas();

} // namespace tessel::nvidia

#endif // TESSEL_NVIDIA_NVIDIA_H
