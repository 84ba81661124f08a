//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//
#include "tessel/NVIDIA/Runtime/CudaDriver.h"

#include "tessel/Runtime/LoadOnce.h"

#include <dlfcn.h>

using namespace tessel::rt;

template <typename Fn>
static bool resolve(void *lib, const char *name, Fn &fn, std::string &error) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!fn)
    error = std::string("libcuda.so.1 has no ") + name;
  return fn != nullptr;
}

bool CudaDriver::load(std::string &error) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = std::string("cannot load the NVIDIA driver (libcuda.so.1): ") + (why ? why : "");
    return false;
  }
#define TESSEL_RESOLVE(field, symbol)                                                              \
  if (!resolve(lib, symbol, field, error))                                                         \
    return false;
  TESSEL_RESOLVE(cuInit, "cuInit")
  TESSEL_RESOLVE(cuDeviceGet, "cuDeviceGet")
  TESSEL_RESOLVE(cuDeviceGetCount, "cuDeviceGetCount")
  TESSEL_RESOLVE(cuDeviceGetName, "cuDeviceGetName")
  TESSEL_RESOLVE(cuDeviceGetAttribute, "cuDeviceGetAttribute")
  TESSEL_RESOLVE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
  TESSEL_RESOLVE(cuCtxSetCurrent, "cuCtxSetCurrent")
  TESSEL_RESOLVE(cuCtxGetCurrent, "cuCtxGetCurrent")
  TESSEL_RESOLVE(cuCtxSynchronize, "cuCtxSynchronize")
  TESSEL_RESOLVE(cuModuleLoadData, "cuModuleLoadData")
  TESSEL_RESOLVE(cuModuleUnload, "cuModuleUnload")
  TESSEL_RESOLVE(cuModuleGetFunction, "cuModuleGetFunction")
  TESSEL_RESOLVE(cuFuncSetAttribute, "cuFuncSetAttribute")
  TESSEL_RESOLVE(cuFuncGetAttribute, "cuFuncGetAttribute")
  TESSEL_RESOLVE(cuLaunchKernel, "cuLaunchKernel")
  TESSEL_RESOLVE(cuMemAlloc, "cuMemAlloc_v2")
  TESSEL_RESOLVE(cuMemFree, "cuMemFree_v2")
  TESSEL_RESOLVE(cuMemcpyHtoD, "cuMemcpyHtoD_v2")
  TESSEL_RESOLVE(cuMemcpyDtoH, "cuMemcpyDtoH_v2")
  TESSEL_RESOLVE(cuMemcpyDtoD, "cuMemcpyDtoD_v2")
  TESSEL_RESOLVE(cuMemsetD8, "cuMemsetD8_v2")
  TESSEL_RESOLVE(cuMemsetD32, "cuMemsetD32_v2")
  TESSEL_RESOLVE(cuEventCreate, "cuEventCreate")
  TESSEL_RESOLVE(cuEventDestroy, "cuEventDestroy_v2")
  TESSEL_RESOLVE(cuEventRecord, "cuEventRecord")
  TESSEL_RESOLVE(cuEventSynchronize, "cuEventSynchronize")
  TESSEL_RESOLVE(cuEventElapsedTime, "cuEventElapsedTime")
  TESSEL_RESOLVE(cuGetErrorName, "cuGetErrorName")
  TESSEL_RESOLVE(cuGetErrorString, "cuGetErrorString")
  TESSEL_RESOLVE(cuDriverGetVersion, "cuDriverGetVersion")
#undef TESSEL_RESOLVE
  std::string optional;
  resolve(lib, "cuTensorMapEncodeTiled", cuTensorMapEncodeTiled, optional);
  return true;
}

std::string CudaDriver::describe(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  return std::string(name ? name : "CUDA error " + std::to_string(r)) + ": " +
         (text ? text : "unknown");
}

CudaDriver *tessel::rt::getCudaDriver(std::string &error) { return loadOnce<CudaDriver>(error); }
