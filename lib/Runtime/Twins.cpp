//===- Twins.cpp - a variant's specialized twins in kernel directories ----===//
#include "tessel/Runtime/Twins.h"

#include <algorithm>
#include <filesystem>
#include <set>

using namespace tessel;
namespace fs = std::filesystem;

std::pair<int, int> rt::promisesOf(const harness::KernelMetadata &twin) {
  int eq = 0, div = 0;
  for (const harness::KernelArgInfo &a : twin.args) {
    eq += a.equalTo.has_value();
    div += a.divisibility > 1;
  }
  return {eq, div};
}

std::vector<std::string> rt::findTwins(const std::vector<std::string> &dirs,
                                       const std::string &base) {
  const std::string prefix = base + "__", suffix = ".json";
  std::set<std::string> seen;
  std::vector<std::pair<std::pair<int, int>, std::string>> twins;
  for (const std::string &dir : dirs) {
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
      std::string file = e.path().filename().string();
      if (file.size() <= prefix.size() + suffix.size() || file.rfind(prefix, 0) != 0 ||
          file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
        continue;
      std::string name = file.substr(0, file.size() - suffix.size());
      if (!seen.insert(name).second)
        continue; // an earlier directory's file of that name is the one loaded
      // Other variants share the prefix (`..._num_stages_3__tma_store_1`): only a twin
      // specializes the base.
      harness::KernelMetadata m;
      if (!harness::loadKernelMetadata(e.path().string(), m) || m.specializes != base)
        continue;
      twins.push_back({promisesOf(m), name});
    }
  }
  std::sort(twins.begin(), twins.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<std::string> names;
  for (auto &[promises, name] : twins)
    names.push_back(std::move(name));
  return names;
}
