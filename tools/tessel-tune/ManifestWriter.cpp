//===- ManifestWriter.cpp - writing a tuning directory's manifest.json ----===//
#include "ManifestWriter.h"

#include "tessel/Driver/ContentCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace tessel;
using namespace tessel::tune;
namespace json = llvm::json;

static json::Array ints(const std::vector<int64_t> &v) { return json::Array(v); }

llvm::Error tune::writeManifest(const tuning::Manifest &m, const PruneReport &report, int compiled,
                                int failed, double compileSeconds, int notTimedSpilling) {
  json::Array variants, shapes;
  for (const tuning::ManifestVariant &v : m.variants) {
    json::Object config;
    for (const auto &[k, value] : v.config)
      config[k] = value;
    json::Object o{{"name", v.name}, {"json", v.json}, {"config", std::move(config)}};
    o["twin"] = v.twin.empty() ? json::Value(nullptr) : json::Value(v.twin);
    o["spill_bytes"] = v.spillBytes ? json::Value(*v.spillBytes) : json::Value(nullptr);
    variants.push_back(std::move(o));
  }
  for (const tuning::ManifestShape &s : m.shapes) {
    json::Array names;
    for (const std::string &n : s.variants)
      names.push_back(n);
    shapes.push_back(json::Object{{"shape", ints(s.shape)},
                                  {"key_values", ints(s.keyValues)},
                                  {"buckets", ints(s.buckets)},
                                  {"variants", std::move(names)}});
  }
  json::Object byLimit;
  for (const auto &[limit, n] : report.byLimit)
    byLimit[limit] = n;
  json::Array keyNames, keyBuckets;
  for (const std::string &k : m.keyNames)
    keyNames.push_back(k);
  for (const std::string &b : m.keyBuckets)
    keyBuckets.push_back(b);
  json::Object options;
  for (const auto &[key, value] : m.options)
    options[key] = value;
  json::Object doc{
      {"schema", tuning::kManifestSchema},
      {"compiler", m.compiler},
      {"kernel", m.kernel},
      {"problem", m.problem},
      {"dtype", m.dtype},
      {"target", m.target},
      {"source", m.source},
      {"default_variant", m.defaultVariant},
      {"key_names", std::move(keyNames)},
      {"key_buckets", std::move(keyBuckets)},
      {"options", std::move(options)},
      {"space", json::Object{{"declared", report.declared},
                             {"dropped_by_where", report.byWhere},
                             {"dropped_by_keys", report.byKeys},
                             {"dropped_by_limit", std::move(byLimit)},
                             {"compiled", compiled},
                             {"failed", failed},
                             {"compile_seconds", compileSeconds},
                             {"not_timed_spilling", notTimedSpilling}}},
      {"variants", std::move(variants)},
      {"shapes", std::move(shapes)},
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(m.dir))
    return llvm::createStringError(ec, "cannot create '" + m.dir + "': " + ec.message());
  llvm::SmallString<256> path(m.dir);
  llvm::sys::path::append(path, "manifest.json");
  return driver::writeFileAtomically(path,
                                     llvm::formatv("{0:2}\n", json::Value(std::move(doc))).str());
}
