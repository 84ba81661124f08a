//===- MemoryAccess.h - bounds checks of the interpreter's memory ops -*- C++ -*-===//
//
// Internal to lib/Interpreter: what MemoryOps.cpp (loads, stores) and AtomicOps.cpp share.
// Before an op touches memory, every enabled lane's element must lie inside one registered
// region; the first lane that does not stops the program instance with a located error, and no
// lane of that op reads or writes anything.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_INTERPRETER_MEMORYACCESS_H
#define TESSEL_LIB_INTERPRETER_MEMORYACCESS_H

#include "ProgramBuilder.h"

namespace tessel::interp {

/// What an access report needs to know about the op.
struct AccessInfo {
  std::string loc;
  std::string opName;
  harness::DType dtype = harness::DType::f32;
  size_t size = 4;
  llvm::SmallVector<int64_t, 4> shape;
};

/// The access description of `op` reaching memory through pointers of `ptrType` (element type,
/// size and tile shape), named `opName` in reports.
AccessInfo accessInfo(ProgramBuilder &builder, mlir::Operation *op, mlir::Type ptrType,
                      const char *opName);

/// Checks every enabled lane; reports and returns false on the first bad one.
bool checkAccess(Frame &f, const AccessInfo &info, const int64_t *ptr, const int64_t *mask,
                 int64_t n);

} // namespace tessel::interp

#endif // TESSEL_LIB_INTERPRETER_MEMORYACCESS_H
