//===- MatrixCore.h - what the MFMA and WMMA lowerings share ----*- C++ -*-===//
//
// CDNA's MFMA (DotOpToMFMA.cpp) and RDNA3's WMMA (DotOpToWMMA.cpp) take their sources as
// vectors of a lane's consecutive K elements and accumulate in a vector<N x f32> register
// block, so both lower a dot to the same loop nest over the wave's repetitions:
//
//   for m < mReps, n < nReps:  acc = c[m][n];  for k < kReps: acc = instr(A[m][k], B[n][k], acc)
//
// Register order: C (mRep, nRep, accumulator register).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_AMD_MATRIXCORE_H
#define TESSEL_AMD_MATRIXCORE_H

#include "mlir/IR/Builders.h"

#include <string>

namespace tessel::amd {

/// The loop nest above: c[m][n] into a vector<accRegs x f32>, `step`(m, n, k, acc) for each k,
/// and back into registers. Repetitions from mUsed along M or nUsed along N hold only a padded
/// tile's padding (MatrixDot::usedReps): their registers stay c's, with no instruction. Returns
/// the result's registers.
llvm::SmallVector<mlir::Value> emitMatrixCoreLoops(
    mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<mlir::Value> c, int64_t mReps,
    int64_t nReps, int64_t kReps, unsigned accRegs, int64_t mUsed, int64_t nUsed,
    llvm::function_ref<mlir::Value(int64_t m, int64_t n, int64_t k, mlir::Value acc)> step);

/// One source operand: the registers regs[first, first + n) of a vector `srcType` with n
/// elements, each bitcast to its element type first when `bitcast` (bf16 travels as i16).
mlir::Value packSource(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<mlir::Value> regs,
                       int64_t first, mlir::VectorType srcType, bool bitcast);

/// The checks MFMA and WMMA share once a's element type `elem` is one `unit` takes: b of the
/// same type and an f32 accumulator. False with `reason` otherwise.
bool sameInputsF32Accumulator(mlir::Type elem, mlir::RankedTensorType b, mlir::RankedTensorType d,
                              llvm::StringRef unit, std::string &reason);

} // namespace tessel::amd

#endif // TESSEL_AMD_MATRIXCORE_H
