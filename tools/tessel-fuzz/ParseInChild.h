//===- ParseInChild.h - parse fuzz inputs in a forked child first -*- C++ -*-===//
//
// MLIR 19's parser corrupts the heap when it reports an error after unresolved forward
// references (tools/tessel-fuzz/open/README.md: upstream, reproduced with mlir-opt-19 alone);
// a later input in the same fuzzing process then crashes somewhere unrelated. The targets
// therefore parse each input in a forked child first and parse it in-process only when the
// child parsed it without an error. A child that dies on a single input is a real crash (in the
// parser or in one of Tessel's dialect parsers): the parent aborts, so libFuzzer keeps the
// input. The child's coverage of the parser's error paths is lost; the passes' is kept.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_FUZZ_PARSEINCHILD_H
#define TESSEL_TOOLS_FUZZ_PARSEINCHILD_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tessel::fuzz {

/// Whether `text` parses without an error in `context`'s dialects, decided in a child process.
inline bool parsesInChild(const std::string &text, mlir::MLIRContext &context) {
  pid_t pid = fork();
  if (pid < 0)
    std::abort();
  if (pid == 0) {
    bool ok = bool(mlir::parseSourceString<mlir::ModuleOp>(text, &context));
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  pid_t waited;
  do // libFuzzer's timeout timer interrupts the wait
    waited = waitpid(pid, &status, 0);
  while (waited < 0 && errno == EINTR);
  if (waited != pid)
    std::abort();
  if (WIFSIGNALED(status))
    std::abort(); // the parser crashed on this input alone
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace tessel::fuzz

#endif // TESSEL_TOOLS_FUZZ_PARSEINCHILD_H
