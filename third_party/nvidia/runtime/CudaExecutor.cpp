//===- CudaExecutor.cpp - the harness Executor on an NVIDIA GPU -----------===//
//
// Loads a variant's cubin (or its PTX, which the driver compiles), owns device buffers, checks
// every argument against the variant's signature and divisibility promises, launches with
// num_warps x 32 threads and the kernel's dynamic shared memory, and times launches with CUDA
// events (CudaContext::time). A variant that copies with TMA gets its tensor maps, encoded from
// the arguments, by value in one extra trailing parameter (CudaTensorMaps.h). Every CUDA call is
// checked; a failed launch or a fault names the kernel.
//
//===----------------------------------------------------------------------===//
#include "tessel/NVIDIA/Runtime/CudaExecutor.h"

#include "tessel/NVIDIA/Runtime/CudaTensorMaps.h"
#include "tessel/Runtime/GpuExecutorBase.h"

#include "tessel/NVIDIA/Runtime/CudaContext.h"

using namespace tessel;
using namespace tessel::harness;
using tessel::rt::CUdeviceptr;

namespace {

class CudaExecutor : public rt::GpuExecutorBase<rt::CudaContext, CUdeviceptr> {
public:
  CudaExecutor() : GpuExecutorBase("tessel-run: cuda: ") {}

  std::string target() const override { return "cuda"; }
  std::string driverVersion() const override {
    return ctx_ ? ctx_->driverVersion() : "no CUDA driver";
  }
  std::string describe() const override {
    return ctx_ ? ctx_->describe() : "no CUDA device: " + initError_;
  }
  int multiprocessorCount() const override { return ctx_ ? ctx_->multiprocessorCount() : 0; }

  Status load(KernelMetadata &variant) override {
    if (!ctx_)
      return Status::error(prefix_ + initError_);
    if (variant.target.rfind("cuda:", 0) != 0)
      return Status::error(variant.metadataPath + ": error: variant " + variant.function +
                           " was compiled for '" + variant.target +
                           "'; compile it with tesselc --target=cuda:sm_90a --emit=cubin");
    std::string kind = variant.files.count("cubin") ? "cubin" : "ptx", image;
    if (Status s = rt::readArtifact(variant, kind, "--emit=cubin", image); !s)
      return s;
    std::string error;
    unsigned threads = unsigned(variant.numWarps * variant.threadsPerWarp);
    if (!ctx_->load(image, variant.function, threads, unsigned(variant.sharedMemory), kernel_,
                    error))
      return Status::error(prefix_ + error);
    variant_ = variant;
    return Status::ok();
  }

  Status launch(const LaunchConfig &config, const std::vector<LaunchArg> &args) override {
    unsigned grid[3];
    if (Status s = prepare(config, args, grid); !s)
      return s;
    std::string error;
    if (!ctx_->launch(kernel_, grid, params_, error))
      return Status::error(prefix_ + error);
    return Status::ok();
  }

  Status time(const LaunchConfig &config, const std::vector<LaunchArg> &args, int warmup, int reps,
              std::vector<double> &ms) override {
    unsigned grid[3];
    if (Status s = prepare(config, args, grid); !s)
      return s;
    std::string error;
    if (!ctx_->time(kernel_, grid, params_, warmup, reps, ms, error))
      return Status::error(prefix_ + error);
    return Status::ok();
  }

private:
  /// Checks the grid and the arguments and packs one pointer per parameter.
  Status prepare(const LaunchConfig &config, const std::vector<LaunchArg> &args, unsigned grid[3]) {
    static constexpr int64_t kMaxGrid[3] = {0x7fffffff, 65535, 65535};
    std::vector<rt::CheckedArg> checked;
    if (Status s = checkLaunch(config, args, kMaxGrid, grid, checked); !s)
      return s;
    storage_.clear();
    params_.clear();
    for (const rt::CheckedArg &c : checked)
      storage_.push_back(c.bits); // little-endian: the first c.size bytes are the value
    for (uint64_t &bits : storage_)
      params_.push_back(&bits);
    if (!variant_.tensorMaps.empty()) {
      std::string error;
      if (!rt::encodeTensorMaps(ctx_->getDriver(), variant_, checked, maps_, error))
        return Status::error(prefix_ + error);
      params_.push_back(maps_.data()); // by value: each launch copies them
    }
    return Status::ok();
  }

  rt::CudaKernel kernel_;
  std::vector<uint8_t> maps_; // a TMA variant's tensor maps, its trailing parameter
  std::vector<uint64_t> storage_;
  std::vector<void *> params_;
};

} // namespace

void tessel::rt::registerCudaExecutor() {
  registerExecutor({"cuda", "NVIDIA GPU through the CUDA driver (libcuda.so.1)",
                    [] { return std::make_unique<CudaExecutor>(); },
                    [] {
                      std::string error;
                      return rt::CudaContext::create(error) != nullptr;
                    }});
}
