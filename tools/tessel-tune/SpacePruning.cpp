//===- SpacePruning.cpp - which configs of a space to compile -------------===//
#include "SpacePruning.h"

#include "KernelTracer.h"
#include "ResourceEstimate.h"

#include "tessel/Target/TargetRegistry.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tune;

bool tune::pruneSpace(MLIRContext &context, const dsl::KernelInfo &kernel,
                      const dsl::detail::VariantDef &variant, const dsl::TuneInfo &space,
                      const std::vector<ShapeKeys> &shapes, const std::string &target,
                      std::vector<Survivor> &survivors, PruneReport &report) {
  const dsl::detail::TuneDef &def = space.def;
  report.declared = def.declared;
  report.byWhere = def.declared - static_cast<int64_t>(def.configs.size());
  // The interpreter has no limits; a GPU target's adapter has its chip's.
  std::string error;
  std::unique_ptr<TargetInfo> info =
      StringRef(target).starts_with("interpreter") ? nullptr : createTargetInfo(target, error);
  for (const void *raw : def.configs) {
    auto config = std::make_unique<dsl::ConfigValue>(*def.config, raw);
    std::string name = dsl::variantName(kernel, variant, *config);
    std::vector<size_t> admitted;
    for (size_t s = 0; s < shapes.size(); ++s)
      if (!def.fitsKeys || def.fitsKeys(raw, shapes[s].buckets.data()))
        admitted.push_back(s);
    if (!shapes.empty() && admitted.empty()) {
      ++report.byKeys;
      continue;
    }
    if (info) {
      const TargetLimits &limits = info->getLimits();
      std::string why;
      Limit l = checkThreads(config->numWarps(), limits, why);
      if (l == Limit::none) {
        OwningOpRef<ModuleOp> module =
            dsl::traceVariant(context, kernel, variant, *config, name, target);
        if (!module)
          return false;
        ResourceEstimate e =
            estimateResources(*module, config->numWarps(), config->numStages(), limits.warpSize);
        l = checkEstimate(e, limits, why);
      }
      if (l != Limit::none) {
        ++report.byLimit[limitName(l)];
        report.dropped.push_back(name + ": " + limitName(l) + " " + why);
        continue;
      }
    }
    survivors.push_back({std::move(config), name, admitted});
  }
  return true;
}
