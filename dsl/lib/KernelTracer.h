//===- KernelTracer.h - tracing a kernel variant into tile IR ---*- C++ -*-===//
#ifndef TESSEL_DSL_LIB_KERNELTRACER_H
#define TESSEL_DSL_LIB_KERNELTRACER_H

#include "KernelRegistry.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tessel::dsl {

/// Runs one variant of `kernel` (one dtype instantiation with one config) and returns a new
/// module holding the kernel as `func.func @<funcName>` with tile.kernel, tile.num_warps,
/// tile.num_stages and per-argument tile.divisibility, and `tile.target = target` on the
/// module. Every op carries the user's file:line:col. Returns null after reporting the errors
/// (DSL misuse or verifier failures) through the context's diagnostic handler.
mlir::OwningOpRef<mlir::ModuleOp> traceVariant(mlir::MLIRContext &context, const KernelInfo &kernel,
                                               const detail::VariantDef &variant,
                                               const ConfigValue &config, llvm::StringRef funcName,
                                               llvm::StringRef target);

} // namespace tessel::dsl

#endif // TESSEL_DSL_LIB_KERNELTRACER_H
