//===- Stages.cpp - the registry of compilation stages --------------------===//
#include "tessel/Driver/Stages.h"

#include "tessel/Driver/TilePipeline.h"

using namespace tessel::driver;

static std::vector<Stage> &stages() {
  static std::vector<Stage> list = [] {
    std::vector<Stage> l;
    l.push_back({"tile", "tile IR after the tile-level pipeline (default)", ".tile.mlir",
                 [](mlir::ModuleOp module, const StageContext &, std::string &artifact) {
                   artifact = printWithLocations(module);
                   return mlir::success();
                 }});
    // Listed so that --help and --emit know them; their backends register a `run`.
    l.push_back(
        {"layout", "tile IR with layouts (blocked, slice, mma, shared)", ".layout.mlir", {}});
    l.push_back({"llvm", "LLVM IR", ".ll", {}});
    l.push_back({"ptx", "PTX assembly (cuda targets)", ".ptx", {}});
    l.push_back({"cubin", "CUDA binary, through ptxas (cuda targets)", ".cubin", {}});
    l.push_back({"amdgcn", "AMDGCN assembly (hip targets)", ".amdgcn", {}});
    l.push_back({"hsaco", "HSA code object (hip targets)", ".hsaco", {}});
    l.push_back({"header", "C++ launcher header", ".h", {}});
    return l;
  }();

  return list;
}

const std::vector<Stage> &tessel::driver::getStages() { return stages(); }

const Stage *tessel::driver::findStage(llvm::StringRef name) {
  for (const Stage &s : stages())
    if (s.name == name)
      return &s;
  return nullptr;
}

void tessel::driver::registerStage(Stage stage) {
  for (Stage &s : stages())
    if (s.name == stage.name) {
      s = std::move(stage);
      return;
    }
  stages().push_back(std::move(stage));
}
