//===- Twins.cpp - a variant's specialized twins --------------------------===//
#include "Twins.h"

#include "tessel/Driver/Specialize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace tessel;
using namespace tessel::driver;

/// A copy of `unit` whose kernel is renamed <variant>__<suffix> and marked as specializing
/// `unit`; the kernel to rewrite goes to `kernel`. None when the variant has no kernel.
static std::optional<dsl::Unit> cloneAsTwin(dsl::Unit &unit, StringRef suffix,
                                            func::FuncOp &kernel) {
  OwningOpRef<ModuleOp> copy = unit.module->clone();
  kernel = {};
  for (auto f : copy->getOps<func::FuncOp>())
    if (f.getSymName() == unit.meta.variant)
      kernel = f;
  if (!kernel)
    return std::nullopt;
  dsl::Unit twin{std::move(copy), unit.meta};
  twin.meta.variant = unit.meta.variant + "__" + suffix.str();
  twin.meta.specializes = unit.meta.variant;
  kernel.setSymName(twin.meta.variant);
  return twin;
}

/// The variant with its vector-widening integer arguments assumed multiples of 8 (or, unit
/// strides, equal to 1), if any.
static std::optional<dsl::Unit> specializedTwin(dsl::Unit &unit) {
  func::FuncOp kernel;
  std::optional<dsl::Unit> twin =
      cloneAsTwin(unit, "div" + std::to_string(kSpecializationDivisibility), kernel);
  if (!twin)
    return std::nullopt;
  Specialization spec = findSpecialization(kernel, kSpecializationDivisibility);
  if (spec.empty())
    return std::nullopt;
  applySpecialization(kernel, spec, kSpecializationDivisibility);
  for (unsigned i : spec.multiples)
    twin->meta.args[i].divisibility = kSpecializationDivisibility;
  for (unsigned i : spec.ones)
    twin->meta.args[i].equalTo = 1;
  return twin;
}

bool dsl::appendTwins(Unit &unit, bool specialize, const std::vector<std::string> &requests,
                      std::vector<Unit> &out) {
  if (specialize)
    if (std::optional<Unit> twin = specializedTwin(unit))
      out.push_back(std::move(*twin));
  for (StringRef text : requests) {
    std::string error;
    std::optional<TwinRequest> request = parseTwinRequest(text, unit.meta.args, error);
    if (!request) {
      llvm::errs() << "tesselc: error: --twin=" << text << ": " << error << " of "
                   << unit.meta.variant << "\n";
      return false;
    }
    func::FuncOp kernel;
    std::optional<Unit> twin = cloneAsTwin(unit, request->suffix, kernel);
    if (!twin)
      return true;
    applyTwinRequest(kernel, *request, twin->meta.args);
    out.push_back(std::move(*twin));
  }
  return true;
}
