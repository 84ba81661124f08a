//===- Options.h - tessel-run's command line ----------------------*- C++ -*-===//
//
// Parsed with CLI11 (header-only, Debian's libcli11-dev), not llvm::cl: the same source builds
// tessel-run-gpu, which must not link LLVM, and one parser serves both.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_RUN_OPTIONS_H
#define TESSEL_TOOLS_TESSEL_RUN_OPTIONS_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessel::harness {

/// Everything tessel-run was asked to do.
struct RunOptions {
  std::string kernelPath, function, problem, shape, dtype, target;
  uint64_t seed = 0;
  int reps = 5;
  bool bench = false, quiet = false;
  std::map<std::string, int64_t> defines;        ///< -D NAME=integer|true|false
  std::map<std::string, std::string> defineText; ///< -D NAME=enum-value
  std::map<std::string, std::string> options;    ///< --opt NAME=VALUE
  std::vector<std::string> rawArgs;              ///< --arg SPEC (RawRun.h)
  /// Raw mode: --save NAME=PATH.npy and --expect NAME=PATH.npy, in command-line order.
  std::vector<std::pair<std::string, std::string>> saves, expects;
  std::optional<double> tol;        ///< --tol X: the --expect bound instead of the dtype's
  std::optional<double> atol, rtol; ///< --atol/--rtol: --expect also bounds every element
  std::string gridSpec;
  bool hasPrograms = false;
  int64_t firstProgram = 0, programCount = -1; ///< --programs FIRST:COUNT
  bool listTargets = false;
  std::optional<std::string> listProblems; ///< "" plain, "markdown"
  /// --batch FILE: one command line per line (shell quoting), run in this process in order.
  std::string batch;
};

/// The words of one command line: blanks separate, '...' and "..." quote, \ escapes.
std::vector<std::string> splitCommandLine(const std::string &line);

/// Parses argv into `out`. Returns -1 to go on, or the exit code to leave with: 0 after
/// --help, 2 after a usage error (printed as "tessel-run: error: ..." with a pointer to
/// --help).
int parseRunOptions(int argc, char **argv, RunOptions &out);

} // namespace tessel::harness

#endif // TESSEL_TOOLS_TESSEL_RUN_OPTIONS_H
