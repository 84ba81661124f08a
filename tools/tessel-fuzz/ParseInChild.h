//===- ParseInChild.h - parse fuzz inputs in a forked child first -*- C++ -*-===//
//
// MLIR 19's parser corrupts the heap when it reports an error after unresolved forward
// references (tools/tessel-fuzz/open/README.md: upstream, reproduced with mlir-opt-19 alone);
// a later input in the same fuzzing process then crashes somewhere unrelated. The targets
// therefore parse each input in a child process first and parse it in-process only when the
// child parsed it without an error. The child's coverage of the parser's error paths is lost;
// the passes' is kept.
//
// A child that dies (a signal, or a sanitizer report, printed to the log) crashed in the parser
// or in one of Tessel's dialect parsers. The same MLIR 19 bug class crashes the parser outright
// when an op's parser resolves an operand that its own region defines later (llvm-project
// #107121, fixed upstream after 19 by #127778), so such a child does not stop the run: its
// input is saved as parser-crash-<hash> and rejected, and scripts/fuzz-run.sh fails the run
// unless every child's report is one tools/tessel-fuzz/open/upstream-parser-crashes.txt lists.
//
// The children are not forked from the fuzzing process itself but from a "zygote" forked once,
// at the first input, while that process is still small: a fork marks every written page of
// the forking process copy-on-write, and the fuzzing process, which grows and then writes all
// over its heap between forks, paid for that in page faults on every input (two thirds of the
// tile-IR target's time on 2 cores, more in virtual machines). The zygote only reads inputs
// from a pipe, forks, waits and answers, so its pages stay shared and its forks stay cheap. It
// parses in a context of its own, made with the same dialects before the first fork.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_FUZZ_PARSEINCHILD_H
#define TESSEL_TOOLS_FUZZ_PARSEINCHILD_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

// libFuzzer's death callback (sanitizer builds only) writes the fuzzing process's current input
// as crash-*: in a child it would write whatever input the zygote was forked on.
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace tessel::fuzz {

namespace detail {

// A child's exit codes; anything else (a signal, the sanitizers' exit code 1) is a crash.
constexpr int kParsed = 0, kParseError = 3;

/// Moves all `size` bytes through `io` (read or write), retrying after signals; false at end of
/// file or on an error.
template <class IO> bool transferAll(IO io, int fd, char *p, size_t size) {
  while (size) {
    ssize_t n = io(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

inline bool readAll(int fd, void *data, size_t size) {
  return transferAll(::read, fd, static_cast<char *>(data), size);
}

inline bool writeAll(int fd, const void *data, size_t size) {
  return transferAll(::write, fd, const_cast<char *>(static_cast<const char *>(data)), size);
}

/// The zygote's loop: per request (a length, then the text) fork a child that parses the text
/// in `context`, and answer with the child's wait status. Ends when the fuzzing process closes
/// the pipe or dies.
[[noreturn]] inline void serve(int in, int out, mlir::MLIRContext &context) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (__sanitizer_set_death_callback)
    __sanitizer_set_death_callback(nullptr);
  std::string text;
  for (;;) {
    uint64_t size = 0;
    if (!readAll(in, &size, sizeof size))
      _exit(0);
    text.resize(size);
    if (!readAll(in, text.data(), size))
      _exit(0);
    pid_t pid = fork();
    if (pid < 0)
      _exit(1);
    if (pid == 0)
      _exit(mlir::parseSourceString<mlir::ModuleOp>(text, &context) ? kParsed : kParseError);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!writeAll(out, &status, sizeof status))
      _exit(0);
  }
}

} // namespace detail

/// Whether `text` parses without an error in a context with the dialects `addDialects`
/// registers, decided in a child of the zygote (started at the first call).
inline bool parsesInChild(const std::string &text,
                          llvm::function_ref<void(mlir::DialectRegistry &)> addDialects) {
  static int toZygote = -1, fromZygote = -1;
  if (toZygote < 0) {
    int request[2], answer[2];
    if (pipe(request) || pipe(answer))
      std::abort();
    pid_t pid = fork();
    if (pid < 0)
      std::abort();
    if (pid == 0) {
      close(request[1]);
      close(answer[0]);
      mlir::DialectRegistry registry;
      addDialects(registry);
      mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
      context.loadAllAvailableDialects();
      context.getDiagEngine().registerHandler([](mlir::Diagnostic &) { return mlir::success(); });
      detail::serve(request[0], answer[1], context);
    }
    close(request[0]);
    close(answer[1]);
    toZygote = request[1];
    fromZygote = answer[0];
  }
  uint64_t size = text.size();
  int status = 0;
  // libFuzzer's timeout timer interrupts the reads and writes (EINTR, retried).
  if (!detail::writeAll(toZygote, &size, sizeof size) ||
      !detail::writeAll(toZygote, text.data(), text.size()) ||
      !detail::readAll(fromZygote, &status, sizeof status))
    std::abort(); // the zygote died
  if (WIFEXITED(status) && WEXITSTATUS(status) == detail::kParsed)
    return true;
  if (WIFEXITED(status) && WEXITSTATUS(status) == detail::kParseError)
    return false;
  // The parser crashed on this input alone (the child's report is in the log).
  uint64_t hash = 1469598103934665603ull; // FNV-1a
  for (unsigned char ch : text)
    hash = (hash ^ ch) * 1099511628211ull;
  char name[64];
  std::snprintf(name, sizeof name, "parser-crash-%016llx", (unsigned long long)hash);
  if (FILE *f = std::fopen(name, "wb")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  return false;
}

} // namespace tessel::fuzz

#endif // TESSEL_TOOLS_FUZZ_PARSEINCHILD_H
