//===- Launcher.h - the runtime of tesselc's generated launchers -*- C++ -*-===//
//
// `tesselc --emit=header` writes per kernel a header of typed launch functions that call this
// library (docs/Autotuning.md, "Launchers"). A Launcher picks, per call, the variant the tuning
// cache holds for the arguments' key buckets on this device (the kernel's default config when
// there is none), then the first of its twins (__div8, tesselc --twin's; Twins.h) whose
// promises the arguments keep, or a twin a tuning entry was timed through (a GEMM's layout),
// loads it once and launches it on the caller's stream. Device memory helpers make a program that
// needs no CUDA toolkit. No MLIR or LLVM; the CUDA driver is loaded at run time.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNTIME_LAUNCHER_H
#define TESSEL_RUNTIME_LAUNCHER_H

#include "tessel/Harness/Status.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::rt {

using Status = harness::Status;

/// Element types without a C++ spelling, for typed pointers.
struct bf16_t {
  uint16_t bits;
};
struct f16_t {
  uint16_t bits;
};

/// What a kernel's grid expression may call (TESSEL_TUNE's .grid), on int64_t.
inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }
inline int64_t max(int64_t a, int64_t b) { return a < b ? b : a; }

/// One argument of a launch, in the kernel's order.
struct LaunchValue {
  enum class Kind { Pointer, Int, Float } kind = Kind::Int;
  const void *ptr = nullptr;
  int64_t i = 0;
  double f = 0;
  static LaunchValue pointer(const void *p) { return {Kind::Pointer, p, 0, 0}; }
  static LaunchValue integer(int64_t v) { return {Kind::Int, nullptr, v, 0}; }
  static LaunchValue floating(double v) { return {Kind::Float, nullptr, 0, v}; }
};

/// Where launchers find variants (`<variant>.json` and their binaries): the directories of
/// $TESSEL_KERNEL_PATH (colon-separated), then those added here (tesselc -o DIR, or tessel-tune's
/// DIR/<kernel>__<dtype>). The tuning cache is TuningCache::defaultPath() unless set.
void addKernelDirectory(const std::string &dir);
void setTuningCachePath(const std::string &path);

/// The config fields of the variant a launch runs (BLOCK, num_warps, ...).
using Config = std::map<std::string, int64_t>;
/// Fills grid[0..2] for the chosen config (the generated code holds the kernel's expression).
using GridFunction = std::function<void(const Config &, int64_t grid[3])>;

/// One kernel at one dtype; generated launchers hold one each (a function-local static).
class Launcher {
public:
  /// `keyBuckets[i]`: 1 when key i is bucketed to a power of two, 0 when exact. `compiler` is
  /// the version of tesselc that generated the header (the cache key's). Without a tuning
  /// entry a launch runs `defaultVariant`, or with `fallbacks` (a single pow2 key) the value of
  /// the greatest bucket <= the key's: the first CONFIGS variant valid for it ("" when none is;
  /// the launch then fails with a message), from the kernel's `valid` evaluated by tesselc.
  Launcher(std::string kernel, std::string dtype, std::string defaultVariant,
           std::vector<std::string> keyNames, std::vector<int> keyBuckets, std::string compiler,
           std::map<int64_t, std::string> fallbacks = {});
  ~Launcher();

  /// Chooses the variant for `keyValues` and launches it on `stream` (a CUstream; null: the
  /// default stream). Does not wait for the kernel.
  Status launch(const std::vector<int64_t> &keyValues, const GridFunction &grid,
                const std::vector<LaunchValue> &args, void *stream);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The variant the process's last launch ran ("softmax__f32__BLOCK_4096__num_warps_8__div8")
/// and whether the tuning cache chose it (else it is the kernel's default config).
std::string lastLaunchedVariant();
bool lastLaunchFromCache();
/// When the calling thread's last launch passed the launcher's checks and went on to the
/// driver's launch call (the clock's epoch before any; a launch that fails a check first leaves
/// it as it was): a caller that reads the clock before a successful launch call gets the
/// launcher's own host time, from the call to the launch, apart from the driver's.
std::chrono::steady_clock::time_point lastLaunchIssuedAt();

/// Device memory on the launchers' device (the primary context of device 0).
Status deviceAlloc(size_t bytes, void *&ptr);
void deviceFree(void *ptr);
Status copyToDevice(void *dst, const void *src, size_t bytes);
Status copyToHost(void *dst, const void *src, size_t bytes);
/// Waits for every launch.
Status synchronize();
/// "NVIDIA H200 (sm_90, 132 SMs)", or why there is no device.
std::string deviceDescription();

} // namespace tessel::rt

#endif // TESSEL_RUNTIME_LAUNCHER_H
