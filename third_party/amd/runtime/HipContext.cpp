//===- HipContext.cpp - AMD device, buffers, modules, launches, timing ----===//
#include "tessel/AMD/Runtime/HipContext.h"

#include <algorithm>

using namespace tessel::rt;

bool HipContext::check(hipError_t r, const std::string &what, std::string &error) const {
  if (r == 0)
    return true;
  error = what + ": " + driver->describe(r);
  return false;
}

std::unique_ptr<HipContext> HipContext::create(std::string &error) {
  HipDriver *d = getHipDriver(error);
  if (!d)
    return nullptr;
  auto ctx = std::unique_ptr<HipContext>(new HipContext());
  ctx->driver = d;
  int count = 0;
  if (!ctx->check(d->hipInit(0), "hipInit", error) ||
      !ctx->check(d->hipGetDeviceCount(&count), "hipGetDeviceCount", error))
    return nullptr;
  if (count == 0) {
    error = "the AMD runtime reports no GPU";
    return nullptr;
  }
  char name[256] = {0};
  if (!ctx->check(d->hipSetDevice(0), "hipSetDevice", error) ||
      !ctx->check(d->hipDeviceGetName(name, sizeof(name), 0), "hipDeviceGetName", error) ||
      !ctx->check(d->hipRuntimeGetVersion(&ctx->runtimeVersion), "hipRuntimeGetVersion", error))
    return nullptr;
  ctx->name = name;
  return ctx;
}

std::string HipContext::describe() const {
  return name + " (HIP runtime " + std::to_string(runtimeVersion) + ")";
}

bool HipContext::alloc(size_t bytes, void *&ptr, const std::string &what, std::string &error) {
  return check(driver->hipMalloc(&ptr, std::max<size_t>(bytes, 16)),
               "allocating " + std::to_string(bytes) + " bytes for " + what, error);
}

void HipContext::free(void *ptr) {
  if (ptr)
    driver->hipFree(ptr);
}

bool HipContext::upload(void *dst, const void *src, size_t bytes, std::string &error) {
  return check(driver->hipMemcpy(dst, src, bytes, kHipMemcpyHostToDevice), "copying to the GPU",
               error);
}

bool HipContext::download(void *dst, const void *src, size_t bytes, std::string &error) {
  return check(driver->hipMemcpy(dst, src, bytes, kHipMemcpyDeviceToHost), "copying from the GPU",
               error);
}

bool HipContext::fill32(void *dst, uint32_t pattern, size_t bytes, std::string &error) {
  return check(driver->hipMemsetD32(dst, int(pattern), bytes / 4), "filling GPU memory", error);
}

bool HipContext::load(const std::string &hsaco, const HipKernelInfo &info, unsigned numThreads,
                      HipKernel &kernel, std::string &error) {
  kernel.name = info.name;
  kernel.info = info;
  kernel.numThreads = numThreads;
  if (info.maxFlatWorkgroupSize && numThreads > info.maxFlatWorkgroupSize) {
    error = info.name + " is launched with " + std::to_string(numThreads) +
            " threads per program, but its code object allows at most " +
            std::to_string(info.maxFlatWorkgroupSize);
    return false;
  }
  hipError_t r = driver->hipModuleLoadData(&kernel.module, hsaco.data());
  if (r == kHipErrorNoBinaryForGpu) {
    error = "loading the module of " + info.name + ": it was compiled for " +
            (info.target.empty() ? "another GPU" : info.target) + ", which " + name +
            " cannot run (" + driver->describe(r) + ")";
    return false;
  }
  return check(r, "loading the module of " + info.name, error) &&
         check(driver->hipModuleGetFunction(&kernel.function, kernel.module, info.name.c_str()),
               "finding kernel " + info.name, error);
}

bool HipContext::launchPacked(const HipKernel &k, const unsigned grid[3],
                              std::vector<uint8_t> &kernargs, std::string &error) {
  // An empty grid runs no program (case C17); HIP would reject a dimension of 0.
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return true;
  size_t size = kernargs.size();
  void *extra[] = {kHipLaunchParamBufferPointer, kernargs.data(), kHipLaunchParamBufferSize, &size,
                   kHipLaunchParamEnd};
  return check(driver->hipModuleLaunchKernel(k.function, grid[0], grid[1], grid[2], k.numThreads, 1,
                                             1, /*sharedMemBytes=*/0, nullptr, nullptr, extra),
               "launching " + k.name, error);
}

bool HipContext::launch(const HipKernel &k, const unsigned grid[3],
                        const std::vector<KernelArgValue> &args, std::string &error,
                        bool synchronize) {
  std::vector<uint8_t> kernargs;
  if (!packKernargs(k.info, args, kernargs, error) || !launchPacked(k, grid, kernargs, error))
    return false;
  return !synchronize || check(driver->hipDeviceSynchronize(), "running " + k.name, error);
}

bool HipContext::time(const HipKernel &k, const unsigned grid[3],
                      const std::vector<KernelArgValue> &args, int warmup, int reps,
                      std::vector<double> &ms, std::string &error, size_t flushBytes) {
  std::vector<uint8_t> kernargs;
  if (!packKernargs(k.info, args, kernargs, error))
    return false;
  if (flushBytes > flushSize) {
    free(flushBuffer);
    flushBuffer = nullptr;
    flushSize = 0;
    if (!alloc(flushBytes, flushBuffer, "the cache flush buffer", error))
      return false;
    flushSize = flushBytes;
  }
  for (int i = 0; i < warmup; ++i)
    if (!launchPacked(k, grid, kernargs, error))
      return false;
  hipEvent_t start = nullptr, stop = nullptr;
  if (!check(driver->hipEventCreate(&start), "hipEventCreate", error) ||
      !check(driver->hipEventCreate(&stop), "hipEventCreate", error))
    return false;
  ms.clear();
  bool ok = true;
  for (int i = 0; i < reps && ok; ++i) {
    float t = 0;
    ok = (flushBytes == 0 || check(driver->hipMemsetD32(flushBuffer, i, flushBytes / 4),
                                   "flushing the caches", error)) &&
         check(driver->hipEventRecord(start, nullptr), "hipEventRecord", error) &&
         launchPacked(k, grid, kernargs, error) &&
         check(driver->hipEventRecord(stop, nullptr), "hipEventRecord", error) &&
         check(driver->hipEventSynchronize(stop), "running " + k.name, error) &&
         check(driver->hipEventElapsedTime(&t, start, stop), "hipEventElapsedTime", error);
    ms.push_back(t);
  }
  driver->hipEventDestroy(start);
  driver->hipEventDestroy(stop);
  return ok;
}

bool HipContext::timeCopy(size_t bytes, int reps, std::vector<double> &ms, std::string &error) {
  void *a = nullptr, *b = nullptr;
  bool ok = alloc(bytes, a, "copy source", error) && alloc(bytes, b, "copy destination", error) &&
            fill32(a, 0x3f803f80u, bytes, error);
  hipEvent_t start = nullptr, stop = nullptr;
  ok = ok && check(driver->hipEventCreate(&start), "hipEventCreate", error) &&
       check(driver->hipEventCreate(&stop), "hipEventCreate", error) &&
       check(driver->hipMemcpy(b, a, bytes, kHipMemcpyDeviceToDevice), "warm-up copy", error);
  ms.clear();
  for (int i = 0; i < reps && ok; ++i) {
    float t = 0;
    ok = check(driver->hipEventRecord(start, nullptr), "hipEventRecord", error) &&
         check(driver->hipMemcpy(b, a, bytes, kHipMemcpyDeviceToDevice), "device copy", error) &&
         check(driver->hipEventRecord(stop, nullptr), "hipEventRecord", error) &&
         check(driver->hipEventSynchronize(stop), "device copy", error) &&
         check(driver->hipEventElapsedTime(&t, start, stop), "hipEventElapsedTime", error);
    ms.push_back(t);
  }
  if (start)
    driver->hipEventDestroy(start);
  if (stop)
    driver->hipEventDestroy(stop);
  free(a);
  free(b);
  return ok;
}
