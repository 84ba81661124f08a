//===- Manifest.cpp - reading a tuning directory's manifest.json ----------===//
#include "tessel/Tuning/Manifest.h"

#include "JsonRead.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

using namespace tessel;
using namespace tessel::tuning;
using namespace tessel::tuning::json_read;
namespace fs = std::filesystem;

const ManifestVariant *Manifest::find(const std::string &name) const {
  for (const ManifestVariant &v : variants)
    if (v.name == name)
      return &v;
  return nullptr;
}

Status tuning::loadManifest(const std::string &dir, Manifest &out) {
  std::string path = (fs::path(dir) / "manifest.json").string();
  json j;
  if (Status s = parseFile(path, j); !s)
    return Status::error(s.message() + " (write the directory with tessel-tune -o DIR)");
  std::string schema;
  if (!j.is_object() || !str(j, "schema", schema, path) || schema != kManifestSchema)
    return Status::error(path + ": not a tuning manifest of schema " + kManifestSchema +
                         " (schema '" + schema + "'): rebuild it with this tessel-tune");
  out.dir = dir;
  for (auto [key, field] : {std::pair{"kernel", &out.kernel},
                            {"problem", &out.problem},
                            {"dtype", &out.dtype},
                            {"target", &out.target},
                            {"compiler", &out.compiler},
                            {"source", &out.source},
                            {"default_variant", &out.defaultVariant}})
    if (Status s = str(j, key, *field, path); !s)
      return s;
  if (Status s = strings(j, "key_names", out.keyNames, path); !s)
    return s;
  if (Status s = strings(j, "key_buckets", out.keyBuckets, path); !s)
    return s;
  if (auto o = j.find("options"); o != j.end()) { // optional: no options
    if (!o->is_object())
      return Status::error(path + ": 'options' must be an object of strings");
    for (auto it = o->begin(); it != o->end(); ++it) {
      if (!it->is_string())
        return Status::error(path + ": option '" + it.key() + "' must be a string");
      out.options[it.key()] = it->get<std::string>();
    }
  }
  if (!j.contains("variants") || !j["variants"].is_array() || !j.contains("shapes") ||
      !j["shapes"].is_array())
    return Status::error(path + ": 'variants' and 'shapes' must be arrays");
  for (const json &v : j["variants"]) {
    ManifestVariant mv;
    std::string where = path + ": variant";
    if (Status s = str(v, "name", mv.name, where); !s)
      return s;
    if (Status s = str(v, "json", mv.json, where); !s)
      return s;
    if (v.contains("twin") && v["twin"].is_string())
      mv.twin = v["twin"].get<std::string>();
    if (Status s = intMap(v, "config", mv.config, where); !s)
      return s;
    if (auto sp = v.find("spill_bytes"); sp != v.end() && !sp->is_null()) {
      if (!sp->is_number_integer())
        return Status::error(where + " '" + mv.name +
                             "': 'spill_bytes' must be an integer or null");
      mv.spillBytes = sp->get<int64_t>();
    }
    out.variants.push_back(std::move(mv));
  }
  if (auto sp = j.find("space"); sp != j.end() && sp->is_object()) {
    auto num = [&](const char *key) {
      auto it = sp->find(key);
      return it != sp->end() && it->is_number() ? it->get<double>() : 0.0;
    };
    std::string limits;
    if (auto l = sp->find("dropped_by_limit"); l != sp->end() && l->is_object())
      for (auto it = l->begin(); it != l->end(); ++it)
        if (it->is_number_integer())
          limits += ", " + std::to_string(it->get<int64_t>()) + " by " + it.key();
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%.2f", num("compile_seconds"));
    out.spaceSummary =
        "space of " + std::to_string(int64_t(num("declared"))) +
        " configs; dropped before compiling: " + std::to_string(int64_t(num("dropped_by_where"))) +
        " by where, " + std::to_string(int64_t(num("dropped_by_keys"))) + " by where with keys" +
        limits + "; compiled " + std::to_string(int64_t(num("compiled"))) + " in " + seconds + " s";
    if (int64_t spilling = int64_t(num("not_timed_spilling")); spilling > 0)
      out.spaceSummary += "; " + std::to_string(spilling) + " spill registers, not timed";
  }
  for (const json &sh : j["shapes"]) {
    ManifestShape ms;
    std::string where = path + ": shape";
    if (Status s = ints(sh, "shape", ms.shape, where); !s)
      return s;
    if (Status s = ints(sh, "key_values", ms.keyValues, where); !s)
      return s;
    if (Status s = ints(sh, "buckets", ms.buckets, where); !s)
      return s;
    if (Status s = strings(sh, "variants", ms.variants, where); !s)
      return s;
    for (const std::string &name : ms.variants)
      if (!out.find(name))
        return Status::error(where + ": variant '" + name + "' is not in 'variants'");
    out.shapes.push_back(std::move(ms));
  }
  return Status::ok();
}

std::vector<std::string> tuning::findManifestDirs(const std::string &dir) {
  std::vector<std::string> dirs;
  std::error_code ec;
  if (fs::exists(fs::path(dir) / "manifest.json", ec))
    return {dir};
  // At any depth (one tune run per kernel under DIR/<kernel>/, as tune_prepare.sh and hand-made
  // staging lay them out), not below a tuning directory: its variants hold no manifests.
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code entry; // an unreadable entry is skipped, not the end of the walk
    if (!it->is_directory(entry) || !fs::exists(it->path() / "manifest.json", entry))
      continue;
    dirs.push_back(it->path().string());
    it.disable_recursion_pending();
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}
