//===- SharedContext.h - one MLIRContext for many fuzz inputs ----*- C++ -*-===//
//
// Making a context and loading every dialect costs more than parsing and compiling most fuzz
// inputs, so consecutive inputs share one. It is renewed every kInputsPerContext inputs: what
// the inputs unique in it (attributes, types, identifiers) must not grow without bound, and a
// crash that needs an earlier input's state stays reproducible from the last few hundred
// inputs of the run (libFuzzer keeps only the crashing one; its log names the run's seed).
// Diagnostics are swallowed: bad input ending in a diagnostic is the expected outcome.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_FUZZ_SHAREDCONTEXT_H
#define TESSEL_TOOLS_FUZZ_SHAREDCONTEXT_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace tessel::fuzz {

constexpr unsigned kInputsPerContext = 256;

/// The context for the next input, with the dialects `addDialects` registers loaded. Valid
/// until the next call; nothing built in it may outlive the input.
inline mlir::MLIRContext &
sharedContext(llvm::function_ref<void(mlir::DialectRegistry &)> addDialects) {
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned inputs = 0;
  if (!context || ++inputs % kInputsPerContext == 0) {
    context.reset(); // one context alive at a time
    mlir::DialectRegistry registry;
    addDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    context->getDiagEngine().registerHandler([](mlir::Diagnostic &) { return mlir::success(); });
  }
  return *context;
}

} // namespace tessel::fuzz

#endif // TESSEL_TOOLS_FUZZ_SHAREDCONTEXT_H
