//===- CudaContext.cpp - device, buffers, modules, launches, timing -------===//
#include "tessel/NVIDIA/Runtime/CudaContext.h"

#include <algorithm>

using namespace tessel::rt;

bool CudaContext::check(CUresult r, const std::string &what, std::string &error) const {
  if (r == 0)
    return true;
  error = what + ": " + driver->describe(r);
  return false;
}

std::unique_ptr<CudaContext> CudaContext::create(std::string &error) {
  CudaDriver *d = getCudaDriver(error);
  if (!d)
    return nullptr;
  auto ctx = std::unique_ptr<CudaContext>(new CudaContext());
  ctx->driver = d;
  int count = 0;
  if (!ctx->check(d->cuInit(0), "cuInit", error) ||
      !ctx->check(d->cuDeviceGetCount(&count), "cuDeviceGetCount", error))
    return nullptr;
  if (count == 0) {
    error = "the NVIDIA driver reports no GPU";
    return nullptr;
  }
  char name[256] = {0};
  if (!ctx->check(d->cuDeviceGet(&ctx->device, 0), "cuDeviceGet", error) ||
      !ctx->check(d->cuDeviceGetName(name, sizeof(name), ctx->device), "cuDeviceGetName", error) ||
      !ctx->check(d->cuDeviceGetAttribute(&ctx->ccMajor, kAttrComputeCapabilityMajor, ctx->device),
                  "cuDeviceGetAttribute", error) ||
      !ctx->check(d->cuDeviceGetAttribute(&ctx->ccMinor, kAttrComputeCapabilityMinor, ctx->device),
                  "cuDeviceGetAttribute", error) ||
      !ctx->check(d->cuDeviceGetAttribute(&ctx->smCount, kAttrMultiprocessorCount, ctx->device),
                  "cuDeviceGetAttribute", error) ||
      !ctx->check(d->cuDeviceGetAttribute(&ctx->maxSharedOptIn, kAttrMaxSharedMemoryPerBlockOptin,
                                          ctx->device),
                  "cuDeviceGetAttribute", error) ||
      !ctx->check(d->cuDevicePrimaryCtxRetain(&ctx->context, ctx->device),
                  "cuDevicePrimaryCtxRetain", error) ||
      !ctx->check(d->cuCtxSetCurrent(ctx->context), "cuCtxSetCurrent", error))
    return nullptr;
  ctx->name = name;
  return ctx;
}

std::string CudaContext::driverVersion() const {
  int v = 0;
  if (driver->cuDriverGetVersion(&v) != 0)
    return "CUDA unknown";
  return "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string CudaContext::describe() const {
  return name + " (sm_" + std::to_string(ccMajor) + std::to_string(ccMinor) + ", " +
         std::to_string(smCount) + " SMs)";
}

bool CudaContext::alloc(size_t bytes, CUdeviceptr &ptr, const std::string &what,
                        std::string &error) {
  return check(driver->cuMemAlloc(&ptr, std::max<size_t>(bytes, 16)),
               "allocating " + std::to_string(bytes) + " bytes for " + what, error);
}

void CudaContext::free(CUdeviceptr ptr) {
  if (ptr)
    driver->cuMemFree(ptr);
}

bool CudaContext::upload(CUdeviceptr dst, const void *src, size_t bytes, std::string &error) {
  if (bytes == 0)
    return true;
  return check(driver->cuMemcpyHtoD(dst, src, bytes), "copying to the GPU", error);
}

bool CudaContext::download(void *dst, CUdeviceptr src, size_t bytes, std::string &error) {
  if (bytes == 0)
    return true;
  return check(driver->cuMemcpyDtoH(dst, src, bytes), "copying from the GPU", error);
}

bool CudaContext::fill32(CUdeviceptr dst, uint32_t pattern, size_t bytes, std::string &error) {
  return check(driver->cuMemsetD32(dst, pattern, bytes / 4), "filling GPU memory", error);
}

bool CudaContext::load(const std::string &image, const std::string &kernelName, unsigned numThreads,
                       unsigned sharedBytes, CudaKernel &kernel, std::string &error) {
  kernel.name = kernelName;
  kernel.numThreads = numThreads;
  kernel.sharedBytes = sharedBytes;
  std::string nulTerminated = image + '\0';
  if (!check(driver->cuModuleLoadData(&kernel.module, nulTerminated.data()),
             "loading the module of " + kernelName, error) ||
      !check(driver->cuModuleGetFunction(&kernel.function, kernel.module, kernelName.c_str()),
             "finding kernel " + kernelName, error))
    return false;
  // A CudaKernel is reused for one variant after another (the tuner): reset the width too.
  int width = 0;
  kernel.clusterWidth =
      driver->cuFuncGetAttribute(&width, kFuncAttrRequiredClusterWidth, kernel.function) == 0 &&
              width > 1
          ? unsigned(width)
          : 1;
  if (sharedBytes > 48 * 1024) {
    if (int(sharedBytes) > maxSharedOptIn) {
      error = kernelName + " needs " + std::to_string(sharedBytes) +
              " bytes of shared memory; the device allows " + std::to_string(maxSharedOptIn);
      return false;
    }
    if (!check(driver->cuFuncSetAttribute(kernel.function, kFuncAttrMaxDynamicSharedSizeBytes,
                                          sharedBytes),
               "raising the shared-memory limit of " + kernelName, error))
      return false;
  }
  return true;
}

bool CudaContext::launch(const CudaKernel &k, const unsigned grid[3], std::vector<void *> &params,
                         std::string &error, bool synchronize, CUstream stream) {
  // An empty grid runs no program; cuLaunchKernel would reject it (CUDA_ERROR_INVALID_VALUE).
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return true;
  if (grid[0] % k.clusterWidth != 0) {
    error = k.name + " runs in clusters of " + std::to_string(k.clusterWidth) +
            " programs along the grid's x (cluster_size), but the grid's x is " +
            std::to_string(grid[0]) + ", not a multiple: run a variant without cluster_size";
    return false;
  }
  // The message only on a failure: a launcher's every call comes through here.
  if (CUresult r = driver->cuLaunchKernel(k.function, grid[0], grid[1], grid[2], k.numThreads, 1, 1,
                                          k.sharedBytes, stream, params.data(), nullptr);
      r != 0)
    return check(r, "launching " + k.name, error);
  return !synchronize || check(driver->cuCtxSynchronize(), "running " + k.name, error);
}

bool CudaContext::synchronize(std::string &error) {
  return check(driver->cuCtxSynchronize(), "waiting for the device", error);
}

bool CudaContext::makeCurrentIfNone(std::string &error) {
  CUcontext current = nullptr;
  if (!check(driver->cuCtxGetCurrent(&current), "cuCtxGetCurrent", error))
    return false;
  return current || check(driver->cuCtxSetCurrent(context), "cuCtxSetCurrent", error);
}

bool CudaContext::time(const CudaKernel &k, const unsigned grid[3], std::vector<void *> &params,
                       int warmup, int reps, std::vector<double> &ms, std::string &error,
                       size_t flushBytes) {
  if (flushBytes > flushSize) {
    free(flushBuffer);
    flushBuffer = 0;
    flushSize = 0;
    if (!alloc(flushBytes, flushBuffer, "the L2 flush buffer", error))
      return false;
    flushSize = flushBytes;
  }
  for (int i = 0; i < warmup; ++i)
    if (!launch(k, grid, params, error, /*synchronize=*/false))
      return false;
  CUevent start, stop;
  if (!check(driver->cuEventCreate(&start, 0), "cuEventCreate", error) ||
      !check(driver->cuEventCreate(&stop, 0), "cuEventCreate", error))
    return false;
  ms.clear();
  bool ok = true;
  for (int i = 0; i < reps && ok; ++i) {
    float t = 0;
    ok = (flushBytes == 0 ||
          check(driver->cuMemsetD32(flushBuffer, i, flushBytes / 4), "flushing L2", error)) &&
         check(driver->cuEventRecord(start, nullptr), "cuEventRecord", error) &&
         launch(k, grid, params, error, /*synchronize=*/false) &&
         check(driver->cuEventRecord(stop, nullptr), "cuEventRecord", error) &&
         check(driver->cuEventSynchronize(stop), "running " + k.name, error) &&
         check(driver->cuEventElapsedTime(&t, start, stop), "cuEventElapsedTime", error);
    ms.push_back(t);
  }
  driver->cuEventDestroy(start);
  driver->cuEventDestroy(stop);
  return ok;
}

bool CudaContext::timeCopy(size_t bytes, int reps, std::vector<double> &ms, std::string &error) {
  CUdeviceptr a = 0, b = 0;
  if (!alloc(bytes, a, "copy source", error) || !alloc(bytes, b, "copy destination", error) ||
      !fill32(a, 0x3f803f80u, bytes, error))
    return false;
  CUevent start, stop;
  driver->cuEventCreate(&start, 0);
  driver->cuEventCreate(&stop, 0);
  bool ok = check(driver->cuMemcpyDtoD(b, a, bytes), "warm-up copy", error);
  ms.clear();
  for (int i = 0; i < reps && ok; ++i) {
    float t = 0;
    ok = check(driver->cuEventRecord(start, nullptr), "cuEventRecord", error) &&
         check(driver->cuMemcpyDtoD(b, a, bytes), "device copy", error) &&
         check(driver->cuEventRecord(stop, nullptr), "cuEventRecord", error) &&
         check(driver->cuEventSynchronize(stop), "device copy", error) &&
         check(driver->cuEventElapsedTime(&t, start, stop), "cuEventElapsedTime", error);
    ms.push_back(t);
  }
  driver->cuEventDestroy(start);
  driver->cuEventDestroy(stop);
  free(a);
  free(b);
  return ok;
}
