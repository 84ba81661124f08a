//===- PTXAsm.h - inline PTX through the LLVM dialect -----------*- C++ -*-===//
#ifndef TESSEL_NVIDIA_PTXASM_H
#define TESSEL_NVIDIA_PTXASM_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace tessel::nvidia {

/// Emits `asmString` (AT&T dialect, $N operands) with LLVM-style `constraints`; `resultType`
/// may be null (no outputs) or an LLVM struct for several outputs.
inline mlir::Value ptxAsm(mlir::OpBuilder &b, mlir::Location loc, mlir::Type resultType,
                          mlir::ValueRange operands, llvm::StringRef asmString,
                          llvm::StringRef constraints, bool sideEffects = true) {
  auto dialect = mlir::LLVM::AsmDialectAttr::get(b.getContext(), mlir::LLVM::AsmDialect::AD_ATT);
  auto op = b.create<mlir::LLVM::InlineAsmOp>(
      loc, resultType ? mlir::TypeRange{resultType} : mlir::TypeRange{}, operands, asmString,
      constraints, sideEffects,
      /*is_align_stack=*/false, dialect,
      /*operand_attrs=*/mlir::ArrayAttr());
  return op.getNumResults() ? op.getResult(0) : mlir::Value();
}

} // namespace tessel::nvidia

#endif // TESSEL_NVIDIA_PTXASM_H
