//===- Executor.cpp - the registry of executors ----------------------------===//
#include "tessel/Harness/Executor.h"

using namespace tessel::harness;

static std::vector<ExecutorEntry> &registry() {
  static std::vector<ExecutorEntry> entries;
  return entries;
}

void tessel::harness::registerExecutor(ExecutorEntry entry) {
  for (ExecutorEntry &e : registry())
    if (e.target == entry.target) {
      e = std::move(entry);
      return;
    }
  registry().push_back(std::move(entry));
}

const std::vector<ExecutorEntry> &tessel::harness::registeredExecutors() { return registry(); }

const ExecutorEntry *tessel::harness::findExecutor(const std::string &target) {
  for (const ExecutorEntry &e : registry())
    if (e.target == target)
      return &e;
  return nullptr;
}
