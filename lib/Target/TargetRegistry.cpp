//===- TargetRegistry.cpp - target names to adapters ----------------------===//
#include "tessel/Target/TargetInfo.h"

#include "tessel/AMD/AMD.h"
#include "tessel/NVIDIA/NVIDIA.h"

using namespace tessel;

static const llvm::StringRef kTargets[] = {"cuda:sm_80", "cuda:sm_90", "cuda:sm_90a",
                                            "hip:gfx90a", "hip:gfx942"};

llvm::ArrayRef<llvm::StringRef> tessel::getSupportedTargets() { return kTargets; }

std::unique_ptr<TargetInfo> tessel::createTargetInfo(llvm::StringRef target, std::string &error) {
  auto [family, arch] = target.split(':');
  std::unique_ptr<TargetInfo> info;
  if (family == "cuda")
    info = nvidia::createTargetInfo(arch);
  else if (family == "hip")
    info = amd::createTargetInfo(arch);
  if (!info) {
    error = "unsupported target '" + target.str() + "'; supported: ";
    for (auto [i, t] : llvm::enumerate(kTargets))
      error += (i ? ", " : "") + t.str();
  }
  return info;
}
