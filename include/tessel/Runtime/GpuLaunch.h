//===- GpuLaunch.h - what the CUDA and HIP executors share --------*- C++ -*-===//
//
// What the CUDA and HIP executors share before a launch: the variant's binary, the grid within
// the device's limits
// and every argument checked against the variant's signature and promises (pointer or scalar,
// pointer alignment and integer divisibility, a specialized twin's equal_to), then converted to
// the bits the kernel receives. Each executor then packs the bits its own way (CUDA: a pointer
// per parameter; HIP: one kernarg buffer). No MLIR or LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNTIME_GPULAUNCH_H
#define TESSEL_RUNTIME_GPULAUNCH_H

#include "tessel/Harness/Executor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::rt {

/// One argument as the kernel receives it: a device address or a scalar's little-endian bits.
struct CheckedArg {
  uint64_t bits = 0;
  unsigned size = 8; ///< bytes: 8 for pointers, the scalar type's size otherwise
  bool isPointer = false;
};

/// The contents of the variant's artifact `kind` ("cubin", "hsaco"); an error naming the file,
/// or the missing artifact and how to compile it (`emitFlag`, e.g. "--emit=cubin").
harness::Status readArtifact(const harness::KernelMetadata &variant, const std::string &kind,
                             const std::string &emitFlag, std::string &out);

/// Bytes of a scalar type spelled as in the metadata ("i64", "f32", "bf16", ...); 0 if unknown.
int scalarBytes(const std::string &type);

/// The grid as three unsigned dimensions within `maxX` x `maxY` x `maxZ`; an error (prefixed
/// by `prefix`, e.g. "tessel-run: cuda: ") for a program subset, which GPU executors do not
/// run, or a grid out of bounds.
harness::Status checkGrid(const harness::LaunchConfig &config, const std::string &function,
                          const std::string &prefix, const int64_t max[3], unsigned grid[3]);

/// Checks `args` against `variant`'s signature and promises and converts them. `address` gives
/// a buffer argument's device address (false for an unknown buffer); errors name the argument,
/// the promise broken and the variant to use instead.
harness::Status checkLaunchArgs(
    const harness::KernelMetadata &variant, const std::vector<harness::LaunchArg> &args,
    const std::function<bool(const harness::LaunchArg &, int elementBytes, uint64_t &)> &address,
    const std::string &prefix, std::vector<CheckedArg> &out);

} // namespace tessel::rt

#endif // TESSEL_RUNTIME_GPULAUNCH_H
