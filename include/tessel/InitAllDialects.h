//===- InitAllDialects.h - dialects Tessel tools load ----------*- C++ -*-===//
#ifndef TESSEL_INITALLDIALECTS_H
#define TESSEL_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"

namespace tessel {
/// The tile dialect and the upstream dialects kernels and lowerings use (arith, math, scf,
/// func, cf, gpu, llvm, nvvm, rocdl, ...).
void registerAllDialects(mlir::DialectRegistry &registry);
} // namespace tessel

#endif // TESSEL_INITALLDIALECTS_H
