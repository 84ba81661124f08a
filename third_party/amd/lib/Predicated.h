//===- Predicated.h - `if (pred)` helpers for the AMD lowering ---*- C++ -*-===//
//
// Conversion patterns keep scf bodies single blocks, so work that must be skipped per lane (a
// masked atomic, a device_print, a trap) goes into an always-inline internal function that
// branches on its first argument.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_AMD_PREDICATED_H
#define TESSEL_AMD_PREDICATED_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessel::amd {

/// The module the builder inserts into.
mlir::ModuleOp moduleOf(mlir::OpBuilder &b);

/// The internal helper `name(i1 pred, args...) -> result`: if (pred) <body> ; returns what
/// body returns, or poison when disabled. Created once per module.
mlir::LLVM::LLVMFuncOp getOrCreatePredicated(
    mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef name, mlir::Type result,
    mlir::TypeRange args,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)> body);

} // namespace tessel::amd

#endif // TESSEL_AMD_PREDICATED_H
