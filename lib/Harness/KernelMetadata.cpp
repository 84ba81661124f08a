//===- KernelMetadata.cpp - reading a kernel variant's JSON ----------------===//
//
// The one reader of tesselc's variant JSON (docs/Artifacts.md; the writer is
// lib/Driver/Metadata.cpp). It reads one schema, artifacts::kVariantSchema, and each field
// from one key: a file of another schema is refused with a request to recompile, a missing
// or mistyped key is an error that names it. nlohmann (header-only) keeps tessel-run-gpu
// free of LLVM.
//
//===----------------------------------------------------------------------===//
#include "tessel/Harness/KernelMetadata.h"

#include "tessel/Artifacts/VariantSchema.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tessel::harness;
namespace fs = std::filesystem;
using json = nlohmann::json;

static std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int64_t KernelMetadata::configValue(std::initializer_list<const char *> names,
                                    int64_t fallback) const {
  for (const char *n : names)
    for (const auto &[k, v] : config)
      if (lower(k) == lower(n))
        return v;
  return fallback;
}

KernelMetadata tessel::harness::metadataForTileIR(const std::string &mlirPath,
                                                  const std::string &function) {
  KernelMetadata m;
  m.tileIR = mlirPath;
  m.function = function;
  m.kernel = function;
  m.artifactsDir = fs::path(mlirPath).parent_path().string();
  return m;
}

namespace {

/// Reads typed keys of one JSON object and remembers the first problem, so that a caller
/// reads every field in a row and checks once.
class Fields {
public:
  Fields(const json &object, std::string where) : object_(object), where_(std::move(where)) {}

  /// A required key of the given type; `what` names the type in the error.
  const json *need(const char *key, bool (json::*is)() const noexcept, const char *what) {
    const json *v = find(key);
    if (!v && error_.empty())
      error_ = where_ + "has no \"" + key + "\"";
    else if (v && !((*v).*is)())
      wrong(key, what), v = nullptr;
    return v;
  }
  /// An optional key: null when absent or JSON null; an error when of another type.
  const json *maybe(const char *key, bool (json::*is)() const noexcept, const char *what) {
    const json *v = find(key);
    if (!v || v->is_null())
      return nullptr;
    if (!((*v).*is)())
      return wrong(key, what), nullptr;
    return v;
  }
  std::string string(const char *key) {
    const json *v = need(key, &json::is_string, "a string");
    return v ? v->get<std::string>() : "";
  }
  int64_t integer(const char *key) {
    const json *v = need(key, &json::is_number_integer, "an integer");
    return v ? v->get<int64_t>() : 0;
  }
  std::optional<int64_t> optionalInteger(const char *key) {
    const json *v = maybe(key, &json::is_number_integer, "an integer");
    return v ? std::optional<int64_t>(v->get<int64_t>()) : std::nullopt;
  }
  const std::string &error() const { return error_; }

private:
  const json *find(const char *key) const {
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }
  void wrong(const char *key, const char *what) {
    if (error_.empty())
      error_ = where_ + "\"" + key + "\" is not " + what;
  }
  const json &object_;
  std::string where_;
  std::string error_;
};

std::string describe(const json &schema) {
  if (schema.is_null())
    return "no \"schema\" key";
  return "schema " + schema.dump();
}

Status readArgs(const json &args, std::vector<KernelArgInfo> &out) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string where = "args[" + std::to_string(i) + "] ";
    if (!args[i].is_object())
      return Status::error(where + "is not an object");
    Fields f(args[i], where);
    KernelArgInfo info;
    info.name = f.string("name");
    std::string kind = f.string("kind");
    info.type = f.string("type");
    info.divisibility = f.integer("divisibility");
    info.equalTo = f.optionalInteger("equal_to");
    if (!f.error().empty())
      return Status::error(f.error());
    if (kind == "ptr")
      info.type = "!tile.ptr<" + info.type + ">";
    else if (kind != "scalar")
      return Status::error(where + "\"kind\" is \"" + kind + "\", not \"ptr\" or \"scalar\"");
    out.push_back(std::move(info));
  }
  return Status::ok();
}

void readConfig(const json &config, KernelMetadata &m) {
  for (auto &[k, v] : config.items()) {
    if (v.is_number_integer())
      m.config[k] = v.get<int64_t>();
    else if (v.is_boolean())
      m.config[k] = v.get<bool>() ? 1 : 0;
    else if (v.is_string())
      m.configText[k] = v.get<std::string>();
  }
}

Status readResources(const json &r, VariantResources &out) {
  Fields f(r, "\"resources\" ");
  // Every key is written, null where the backend does not know it.
  for (const char *key : {"registers", "shared_bytes", "spill_bytes", "occupancy_hint"})
    f.need(key, &json::is_primitive, "a value");
  out.registers = f.optionalInteger("registers");
  out.sharedBytes = f.optionalInteger("shared_bytes");
  out.spillBytes = f.optionalInteger("spill_bytes");
  out.occupancyHint = f.optionalInteger("occupancy_hint");
  return f.error().empty() ? Status::ok() : Status::error(f.error());
}

Status readTensorMaps(const json &maps, std::vector<TensorMapInfo> &out) {
  auto operands = [](const json &list, std::vector<TensorMapInfo::Operand> &ops) {
    if (!list.is_array())
      return false;
    for (const json &o : list) {
      TensorMapInfo::Operand op;
      if (o.is_object() && o.contains("arg") && o["arg"].is_number_integer())
        op.arg = o["arg"].get<int64_t>();
      else if (o.is_object() && o.contains("value") && o["value"].is_number_integer())
        op.value = o["value"].get<int64_t>();
      else
        return false;
      ops.push_back(op);
    }
    return true;
  };
  for (size_t i = 0; i < maps.size(); ++i) {
    std::string where = "tensor_maps[" + std::to_string(i) + "] ";
    const json &m = maps[i];
    TensorMapInfo t;
    if (!m.is_object() || !m.contains("base") || !m["base"].is_number_integer() ||
        !m.contains("element") || !m["element"].is_string() || !m.contains("dims") ||
        !operands(m["dims"], t.dims) || !m.contains("strides") ||
        !operands(m["strides"], t.strides) || !m.contains("box") || !m["box"].is_array() ||
        !m.contains("swizzle") || !m["swizzle"].is_number_integer())
      return Status::error(where + "needs base, element, dims, strides, box and swizzle");
    t.base = m["base"].get<int64_t>();
    t.element = m["element"].get<std::string>();
    t.swizzle = m["swizzle"].get<int64_t>();
    for (const json &b : m["box"]) {
      if (!b.is_number_integer())
        return Status::error(where + "\"box\" is not an array of integers");
      t.box.push_back(b.get<int64_t>());
    }
    if (t.box.size() != t.dims.size() || t.strides.size() + 1 != t.dims.size())
      return Status::error(where + "has " + std::to_string(t.dims.size()) + " dims, " +
                           std::to_string(t.box.size()) + " box extents and " +
                           std::to_string(t.strides.size()) + " strides");
    out.push_back(std::move(t));
  }
  return Status::ok();
}

/// The document's fields, `path` only for relative paths.
Status readDocument(const json &j, const std::string &path, KernelMetadata &m) {
  Fields f(j, "");
  m.kernel = f.string("kernel");
  m.function = f.string("function");
  m.target = f.string("target");
  if (const json *dtype = f.maybe("dtype", &json::is_string, "a string or null"))
    m.dtype = dtype->get<std::string>();
  m.numWarps = f.integer("num_warps");
  m.numStages = f.integer("num_stages");
  m.threadsPerWarp = f.optionalInteger("threads_per_warp").value_or(32);
  m.sharedMemory = f.optionalInteger("shared_memory").value_or(0);
  if (const json *s = f.maybe("specializes", &json::is_string, "a string"))
    m.specializes = s->get<std::string>();
  const json *args = f.need("args", &json::is_array, "an array");
  const json *config = f.need("config", &json::is_object, "an object");
  const json *files = f.need("artifacts", &json::is_object, "an object");
  const json *resources = f.maybe("resources", &json::is_object, "an object");
  if (const json *binary = f.maybe("binary_metadata", &json::is_object, "an object"))
    m.binaryMetadata = binary->dump();
  const json *maps = f.maybe("tensor_maps", &json::is_array, "an array");
  if (!f.error().empty())
    return Status::error(f.error());
  if (Status s = readArgs(*args, m.args); !s)
    return s;
  if (maps)
    if (Status s = readTensorMaps(*maps, m.tensorMaps); !s)
      return s;
  readConfig(*config, m);
  if (resources) {
    m.resources.emplace();
    if (Status s = readResources(*resources, *m.resources); !s)
      return s;
  }
  m.artifactsDir = fs::path(path).parent_path().string();
  for (auto &[stage, file] : files->items()) {
    if (!file.is_string())
      return Status::error("\"artifacts\".\"" + stage + "\" is not a string");
    fs::path p = file.get<std::string>();
    m.files[stage] = (p.is_relative() ? fs::path(m.artifactsDir) / p : p).string();
  }
  // The interpreter runs the tile IR, a GPU its cubin or hsaco: a variant compiled for one of
  // them alone (--emit=cubin) is complete; each executor says what it misses.
  if (m.files.empty())
    return Status::error("\"artifacts\" names no file");
  if (auto tile = m.files.find("tile"); tile != m.files.end())
    m.tileIR = tile->second;
  return Status::ok();
}

} // namespace

Status tessel::harness::loadKernelMetadata(const std::string &path, KernelMetadata &out) {
  std::ifstream in(path);
  if (!in)
    return Status::error(path + ": error: cannot read the kernel metadata file");
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return Status::error(path + ": error: not a JSON object");
  // The version first: a file of another schema is not read key by key, where it would fail on
  // whichever key changed with a message that does not say why.
  json schema = j.contains("schema") ? j["schema"] : json();
  if (!schema.is_number_integer() || schema.get<int64_t>() != artifacts::kVariantSchema)
    return Status::error(
        path + ": error: " + describe(schema) + ", but this build reads variant metadata schema " +
        std::to_string(artifacts::kVariantSchema) + "; recompile the kernel with tesselc");
  KernelMetadata m;
  m.metadataPath = path;
  if (Status s = readDocument(j, path, m); !s)
    return Status::error(path + ": error: " + s.message() + " (docs/Artifacts.md)");
  out = std::move(m);
  return Status::ok();
}
