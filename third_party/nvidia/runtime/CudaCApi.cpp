//===- CudaCApi.cpp - tessel_cuda_*: the C API's CUDA half ----------------===//
//
// The Python package's GPU path (include/tessel/CApi/Kernels.h), in libtessel_launcher.so so
// that it needs neither MLIR nor LLVM. Variants are loaded by path: the caller picks them.
//
// A variant that reads through TMA takes its tensor maps by value in its last parameter
// (CudaTensorMaps.h), encoded per launch: nothing is uploaded, so a launch never waits.
//
//===----------------------------------------------------------------------===//
#include "tessel/CApi/ErrorBuffer.h"
#include "tessel/CApi/Kernels.h"

#include "tessel/Harness/KernelMetadata.h"
#include "tessel/NVIDIA/Runtime/CudaContext.h"
#include "tessel/NVIDIA/Runtime/CudaTensorMaps.h"
#include "tessel/Runtime/GpuLaunch.h"

#include <memory>
#include <mutex>

using namespace tessel;
using namespace tessel::rt;
using harness::KernelMetadata;
using harness::LaunchArg;

using tessel::capi::fail;

namespace {
struct CApiKernel {
  KernelMetadata meta;
  CudaKernel kernel;
};

/// Device 0's primary context, shared by every kernel of the process.
struct CApiShared {
  std::mutex mutex;
  std::unique_ptr<CudaContext> context;
  std::string error;
  bool tried = false;
  std::vector<std::unique_ptr<CApiKernel>> kernels; // owned until exit
  CudaContext *ctx() {
    if (!tried) {
      tried = true;
      context = CudaContext::create(error);
    }
    return context.get();
  }
};
CApiShared &capiShared() {
  static CApiShared s;
  return s;
}

/// The device's context, current on this thread (a Python thread that never touched CUDA has
/// none); null after writing why into err.
CudaContext *currentContext(CApiShared &sh, char *err, size_t errLen) {
  CudaContext *ctx = sh.ctx();
  if (!ctx) {
    fail("tessel: no CUDA device: " + sh.error, err, errLen);
    return nullptr;
  }
  if (std::string error; !ctx->makeCurrentIfNone(error)) {
    fail("tessel: " + error, err, errLen);
    return nullptr;
  }
  return ctx;
}

/// The variant's checked argument bits, or why `args` break its signature or promises.
harness::Status checkArgs(const KernelMetadata &meta, const TesselArg *args, int32_t n,
                          std::vector<CheckedArg> &out) {
  std::vector<LaunchArg> launchArgs;
  for (int32_t i = 0; i < n; ++i) {
    if (args[i].kind == TESSEL_ARG_POINTER)
      launchArgs.push_back(LaunchArg::buffer_(i));
    else if (args[i].kind == TESSEL_ARG_INT)
      launchArgs.push_back(LaunchArg::int_(args[i].i));
    else
      launchArgs.push_back(LaunchArg::float_(args[i].f));
  }
  return checkLaunchArgs(
      meta, launchArgs,
      [&](const LaunchArg &a, int, uint64_t &bits) {
        bits = args[a.buffer].address;
        return true;
      },
      "tessel: ", out);
}
} // namespace

extern "C" int tessel_cuda_load(const char *variantJson, void **kernel, char *err, size_t errLen) {
  CApiShared &sh = capiShared();
  std::lock_guard<std::mutex> lock(sh.mutex);
  CudaContext *ctx = currentContext(sh, err, errLen);
  if (!ctx)
    return 1;
  auto k = std::make_unique<CApiKernel>();
  if (harness::Status s = harness::loadKernelMetadata(variantJson, k->meta); !s)
    return fail(s.message(), err, errLen);
  std::string kind = k->meta.files.count("cubin") ? "cubin" : "ptx", image, error;
  if (harness::Status s = readArtifact(k->meta, kind, "--emit=cubin", image); !s)
    return fail(s.message(), err, errLen);
  unsigned threads = unsigned(k->meta.numWarps * k->meta.threadsPerWarp);
  if (!ctx->load(image, k->meta.function, threads, unsigned(k->meta.sharedMemory), k->kernel,
                 error))
    return fail("tessel: " + error, err, errLen);
  *kernel = k.get();
  sh.kernels.push_back(std::move(k));
  return 0;
}

extern "C" int tessel_cuda_launch(void *kernel, void *const *twins, int32_t numTwins,
                                  const int64_t grid[3], const TesselArg *args, int32_t numArgs,
                                  void *stream, char *err, size_t errLen) {
  CApiShared &sh = capiShared();
  std::lock_guard<std::mutex> lock(sh.mutex);
  CudaContext *ctx = currentContext(sh, err, errLen);
  if (!ctx)
    return 1;
  auto *chosen = static_cast<CApiKernel *>(kernel);
  auto cuStream = static_cast<CUstream>(stream);
  std::vector<CheckedArg> bits;
  std::vector<uint8_t> maps; // the trailing by-value parameter of a TMA variant
  std::string error;
  bool twinFits = false;
  for (int32_t t = 0; t < numTwins && !twinFits; ++t) {
    auto *twin = static_cast<CApiKernel *>(twins[t]);
    // A twin whose TMA rules the arguments break (a base off 16 bytes) is passed over too.
    if (twin && (twinFits = checkArgs(twin->meta, args, numArgs, bits) &&
                            encodeTensorMaps(ctx->getDriver(), twin->meta, bits, maps, error)))
      chosen = twin;
  }
  if (!twinFits) {
    error.clear();
    if (harness::Status s = checkArgs(chosen->meta, args, numArgs, bits); !s)
      return fail(s.message(), err, errLen);
    if (!encodeTensorMaps(ctx->getDriver(), chosen->meta, bits, maps, error))
      return fail("tessel: " + error, err, errLen);
  }
  unsigned g[3];
  for (int d = 0; d < 3; ++d) {
    if (grid[d] < 0 || grid[d] > (d == 0 ? 2147483647 : 65535))
      return fail("tessel: " + chosen->meta.function + ": grid dimension " + std::to_string(d) +
                      " = " + std::to_string(grid[d]) + " is out of the device's range",
                  err, errLen);
    g[d] = unsigned(grid[d]);
  }
  if (g[0] == 0 || g[1] == 0 || g[2] == 0)
    return 0; // an empty grid is a no-op, as on the interpreter
  std::vector<void *> params;
  for (CheckedArg &c : bits)
    params.push_back(&c.bits);
  if (!chosen->meta.tensorMaps.empty())
    params.push_back(maps.data()); // copied by the launch
  if (!ctx->launch(chosen->kernel, g, params, error, /*synchronize=*/false, cuStream))
    return fail("tessel: " + error, err, errLen);
  return 0;
}

extern "C" void tessel_cuda_device(char *out, size_t outLen) {
  CApiShared &sh = capiShared();
  std::lock_guard<std::mutex> lock(sh.mutex);
  CudaContext *ctx = sh.ctx();
  fail(ctx ? ctx->describe() : "no CUDA device: " + sh.error, out, outLen);
}

extern "C" void tessel_cuda_driver(char *out, size_t outLen) {
  CApiShared &sh = capiShared();
  std::lock_guard<std::mutex> lock(sh.mutex);
  CudaContext *ctx = sh.ctx();
  fail(ctx ? ctx->driverVersion() : "no CUDA driver: " + sh.error, out, outLen);
}
