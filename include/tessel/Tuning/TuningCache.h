//===- TuningCache.h - the persistent tuning cache ----------------*- C++ -*-===//
//
// One JSON file (docs/Autotuning.md, "The tuning cache") of entries keyed by kernel, dtype,
// key buckets, device (name and SM count), driver and compiler version: the winner's variant,
// its config and time. Written atomically (a temporary file in the same directory, renamed
// over the old one). A file that is not this format is refused with a message that names it,
// never overwritten. No MLIR or LLVM: the timing side and the generated launchers read it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TUNING_TUNINGCACHE_H
#define TESSEL_TUNING_TUNINGCACHE_H

#include "tessel/Harness/Status.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessel::tuning {

inline constexpr const char *kTuningCacheSchema = "tessel-tuning-cache/1";

/// What selects an entry: every field must match.
struct TuningKey {
  std::string kernel, dtype;
  std::map<std::string, int64_t> keys; ///< key argument -> bucket
  std::string device;                  ///< "NVIDIA H200 (sm_90, 132 SMs)"
  std::string driver;                  ///< "CUDA 13.0"; "none" for the interpreter
  std::string compiler;                ///< tesselc's version that built the variants
  /// The specialized twin the timing launched when it is not the automatic __div8 one
  /// (tesselc --twin: "nt", a GEMM's operand layout), else empty. Two layouts of one shape are
  /// two entries; a launcher that takes only __div8 twins looks up the empty one.
  std::string twin;
  /// Every field but `twin`: the same shape of one kernel on one device and toolchain.
  bool sameButTwin(const TuningKey &o) const {
    return kernel == o.kernel && dtype == o.dtype && keys == o.keys && device == o.device &&
           driver == o.driver && compiler == o.compiler;
  }
  bool operator==(const TuningKey &o) const { return sameButTwin(o) && twin == o.twin; }
};

/// The key's `twin` of a timing that launched the file `launched` (its stem) for `variant`:
/// the suffix after "variant__" unless it is "div8" or `launched` is not its twin.
std::string twinOf(const std::string &variant, const std::string &launched);

struct TuningEntry {
  TuningKey key;
  std::string target;  ///< "cuda:sm_90a"
  std::string variant; ///< the winner ("softmax__bf16__BLOCK_4096__num_warps_8")
  /// The variant file the timing launched: the winner's twin its problem's arguments selected
  /// ("..._nt": a layout), else the winner itself; empty in caches written before it was kept.
  std::string launched;
  std::map<std::string, int64_t> config;
  double ms = 0; ///< its median time
  int timed = 0; ///< variants timed for this entry
  /// The timing's warm-up per variant (TuneOptions::warmMs; 0: none): times taken with and
  /// without one are not the same measurement (a sustained clock against a burst's).
  double warmMs = 0;
  std::string when; ///< UTC, ISO 8601
};

class TuningCache {
public:
  /// $TESSEL_TUNING_CACHE, else <cache dir>/tuning.json where the cache dir is
  /// $TESSEL_CACHE_DIR, else $XDG_CACHE_HOME/tessel, else ~/.cache/tessel (tesselc's).
  static std::string defaultPath();
  /// Reads `path`; a missing file is an empty cache, anything else that is not this format is an
  /// error naming the file and what to do.
  static harness::Status load(const std::string &path, TuningCache &out);

  const TuningEntry *find(const TuningKey &key) const;
  /// Every entry whose key is `key` but for its `twin`, in the file's order.
  std::vector<const TuningEntry *> findEachTwin(const TuningKey &key) const;
  /// Adds or replaces the entry of `e.key`.
  void put(TuningEntry e);
  /// Writes the file atomically (temporary + rename), creating its directory.
  harness::Status save() const;
  const std::string &path() const { return path_; }
  const std::vector<TuningEntry> &entries() const { return entries_; }

private:
  std::string path_;
  std::vector<TuningEntry> entries_;
};

} // namespace tessel::tuning

#endif // TESSEL_TUNING_TUNINGCACHE_H
