//===- SpillPruning.cpp - not timing variants that spill registers --------===//
#include "tessel/Tuning/SpillPruning.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

using namespace tessel;
using namespace tessel::tuning;

SpillPruneReport tuning::dropSpillingVariants(Manifest &m) {
  SpillPruneReport report;
  std::map<std::string, std::optional<int64_t>> count; // one lookup per name, not per shape
  for (const ManifestVariant &v : m.variants)
    count[v.name] = v.spillBytes;
  auto spills = [&](const std::string &name) { return count[name].value_or(0) > 0; };
  auto clean = [&](const std::string &name) { return count[name] == 0; };
  std::set<std::string> removed;
  for (ManifestShape &shape : m.shapes) {
    auto &names = shape.variants;
    if (std::none_of(names.begin(), names.end(), clean)) {
      report.shapesAllSpilling += std::any_of(names.begin(), names.end(), spills);
      continue;
    }
    std::copy_if(names.begin(), names.end(), std::inserter(removed, removed.end()), spills);
    names.erase(std::remove_if(names.begin(), names.end(), spills), names.end());
  }
  for (const ManifestVariant &v : m.variants) // in the manifest's order
    if (removed.count(v.name))
      report.removed.push_back(v.name + ": spills " + std::to_string(*v.spillBytes) +
                               " bytes per thread");
  return report;
}
