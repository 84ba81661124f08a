//===- Metadata.cpp - the JSON metadata of a kernel variant ---------------===//
#include "tessel/Driver/Metadata.h"

#include "tessel/Artifacts/VariantSchema.h"
#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Driver/Version.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::driver;

static std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

void tessel::driver::fillFromKernel(func::FuncOp kernel, VariantMetadata &meta,
                                    const std::vector<std::string> &names) {
  meta.args.clear();
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    ArgMetadata arg;
    arg.name = i < names.size() ? names[i] : "arg" + std::to_string(i);
    if (auto p = dyn_cast<tile::PtrType>(type)) {
      arg.kind = "ptr";
      arg.type = typeName(p.getPointeeType());
    } else {
      arg.kind = "scalar";
      arg.type = typeName(type);
    }
    if (auto d =
            kernel.getArgAttrOfType<IntegerAttr>(i, tile::TileDialect::getDivisibilityAttrName()))
      arg.divisibility = d.getInt();
    if (auto e = kernel.getArgAttrOfType<IntegerAttr>(i, tile::TileDialect::getEqualToAttrName()))
      arg.equalTo = e.getInt();
    meta.args.push_back(arg);
  }
  if (auto w = kernel->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName()))
    meta.numWarps = w.getInt();
  if (auto s = kernel->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumStagesAttrName()))
    meta.numStages = s.getInt();
}

/// Every key always, null where the backend does not know it: readers test one key, never
/// its absence.
static llvm::json::Value resourcesJSON(const KernelResources &r) {
  auto value = [](std::optional<int64_t> v) {
    return v ? llvm::json::Value(*v) : llvm::json::Value(nullptr);
  };
  return llvm::json::Object{{"registers", value(r.registers)},
                            {"shared_bytes", value(r.sharedBytes)},
                            {"spill_bytes", value(r.spillBytes)},
                            {"occupancy_hint", value(r.occupancyHint)}};
}

llvm::json::Value tessel::driver::toJSON(const VariantMetadata &meta) {
  llvm::json::Array args;
  for (const ArgMetadata &a : meta.args) {
    llvm::json::Object arg{
        {"name", a.name}, {"kind", a.kind}, {"type", a.type}, {"divisibility", a.divisibility}};
    if (a.equalTo)
      arg["equal_to"] = *a.equalTo;
    args.push_back(std::move(arg));
  }
  llvm::json::Object artifacts;
  for (const auto &[stage, file] : meta.artifacts)
    artifacts[stage] = file;
  llvm::json::Object config = meta.config;
  llvm::json::Object doc{
      {"schema", artifacts::kVariantSchema},
      {"kernel", meta.kernel},
      {"variant", meta.variant},
      {"function", meta.variant},
      {"source", meta.source},
      {"dtype", meta.dtype ? llvm::json::Value(*meta.dtype) : llvm::json::Value(nullptr)},
      {"target", meta.target},
      {"compiler", llvm::json::Object{{"name", "tesselc"},
                                      {"version", kCompilerVersion},
                                      {"fp_fusion", meta.fpFusion}}},
      {"num_warps", meta.numWarps},
      {"num_stages", meta.numStages},
      {"args", std::move(args)},
      {"config", std::move(config)},
      {"artifacts", std::move(artifacts)},
  };
  if (meta.configIndex)
    doc["config_index"] = *meta.configIndex;
  if (!meta.tuningKeys.empty()) {
    llvm::json::Array keys;
    for (const auto &[name, bucket] : meta.tuningKeys)
      keys.push_back(llvm::json::Object{{"name", name}, {"bucket", bucket}});
    doc["tuning_keys"] = std::move(keys);
  }
  if (meta.threadsPerWarp)
    doc["threads_per_warp"] = *meta.threadsPerWarp;
  if (meta.sharedMemory)
    doc["shared_memory"] = *meta.sharedMemory;
  if (meta.specializes)
    doc["specializes"] = *meta.specializes;
  if (meta.resources)
    doc["resources"] = resourcesJSON(*meta.resources);
  if (meta.binaryMetadata)
    doc["binary_metadata"] = *meta.binaryMetadata;
  if (meta.tensorMaps)
    doc["tensor_maps"] = *meta.tensorMaps;
  return doc;
}
