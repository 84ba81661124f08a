//===- SpillPruning.cpp - not timing variants that spill registers --------===//
#include "tessel/Tuning/SpillPruning.h"

#include <algorithm>
#include <set>

using namespace tessel;
using namespace tessel::tuning;

SpillPruneReport tuning::dropSpillingVariants(Manifest &m) {
  SpillPruneReport report;
  std::set<std::string> removed;
  auto spills = [&](const std::string &name) {
    const ManifestVariant *v = m.find(name);
    return v && v->spillBytes && *v->spillBytes > 0;
  };
  for (ManifestShape &shape : m.shapes) {
    bool anyClean = std::any_of(shape.variants.begin(), shape.variants.end(), [&](auto &name) {
      const ManifestVariant *v = m.find(name);
      return v && v->spillBytes && *v->spillBytes == 0;
    });
    if (!anyClean) {
      report.shapesAllSpilling += std::any_of(shape.variants.begin(), shape.variants.end(), spills);
      continue;
    }
    for (const std::string &name : shape.variants)
      if (spills(name))
        removed.insert(name);
    shape.variants.erase(std::remove_if(shape.variants.begin(), shape.variants.end(), spills),
                         shape.variants.end());
  }
  for (const ManifestVariant &v : m.variants) // in the manifest's order
    if (removed.count(v.name))
      report.removed.push_back(v.name + ": spills " + std::to_string(*v.spillBytes) +
                               " bytes per thread");
  return report;
}
