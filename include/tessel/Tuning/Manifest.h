//===- Manifest.h - a tuning directory's manifest.json ------------*- C++ -*-===//
//
// tessel-tune's compile side writes one directory per (kernel, dtype): the variants that
// survived pruning, compiled, and `manifest.json` listing them with the shapes to tune and the
// variants each shape may use (docs/Autotuning.md, "The tuning directory"). The timing side
// reads it here, without MLIR or LLVM (nlohmann).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TUNING_MANIFEST_H
#define TESSEL_TUNING_MANIFEST_H

#include "tessel/Harness/Status.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::tuning {

/// "tessel-tuning-dir/1": the schema this reader accepts.
inline constexpr const char *kManifestSchema = "tessel-tuning-dir/1";

struct ManifestVariant {
  std::string name;
  std::string json; ///< the variant's metadata file, relative to the directory
  std::string twin; ///< its __div8 twin's metadata file, or empty
  std::map<std::string, int64_t> config;
  /// Bytes per thread that the assembler spilled to local memory in the binary the timing
  /// launches first (the twin's when there is one); empty where no assembler ran.
  std::optional<int64_t> spillBytes;
};

/// One shape to tune: the key values the problem gives, their buckets, and the variants whose
/// config passes the space's key wheres for these buckets.
struct ManifestShape {
  std::vector<int64_t> shape;
  std::vector<int64_t> keyValues, buckets;
  std::vector<std::string> variants;
};

struct Manifest {
  std::string dir; ///< where manifest.json was read from
  std::string kernel, problem, dtype, target, compiler, source;
  std::string defaultVariant; ///< the kernel's first CONFIGS entry (the launchers' fallback)
  std::vector<std::string> keyNames, keyBuckets; ///< "n_cols"; "pow2" or "exact"
  /// The problem's options (tessel-tune --opt, e.g. layout=bshd) for every shape.
  std::map<std::string, std::string> options;
  std::vector<ManifestVariant> variants;
  std::vector<ManifestShape> shapes;
  /// The compile side's numbers, as one line ("space of 78 configs, dropped before compiling:
  /// ..."); empty when the manifest has none.
  std::string spaceSummary;
  const ManifestVariant *find(const std::string &name) const;
};

/// Reads DIR/manifest.json; errors name the file and the fix.
harness::Status loadManifest(const std::string &dir, Manifest &out);
/// DIR itself when it holds a manifest.json, else the directories below it at any depth that
/// do (sorted; none below one that does).
std::vector<std::string> findManifestDirs(const std::string &dir);

} // namespace tessel::tuning

#endif // TESSEL_TUNING_MANIFEST_H
