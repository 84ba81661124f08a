//===- TuneRegistry.cpp - the config spaces of loaded kernel files --------===//
#include "TuneRegistry.h"

using namespace tessel;
using namespace tessel::dsl;

std::vector<TuneInfo> &tessel::dsl::getTuneRegistry() {
  static std::vector<TuneInfo> registry;
  return registry;
}

void dsl::detail::registerTuning(const TuneDef &def) {
  TuneInfo info{def, ""};
  if (def.abiVersion != TESSEL_DSL_ABI_VERSION)
    info.error = "kernel file built against DSL ABI version " + std::to_string(def.abiVersion) +
                 ", this tool has " + std::to_string(TESSEL_DSL_ABI_VERSION);
  getTuneRegistry().push_back(std::move(info));
}

const TuneInfo *tessel::dsl::findTuning(const std::string &name, const std::string &file) {
  const TuneInfo *found = nullptr;
  for (const TuneInfo &t : getTuneRegistry())
    if (name == t.def.kernel && file == t.def.file)
      found = &t;
  return found;
}

std::vector<std::pair<std::string, std::string>> tessel::dsl::tuningKeys(const TuneInfo *space) {
  std::vector<std::pair<std::string, std::string>> keys;
  if (space)
    for (size_t i = 0; i < space->def.keys.size(); ++i)
      keys.emplace_back(space->def.keys[i],
                        space->def.buckets[i] == Bucket::pow2 ? "pow2" : "exact");
  return keys;
}

int64_t tessel::dsl::bucketOf(int64_t value, Bucket bucket) {
  if (bucket == Bucket::exact)
    return value;
  int64_t b = 1;
  while (b < value)
    b *= 2;
  return b;
}
