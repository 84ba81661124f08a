//===- Twins.h - a variant's specialized twins ------------------*- C++ -*-===//
//
// tesselc compiles each GPU variant with twins: copies of its kernel that assume more about the
// integer arguments (the automatic __div8, and each --twin request), checked at launch
// (docs/Artifacts.md, "Twins"). The analysis and the rewrite are lib/Driver/Specialize.cpp's;
// this makes the copies.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSELC_TWINS_H
#define TESSEL_TOOLS_TESSELC_TWINS_H

#include "tessel/Driver/Metadata.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace tessel::dsl {

/// A variant to compile: a module and its metadata.
struct Unit {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  driver::VariantMetadata meta;
};

/// Appends `unit`'s twins to `out`, in the order to compile them: the __div8 one (with
/// `specialize`, when an argument would widen an access), then one per `requests` entry
/// (--twin's SUFFIX:ARG=1,ARG=0,ARG%N,...). False after printing the error of a malformed request.
bool appendTwins(Unit &unit, bool specialize, const std::vector<std::string> &requests,
                 std::vector<Unit> &out);

} // namespace tessel::dsl

#endif // TESSEL_TOOLS_TESSELC_TWINS_H
