//===- Problem.h - problem specs of the library kernels ----------*- C++ -*-===//
//
// A problem spec turns (kernel name, shape, dtype, seed, config) into everything one verified
// run needs: the buffers (inputs from a seeded RNG, never zero; outputs poisoned), the kernel's
// arguments in order (names and positions listed in docs/Interpreter.md), the grid, and for
// every output its double-precision reference and tolerance.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_PROBLEM_H
#define TESSEL_HARNESS_PROBLEM_H

#include "tessel/Harness/Compare.h"
#include "tessel/Harness/Executor.h"
#include "tessel/Harness/HostBuffer.h"
#include "tessel/Harness/Status.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tessel::harness {

struct ProblemBuffer {
  std::string name;
  HostBuffer host;
  bool output = false;           ///< poisoned before the run (unless also an input)
  bool input = true;             ///< uploaded with its initial contents
  std::vector<double> reference; ///< expected contents after the run (outputs)
  Tolerance tol;
  int64_t checkBegin = 0, checkEnd = -1; ///< element range compared (end -1: all)
  /// Sampled check of a (rows x rowLength) output: when not empty, `reference` holds only these
  /// rows (in this order, rowLength values each) and only they are compared; every element is
  /// still checked to have been written (no poison left). For products whose full
  /// double-precision reference costs minutes (the GEMM suite's 8192 x 57344 x 8192).
  std::vector<int64_t> checkRows;
  int64_t rowLength = 0;
  /// Element offset of the pointer handed to the kernel from the buffer's start: negative when
  /// only a window of a larger virtual tensor is allocated (case C6).
  int64_t pointerOffset = 0;
  /// Not a kernel argument: computed on the host by Problem::derive from the other outputs
  /// after the run (e.g. the mean of per-row losses), then compared like an output.
  bool derived = false;
};

struct ProblemArg {
  std::string name;
  std::vector<std::string> aliases; ///< other names a kernel may give the parameter
  LaunchArg::Kind kind = LaunchArg::Kind::Int;
  int buffer = -1; ///< Buffer: index into Problem::buffers
  int64_t i = 0;
  double f = 0;
};

struct Problem {
  std::string name;
  std::string description; ///< "softmax f32 [4096x4096]"
  std::vector<ProblemBuffer> buffers;
  std::vector<ProblemArg> args; ///< in the kernel's canonical parameter order
  LaunchConfig launch;
  /// Fills the derived buffers from the downloaded outputs (null when there are none).
  std::function<void(Problem &)> derive;
  int64_t elements = 0; ///< elements of the main input (throughput = elements / second)
  int64_t bytes = 0;    ///< the fewest bytes the kernel must move (bandwidth)
  /// The config fields the spec read (the grid's BLOCK, HAS_BIAS, ...), as it spelled them: a
  /// variant that agrees on them can run on this problem as built (the autotuner builds one).
  std::set<std::string> configRead;
};

/// What to build. `config` holds the variant's config fields (BLOCK, BLOCK_M, ...: compared
/// case-insensitively); `options` the problem's own knobs (reduction=mean, ignore=all,
/// act=relu, tail=8192, ...; listed by `problemHelp()`).
struct ProblemOptions {
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::f32;
  uint64_t seed = 0;
  std::map<std::string, int64_t> config;
  std::map<std::string, std::string> configText; ///< enum fields by name (ACT = "relu")
  std::map<std::string, std::string> options;
  /// False: a problem to time, not to check; specs whose reference costs more than a run
  /// (GEMM, the element-wise problems, the GLU backward and RoPE problems) may leave the
  /// outputs' references empty.
  bool reference = true;
  /// The GPU's multiprocessors (SMs, CUs) for launch heuristics such as split-K's; 0: unknown.
  int64_t multiprocessors = 0;
  /// A problem built from the same name, shape, dtype, seed and options for another config:
  /// its input buffers (matched by name, dtype and shape) are moved into the new one instead of
  /// drawn again (the tuner rebuilds a problem per config it reads: a 16x57344x8192 GEMM's
  /// weight is 470M random elements). Null: every input drawn.
  Problem *inputsFrom = nullptr;
  /// False: inputs are left zero, not drawn (only the arguments are wanted: tessel-tune reads a
  /// shape's key arguments from its problem). Such a problem is not for running.
  bool draw = true;
};

/// Builds the problem; an error names what is wrong (unknown problem, bad shape, bad option).
Status makeProblem(const ProblemOptions &opts, Problem &out);
/// The names makeProblem knows.
std::vector<std::string> problemNames();
/// One paragraph per problem: its shape, dtypes, options and parameter order.
std::string problemHelp();
/// The problems' parameter orders, shapes and grids as the markdown table of
/// docs/Interpreter.md.
std::string problemTableMarkdown();
/// "4096x4096" -> {4096, 4096}; nullopt-like empty vector on a malformed string.
std::vector<int64_t> parseShape(const std::string &s);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_PROBLEM_H
