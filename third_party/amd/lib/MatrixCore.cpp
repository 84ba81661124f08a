//===- MatrixCore.cpp - what the MFMA and WMMA lowerings share ------------===//
#include "MatrixCore.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace tessel;

SmallVector<Value>
amd::emitMatrixCoreLoops(OpBuilder &b, Location loc, ArrayRef<Value> c, int64_t mReps,
                         int64_t nReps, int64_t kReps, unsigned accRegs, int64_t mUsed,
                         int64_t nUsed,
                         function_ref<Value(int64_t m, int64_t n, int64_t k, Value acc)> step) {
  Type accType = VectorType::get({int64_t(accRegs)}, b.getF32Type());
  SmallVector<Value> out(c.size());
  for (int64_t m = 0; m < mReps; ++m)
    for (int64_t n = 0; n < nReps; ++n) {
      int64_t cBase = (m * nReps + n) * accRegs;
      if (m >= mUsed || n >= nUsed) {
        std::copy_n(c.begin() + cBase, accRegs, out.begin() + cBase);
        continue;
      }
      Value acc = b.create<LLVM::UndefOp>(loc, accType);
      for (unsigned j = 0; j < accRegs; ++j)
        acc = b.create<LLVM::InsertElementOp>(loc, acc, c[cBase + j], i32Const(b, loc, j));
      for (int64_t k = 0; k < kReps; ++k)
        acc = step(m, n, k, acc);
      for (unsigned j = 0; j < accRegs; ++j)
        out[cBase + j] = b.create<LLVM::ExtractElementOp>(loc, acc, i32Const(b, loc, j));
    }
  return out;
}

Value amd::packSource(OpBuilder &b, Location loc, ArrayRef<Value> regs, int64_t first,
                      VectorType srcType, bool bitcast) {
  Value v = b.create<LLVM::UndefOp>(loc, srcType);
  for (int64_t j = 0; j < srcType.getNumElements(); ++j) {
    Value e = regs[first + j];
    if (bitcast)
      e = b.create<LLVM::BitcastOp>(loc, srcType.getElementType(), e);
    v = b.create<LLVM::InsertElementOp>(loc, v, e, i32Const(b, loc, j));
  }
  return v;
}

bool amd::sameInputsF32Accumulator(Type elem, RankedTensorType b, RankedTensorType d,
                                   StringRef unit, std::string &reason) {
  if (b.getElementType() != elem) {
    reason = (unit + " needs a and b of one element type").str();
    return false;
  }
  if (!d.getElementType().isF32()) {
    reason = (unit + " here accumulates in f32 only").str();
    return false;
  }
  return true;
}
