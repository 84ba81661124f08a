//===- FuzzGPUPipeline.cpp - libFuzzer target: tile IR to LLVM dialect ----===//
//
// Input: one byte choosing the target (the registered GPU targets in order), then tile IR
// text. A module that parses and verifies runs the tile pipeline, the target-limit checks and
// the GPU pipeline down to the LLVM dialect (layouts, matrix units, pipelining, allocation,
// barriers, the lowering). Any crash or sanitizer report is a bug: unsupported input must end
// in a diagnostic. Inputs share a context (SharedContext.h); those that do not parse are
// rejected in a child process (ParseInChild.h says why).
//
//===----------------------------------------------------------------------===//
#include "ParseInChild.h"
#include "SharedContext.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Driver/GPUPipeline.h"
#include "tessel/Driver/TilePipeline.h"
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllTargets.h"
#include "tessel/Target/TargetRegistry.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <string>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static llvm::SmallVector<std::string> targets = [] {
    tessel::registerAllTargets();
    return tessel::getRegisteredTargetNames();
  }();
  if (size < 1 || targets.empty())
    return 0;
  const std::string &targetName = targets[data[0] % targets.size()];
  auto addDialects = [](DialectRegistry &registry) {
    tessel::registerAllDialects(registry);
    tessel::insertTargetDialects(registry);
  };
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  if (!tessel::fuzz::parsesInChild(text, addDialects))
    return 0;
  MLIRContext &context = tessel::fuzz::sharedContext(addDialects);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module || failed(verify(*module)))
    return 0;
  (*module)->setAttr(tessel::tile::TileDialect::getTargetAttrName(),
                     StringAttr::get(&context, targetName));
  std::string error;
  std::unique_ptr<tessel::TargetInfo> target = tessel::createTargetInfo(targetName, error);
  if (!target)
    return 0;
  PassManager tile(&context);
  tessel::driver::buildTilePipeline(tile);
  if (failed(tile.run(*module)) || failed(tessel::checkTargetLimits(*module, *target)))
    return 0;
  PassManager gpu(&context);
  tessel::buildGPUPipeline(gpu, *target);
  (void)gpu.run(*module);
  return 0;
}
