//===- HipExecutor.cpp - the harness Executor on an AMD GPU ---------------===//
//
// Loads a variant's hsaco with the code object's kernel metadata that tesselc keeps in the
// variant JSON (`binary_metadata`: the kernarg layout), checks every argument like the CUDA
// executor (GpuLaunch.h), packs them at the metadata's offsets into one kernarg buffer and
// launches num_warps x 64 threads (HipContext). LDS is static in Tessel's code objects, so no
// dynamic LDS size is passed.
//
//===----------------------------------------------------------------------===//
#include "tessel/AMD/Runtime/HipExecutor.h"

#include "tessel/Runtime/GpuExecutorBase.h"

#include "tessel/AMD/Runtime/HipContext.h"

using namespace tessel;
using namespace tessel::harness;

namespace {

class HipExecutor : public rt::GpuExecutorBase<rt::HipContext, void *> {
public:
  HipExecutor() : GpuExecutorBase("tessel-run: hip: ") {}

  std::string target() const override { return "hip"; }
  std::string describe() const override {
    return ctx_ ? ctx_->describe() : "no AMD driver: " + initError_;
  }

  Status load(KernelMetadata &variant) override {
    if (!ctx_)
      return Status::error(prefix_ + "no AMD driver: " + initError_);
    if (variant.target.rfind("hip:", 0) != 0)
      return Status::error(variant.metadataPath + ": error: variant " + variant.function +
                           " was compiled for '" + variant.target +
                           "'; compile it with tesselc --target=hip:gfx942 --emit=hsaco");
    std::string image;
    if (Status s = rt::readArtifact(variant, "hsaco", "--emit=hsaco", image); !s)
      return s;
    rt::HipKernelInfo info;
    std::string error;
    if (variant.binaryMetadata.empty() ||
        !rt::parseHipKernelInfo(variant.binaryMetadata, info, error))
      return Status::error(variant.metadataPath + ": error: the variant's binary_metadata " +
                           (error.empty() ? "is missing" : "is unusable: " + error) +
                           "; recompile it with tesselc --emit=hsaco");
    unsigned threads = unsigned(variant.numWarps * variant.threadsPerWarp);
    if (!ctx_->load(image, info, threads, kernel_, error))
      return Status::error(prefix_ + error);
    variant_ = variant;
    return Status::ok();
  }

  Status launch(const LaunchConfig &config, const std::vector<LaunchArg> &args) override {
    unsigned grid[3];
    std::vector<rt::KernelArgValue> values;
    if (Status s = prepare(config, args, grid, values); !s)
      return s;
    std::string error;
    if (!ctx_->launch(kernel_, grid, values, error))
      return Status::error(prefix_ + error);
    return Status::ok();
  }

  Status time(const LaunchConfig &config, const std::vector<LaunchArg> &args, int warmup, int reps,
              std::vector<double> &ms) override {
    unsigned grid[3];
    std::vector<rt::KernelArgValue> values;
    if (Status s = prepare(config, args, grid, values); !s)
      return s;
    std::string error;
    if (!ctx_->time(kernel_, grid, values, warmup, reps, ms, error))
      return Status::error(prefix_ + error);
    return Status::ok();
  }

private:
  /// Checks the grid and the arguments; HipContext packs the values at the kernarg offsets.
  Status prepare(const LaunchConfig &config, const std::vector<LaunchArg> &args, unsigned grid[3],
                 std::vector<rt::KernelArgValue> &values) {
    // HIP's grid is in work-items per dimension, each at most 2^32-1; in programs that is
    // (2^32-1) / threads, kept under 2^31 for the signed program ids.
    int64_t maxX = std::min<int64_t>(0x7fffffff, 0xffffffffLL / kernel_.numThreads);
    const int64_t maxGrid[3] = {maxX, 65535, 65535};
    std::vector<rt::CheckedArg> checked;
    if (Status s = checkLaunch(config, args, maxGrid, grid, checked); !s)
      return s;
    values.clear();
    for (const rt::CheckedArg &c : checked)
      values.push_back(rt::KernelArgValue{c.bits, c.size, c.isPointer});
    return Status::ok();
  }

  rt::HipKernel kernel_;
};

} // namespace

void tessel::rt::registerHipExecutor() {
  registerExecutor({"hip", "AMD GPU through the HIP runtime (libamdhip64.so)",
                    [] { return std::make_unique<HipExecutor>(); },
                    [] {
                      std::string error;
                      return rt::HipContext::create(error) != nullptr;
                    }});
}
