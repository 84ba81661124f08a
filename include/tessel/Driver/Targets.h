//===- Targets.h - the targets tesselc compiles for -------------*- C++ -*-===//
#ifndef TESSEL_DRIVER_TARGETS_H
#define TESSEL_DRIVER_TARGETS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace tessel::driver {

/// The value of `tile.target` when --target is not given: the CPU interpreter.
inline constexpr llvm::StringLiteral kDefaultTarget = "interpreter";

/// Every accepted --target value: the interpreter, then every target of the registry
/// (registerAllTargets() must have run).
llvm::SmallVector<std::string> getTargetNames();

/// Success for an accepted target; otherwise an error naming the accepted ones.
llvm::Error checkTarget(llvm::StringRef target);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_TARGETS_H
