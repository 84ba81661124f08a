//===- TargetRegistry.h - target names to adapters --------------*- C++ -*-===//
//
// The one list of GPU targets. Each adapter (third_party/<vendor>) registers itself here with
// the names it accepts, a factory and the dialects its lowering creates; the shared libraries,
// the driver and the tools ask the registry and never name an adapter. The tools call
// registerAllTargets() (include/tessel/InitAllTargets.h) before anything looks a target up.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TARGET_TARGETREGISTRY_H
#define TESSEL_TARGET_TARGETREGISTRY_H

#include "tessel/Target/TargetInfo.h"

#include "llvm/ADT/SmallVector.h"
#include <functional>

namespace mlir {
class DialectRegistry;
}

namespace tessel {

/// One chip family's adapter.
struct TargetRegistration {
  /// The family, the part of a target name before ':' ("cuda", "hip").
  std::string family;
  /// Every target name the adapter accepts, in the order help texts list them.
  llvm::SmallVector<std::string> names;
  /// The adapter for one of `names`.
  std::function<std::unique_ptr<TargetInfo>(llvm::StringRef name)> create;
  /// Inserts the dialects the adapter's lowering creates, so that a pass can declare them
  /// before it knows which target a module has.
  std::function<void(mlir::DialectRegistry &)> insertDialects;
};

/// Adds an adapter; registering a family again replaces it, so registration is idempotent.
/// Not thread-safe: register at start-up, before any lookup.
void registerTarget(TargetRegistration registration);

/// Every registered target name, families in registration order.
llvm::SmallVector<std::string> getRegisteredTargetNames();

/// The adapter for a target name; null with a message naming the registered targets otherwise.
std::unique_ptr<TargetInfo> createTargetInfo(llvm::StringRef target, std::string &error);

/// The adapter a pass over `module` uses: `override` when not empty (a pass option), else the
/// module's `tile.target`. Null after reporting the error at the module.
std::unique_ptr<TargetInfo> createTargetInfoFor(mlir::ModuleOp module, llvm::StringRef override);

/// Inserts the dialects of every registered adapter.
void insertTargetDialects(mlir::DialectRegistry &registry);

} // namespace tessel

#endif // TESSEL_TARGET_TARGETREGISTRY_H
