//===- TargetInfo.cpp - the adapter interface -----------------------------===//
#include "tessel/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

tessel::TargetInfo::~TargetInfo() = default;

void tessel::TargetInfo::setKernelArgumentAttributes(mlir::func::FuncOp,
                                                     mlir::LLVM::LLVMFuncOp) const {}

LogicalResult tessel::TargetInfo::printf(OpBuilder &, Location loc, StringRef, ValueRange,
                                         Value) const {
  return emitError(loc, "device_print is not supported on this target yet");
}

LogicalResult tessel::TargetInfo::abortIf(OpBuilder &, Location loc, Value, StringRef) const {
  return emitError(loc, "device_assert is not supported on this target yet (compile without "
                        "--debug to drop it)");
}
