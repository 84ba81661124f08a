//===- HipContext.h - AMD device, buffers, modules, launches, timing -*- C++ -*-===//
//
// The AMD counterpart of CudaContext: a thin, checked layer over the HIP runtime API. Every
// call's result is checked and a failure becomes an error string naming what was being done
// (and, for launches, the kernel). MLIR- and LLVM-free.
//
// Kernels are hsaco code objects with their metadata (HipKernelInfo): arguments are packed at
// the metadata's offsets and passed as one kernarg buffer (hipModuleLaunchKernel's `extra`);
// LDS is static (the code object's group segment), so a launch passes no dynamic LDS size.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_AMD_RUNTIME_HIPCONTEXT_H
#define TESSEL_AMD_RUNTIME_HIPCONTEXT_H

#include "tessel/AMD/Runtime/HipDriver.h"
#include "tessel/AMD/Runtime/HipKernelInfo.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::rt {

/// A loaded kernel: the function handle and what a launch needs.
struct HipKernel {
  std::string name;
  hipModule_t module = nullptr;
  hipFunction_t function = nullptr;
  unsigned numThreads = 256; ///< num_warps * 64
  HipKernelInfo info;
};

class HipContext {
public:
  /// Device 0; null with a reason when there is no AMD runtime or no device.
  static std::unique_ptr<HipContext> create(std::string &error);

  /// "AMD Instinct MI300X (HIP runtime 60242134)"
  std::string describe() const;

  /// Device memory; errors name `what` (a buffer name) and the size.
  bool alloc(size_t bytes, void *&ptr, const std::string &what, std::string &error);
  void free(void *ptr);
  bool upload(void *dst, const void *src, size_t bytes, std::string &error);
  bool download(void *dst, const void *src, size_t bytes, std::string &error);
  /// Fills `bytes` (a multiple of 4) with the 32-bit `pattern`.
  bool fill32(void *dst, uint32_t pattern, size_t bytes, std::string &error);

  /// Loads an hsaco and looks up `info.name`; checks numThreads against the code object's
  /// workgroup bound.
  bool load(const std::string &hsaco, const HipKernelInfo &info, unsigned numThreads,
            HipKernel &kernel, std::string &error);

  /// Launches `kernel` over `grid` with `args` (checked against the metadata) and waits for it;
  /// a launch failure or a fault while running names the kernel.
  bool launch(const HipKernel &kernel, const unsigned grid[3],
              const std::vector<KernelArgValue> &args, std::string &error, bool synchronize = true);

  /// Times `reps` launches after `warmup` ones, each alone between two events after
  /// overwriting `flushBytes` of a scratch buffer (a cold L2 and MALL for every launch).
  bool time(const HipKernel &kernel, const unsigned grid[3],
            const std::vector<KernelArgValue> &args, int warmup, int reps, std::vector<double> &ms,
            std::string &error, size_t flushBytes = size_t(512) << 20);

  /// Device-to-device copy of `bytes`, timed like time(): the bandwidth ceiling.
  bool timeCopy(size_t bytes, int reps, std::vector<double> &ms, std::string &error);

private:
  bool check(hipError_t r, const std::string &what, std::string &error) const;
  bool launchPacked(const HipKernel &kernel, const unsigned grid[3], std::vector<uint8_t> &kernargs,
                    std::string &error);
  HipDriver *driver = nullptr;
  std::string name;
  int runtimeVersion = 0;
  void *flushBuffer = nullptr;
  size_t flushSize = 0;
};

} // namespace tessel::rt

#endif // TESSEL_AMD_RUNTIME_HIPCONTEXT_H
