//===- Executor.h - the target-agnostic way to run a kernel -------*- C++ -*-===//
//
// Everything tessel-run and the kernel tests need from a target: load a compiled kernel
// variant, own device buffers, copy them to and from the host, launch over a grid, and
// (optionally) time launches. The interpreter implements it (lib/Interpreter); the CUDA runtime
// implements it on a GPU. Nothing here depends on MLIR or LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_EXECUTOR_H
#define TESSEL_HARNESS_EXECUTOR_H

#include "tessel/Harness/HostBuffer.h"
#include "tessel/Harness/KernelMetadata.h"
#include "tessel/Harness/Status.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessel::harness {

/// Number of program instances along each grid axis.
struct Grid {
  int64_t x = 1, y = 1, z = 1;
  int64_t count() const { return x * y * z; }
};

/// An executor-owned buffer.
using BufferId = int64_t;

/// One kernel argument of a launch, in the kernel's argument order.
struct LaunchArg {
  enum class Kind { Buffer, Int, Float } kind = Kind::Int;
  BufferId buffer = -1;
  /// Buffer arguments: the pointer passed is the buffer's start + elementOffset elements
  /// (computed in 64-bit wrapping arithmetic; negative offsets make a "virtual" base of which
  /// only a window is allocated, see docs/Interpreter.md, case C6).
  int64_t elementOffset = 0;
  int64_t i = 0; ///< Int: the value (converted to the parameter's integer type)
  double f = 0;  ///< Float: the value (rounded to the parameter's float type)

  static LaunchArg buffer_(BufferId id, int64_t offset = 0) {
    LaunchArg a;
    a.kind = Kind::Buffer, a.buffer = id, a.elementOffset = offset;
    return a;
  }
  static LaunchArg int_(int64_t v) {
    LaunchArg a;
    a.kind = Kind::Int, a.i = v;
    return a;
  }
  static LaunchArg float_(double v) {
    LaunchArg a;
    a.kind = Kind::Float, a.f = v;
    return a;
  }
};

/// How to launch: the grid the kernel sees (num_programs), and the range of linear program ids
/// that actually run (x fastest, then y, then z). Running a subset is how a test reaches
/// program ids beyond 2^31 / BLOCK without allocating the whole tensor; a GPU executor may
/// refuse a subset.
struct LaunchConfig {
  Grid grid;
  int64_t firstProgram = 0;
  int64_t programCount = -1; ///< -1: every program from firstProgram on
};

class Executor {
public:
  virtual ~Executor() = default;
  /// "interpreter", "cuda", ...
  virtual std::string target() const = 0;
  /// One line about the device ("CPU interpreter, 2 threads", "NVIDIA H200 (sm_90a)").
  virtual std::string describe() const = 0;
  /// The driver's version ("CUDA 13.0"); "none" for the interpreter. Keys the tuning cache
  /// with describe(), which names the device and its SM count.
  virtual std::string driverVersion() const { return "none"; }

  /// Loads (parses, compiles, or loads the binary of) a kernel variant; fills `variant.args`
  /// from the kernel's signature when the metadata had none. Errors are located where the
  /// IR allows ("softmax.cpp:14:9: error: ...").
  virtual Status load(KernelMetadata &variant) = 0;

  /// Allocates `numel` elements of `dtype` named `name` (named in out-of-bounds reports).
  virtual Status allocate(const std::string &name, DType dtype, int64_t numel, BufferId &id) = 0;
  virtual Status upload(BufferId id, const HostBuffer &host) = 0;
  virtual Status download(BufferId id, HostBuffer &host) = 0;
  /// Frees every buffer.
  virtual void releaseAll() = 0;

  /// Runs the loaded kernel; a fault (out-of-bounds access, illegal address) is an error
  /// naming the kernel, and for the interpreter the op's location and the program id.
  virtual Status launch(const LaunchConfig &config, const std::vector<LaunchArg> &args) = 0;

  /// The device's copy bandwidth in GB/s (bytes read + written, a large device-to-device
  /// copy), the ceiling memory-bound kernels are measured against.
  virtual Status copyBandwidth(double &gbps) {
    return Status::error(target() + ": no bandwidth measurement");
  }
  /// The device's multiprocessors (SMs, CUs), for launch heuristics such as split-K's slice
  /// count; 0 when unknown (the interpreter).
  virtual int multiprocessorCount() const { return 0; }
  /// Whether time() measures device time.
  virtual bool canTime() const { return false; }
  /// Runs `warmup` + `reps` launches and returns the time of each timed one in milliseconds.
  virtual Status time(const LaunchConfig &config, const std::vector<LaunchArg> &args, int warmup,
                      int reps, std::vector<double> &ms) {
    return Status::error(target() + ": timing is not supported");
  }
};

/// The executors compiled into this binary, by target name.
struct ExecutorEntry {
  std::string target;
  std::string description;
  std::function<std::unique_ptr<Executor>()> create;
  /// Whether the target can run here (a GPU executor: the driver loads and finds a device);
  /// null means always. Tools pick a default target with it.
  std::function<bool()> available;
};
/// Adds an executor; called from each executor library's register function (no static
/// initializers: the tools call e.g. tessel::interp::registerInterpreterExecutor()).
void registerExecutor(ExecutorEntry entry);
const std::vector<ExecutorEntry> &registeredExecutors();
/// The entry for `target`, or null.
const ExecutorEntry *findExecutor(const std::string &target);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_EXECUTOR_H
