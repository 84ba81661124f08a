//===- TuningCache.cpp - the persistent tuning cache ----------------------===//
#include "tessel/Tuning/TuningCache.h"

#include "JsonRead.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessel;
using namespace tessel::tuning;
using namespace tessel::tuning::json_read;
namespace fs = std::filesystem;

static std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

std::string TuningCache::defaultPath() {
  if (std::string p = env("TESSEL_TUNING_CACHE"); !p.empty())
    return p;
  std::string dir = env("TESSEL_CACHE_DIR");
  if (dir.empty() && !env("XDG_CACHE_HOME").empty())
    dir = env("XDG_CACHE_HOME") + "/tessel";
  if (dir.empty())
    dir = env("HOME") + "/.cache/tessel";
  return dir + "/tuning.json";
}

std::string tuning::twinOf(const std::string &variant, const std::string &launched) {
  std::string prefix = variant + "__";
  if (launched.size() <= prefix.size() || launched.compare(0, prefix.size(), prefix) != 0)
    return "";
  std::string suffix = launched.substr(prefix.size());
  return suffix == "div8" ? "" : suffix;
}

static Status entryFromJSON(const json &e, const std::string &where, TuningEntry &out) {
  TuningKey &k = out.key;
  for (auto [key, field] : {std::pair{"kernel", &k.kernel},
                            {"dtype", &k.dtype},
                            {"device", &k.device},
                            {"driver", &k.driver},
                            {"compiler", &k.compiler},
                            {"target", &out.target},
                            {"variant", &out.variant},
                            {"when", &out.when}})
    if (Status s = str(e, key, *field, where); !s)
      return s;
  if (Status s = intMap(e, "keys", k.keys, where); !s)
    return s;
  if (Status s = intMap(e, "config", out.config, where); !s)
    return s;
  if (!e.contains("ms") || !e["ms"].is_number() || !e.contains("timed") ||
      !e["timed"].is_number_integer())
    return Status::error(where + ": 'ms' and 'timed' must be numbers");
  out.ms = e["ms"].get<double>();
  out.timed = e["timed"].get<int>();
  if (e.contains("warm_ms")) { // optional: absent when the timing had no warm-up
    if (!e["warm_ms"].is_number())
      return Status::error(where + ": 'warm_ms' must be a number");
    out.warmMs = e["warm_ms"].get<double>();
  }
  if (e.contains("launched")) { // optional: older caches lack it
    if (!e["launched"].is_string())
      return Status::error(where + ": 'launched' must be a string");
    out.launched = e["launched"].get<std::string>();
  }
  // Optional too: a cache written before keys had it names the twin only in `launched`.
  if (e.contains("twin")) {
    if (!e["twin"].is_string())
      return Status::error(where + ": 'twin' must be a string");
    k.twin = e["twin"].get<std::string>();
  } else {
    k.twin = twinOf(out.variant, out.launched);
  }
  return Status::ok();
}

Status TuningCache::load(const std::string &path, TuningCache &out) {
  out = TuningCache();
  out.path_ = path;
  json j;
  bool missing = false;
  const std::string fix = " (delete it to start a new cache, or pass --cache=ANOTHER.json)";
  if (Status s = parseFile(path, j, &missing); !s)
    return Status::error("tuning cache " + s.message() + fix);
  if (missing)
    return Status::ok();
  std::string schema;
  if (!j.is_object() || !str(j, "schema", schema, path) || schema != kTuningCacheSchema)
    return Status::error("tuning cache " + path + ": not a " + kTuningCacheSchema + " file" + fix);
  if (!j.contains("entries") || !j["entries"].is_array())
    return Status::error("tuning cache " + path + ": 'entries' is not an array" + fix);
  int n = 0;
  for (const json &e : j["entries"]) {
    TuningEntry entry;
    if (Status s = entryFromJSON(e, path + ": entry " + std::to_string(n++), entry); !s)
      return Status::error("tuning cache " + s.message() + fix);
    out.entries_.push_back(std::move(entry));
  }
  return Status::ok();
}

const TuningEntry *TuningCache::find(const TuningKey &key) const {
  for (const TuningEntry &e : entries_)
    if (e.key == key)
      return &e;
  return nullptr;
}

std::vector<const TuningEntry *> TuningCache::findEachTwin(const TuningKey &key) const {
  std::vector<const TuningEntry *> out;
  for (const TuningEntry &e : entries_)
    if (e.key.sameButTwin(key))
      out.push_back(&e);
  return out;
}

void TuningCache::put(TuningEntry e) {
  for (TuningEntry &old : entries_)
    if (old.key == e.key) {
      old = std::move(e);
      return;
    }
  entries_.push_back(std::move(e));
}

Status TuningCache::save() const {
  json entries = json::array();
  for (const TuningEntry &e : entries_) {
    entries.push_back({{"kernel", e.key.kernel},
                       {"dtype", e.key.dtype},
                       {"keys", e.key.keys},
                       {"device", e.key.device},
                       {"driver", e.key.driver},
                       {"compiler", e.key.compiler},
                       {"target", e.target},
                       {"variant", e.variant},
                       {"config", e.config},
                       {"ms", e.ms},
                       {"timed", e.timed},
                       {"when", e.when}});
    if (!e.key.twin.empty())
      entries.back()["twin"] = e.key.twin;
    if (!e.launched.empty())
      entries.back()["launched"] = e.launched;
    if (e.warmMs > 0)
      entries.back()["warm_ms"] = e.warmMs;
  }
  json doc = {{"schema", kTuningCacheSchema}, {"entries", entries}};
  std::error_code ec;
  fs::path p(path_);
  if (p.has_parent_path())
    fs::create_directories(p.parent_path(), ec);
  // Same directory, so the rename is atomic: a reader sees the old file or the new one.
  std::string tmp = path_ + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << doc.dump(2) << "\n";
    out.flush();
    if (!out) {
      fs::remove(tmp, ec);
      return Status::error("tuning cache " + path_ + ": cannot write " + tmp);
    }
  }
  fs::rename(tmp, p, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Status::error("tuning cache " + path_ + ": cannot rename " + tmp +
                         " over it: " + ec.message());
  }
  return Status::ok();
}
