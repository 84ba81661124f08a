//===- GpuExecutorBase.h - buffers and checks of the GPU executors -*- C++ -*-===//
//
// Shared by the vendor runtimes' executors (third_party/nvidia/runtime/CudaExecutor.cpp,
// third_party/amd/runtime/HipExecutor.cpp); not for users. The CUDA and HIP executors differ in how
// they load a binary and pass arguments; buffers, copies, the copy-bandwidth ceiling and the
// argument checks are the same over their contexts (CudaContext, HipContext: alloc, free, upload,
// download, timeCopy), so they live here once.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNTIME_GPUEXECUTORBASE_H
#define TESSEL_RUNTIME_GPUEXECUTORBASE_H

#include "tessel/Harness/Executor.h"
#include "tessel/Runtime/GpuLaunch.h"

#include <algorithm>
#include <memory>

namespace tessel::rt {

/// An Executor over `Context` (device pointers `DevicePtr`); errors start with `prefix()`.
template <typename Context, typename DevicePtr> class GpuExecutorBase : public harness::Executor {
public:
  using Status = harness::Status;

  explicit GpuExecutorBase(std::string prefix) : prefix_(std::move(prefix)) {
    ctx_ = Context::create(initError_);
  }
  ~GpuExecutorBase() override { releaseAll(); }

  Status allocate(const std::string &name, harness::DType dtype, int64_t numel,
                  harness::BufferId &id) override {
    if (!ctx_)
      return Status::error(prefix_ + initError_);
    Buffer b{DevicePtr(), size_t(numel) * harness::sizeOf(dtype)};
    std::string error;
    if (!ctx_->alloc(b.bytes, b.ptr, "'" + name + "'", error))
      return Status::error(prefix_ + error);
    buffers_.push_back(b);
    id = harness::BufferId(buffers_.size() - 1);
    return Status::ok();
  }

  Status upload(harness::BufferId id, const harness::HostBuffer &host) override {
    std::string error;
    if (!ctx_->upload(buffers_[id].ptr, host.data(), host.bytes(), error))
      return Status::error(prefix_ + error);
    return Status::ok();
  }

  Status download(harness::BufferId id, harness::HostBuffer &host) override {
    std::string error;
    if (!ctx_->download(host.data(), buffers_[id].ptr, host.bytes(), error))
      return Status::error(prefix_ + error);
    return Status::ok();
  }

  void releaseAll() override {
    if (ctx_)
      for (Buffer &b : buffers_)
        ctx_->free(b.ptr);
    buffers_.clear();
  }

  bool canTime() const override { return true; }

  /// Device-to-device copies of 1 GiB: read plus write bytes over the median time.
  Status copyBandwidth(double &gbps) override {
    std::vector<double> ms;
    std::string error;
    size_t bytes = size_t(1) << 30;
    if (!ctx_ || !ctx_->timeCopy(bytes, 20, ms, error))
      return Status::error(prefix_ + (ctx_ ? error : initError_));
    std::sort(ms.begin(), ms.end());
    gbps = 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
    return Status::ok();
  }

protected:
  struct Buffer {
    DevicePtr ptr;
    size_t bytes;
  };

  /// The grid within `maxGrid` and the arguments checked against the loaded variant.
  Status checkLaunch(const harness::LaunchConfig &config,
                     const std::vector<harness::LaunchArg> &args, const int64_t maxGrid[3],
                     unsigned grid[3], std::vector<CheckedArg> &checked) {
    if (Status s = checkGrid(config, variant_.function, prefix_, maxGrid, grid); !s)
      return s;
    auto address = [&](const harness::LaunchArg &a, int elementBytes, uint64_t &out) {
      if (a.buffer < 0 || a.buffer >= int64_t(buffers_.size()))
        return false;
      // Wrapping 64-bit arithmetic: a negative offset makes a virtual base (case C6).
      out = uint64_t(buffers_[a.buffer].ptr) + uint64_t(a.elementOffset * elementBytes);
      return true;
    };
    return checkLaunchArgs(variant_, args, address, prefix_, checked);
  }

  std::string prefix_;
  std::unique_ptr<Context> ctx_;
  std::string initError_;
  harness::KernelMetadata variant_;
  std::vector<Buffer> buffers_;
};

} // namespace tessel::rt

#endif // TESSEL_RUNTIME_GPUEXECUTORBASE_H
