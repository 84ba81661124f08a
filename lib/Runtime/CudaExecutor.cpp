//===- CudaExecutor.cpp - the harness Executor on an NVIDIA GPU -----------===//
//
// Loads a variant's cubin (or its PTX, which the driver compiles), owns device buffers, checks
// every argument against the variant's signature and divisibility promises, launches with
// num_warps x 32 threads and the kernel's dynamic shared memory, and times launches with CUDA
// events (CudaContext::time). Every CUDA call is checked; a failed launch or a fault names the
// kernel.
//
//===----------------------------------------------------------------------===//
#include "tessel/Runtime/CudaExecutor.h"

#include "tessel/Harness/Executor.h"
#include "tessel/Harness/FloatFormats.h"
#include "tessel/Runtime/CudaContext.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace tessel;
using namespace tessel::harness;
using tessel::rt::CUdeviceptr;

namespace {

std::string readFile(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  ok = bool(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Bytes of a scalar type spelled as in the metadata ("i64", "f32", "bf16", ...).
int scalarBytes(const std::string &t) {
  if (t == "i1" || t == "i8")
    return 1;
  if (t == "i16" || t == "f16" || t == "bf16")
    return 2;
  if (t == "i32" || t == "f32")
    return 4;
  if (t == "i64" || t == "f64")
    return 8;
  return 0;
}

/// The pointee of "!tile.ptr<bf16>" or "!tile.ptr<f32, 3>".
std::string pointee(const std::string &type) {
  size_t open = type.find('<'), end = type.find_first_of(",>", open);
  return open == std::string::npos ? "" : type.substr(open + 1, end - open - 1);
}

class CudaExecutor : public Executor {
public:
  CudaExecutor() { ctx_ = rt::CudaContext::create(initError_); }
  ~CudaExecutor() override { releaseAll(); }

  std::string target() const override { return "cuda"; }
  std::string describe() const override {
    return ctx_ ? ctx_->describe() : "no CUDA device: " + initError_;
  }

  Status load(KernelMetadata &variant) override {
    if (!ctx_)
      return Status::error("tessel-run: cuda: " + initError_);
    if (variant.target.rfind("cuda:", 0) != 0)
      return Status::error(variant.metadataPath + ": error: variant " + variant.function +
                           " was compiled for '" + variant.target +
                           "'; compile it with tesselc --target=cuda:sm_90a --emit=cubin");
    std::string kind = variant.files.count("cubin") ? "cubin" : "ptx";
    if (!variant.files.count(kind))
      return Status::error(variant.metadataPath + ": error: variant " + variant.function +
                           " has no cubin or ptx artifact; compile it with --emit=cubin");
    bool ok = false;
    std::string image = readFile(variant.files[kind], ok);
    if (!ok || image.empty())
      return Status::error(variant.files[kind] + ": error: cannot read the " + kind);
    std::string error;
    unsigned threads = unsigned(variant.numWarps * variant.threadsPerWarp);
    if (!ctx_->load(image, variant.function, threads, unsigned(variant.sharedMemory), kernel_,
                    error))
      return Status::error("tessel-run: cuda: " + error);
    variant_ = variant;
    return Status::ok();
  }

  Status allocate(const std::string &name, DType dtype, int64_t numel, BufferId &id) override {
    if (!ctx_)
      return Status::error("tessel-run: cuda: " + initError_);
    Buffer b{0, size_t(numel) * sizeOf(dtype), dtype, numel, name};
    std::string error;
    if (!ctx_->alloc(b.bytes, b.ptr, "'" + name + "'", error))
      return Status::error("tessel-run: cuda: " + error);
    buffers_.push_back(b);
    id = BufferId(buffers_.size() - 1);
    return Status::ok();
  }

  Status upload(BufferId id, const HostBuffer &host) override {
    std::string error;
    if (!ctx_->upload(buffers_[id].ptr, host.data(), host.bytes(), error))
      return Status::error("tessel-run: cuda: " + error);
    return Status::ok();
  }

  Status download(BufferId id, HostBuffer &host) override {
    std::string error;
    if (!ctx_->download(host.data(), buffers_[id].ptr, host.bytes(), error))
      return Status::error("tessel-run: cuda: " + error);
    return Status::ok();
  }

  void releaseAll() override {
    if (ctx_)
      for (Buffer &b : buffers_)
        ctx_->free(b.ptr);
    buffers_.clear();
  }

  Status launch(const LaunchConfig &config, const std::vector<LaunchArg> &args) override {
    unsigned grid[3];
    if (Status s = prepare(config, args, grid); !s)
      return s;
    std::string error;
    if (!ctx_->launch(kernel_, grid, params_, error))
      return Status::error("tessel-run: cuda: " + error);
    return Status::ok();
  }

  bool canTime() const override { return true; }
  Status time(const LaunchConfig &config, const std::vector<LaunchArg> &args, int warmup,
              int reps, std::vector<double> &ms) override {
    unsigned grid[3];
    if (Status s = prepare(config, args, grid); !s)
      return s;
    std::string error;
    if (!ctx_->time(kernel_, grid, params_, warmup, reps, ms, error))
      return Status::error("tessel-run: cuda: " + error);
    return Status::ok();
  }

  Status copyBandwidth(double &gbps) override {
    std::vector<double> ms;
    std::string error;
    size_t bytes = size_t(1) << 30;
    if (!ctx_->timeCopy(bytes, 20, ms, error))
      return Status::error("tessel-run: cuda: " + error);
    std::sort(ms.begin(), ms.end());
    gbps = 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
    return Status::ok();
  }

private:
  struct Buffer {
    CUdeviceptr ptr;
    size_t bytes;
    DType dtype;
    int64_t numel;
    std::string name;
  };

  /// Packs the arguments (checking them against the signature) and the grid.
  Status prepare(const LaunchConfig &config, const std::vector<LaunchArg> &args, unsigned grid[3]) {
    const std::string &fn = variant_.function;
    if (config.firstProgram != 0 || (config.programCount >= 0 &&
                                     config.programCount != config.grid.count()))
      return Status::error("tessel-run: cuda: " + fn +
                           ": the CUDA executor runs whole grids (no --programs subset)");
    // A dimension of 0 is an empty grid: CudaContext::launch runs nothing (case C17).
    if (config.grid.x < 0 || config.grid.x > 0x7fffffff || config.grid.y < 0 ||
        config.grid.y > 65535 || config.grid.z < 0 || config.grid.z > 65535)
      return Status::error("tessel-run: cuda: " + fn + ": grid (" + std::to_string(config.grid.x) +
                           ", " + std::to_string(config.grid.y) + ", " +
                           std::to_string(config.grid.z) +
                           ") exceeds CUDA's limits (2^31-1, 65535, 65535)");
    grid[0] = unsigned(config.grid.x), grid[1] = unsigned(config.grid.y),
    grid[2] = unsigned(config.grid.z);
    if (args.size() != variant_.args.size())
      return Status::error("tessel-run: cuda: " + fn + " takes " +
                           std::to_string(variant_.args.size()) + " arguments, got " +
                           std::to_string(args.size()));
    storage_.assign(args.size(), 0);
    params_.clear();
    for (size_t i = 0; i < args.size(); ++i) {
      const KernelArgInfo &info = variant_.args[i];
      const LaunchArg &a = args[i];
      std::string what = fn + " argument #" + std::to_string(i) + " '" + info.name + "'";
      if (info.isPointer()) {
        if (a.kind != LaunchArg::Kind::Buffer || a.buffer < 0 || a.buffer >= int64_t(buffers_.size()))
          return Status::error("tessel-run: cuda: " + what + " (" + info.type + ") needs a buffer");
        int bytes = scalarBytes(pointee(info.type));
        CUdeviceptr p = buffers_[a.buffer].ptr + CUdeviceptr(a.elementOffset * std::max(bytes, 1));
        if (info.divisibility > 1 && p % CUdeviceptr(info.divisibility) != 0)
          return Status::error("tessel-run: cuda: " + what + " is not aligned to " +
                               std::to_string(info.divisibility) + " bytes as the variant assumes");
        std::memcpy(&storage_[i], &p, sizeof(p));
      } else if (info.isFloat()) {
        double v = a.kind == LaunchArg::Kind::Float ? a.f : double(a.i);
        if (info.type == "f32") {
          float f = float(v);
          std::memcpy(&storage_[i], &f, 4);
        } else if (info.type == "f64") {
          std::memcpy(&storage_[i], &v, 8);
        } else {
          uint16_t h = info.type == "bf16" ? doubleToBF16(v) : doubleToHalf(v);
          std::memcpy(&storage_[i], &h, 2);
        }
      } else {
        int64_t v = a.kind == LaunchArg::Kind::Int ? a.i : int64_t(a.f);
        if (info.equalTo && v != *info.equalTo)
          return Status::error("tessel-run: cuda: " + what + " = " + std::to_string(v) +
                               " but variant " + fn + " assumes " + std::to_string(*info.equalTo) +
                               "; use the variant it specializes" +
                               (variant_.specializes.empty() ? "" : " (" + variant_.specializes + ")"));
        if (info.divisibility > 1 && v % info.divisibility != 0)
          return Status::error("tessel-run: cuda: " + what + " = " + std::to_string(v) +
                               " is not a multiple of " + std::to_string(info.divisibility) +
                               " as variant " + fn + " assumes; use the variant it specializes" +
                               (variant_.specializes.empty() ? "" : " (" + variant_.specializes + ")"));
        int bytes = scalarBytes(info.type);
        if (bytes == 0)
          return Status::error("tessel-run: cuda: " + what + " has unsupported type " + info.type);
        std::memcpy(&storage_[i], &v, size_t(bytes)); // little-endian truncation
      }
      params_.push_back(&storage_[i]);
    }
    return Status::ok();
  }

  std::unique_ptr<rt::CudaContext> ctx_;
  std::string initError_;
  rt::CudaKernel kernel_;
  KernelMetadata variant_;
  std::vector<Buffer> buffers_;
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
