//===- Metadata.h - the JSON metadata of a kernel variant -------*- C++ -*-===//
//
// One `<variant>.json` next to each variant's artifacts; docs/Artifacts.md is the schema and
// tessel/Artifacts/VariantSchema.h its version. This is its one writer; its one reader is
// lib/Harness/KernelMetadata.cpp (tessel-run, the runtime). The GPU stages add artifacts and
// the resources record.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DRIVER_METADATA_H
#define TESSEL_DRIVER_METADATA_H

#include "tessel/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

struct ArgMetadata {
  std::string name;
  std::string kind; // "ptr" or "scalar"
  std::string type; // element (pointee) type: "bf16", "i64", ...
  int divisibility = 1;
  std::optional<int64_t> equalTo; // a specialized twin's promised value ("equal_to")
};

struct VariantMetadata {
  std::string kernel;  // kernel name (TESSEL_KERNEL), or the function name for .mlir input
  std::string variant; // unique variant name; also the function's symbol and the file stem
  std::string source;  // absolute path of the kernel file
  std::optional<std::string> dtype; // dtype of a dtype-generic kernel
  std::string target;
  std::vector<ArgMetadata> args;
  llvm::json::Object config; // field -> value
  /// The config's index in the kernel's CONFIGS when it is as declared there (no -D changed
  /// it): the library's own choices, which callers without a tuning entry prefer.
  std::optional<int> configIndex;
  /// The kernel's tuning keys (its TESSEL_TUNE space), as (argument, "pow2" or "exact"): what a
  /// runtime buckets to look the variant's kernel up in the tuning cache. Empty without a space.
  std::vector<std::pair<std::string, std::string>> tuningKeys;
  int numWarps = 4;
  int numStages = 1;
  bool fpFusion = true; // the GPU code may contract a * b + c into fma (tesselc --fp-fusion)
  std::map<std::string, std::string> artifacts; // stage -> file name (relative to the JSON)
  /// GPU stages: threads per warp, dynamic shared memory in bytes, and what the binary uses
  /// (the same record on every target).
  std::optional<int> threadsPerWarp;
  std::optional<int> sharedMemory;
  std::optional<KernelResources> resources;
  /// The backend's launch metadata of the binary (CompiledKernel::binaryMetadata; AMD: the
  /// code object's kernel metadata with the kernel-argument layout), if it has any.
  std::optional<llvm::json::Value> binaryMetadata;
  /// The tensor maps the runtime builds for a launch (kTensorMapsAttrName, as JSON), if any.
  std::optional<llvm::json::Value> tensorMaps;
  /// A specialized twin: the variant it specializes; its assumptions are the args'
  /// divisibility (checked at launch).
  std::optional<std::string> specializes;
};

/// The argument list, num_warps and num_stages of a kernel function (names "arg0", ... unless
/// `names` gives them).
void fillFromKernel(mlir::func::FuncOp kernel, VariantMetadata &meta,
                    const std::vector<std::string> &names = {});

/// The JSON document of docs/Artifacts.md, at schema artifacts::kVariantSchema.
llvm::json::Value toJSON(const VariantMetadata &meta);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_METADATA_H
