//===- InterpreterExecutor.cpp - the harness Executor on the interpreter ---===//
//
// Buffers are host allocations registered as the launch's memory; a buffer argument's pointer
// is its start plus the argument's element offset (wrapping 64-bit arithmetic), so a test can
// hand a kernel the base of a huge virtual tensor of which only a window exists.
//
//===----------------------------------------------------------------------===//
#include "tessel/Interpreter/Interpreter.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Harness/Executor.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>

using namespace mlir;
using namespace tessel;
using namespace tessel::interp;
using harness::BufferId;
using harness::KernelMetadata;

namespace {

class InterpreterExecutor : public harness::Executor {
public:
  InterpreterExecutor() {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx_.appendDialectRegistry(registry);
    ctx_.loadAllAvailableDialects();
    ctx_.disableMultithreading();
  }

  std::string target() const override { return "interpreter"; }
  std::string describe() const override { return deviceDescription(); }

  Status load(KernelMetadata &variant) override {
    if (variant.tileIR.empty())
      return Status::error("variant " + variant.function +
                           " has no tile IR for the interpreter: compile it with tesselc "
                           "--emit=tile (beside a GPU binary: --emit=tile,cubin), or run it on "
                           "its GPU");
    std::string diag;
    llvm::raw_string_ostream os(diag);
    llvm::SourceMgr sm;
    SourceMgrDiagnosticHandler handler(sm, &ctx_, os);
    module_ = parseSourceFile<ModuleOp>(variant.tileIR, sm, ParserConfig(&ctx_));
    if (!module_)
      return Status::error(diag.empty() ? variant.tileIR + ": error: cannot parse" : os.str());
    func::FuncOp kernel;
    std::vector<func::FuncOp> kernels;
    module_->walk([&](func::FuncOp fn) {
      if (!variant.function.empty() ? fn.getSymName() == variant.function : tile::isKernel(fn))
        kernels.push_back(fn);
    });
    if (kernels.empty() && variant.function.empty())
      module_->walk([&](func::FuncOp fn) {
        if (!fn.isExternal())
          kernels.push_back(fn);
      });
    if (kernels.size() != 1)
      return Status::error(
          variant.tileIR + ": error: " +
          (variant.function.empty()
               ? "found " + std::to_string(kernels.size()) + " kernels; name one with --kernel"
               : "no function named '" + variant.function + "'"));
    kernel = kernels.front();
    if (Status s = CompiledKernel::compile(kernel, compiled_); !s)
      return s;
    if (variant.function.empty())
      variant.function = kernel.getSymName().str();
    if (variant.kernel.empty())
      variant.kernel = variant.function;
    const auto &params = compiled_->params();
    if (variant.args.empty()) {
      for (const ParamInfo &p : params)
        // "arg<N>" is the interpreter's placeholder for an unnamed parameter: bind by position.
        variant.args.push_back(
            {p.name == "arg" + std::to_string(variant.args.size()) ? "" : p.name, p.type});
    } else if (variant.args.size() != params.size()) {
      return Status::error(variant.metadataPath + ": error: the metadata lists " +
                           std::to_string(variant.args.size()) + " arguments but '" +
                           variant.function + "' takes " + std::to_string(params.size()));
    } else {
      for (size_t i = 0; i < params.size(); ++i)
        if (variant.args[i].type.empty())
          variant.args[i].type = params[i].type;
    }
    // tessel.config on the function (hand-written IR) supplies config fields.
    if (auto cfg = kernel->getAttrOfType<DictionaryAttr>("tessel.config"))
      for (NamedAttribute a : cfg) {
        if (auto i = dyn_cast<IntegerAttr>(a.getValue()))
          variant.config.emplace(a.getName().str(), i.getInt());
        else if (auto t = dyn_cast<StringAttr>(a.getValue()))
          variant.configText.emplace(a.getName().str(), t.str());
      }
    return Status::ok();
  }

  Status allocate(const std::string &name, harness::DType dtype, int64_t numel,
                  BufferId &id) override {
    if (numel < 0)
      return Status::error("cannot allocate " + std::to_string(numel) + " elements");
    Alloc a;
    a.name = name;
    a.dtype = dtype;
    a.bytes = static_cast<uint64_t>(numel) * harness::sizeOf(dtype);
    a.storage.assign(a.bytes / 8 + 2, 0);
    id = nextId_++;
    buffers_.emplace(id, std::move(a));
    return Status::ok();
  }
  Status upload(BufferId id, const harness::HostBuffer &host) override {
    auto it = buffers_.find(id);
    if (it == buffers_.end() || it->second.bytes != host.bytes())
      return Status::error("upload: unknown buffer or size mismatch");
    std::memcpy(it->second.storage.data(), host.data(), host.bytes());
    return Status::ok();
  }
  Status download(BufferId id, harness::HostBuffer &host) override {
    auto it = buffers_.find(id);
    if (it == buffers_.end() || it->second.bytes != host.bytes())
      return Status::error("download: unknown buffer or size mismatch");
    std::memcpy(host.data(), it->second.storage.data(), host.bytes());
    return Status::ok();
  }
  void releaseAll() override { buffers_.clear(); }

  Status launch(const harness::LaunchConfig &config,
                const std::vector<harness::LaunchArg> &args) override {
    if (!compiled_)
      return Status::error("interpreter: no kernel loaded");
    std::vector<ArgValue> values;
    for (const harness::LaunchArg &a : args) {
      ArgValue v;
      switch (a.kind) {
      case harness::LaunchArg::Kind::Buffer: {
        auto it = buffers_.find(a.buffer);
        if (it == buffers_.end())
          return Status::error("interpreter: unknown buffer id " + std::to_string(a.buffer));
        v.kind = ArgValue::Kind::Pointer;
        v.address = reinterpret_cast<uint64_t>(it->second.storage.data()) +
                    static_cast<uint64_t>(a.elementOffset) * harness::sizeOf(it->second.dtype);
        break;
      }
      case harness::LaunchArg::Kind::Int:
        v.kind = ArgValue::Kind::Int, v.i = a.i;
        break;
      case harness::LaunchArg::Kind::Float:
        v.kind = ArgValue::Kind::Float, v.f = a.f;
        break;
      }
      values.push_back(v);
    }
    std::vector<MemoryRegion> memory;
    for (auto &[id, a] : buffers_)
      memory.push_back({reinterpret_cast<uint64_t>(a.storage.data()), a.bytes, a.name, a.dtype});
    LaunchSpec spec;
    spec.grid[0] = config.grid.x, spec.grid[1] = config.grid.y, spec.grid[2] = config.grid.z;
    spec.firstProgram = config.firstProgram;
    spec.programCount = config.programCount;
    return compiled_->run(values, memory, spec);
  }

  bool canTime() const override { return true; }
  Status time(const harness::LaunchConfig &config, const std::vector<harness::LaunchArg> &args,
              int warmup, int reps, std::vector<double> &ms) override {
    for (int i = 0; i < warmup; ++i)
      if (Status s = launch(config, args); !s)
        return s;
    for (int i = 0; i < reps; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      if (Status s = launch(config, args); !s)
        return s;
      ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return Status::ok();
  }

private:
  struct Alloc {
    std::string name;
    harness::DType dtype;
    uint64_t bytes = 0;
    std::vector<uint64_t> storage;
  };
  MLIRContext ctx_{MLIRContext::Threading::DISABLED};
  OwningOpRef<ModuleOp> module_;
  std::unique_ptr<CompiledKernel> compiled_;
  std::map<BufferId, Alloc> buffers_;
  BufferId nextId_ = 1;
};

} // namespace

void tessel::interp::registerInterpreterExecutor() {
  harness::registerExecutor({"interpreter", "tile IR on the CPU (lib/Interpreter)",
                             [] { return std::make_unique<InterpreterExecutor>(); }});
}
