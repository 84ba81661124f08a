//===- Targets.cpp - the targets tesselc compiles for ---------------------===//
#include "tessel/Driver/Targets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

ArrayRef<StringLiteral> tessel::driver::getTargetNames() {
  static const StringLiteral names[] = {"interpreter", "cuda:sm_80", "cuda:sm_90",
                                        "cuda:sm_90a", "hip:gfx90a", "hip:gfx942"};
  return names;
}

Error tessel::driver::checkTarget(StringRef target) {
  if (is_contained(getTargetNames(), target))
    return Error::success();
  return createStringError(inconvertibleErrorCode(), "unknown target '" + target +
                                                         "'; accepted targets: " +
                                                         join(getTargetNames(), ", "));
}
