//===- CudaContext.h - device, buffers, modules, launches, timing -*- C++ -*-===//
//
// A thin, checked layer over the CUDA driver API: every call's result is checked and a failure
// becomes an error string naming what was being done (and, for launches, the kernel). MLIR-
// and LLVM-free, so that a runner built with it runs on a machine that has only the driver.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_NVIDIA_RUNTIME_CUDACONTEXT_H
#define TESSEL_NVIDIA_RUNTIME_CUDACONTEXT_H

#include "tessel/NVIDIA/Runtime/CudaDriver.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::rt {

/// A loaded kernel: the function handle and what a launch needs.
struct CudaKernel {
  std::string name;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  unsigned numThreads = 128; ///< num_warps * 32
  unsigned sharedBytes = 0;  ///< dynamic shared memory per program
  unsigned clusterWidth = 1; ///< programs per cluster along x (tile.cluster_size)
};

class CudaContext {
public:
  /// Device 0's primary context; null with a reason when there is no driver or no device.
  static std::unique_ptr<CudaContext> create(std::string &error);

  /// "NVIDIA H200 (sm_90, 132 SMs)"
  std::string describe() const;
  /// The device's streaming multiprocessors.
  int multiprocessorCount() const { return smCount; }
  int computeCapability() const { return ccMajor * 10 + ccMinor; }
  /// "CUDA 13.0" (the driver's version, cuDriverGetVersion).
  std::string driverVersion() const;

  /// Device memory; errors name `what` (a buffer name) and the size.
  bool alloc(size_t bytes, CUdeviceptr &ptr, const std::string &what, std::string &error);
  void free(CUdeviceptr ptr);
  bool upload(CUdeviceptr dst, const void *src, size_t bytes, std::string &error);
  bool download(void *dst, CUdeviceptr src, size_t bytes, std::string &error);
  /// Fills `bytes` (a multiple of 4) with the 32-bit `pattern`.
  bool fill32(CUdeviceptr dst, uint32_t pattern, size_t bytes, std::string &error);

  /// Loads a cubin or NUL-terminated PTX image and looks up `name`; opts into more than 48 KB
  /// of dynamic shared memory when the kernel needs it.
  bool load(const std::string &image, const std::string &name, unsigned numThreads,
            unsigned sharedBytes, CudaKernel &kernel, std::string &error);

  /// Launches `kernel` over `grid` with `params` (pointers to each argument's value) on
  /// `stream` and waits for it; a launch failure or a fault while running names the kernel.
  bool launch(const CudaKernel &kernel, const unsigned grid[3], std::vector<void *> &params,
              std::string &error, bool synchronize = true, CUstream stream = nullptr);

  /// Times `reps` launches after `warmup` ones, each measured alone with a pair of events.
  /// Before each timed launch `flushBytes` of a scratch buffer are overwritten so that every
  /// launch starts with a cold L2, as triton.testing.do_bench does.
  bool time(const CudaKernel &kernel, const unsigned grid[3], std::vector<void *> &params,
            int warmup, int reps, std::vector<double> &ms, std::string &error,
            size_t flushBytes = size_t(256) << 20);

  /// Waits for every launch of the context.
  bool synchronize(std::string &error);

  /// Makes the context current on the calling thread when none is (a thread that never used
  /// CUDA); a thread that has one (PyTorch's, on the same primary context) keeps it.
  bool makeCurrentIfNone(std::string &error);

  /// The driver's entry points, for what the context does not wrap (tensor maps).
  const CudaDriver &getDriver() const { return *driver; }

  /// Device-to-device copy of `bytes`, timed like time(): the bandwidth ceiling.
  bool timeCopy(size_t bytes, int reps, std::vector<double> &ms, std::string &error);

private:
  bool check(CUresult r, const std::string &what, std::string &error) const;
  CudaDriver *driver = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int ccMajor = 0, ccMinor = 0, smCount = 0, maxSharedOptIn = 0;
  std::string name;
  CUdeviceptr flushBuffer = 0;
  size_t flushSize = 0;
};

} // namespace tessel::rt

#endif // TESSEL_NVIDIA_RUNTIME_CUDACONTEXT_H
