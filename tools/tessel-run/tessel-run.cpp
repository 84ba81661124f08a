//===- tessel-run.cpp - run and verify a compiled kernel on a target ------===//
//
// tessel-run KERNEL --problem NAME --shape AxB [--dtype T] [--seed N] [--target T] ...
//
// KERNEL is a kernel variant's metadata JSON (written by tesselc) or a tile-IR .mlir file
// (with --kernel NAME when it holds several kernels). The problem spec (lib/Harness) builds the
// inputs from a seeded RNG, poisons the outputs, launches on the target, and compares every
// output with its double-precision reference: max abs error, relative error, PASS/FAIL. Exit
// code: 0 PASS, 1 FAIL (including a launch stopped by an out-of-bounds access), 2 bad usage or
// setup.
//
// Built twice from this file: tessel-run (with the interpreter, links MLIR) and tessel-run-gpu
// (TESSEL_RUN_NO_INTERPRETER: no MLIR or LLVM, for GPU machines; its CUDA and HIP executors
// come with the runtime).
//
//===----------------------------------------------------------------------===//
#include "tessel/Harness/Executor.h"
#include "tessel/Harness/Problem.h"
#include "tessel/Harness/Runner.h"

#include "Options.h"
#include "RawRun.h"

#include "tessel/AMD/Runtime/HipExecutor.h"
#include "tessel/NVIDIA/Runtime/CudaExecutor.h"

#ifndef TESSEL_RUN_NO_INTERPRETER
#include "tessel/Interpreter/Interpreter.h"
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace tessel::harness;

static int usage(const std::string &msg) {
  fmt::print(stderr, "tessel-run: error: {}\n(run tessel-run --help)\n", msg);
  return 2;
}

static int listTargets() {
  if (registeredExecutors().empty())
    fmt::print("no target in this build (tessel-run-gpu gets the CUDA executor with the "
               "runtime; the interpreter is not in this build: use tessel-run)\n");
  for (const ExecutorEntry &e : registeredExecutors())
    fmt::print("{}: {}\n", e.target, e.description);
#ifdef TESSEL_RUN_NO_INTERPRETER
  fmt::print("(the interpreter is not in this build: use tessel-run)\n");
#endif
  return 0;
}

static int runBatch(const std::string &path);

/// One run: the command line's work, as main does it.
static int runOnce(int argc, char **argv) {
  RunOptions o;
  if (int rc = parseRunOptions(argc, argv, o); rc >= 0)
    return rc;
  if (!o.batch.empty())
    return argc <= 3 ? runBatch(o.batch) : usage("--batch FILE takes no other arguments");
  if (o.listTargets)
    return listTargets();
  if (o.listProblems) {
    fmt::print("{}", *o.listProblems == "markdown" ? problemTableMarkdown() : problemHelp());
    return 0;
  }
  std::string kernelPath = o.kernelPath, function = o.function, problem = o.problem,
              shape = o.shape, dtype = o.dtype, target = o.target, gridSpec = o.gridSpec;
  if (kernelPath.empty())
    return usage("no kernel file given");

  // The target.
  bool defaulted = target.empty();
  if (defaulted) {
    // The first GPU executor that finds a device, else the interpreter.
    for (const char *gpu : {"cuda", "hip"}) {
      const ExecutorEntry *e = findExecutor(gpu);
      if (target.empty() && e && (!e->available || e->available()))
        target = gpu;
    }
    if (target.empty() && findExecutor("interpreter"))
      target = "interpreter";
  }
  const ExecutorEntry *entry = target.empty() ? nullptr : findExecutor(target);
  if (!entry) {
#ifdef TESSEL_RUN_NO_INTERPRETER
    if (target.empty() || target == "interpreter")
      return usage("the interpreter is not in this build (tessel-run-gpu); use tessel-run");
#endif
    return usage("unknown target '" + target + "' (--list-targets)");
  }
  std::unique_ptr<Executor> ex = entry->create();

  // The variant.
  KernelMetadata variant;
  bool isJson = kernelPath.size() > 5 && kernelPath.substr(kernelPath.size() - 5) == ".json";
  if (isJson) {
    if (Status s = loadKernelMetadata(kernelPath, variant); !s) {
      fmt::print(stderr, "{}\n", s.message());
      return 2;
    }
    if (!function.empty())
      variant.function = function;
  } else {
    std::string ext = std::filesystem::path(kernelPath).extension().string();
    if (ext == ".cpp" || ext == ".cc" || ext == ".cxx")
      return usage("'" + kernelPath + "' is DSL source: compile it first (tesselc " + kernelPath +
                   " -o DIR) and run a variant's metadata, DIR/<variant>.json");
    variant = metadataForTileIR(kernelPath, function);
  }
  if (Status s = ex->load(variant); !s) {
    fmt::print(stderr, "{}\n", s.message());
    return 2;
  }

  // A library kernel's variant names its problem (softmax_looped -> softmax).
  if (problem.empty() && gridSpec.empty())
    problem = variant.kernel;
  if (problem.empty() && gridSpec.empty())
    return usage("no --problem given (--list-problems), and no --grid for a raw run");
  if (problem.empty()) {
    std::vector<int64_t> g = parseShape(gridSpec);
    if (g.empty() || g.size() > 3)
      return usage("bad --grid '" + gridSpec + "' (expected X, X,Y or X,Y,Z)");
    Grid grid;
    grid.x = g[0];
    grid.y = g.size() > 1 ? g[1] : 1;
    grid.z = g.size() > 2 ? g[2] : 1;
    return rawRun(*ex, variant, o, grid);
  }
  if (!o.saves.empty() || !o.expects.empty() || o.tol || o.atol || o.rtol)
    return usage("--save, --expect, --tol, --atol and --rtol belong to a raw run (--grid and "
                 "--arg); a problem checks its outputs itself");

  // The problem.
  if (defaulted && target == "interpreter" && !o.quiet)
    fmt::print("tessel-run: no GPU found: running on the interpreter\n");
  ProblemOptions po;
  po.name = problem;
  po.shape = parseShape(shape);
  if (po.shape.empty())
    return usage("bad --shape '" + shape + "' (expected e.g. 4096x4096)");
  if (dtype.empty())
    dtype = variant.dtype.empty() ? "f32" : variant.dtype;
  auto dt = parseDType(dtype);
  if (!dt)
    return usage("unknown --dtype '" + dtype + "'");
  po.dtype = *dt;
  po.seed = o.seed;
  po.config = variant.config;
  po.multiprocessors = ex->multiprocessorCount();
  po.configText = variant.configText;
  for (auto &[k, v] : o.defines)
    po.config[k] = v;
  for (auto &[k, v] : o.defineText)
    po.configText[k] = v;
  po.options = o.options;
  Problem p;
  if (Status s = makeProblem(po, p); !s)
    return usage(s.message());
  if (o.hasPrograms) {
    p.launch.firstProgram = o.firstProgram;
    p.launch.programCount = o.programCount;
  }

  RunReport report;
  if (Status s = runProblem(*ex, variant, p, report); !s) {
    fmt::print(stderr, "tessel-run: error: {}\n", s.message());
    return 2;
  }
  if (!report.error.empty()) {
    fmt::print(stderr, "{}\n", report.error);
    fmt::print("{}: FAIL (the launch was stopped)\n", p.description);
    return 1;
  }
  std::string text = formatReport(p, report);
  if (o.quiet)
    text = text.substr(text.rfind('\n', text.size() - 2) + 1);
  fmt::print("{}", text);
  if (!o.quiet)
    fmt::print("time: {:.1f} ms on {}, {:.3g} elements/s\n", report.seconds * 1e3, ex->describe(),
               p.elements / report.seconds);
  if (o.bench && report.pass) {
    if (!ex->canTime()) {
      fmt::print(stderr, "tessel-run: {} cannot time launches\n", target);
      return 2;
    }
    // Re-run on fresh buffers for timing.
    std::vector<BufferId> ids;
    std::vector<LaunchArg> args;
    if (Status s = uploadArguments(*ex, variant, p, ids, args); !s) {
      fmt::print(stderr, "{}\n", s.message());
      return 2;
    }
    std::vector<double> ms;
    if (Status s = ex->time(p.launch, args, 1, o.reps, ms); !s) {
      fmt::print(stderr, "{}\n", s.message());
      return 1;
    }
    printBench(*ex, ms, o.reps, p.elements, p.bytes);
    ex->releaseAll();
  }
  return report.pass ? 0 : 1;
}

/// --batch: each line a command line, run in order in this process, so that a thousand small
/// runs create the GPU context once (the runtime keeps it until exit).
static int runBatch(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "r");
  if (!f)
    return usage("cannot read --batch file '" + path + "'");
  int worst = 0, n = 0;
  char buf[1 << 16];
  std::string line;
  while (std::fgets(buf, sizeof(buf), f)) {
    line += buf;
    if (line.empty() || line.back() != '\n') {
      if (!std::feof(f))
        continue; // a line longer than the buffer
    }
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
      line.pop_back();
    std::vector<std::string> words = splitCommandLine(line);
    line.clear();
    if (words.empty() || words[0][0] == '#')
      continue;
    std::vector<char *> args{const_cast<char *>("tessel-run")};
    for (std::string &w : words)
      args.push_back(w.data());
    args.push_back(nullptr);
    int rc = runOnce(int(args.size()) - 1, args.data());
    std::fflush(stderr);
    fmt::print("=== case {} exit {}\n", n++, rc);
    worst = std::max(worst, rc);
  }
  std::fclose(f);
  return worst;
}

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // errors (stderr) and verdicts interleave in order
  tessel::rt::registerCudaExecutor();
  tessel::rt::registerHipExecutor();
#ifndef TESSEL_RUN_NO_INTERPRETER
  tessel::interp::registerInterpreterExecutor();
#endif
  return runOnce(argc, argv);
}
