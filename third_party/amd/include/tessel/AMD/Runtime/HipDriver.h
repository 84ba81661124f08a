//===- HipDriver.h - the HIP runtime API, loaded at run time ----*- C++ -*-===//
//
// The AMD runtime path needs only libamdhip64.so, opened with dlopen when first used, so that
// Tessel's tools build and run where ROCm is not installed. No HIP header is needed either:
// the few types and entry points used are declared here with the C ABI of ROCm's
// hip_runtime_api.h (hipError_t is an int enumeration, handles are opaque pointers, device
// pointers are void *). Only entry points whose signatures are the same in ROCm 5 and 6 are
// used (no hipDeviceProp_t, whose layout changed).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_AMD_RUNTIME_HIPDRIVER_H
#define TESSEL_AMD_RUNTIME_HIPDRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::rt {

using hipError_t = int;
using hipDevice_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;

/// hipMemcpyKind values (hip_runtime_api.h).
inline constexpr int kHipMemcpyHostToDevice = 1;
inline constexpr int kHipMemcpyDeviceToHost = 2;
inline constexpr int kHipMemcpyDeviceToDevice = 3;

/// hipModuleLaunchKernel's `extra` markers (hip_runtime_api.h, AMD platform).
inline void *const kHipLaunchParamBufferPointer = reinterpret_cast<void *>(0x01);
inline void *const kHipLaunchParamBufferSize = reinterpret_cast<void *>(0x02);
inline void *const kHipLaunchParamEnd = reinterpret_cast<void *>(0x03);

/// hipError_t values the runtime tests for.
inline constexpr hipError_t kHipErrorNoBinaryForGpu = 209;

/// Entry points of libamdhip64.so that Tessel calls. All null until load() succeeds.
struct HipDriver {
  hipError_t (*hipInit)(unsigned) = nullptr;
  hipError_t (*hipGetDeviceCount)(int *) = nullptr;
  hipError_t (*hipSetDevice)(int) = nullptr;
  hipError_t (*hipDeviceGetName)(char *, int, hipDevice_t) = nullptr;
  hipError_t (*hipRuntimeGetVersion)(int *) = nullptr;
  hipError_t (*hipDeviceSynchronize)() = nullptr;
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *) = nullptr;
  hipError_t (*hipModuleUnload)(hipModule_t) = nullptr;
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t, const char *) = nullptr;
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, hipStream_t, void **,
                                      void **) = nullptr;
  hipError_t (*hipMalloc)(void **, size_t) = nullptr;
  hipError_t (*hipFree)(void *) = nullptr;
  hipError_t (*hipMemcpy)(void *, const void *, size_t, int) = nullptr;
  hipError_t (*hipMemsetD32)(void *, int, size_t) = nullptr;
  hipError_t (*hipEventCreate)(hipEvent_t *) = nullptr;
  hipError_t (*hipEventDestroy)(hipEvent_t) = nullptr;
  hipError_t (*hipEventRecord)(hipEvent_t, hipStream_t) = nullptr;
  hipError_t (*hipEventSynchronize)(hipEvent_t) = nullptr;
  hipError_t (*hipEventElapsedTime)(float *, hipEvent_t, hipEvent_t) = nullptr;
  const char *(*hipGetErrorName)(hipError_t) = nullptr;
  const char *(*hipGetErrorString)(hipError_t) = nullptr;

  /// Opens `library` (default: $TESSEL_HIP_RUNTIME, else libamdhip64.so, .so.6, .so.5 and
  /// /opt/rocm/lib/libamdhip64.so) and resolves every entry point; false with a reason
  /// ("cannot load the AMD runtime (libamdhip64.so): ...") otherwise.
  bool load(std::string &error, const std::string &library = "");
  /// "hipErrorIllegalAddress: an illegal memory access was encountered"
  std::string describe(hipError_t r) const;
};

/// The process-wide runtime table (loaded on first use).
HipDriver *getHipDriver(std::string &error);

} // namespace tessel::rt

#endif // TESSEL_AMD_RUNTIME_HIPDRIVER_H
