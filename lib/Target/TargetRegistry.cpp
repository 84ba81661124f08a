//===- TargetRegistry.cpp - target names to adapters ----------------------===//
#include "tessel/Target/TargetRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace tessel;

static std::vector<TargetRegistration> &registrations() {
  static std::vector<TargetRegistration> all;
  return all;
}

void tessel::registerTarget(TargetRegistration registration) {
  auto &all = registrations();
  auto it = llvm::find_if(
      all, [&](const TargetRegistration &r) { return r.family == registration.family; });
  if (it != all.end())
    *it = std::move(registration);
  else
    all.push_back(std::move(registration));
}

llvm::SmallVector<std::string> tessel::getRegisteredTargetNames() {
  llvm::SmallVector<std::string> names;
  for (const TargetRegistration &r : registrations())
    llvm::append_range(names, r.names);
  return names;
}

std::unique_ptr<TargetInfo> tessel::createTargetInfo(llvm::StringRef target, std::string &error) {
  for (const TargetRegistration &r : registrations())
    if (llvm::is_contained(r.names, target))
      if (std::unique_ptr<TargetInfo> info = r.create(target))
        return info;
  llvm::SmallVector<std::string> names = getRegisteredTargetNames();
  error = "unsupported target '" + target.str() + "'; ";
  // An empty registry is a tool that forgot registerAllTargets(), not a user error.
  error += names.empty() ? "no target is registered" : "supported: " + llvm::join(names, ", ");
  return nullptr;
}

void tessel::insertTargetDialects(mlir::DialectRegistry &registry) {
  for (const TargetRegistration &r : registrations())
    if (r.insertDialects)
      r.insertDialects(registry);
}

std::unique_ptr<TargetInfo> tessel::createTargetInfoFor(mlir::ModuleOp module,
                                                        llvm::StringRef override) {
  std::string name = override.str();
  if (name.empty())
    if (auto attr = module->getAttrOfType<mlir::StringAttr>(tile::TileDialect::getTargetAttrName()))
      name = attr.str();
  std::string error;
  std::unique_ptr<TargetInfo> info = createTargetInfo(name, error);
  if (!info)
    module.emitError(error);
  return info;
}
