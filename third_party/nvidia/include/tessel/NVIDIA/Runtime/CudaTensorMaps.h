//===- CudaTensorMaps.h - a variant's TMA descriptors at launch -*- C++ -*-===//
//
// A variant that copies with TMA (sm_90a) takes its tensor maps (KernelMetadata::tensorMaps)
// by value in one extra trailing kernel parameter of kTensorMapBytes per map, a grid constant:
// the launchers encode them from each launch's arguments with cuTensorMapEncodeTiled and pass
// the bytes as that parameter, which the launch copies (no device buffer, no upload to wait
// for; CUTLASS and Triton pass theirs the same way).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_NVIDIA_RUNTIME_CUDATENSORMAPS_H
#define TESSEL_NVIDIA_RUNTIME_CUDATENSORMAPS_H

#include "tessel/Harness/KernelMetadata.h"
#include "tessel/NVIDIA/Runtime/CudaDriver.h"
#include "tessel/Runtime/GpuLaunch.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rt {

/// Bytes of one CUtensorMap (cuda.h: 16 x 64-bit words, 64-byte aligned).
inline constexpr size_t kTensorMapBytes = 128;

/// Encodes `variant`'s tensor maps for the checked launch arguments `args` into `out`
/// (kTensorMapBytes each). False with `error` naming the map and the rule broken (a base or
/// stride that is not a multiple of 16 bytes, a driver without cuTensorMapEncodeTiled).
bool encodeTensorMaps(const CudaDriver &driver, const harness::KernelMetadata &variant,
                      const std::vector<CheckedArg> &args, std::vector<uint8_t> &out,
                      std::string &error);

} // namespace tessel::rt

#endif // TESSEL_NVIDIA_RUNTIME_CUDATENSORMAPS_H
