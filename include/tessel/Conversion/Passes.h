//===- Passes.h - Tessel's conversion passes --------------------*- C++ -*-===//
#ifndef TESSEL_CONVERSION_PASSES_H
#define TESSEL_CONVERSION_PASSES_H

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace tessel {
#define GEN_PASS_DECL
#include "tessel/Conversion/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tessel/Conversion/Passes.h.inc"
} // namespace tessel

#endif // TESSEL_CONVERSION_PASSES_H
