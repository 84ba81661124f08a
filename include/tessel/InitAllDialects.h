//===- InitAllDialects.h - dialects Tessel tools load ----------*- C++ -*-===//
#ifndef TESSEL_INITALLDIALECTS_H
#define TESSEL_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel {
/// The tile dialect, the upstream dialects kernels and lowerings use (arith, math, scf, func,
/// cf, gpu, llvm, ...) and those of every adapter (registers all targets first).
void registerAllDialects(mlir::DialectRegistry &registry);
/// Loads the dialects a traced or parsed kernel starts in (tile, arith, math, scf, func) into
/// `context`, whose registry holds the rest (registerAllDialects), as tesselc and tessel-tune
/// compile.
void loadKernelDialects(mlir::MLIRContext &context);
} // namespace tessel

#endif // TESSEL_INITALLDIALECTS_H
