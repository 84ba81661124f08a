//===- SpacePruning.h - which configs of a space to compile -------*- C++ -*-===//
//
// Walks a kernel's declared space for one dtype and the shapes to tune, and drops, before
// anything is compiled: configs no shape's key buckets admit (the space's key wheres), configs
// with more threads than a program may have, and configs whose traced tile IR needs more shared
// memory or registers than the target has (ResourceEstimate.h). Every drop is counted by its
// reason; the survivors are what ParallelCompile compiles.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_TUNE_SPACEPRUNING_H
#define TESSEL_TOOLS_TESSEL_TUNE_SPACEPRUNING_H

#include "KernelRegistry.h"
#include "TuneRegistry.h"

#include "mlir/IR/MLIRContext.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::tune {

/// One shape to tune and its key values (from the problem's arguments) and buckets.
struct ShapeKeys {
  std::vector<int64_t> shape;
  std::vector<int64_t> values, buckets;
};

struct Survivor {
  std::unique_ptr<dsl::ConfigValue> config;
  std::string name;
  std::vector<size_t> shapes; ///< indices of the shapes whose buckets admit it
};

struct PruneReport {
  int64_t declared = 0;                   ///< the product of the field lists
  int64_t byWhere = 0;                    ///< dropped by the wheres between fields
  int64_t byKeys = 0;                     ///< admitted by no shape's key buckets
  std::map<std::string, int64_t> byLimit; ///< limit name -> count
  std::vector<std::string> dropped;       ///< "name: registers per thread about 272 > 255"
};

/// The survivors of `space` for `variant` of `kernel` on `target`; `context` traces the
/// estimates. False after reporting an error (a trace that fails).
bool pruneSpace(mlir::MLIRContext &context, const dsl::KernelInfo &kernel,
                const dsl::detail::VariantDef &variant, const dsl::TuneInfo &space,
                const std::vector<ShapeKeys> &shapes, const std::string &target,
                std::vector<Survivor> &survivors, PruneReport &report);

} // namespace tessel::tune

#endif // TESSEL_TOOLS_TESSEL_TUNE_SPACEPRUNING_H
