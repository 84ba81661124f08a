//===- KernelMetadata.cpp - reading a kernel variant's JSON ----------------===//
#include "tessel/Harness/KernelMetadata.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tessel::harness;
namespace fs = std::filesystem;

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

Status tessel::harness::loadKernelMetadata(const std::string &path, KernelMetadata &out) {
  std::ifstream in(path);
  if (!in)
    return Status::error(path + ": error: cannot read the kernel metadata file");
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return Status::error(path + ": error: not a JSON object");
  auto str = [&](std::initializer_list<const char *> keys) -> std::string {
    for (const char *k : keys)
      if (j.contains(k) && j[k].is_string())
        return j[k].get<std::string>();
    return "";
  };
  KernelMetadata m;
  m.metadataPath = path;
  m.artifactsDir = fs::path(path).parent_path().string();
  m.kernel = str({"kernel", "name"});
  m.function = str({"function", "symbol", "func"});
  if (m.function.empty())
    m.function = m.kernel;
  m.target = str({"target"});
  m.tileIR = str({"tile_ir", "ir", "tile"});
  m.dtype = str({"dtype"});
  for (const char *filesKey : {"files", "artifacts"})
    if (j.contains(filesKey) && j[filesKey].is_object())
      for (auto &[k, v] : j[filesKey].items())
        if (v.is_string()) {
          m.files[k] = v.get<std::string>();
          if (m.tileIR.empty() && (k == "tile" || k == "tile_ir" || k == "mlir"))
            m.tileIR = v.get<std::string>();
        }
  if (!m.tileIR.empty() && fs::path(m.tileIR).is_relative())
    m.tileIR = (fs::path(m.artifactsDir) / m.tileIR).string();
  if (j.contains("args") && j["args"].is_array())
    for (auto &a : j["args"]) {
      KernelArgInfo info;
      if (a.is_object()) {
        if (a.contains("name") && a["name"].is_string())
          info.name = a["name"].get<std::string>();
        if (a.contains("type") && a["type"].is_string())
          info.type = a["type"].get<std::string>();
        // tesselc's schema (tessel.kernel.v1): kind "ptr" with the pointee as the type.
        if (a.contains("kind") && a["kind"] == "ptr" && !info.isPointer())
          info.type = "!tile.ptr<" + info.type + ">";
        if (a.contains("divisibility") && a["divisibility"].is_number_integer())
          info.divisibility = a["divisibility"].get<int64_t>();
        if (a.contains("equal_to") && a["equal_to"].is_number_integer())
          info.equalTo = a["equal_to"].get<int64_t>();
      } else if (a.is_string()) {
        info.name = a.get<std::string>();
      }
      m.args.push_back(info);
    }
  auto readInts = [&](const nlohmann::json &obj) {
    for (auto &[k, v] : obj.items()) {
      if (v.is_number_integer())
        m.config[k] = v.get<int64_t>();
      else if (v.is_boolean())
        m.config[k] = v.get<bool>() ? 1 : 0;
      else if (v.is_string())
        m.configText[k] = v.get<std::string>();
    }
  };
  if (j.contains("config") && j["config"].is_object())
    readInts(j["config"]);
  if (j.contains("num_warps") && j["num_warps"].is_number_integer())
    m.numWarps = j["num_warps"].get<int64_t>();
  else
    m.numWarps = m.configValue({"num_warps"}, 4);
  if (j.contains("num_stages") && j["num_stages"].is_number_integer())
    m.numStages = j["num_stages"].get<int64_t>();
  else
    m.numStages = m.configValue({"num_stages"}, 1);
  if (j.contains("threads_per_warp") && j["threads_per_warp"].is_number_integer())
    m.threadsPerWarp = j["threads_per_warp"].get<int64_t>();
  if (j.contains("shared_memory") && j["shared_memory"].is_number_integer())
    m.sharedMemory = j["shared_memory"].get<int64_t>();
  m.specializes = str({"specializes"});
  for (auto &[kind, file] : m.files)
    if (fs::path(file).is_relative())
      file = (fs::path(m.artifactsDir) / file).string();
  if (m.tileIR.empty())
    return Status::error(path + ": error: the metadata names no tile-IR file");
  out = std::move(m);
  return Status::ok();
}
