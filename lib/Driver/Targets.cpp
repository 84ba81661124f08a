//===- Targets.cpp - the targets tesselc compiles for ---------------------===//
#include "tessel/Driver/Targets.h"

#include "tessel/Target/TargetRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

SmallVector<std::string> tessel::driver::getTargetNames() {
  SmallVector<std::string> names = {kDefaultTarget.str()};
  append_range(names, getRegisteredTargetNames());
  return names;
}

Error tessel::driver::checkTarget(StringRef target) {
  SmallVector<std::string> names = getTargetNames();
  if (is_contained(names, target))
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "unknown target '" + target +
                               "'; accepted targets: " + join(names, ", "));
}
