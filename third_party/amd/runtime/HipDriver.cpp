//===- HipDriver.cpp - the HIP runtime API, loaded at run time ------------===//
#include "tessel/AMD/Runtime/HipDriver.h"

#include "tessel/Runtime/LoadOnce.h"

#include <cstdlib>
#include <dlfcn.h>
#include <vector>

using namespace tessel::rt;

template <typename Fn>
static bool resolve(void *lib, const std::string &path, const char *name, Fn &fn,
                    std::string &error) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!fn)
    error = "the AMD runtime (" + path + ") has no " + name;
  return fn != nullptr;
}

bool HipDriver::load(std::string &error, const std::string &library) {
  std::vector<std::string> candidates;
  if (!library.empty()) {
    candidates.push_back(library);
  } else if (const char *env = getenv("TESSEL_HIP_RUNTIME")) {
    candidates.push_back(env);
  } else {
    candidates = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5",
                  "/opt/rocm/lib/libamdhip64.so"};
  }
  void *lib = nullptr;
  std::string path, why;
  for (const std::string &c : candidates) {
    lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      path = c;
      break;
    }
    if (why.empty()) // the first failure says the most (the plain soname)
      if (const char *e = dlerror())
        why = e;
  }
  if (!lib) {
    error = "cannot load the AMD runtime (" + candidates.front() + "): " + why +
            " (install ROCm's HIP runtime or set TESSEL_HIP_RUNTIME to libamdhip64.so)";
    return false;
  }
#define TESSEL_RESOLVE(field)                                                                      \
  if (!resolve(lib, path, #field, field, error))                                                   \
    return false;
  TESSEL_RESOLVE(hipInit)
  TESSEL_RESOLVE(hipGetDeviceCount)
  TESSEL_RESOLVE(hipSetDevice)
  TESSEL_RESOLVE(hipDeviceGetName)
  TESSEL_RESOLVE(hipRuntimeGetVersion)
  TESSEL_RESOLVE(hipDeviceSynchronize)
  TESSEL_RESOLVE(hipModuleLoadData)
  TESSEL_RESOLVE(hipModuleUnload)
  TESSEL_RESOLVE(hipModuleGetFunction)
  TESSEL_RESOLVE(hipModuleLaunchKernel)
  TESSEL_RESOLVE(hipMalloc)
  TESSEL_RESOLVE(hipFree)
  TESSEL_RESOLVE(hipMemcpy)
  TESSEL_RESOLVE(hipMemsetD32)
  TESSEL_RESOLVE(hipEventCreate)
  TESSEL_RESOLVE(hipEventDestroy)
  TESSEL_RESOLVE(hipEventRecord)
  TESSEL_RESOLVE(hipEventSynchronize)
  TESSEL_RESOLVE(hipEventElapsedTime)
  TESSEL_RESOLVE(hipGetErrorName)
  TESSEL_RESOLVE(hipGetErrorString)
#undef TESSEL_RESOLVE
  return true;
}

std::string HipDriver::describe(hipError_t r) const {
  const char *name = hipGetErrorName ? hipGetErrorName(r) : nullptr;
  const char *text = hipGetErrorString ? hipGetErrorString(r) : nullptr;
  return std::string(name ? name : "HIP error " + std::to_string(r)) + ": " +
         (text ? text : "unknown");
}

HipDriver *tessel::rt::getHipDriver(std::string &error) { return loadOnce<HipDriver>(error); }
