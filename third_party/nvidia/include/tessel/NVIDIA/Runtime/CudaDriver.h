//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The runtime needs only libcuda.so.1, opened with dlopen when first used, so that Tessel's
// tools build and run (on the interpreter) where no NVIDIA driver is installed. No CUDA header
// is needed either: the few driver types and entry points used are declared here, with the
// ABI of the CUDA driver API (cuda.h, the _v2 entry points).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_NVIDIA_RUNTIME_CUDADRIVER_H
#define TESSEL_NVIDIA_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::rt {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

/// Entry points of libcuda.so.1 that Tessel calls. All null until load() succeeds.
struct CudaDriver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, size_t);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  /// The driver's CUDA version (13000 for 13.0); keys the tuning cache.
  CUresult (*cuDriverGetVersion)(int *);
  /// CUDA 12+ (sm_90 tensor maps); null on older drivers, which then cannot run TMA kernels.
  CUresult (*cuTensorMapEncodeTiled)(void *tensorMap, int dataType, unsigned rank,
                                     void *globalAddress, const uint64_t *globalDim,
                                     const uint64_t *globalStrides, const unsigned *boxDim,
                                     const unsigned *elementStrides, int interleave, int swizzle,
                                     int l2Promotion, int oobFill);

  /// Opens libcuda.so.1 and resolves every entry point; false with a reason otherwise.
  bool load(std::string &error);
  /// "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"
  std::string describe(CUresult r) const;
};

/// The process-wide driver table (loaded on first use).
CudaDriver *getCudaDriver(std::string &error);

// Attribute numbers from cuda.h.
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr int kAttrMaxSharedMemoryPerBlockOptin = 97;
inline constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;
/// CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: the x of the entry's .reqnctapercluster (0: none).
inline constexpr int kFuncAttrRequiredClusterWidth = 11;

} // namespace tessel::rt

#endif // TESSEL_NVIDIA_RUNTIME_CUDADRIVER_H
