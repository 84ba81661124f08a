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
// (TESSEL_RUN_NO_INTERPRETER: no MLIR or LLVM, for GPU machines; its CUDA executor comes with
// the runtime).
//
//===----------------------------------------------------------------------===//
#include "tessel/Harness/Executor.h"
#include "tessel/Harness/Problem.h"
#include "tessel/Harness/Runner.h"

#include "RawRun.h"

#include "tessel/Runtime/CudaExecutor.h"

#ifndef TESSEL_RUN_NO_INTERPRETER
#include "tessel/Interpreter/Interpreter.h"
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace tessel::harness;

static const char *kUsage = R"(usage: tessel-run KERNEL --problem NAME --shape DIMS [options]

Runs a compiled kernel variant on a target and verifies it against a double-precision reference.

  KERNEL                 a variant's metadata JSON (tesselc) or a tile-IR .mlir file
  --kernel NAME          the function to run (a .mlir file with several kernels)
  --problem NAME         the problem spec (--list-problems); default: the variant's kernel
  --shape DIMS           e.g. 4096x4096 (meaning per problem)
  --dtype T              f32, f16, bf16, f64 (default: the variant's dtype, else f32)
  --seed N               RNG seed of the inputs (default 0)
  --target T             interpreter, cuda, ... (--list-targets); default: a GPU target when
                         one is built in and finds a device, else the interpreter
  -D NAME=VALUE          config field for the problem (BLOCK, BLOCK_M, ...); the variant's own
                         config (metadata JSON, or tessel.config on a .mlir kernel) comes first
  --opt NAME=VALUE       problem option (reduction=mean, ignore=all, act=relu, tail=4096,
                         gemm's lda=65, a_order=col, b_order=col, ...: --list-problems)
  --threads N            interpreter threads (default: all cores)
  --bench                time repeated launches (median) after the verified run
  --reps N               timed launches for --bench (default 5)
  --quiet                print only the verdict line
  --grid X[,Y,Z]         without --problem: run on the --arg values and print every buffer
  --arg SPEC             (repeatable) f32:[1,2], f32[8] (poisoned), f32[8]=iota, i64=5 ...;
                         NAME@SPEC names a buffer (see tools/tessel-run/RawRun.h)
  --programs FIRST:COUNT run only these linear program ids of the grid
  --list-targets         print the targets of this build
  --list-problems        print the problem specs and their parameters
                         (--list-problems=markdown: the table of docs/Interpreter.md)
)";

static int usage(const std::string &msg) {
  std::fprintf(stderr, "tessel-run: error: %s\n(run tessel-run --help)\n", msg.c_str());
  return 2;
}

static bool keyValue(const std::string &s, std::string &k, std::string &v) {
  size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    return false;
  k = s.substr(0, eq), v = s.substr(eq + 1);
  return true;
}

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // errors (stderr) and verdicts interleave in order
  tessel::rt::registerCudaExecutor();
#ifndef TESSEL_RUN_NO_INTERPRETER
  tessel::interp::registerInterpreterExecutor();
#endif
  std::string kernelPath, function, problem, shape, dtype, target;
  uint64_t seed = 0;
  int reps = 5;
  bool bench = false, quiet = false;
  std::map<std::string, int64_t> defines;
  std::map<std::string, std::string> defineText;
  std::map<std::string, std::string> options;
  std::vector<std::string> rawArgs;
  std::string gridSpec, programs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) -> bool {
      size_t eq = a.find('=');
      if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
        out = a.substr(eq + 1);
        return true;
      }
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    auto is = [&](const char *flag) {
      return a == flag || a.rfind(std::string(flag) + "=", 0) == 0;
    };
    std::string v;
    if (a == "--help" || a == "-h") {
      std::printf("%s", kUsage);
      return 0;
    } else if (a == "--list-targets") {
      if (registeredExecutors().empty())
        std::printf("no target in this build (tessel-run-gpu gets the CUDA executor with the "
                    "runtime; the interpreter is not in this build: use tessel-run)\n");
      for (const ExecutorEntry &e : registeredExecutors())
        std::printf("%s: %s\n", e.target.c_str(), e.description.c_str());
#ifdef TESSEL_RUN_NO_INTERPRETER
      std::printf("(the interpreter is not in this build: use tessel-run)\n");
#endif
      return 0;
    } else if (a == "--list-problems") {
      std::printf("%s", problemHelp().c_str());
      return 0;
    } else if (a == "--list-problems=markdown") {
      std::printf("%s", problemTableMarkdown().c_str());
      return 0;
    } else if (is("--kernel")) {
      if (!value(function))
        return usage("--kernel needs a value");
    } else if (is("--problem")) {
      if (!value(problem))
        return usage("--problem needs a value");
    } else if (is("--shape")) {
      if (!value(shape))
        return usage("--shape needs a value");
    } else if (is("--dtype")) {
      if (!value(dtype))
        return usage("--dtype needs a value");
    } else if (is("--seed")) {
      if (!value(v))
        return usage("--seed needs a value");
      seed = std::strtoull(v.c_str(), nullptr, 10);
    } else if (is("--target")) {
      if (!value(target))
        return usage("--target needs a value");
    } else if (is("--threads")) {
      if (!value(v))
        return usage("--threads needs a value");
      setenv("TESSEL_INTERP_THREADS", v.c_str(), 1);
    } else if (is("--reps")) {
      if (!value(v))
        return usage("--reps needs a value");
      reps = std::max(1, std::atoi(v.c_str()));
    } else if (is("--arg")) {
      if (!value(v))
        return usage("--arg needs a value");
      rawArgs.push_back(v);
    } else if (is("--grid")) {
      if (!value(gridSpec))
        return usage("--grid needs a value");
    } else if (is("--programs")) {
      if (!value(programs))
        return usage("--programs needs FIRST:COUNT");
    } else if (a == "--bench") {
      bench = true;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "-D" || a.rfind("-D", 0) == 0) {
      std::string kv = a.size() > 2 ? a.substr(2) : (i + 1 < argc ? argv[++i] : "");
      std::string k, val;
      if (!keyValue(kv, k, val))
        return usage("-D needs NAME=VALUE, got '" + kv + "'");
      char *end = nullptr;
      long long iv = std::strtoll(val.c_str(), &end, 0);
      if (val == "true" || val == "false")
        defines[k] = val == "true";
      else if (end && *end == 0 && !val.empty())
        defines[k] = iv;
      else
        defineText[k] = val; // an enum field: -D ACT=relu
    } else if (is("--opt")) {
      std::string k, val;
      if (!value(v) || !keyValue(v, k, val))
        return usage("--opt needs NAME=VALUE");
      options[k] = val;
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option '" + a + "'");
    } else if (kernelPath.empty()) {
      kernelPath = a;
    } else {
      return usage("more than one kernel file ('" + kernelPath + "', '" + a + "')");
    }
  }
  if (kernelPath.empty())
    return usage("no kernel file given");

  // The target.
  bool defaulted = target.empty();
  if (defaulted) {
    const ExecutorEntry *cuda = findExecutor("cuda");
    if (cuda && (!cuda->available || cuda->available()))
      target = "cuda";
    else if (findExecutor("interpreter"))
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
      std::fprintf(stderr, "%s\n", s.message().c_str());
      return 2;
    }
    if (!function.empty())
      variant.function = function;
  } else {
    variant = metadataForTileIR(kernelPath, function);
  }
  if (Status s = ex->load(variant); !s) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 2;
  }

  // A library kernel's variant names its problem (softmax_looped -> softmax).
  if (problem.empty() && gridSpec.empty())
    problem = variant.kernel;
  if (problem.empty() && gridSpec.empty())
    return usage("no --problem given (--list-problems), and no --grid for a raw run");
  int64_t firstProgram = 0, programCount = -1;
  if (!programs.empty()) {
    size_t colon = programs.find(':');
    if (colon == std::string::npos)
      return usage("--programs needs FIRST:COUNT");
    firstProgram = std::strtoll(programs.c_str(), nullptr, 10);
    programCount = std::strtoll(programs.c_str() + colon + 1, nullptr, 10);
  }
  if (problem.empty()) {
    std::vector<int64_t> g = parseShape(gridSpec);
    if (g.empty() || g.size() > 3)
      return usage("bad --grid '" + gridSpec + "' (expected X, X,Y or X,Y,Z)");
    Grid grid;
    grid.x = g[0];
    grid.y = g.size() > 1 ? g[1] : 1;
    grid.z = g.size() > 2 ? g[2] : 1;
    return rawRun(*ex, variant, rawArgs, grid, firstProgram, programCount);
  }

  // The problem.
  if (defaulted && target == "interpreter" && !quiet)
    std::printf("tessel-run: no GPU found: running on the interpreter\n");
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
  po.seed = seed;
  po.config = variant.config;
  po.configText = variant.configText;
  for (auto &[k, v] : defines)
    po.config[k] = v;
  for (auto &[k, v] : defineText)
    po.configText[k] = v;
  po.options = options;
  Problem p;
  if (Status s = makeProblem(po, p); !s)
    return usage(s.message());
  if (!programs.empty()) {
    p.launch.firstProgram = firstProgram;
    p.launch.programCount = programCount;
  }

  RunReport report;
  if (Status s = runProblem(*ex, variant, p, report); !s) {
    std::fprintf(stderr, "tessel-run: error: %s\n", s.message().c_str());
    return 2;
  }
  if (!report.error.empty()) {
    std::fprintf(stderr, "%s\n", report.error.c_str());
    std::printf("%s: FAIL (the launch was stopped)\n", p.description.c_str());
    return 1;
  }
  std::string text = formatReport(p, report);
  if (quiet)
    text = text.substr(text.rfind('\n', text.size() - 2) + 1);
  std::printf("%s", text.c_str());
  if (!quiet)
    std::printf("time: %.1f ms on %s, %.3g elements/s\n", report.seconds * 1e3,
                ex->describe().c_str(), p.elements / report.seconds);
  if (bench && report.pass) {
    if (!ex->canTime()) {
      std::fprintf(stderr, "tessel-run: %s cannot time launches\n", target.c_str());
      return 2;
    }
    // Re-run on fresh buffers for timing.
    std::vector<BufferId> ids;
    for (ProblemBuffer &b : p.buffers) {
      BufferId id = -1;
      if (b.derived) {
        ids.push_back(id);
        continue;
      }
      if (!ex->allocate(b.name, b.host.dtype(), b.host.numel(), id) || !ex->upload(id, b.host))
        return 2;
      ids.push_back(id);
    }
    std::vector<int> order;
    (void)bindArguments(variant, p, order);
    std::vector<LaunchArg> args;
    for (int idx : order) {
      const ProblemArg &a = p.args[idx];
      if (a.kind == LaunchArg::Kind::Buffer)
        args.push_back(LaunchArg::buffer_(ids[a.buffer], p.buffers[a.buffer].pointerOffset));
      else if (a.kind == LaunchArg::Kind::Int)
        args.push_back(LaunchArg::int_(a.i));
      else
        args.push_back(LaunchArg::float_(a.f));
    }
    std::vector<double> ms;
    if (Status s = ex->time(p.launch, args, 1, reps, ms); !s) {
      std::fprintf(stderr, "%s\n", s.message().c_str());
      return 1;
    }
    std::sort(ms.begin(), ms.end());
    double med = ms[ms.size() / 2];
    double gbps = p.bytes / (med * 1e-3) / 1e9, copy = 0;
    std::printf("bench: median %.4f ms over %d launches, %.3g elements/s, %.0f GB/s", med, reps,
                p.elements / (med * 1e-3), gbps);
    if (ex->copyBandwidth(copy))
      std::printf(" (%.1f%% of the %.0f GB/s device copy)", 100 * gbps / copy, copy);
    std::printf("\n");
    ex->releaseAll();
  }
  return report.pass ? 0 : 1;
}
