//===- Launch.cpp - compiling a kernel and running its grid ----------------===//
//
// Program instances are handed out in chunks of consecutive linear ids through an atomic
// counter to a pool of threads, each with its own frame. An instance that fails records its
// error if its id is the lowest failing so far; instances with higher ids are then skipped, so
// the reported error is the same whatever the scheduling.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "ProgramBuilder.h"

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;
using namespace tessel::interp;

CompiledKernel::CompiledKernel() = default;
CompiledKernel::~CompiledKernel() = default;

Status CompiledKernel::compile(func::FuncOp kernel, std::unique_ptr<CompiledKernel> &out) {
  std::unique_ptr<CompiledKernel> k(new CompiledKernel());
  k->program_ = std::make_unique<Program>();
  k->name_ = kernel.getSymName().str();
  ProgramBuilder c(*k->program_);
  if (Status s = c.compileKernel(kernel, k->params_); !s)
    return s;
  out = std::move(k);
  return Status::ok();
}

/// Threads for a launch: explicit, else TESSEL_INTERP_THREADS, else the hardware's.
static unsigned threadCount(unsigned requested, int64_t programs) {
  unsigned n = requested;
  if (!n)
    if (const char *env = std::getenv("TESSEL_INTERP_THREADS"))
      n = static_cast<unsigned>(std::max(1, std::atoi(env)));
  if (!n)
    n = std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  return static_cast<unsigned>(std::min<int64_t>(n, std::max<int64_t>(1, programs)));
}

std::string tessel::interp::deviceDescription() {
  return "CPU interpreter (" + std::to_string(threadCount(0, INT64_MAX)) + " threads)";
}

Status CompiledKernel::run(const std::vector<ArgValue> &args,
                           const std::vector<MemoryRegion> &memory,
                           const LaunchSpec &launch) const {
  const Program &prog = *program_;
  if (args.size() != prog.argSlots.size())
    return Status::error("error: kernel '" + name_ + "' takes " +
                         std::to_string(prog.argSlots.size()) + " arguments, got " +
                         std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    bool ptr = prog.slots[prog.argSlots[i]].elem == Elem::ptr;
    if (ptr != (args[i].kind == ArgValue::Kind::Pointer))
      return Status::error("error: argument #" + std::to_string(i) + " of kernel '" + name_ +
                           "' must be " + (ptr ? "a buffer" : "a scalar") + " (" + params_[i].type +
                           ")");
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (params_[i].equalTo && args[i].kind == ArgValue::Kind::Int &&
        args[i].i != *params_[i].equalTo)
      return Status::error("error: argument #" + std::to_string(i) + " '" + params_[i].name +
                           "' of '" + name_ +
                           "' breaks its tile.equal_to = " + std::to_string(*params_[i].equalTo) +
                           ": got " + std::to_string(args[i].i));
  for (size_t i = 0; i < args.size(); ++i) {
    int64_t div = params_[i].divisibility;
    if (div <= 1)
      continue;
    bool isPtr = args[i].kind == ArgValue::Kind::Pointer;
    uint64_t v = isPtr ? args[i].address : static_cast<uint64_t>(args[i].i);
    if (args[i].kind != ArgValue::Kind::Float && v % static_cast<uint64_t>(div) != 0)
      return Status::error(
          "error: argument #" + std::to_string(i) + " '" + params_[i].name + "' of '" + name_ +
          "' breaks its tile.divisibility = " + std::to_string(div) +
          (isPtr ? ": the address is not a multiple of " + std::to_string(div) + " bytes"
                 : ": " + std::to_string(args[i].i) + " is not a multiple of " +
                       std::to_string(div)));
  }
  for (int d = 0; d < 3; ++d)
    if (launch.grid[d] < 0 || launch.grid[d] > INT32_MAX)
      return Status::error("error: grid dimension " + std::to_string(d) + " is " +
                           std::to_string(launch.grid[d]) + "; it must be in [0, 2^31)");
  // An empty grid (a dimension of 0, e.g. cdiv(0, BLOCK) programs for n = 0) runs no program:
  // a no-op, as on the GPU (case C17). A program subset of it must be empty too.
  if (launch.grid[0] == 0 || launch.grid[1] == 0 || launch.grid[2] == 0) {
    if (launch.firstProgram != 0 || launch.programCount > 0)
      return Status::error(
          "error: programs [" + std::to_string(launch.firstProgram) + ", " +
          std::to_string(launch.firstProgram + std::max<int64_t>(0, launch.programCount)) +
          ") are outside the empty grid");
    return Status::ok();
  }
  if (launch.grid[0] * launch.grid[1] > (int64_t(1) << 62) / launch.grid[2])
    return Status::error("error: a grid of " + std::to_string(launch.grid[0]) + " x " +
                         std::to_string(launch.grid[1]) + " x " + std::to_string(launch.grid[2]) +
                         " programs is too large");
  int64_t total = launch.grid[0] * launch.grid[1] * launch.grid[2];
  int64_t first = launch.firstProgram;
  int64_t count = launch.programCount < 0 ? total - first : launch.programCount;
  if (first < 0 || count < 0 || first + count > total)
    return Status::error("error: programs [" + std::to_string(first) + ", " +
                         std::to_string(first + count) + ") are outside the grid of " +
                         std::to_string(total));

  std::vector<MemoryRegion> mem(memory);
  std::sort(mem.begin(), mem.end(),
            [](const MemoryRegion &a, const MemoryRegion &b) { return a.begin < b.begin; });
  LaunchState state;
  state.memory = &mem;
  std::copy(launch.grid, launch.grid + 3, state.grid);

  unsigned threads = threadCount(launch.threads, count);
  int64_t chunk = std::max<int64_t>(1, count / (threads * 16));
  std::atomic<int64_t> next{first};
  const int64_t end = first + count;

  auto worker = [&]() {
    Frame f;
    f.launch = &state;
    prog.initFrame(f);
    for (size_t i = 0; i < args.size(); ++i) {
      int s = prog.argSlots[i];
      const SlotType &t = prog.slots[s];
      Buffer &b = f.slots[s];
      switch (args[i].kind) {
      case ArgValue::Kind::Pointer:
        b.as<int64_t>()[0] = static_cast<int64_t>(args[i].address);
        break;
      case ArgValue::Kind::Int:
        if (t.storage() == Storage::I64)
          b.as<int64_t>()[0] = wrapTo(args[i].i, widthOf(t.elem));
        else if (t.storage() == Storage::F64)
          b.as<double>()[0] = static_cast<double>(args[i].i);
        else
          b.as<float>()[0] = static_cast<float>(args[i].i);
        break;
      case ArgValue::Kind::Float:
        if (t.storage() == Storage::F64)
          b.as<double>()[0] = args[i].f;
        else if (t.storage() == Storage::F32)
          b.as<float>()[0] =
              t.elem == Elem::f16    ? harness::halfToFloat(harness::doubleToHalf(args[i].f))
              : t.elem == Elem::bf16 ? harness::bf16ToFloat(harness::doubleToBF16(args[i].f))
                                     : static_cast<float>(args[i].f);
        else
          b.as<int64_t>()[0] = static_cast<int64_t>(args[i].f);
        break;
      }
    }
    while (true) {
      int64_t begin = next.fetch_add(chunk);
      if (begin >= end)
        return;
      for (int64_t p = begin; p < std::min(end, begin + chunk); ++p) {
        if (p > state.errorProgram.load(std::memory_order_relaxed))
          return;
        f.linearPid = p;
        f.pid[0] = p % launch.grid[0];
        f.pid[1] = (p / launch.grid[0]) % launch.grid[1];
        f.pid[2] = p / (launch.grid[0] * launch.grid[1]);
        f.failed = false;
        prog.body.run(f);
      }
    }
  };

  if (threads <= 1) {
    worker();
  } else {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
    for (unsigned t = 0; t < threads; ++t)
      pool.async(worker);
    pool.wait();
  }
  if (state.errorProgram.load() != INT64_MAX)
    return Status::error(state.error);
  return Status::ok();
}
