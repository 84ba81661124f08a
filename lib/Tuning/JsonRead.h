//===- JsonRead.h - checked reads of nlohmann JSON ------------------*- C++ -*-===//
//
// Internal to lib/Tuning, built without exceptions: every read checks the type first and a
// mismatch becomes an error that names the file and the key.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_TUNING_JSONREAD_H
#define TESSEL_LIB_TUNING_JSONREAD_H

#include "tessel/Harness/Status.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace tessel::tuning::json_read {

using json = nlohmann::json;
using harness::Status;

/// Parses `path`; `missing` is set (and ok returned) when the file does not exist.
inline Status parseFile(const std::string &path, json &out, bool *missing = nullptr) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (missing) {
      *missing = true;
      return Status::ok();
    }
    return Status::error(path + ": cannot read");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  out = json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded())
    return Status::error(path + ": not valid JSON");
  return Status::ok();
}

inline Status str(const json &j, const char *key, std::string &out, const std::string &where) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string())
    return Status::error(where + ": '" + key + "' is missing or not a string");
  out = it->get<std::string>();
  return Status::ok();
}

inline Status ints(const json &j, const char *key, std::vector<int64_t> &out,
                   const std::string &where) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_array())
    return Status::error(where + ": '" + key + "' is missing or not an array");
  for (const json &v : *it) {
    if (!v.is_number_integer())
      return Status::error(where + ": '" + key + "' holds a value that is not an integer");
    out.push_back(v.get<int64_t>());
  }
  return Status::ok();
}

inline Status strings(const json &j, const char *key, std::vector<std::string> &out,
                      const std::string &where) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_array())
    return Status::error(where + ": '" + key + "' is missing or not an array");
  for (const json &v : *it) {
    if (!v.is_string())
      return Status::error(where + ": '" + key + "' holds a value that is not a string");
    out.push_back(v.get<std::string>());
  }
  return Status::ok();
}

/// An object of integers (configs, keys); booleans read as 0/1, other values are skipped.
inline Status intMap(const json &j, const char *key, std::map<std::string, int64_t> &out,
                     const std::string &where) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_object())
    return Status::error(where + ": '" + key + "' is missing or not an object");
  for (auto f = it->begin(); f != it->end(); ++f) {
    if (f->is_number_integer())
      out[f.key()] = f->get<int64_t>();
    else if (f->is_boolean())
      out[f.key()] = f->get<bool>() ? 1 : 0;
  }
  return Status::ok();
}

} // namespace tessel::tuning::json_read

#endif // TESSEL_LIB_TUNING_JSONREAD_H
