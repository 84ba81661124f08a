//===- TuneRegistry.h - the config spaces of loaded kernel files -*- C++ -*-===//
//
// TESSEL_TUNE registers a kernel's config space when its shared object is loaded; tessel-tune
// (and tesselc's header stage, for the grid) read them here.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_LIB_TUNEREGISTRY_H
#define TESSEL_DSL_LIB_TUNEREGISTRY_H

#include "tessel/dsl/Tune.h"

#include <string>
#include <vector>

namespace tessel::dsl {

/// A registered space; `error` is a registration problem (wrong ABI), reported by the tools.
struct TuneInfo {
  detail::TuneDef def;
  std::string error;
};

/// Every space registered so far, in registration order.
std::vector<TuneInfo> &getTuneRegistry();

/// The space of kernel `name` declared in `file` (the last registered), or null.
const TuneInfo *findTuning(const std::string &name, const std::string &file);

/// A key's bucket: the value itself, or the smallest power of two >= value (1 for value <= 1).
int64_t bucketOf(int64_t value, Bucket bucket);

/// The space's keys as a variant's metadata records them (tuning_keys): (argument, "pow2" or
/// "exact"), in declaration order; empty without a space. tesselc and tessel-tune write them.
std::vector<std::pair<std::string, std::string>> tuningKeys(const TuneInfo *space);

} // namespace tessel::dsl

#endif // TESSEL_DSL_LIB_TUNEREGISTRY_H
