//===- InitAllDialects.h - dialects Tessel tools load ----------*- C++ -*-===//
#ifndef TESSEL_INITALLDIALECTS_H
#define TESSEL_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"

namespace tessel {
/// The tile dialect, the upstream dialects kernels and lowerings use (arith, math, scf, func,
/// cf, gpu, llvm, ...) and those of every adapter (registers all targets first).
void registerAllDialects(mlir::DialectRegistry &registry);
} // namespace tessel

#endif // TESSEL_INITALLDIALECTS_H
