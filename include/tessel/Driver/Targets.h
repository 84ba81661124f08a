//===- Targets.h - the targets tesselc compiles for -------------*- C++ -*-===//
#ifndef TESSEL_DRIVER_TARGETS_H
#define TESSEL_DRIVER_TARGETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tessel::driver {

/// The value of `tile.target` when --target is not given: the CPU interpreter.
inline constexpr llvm::StringLiteral kDefaultTarget = "interpreter";

/// Every accepted --target value: interpreter, cuda:sm_80, cuda:sm_90, cuda:sm_90a,
/// hip:gfx90a, hip:gfx942.
llvm::ArrayRef<llvm::StringLiteral> getTargetNames();

/// Success for an accepted target; otherwise an error naming the accepted ones.
llvm::Error checkTarget(llvm::StringRef target);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_TARGETS_H
