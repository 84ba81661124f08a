//===- FuzzTileIR.cpp - libFuzzer target: parse, verify, tile pipeline ----===//
//
// Input: tile IR text. Parsed and verified; a module that verifies runs the tile-level pipeline
// (tesselc's, before any target). Any crash, sanitizer report or pass that leaves invalid IR is
// a bug: bad input must end in a diagnostic. Inputs share a context (SharedContext.h); those
// that do not parse are rejected in a child process (ParseInChild.h says why).
//
//===----------------------------------------------------------------------===//
#include "ParseInChild.h"
#include "SharedContext.h"

#include "tessel/Driver/TilePipeline.h"
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllTargets.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <string>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool once = [] {
    tessel::registerAllTargets();
    return true;
  }();
  (void)once;
  auto addDialects = [](DialectRegistry &registry) { tessel::registerAllDialects(registry); };
  std::string text(reinterpret_cast<const char *>(data), size);
  if (!tessel::fuzz::parsesInChild(text, addDialects))
    return 0;
  MLIRContext &context = tessel::fuzz::sharedContext(addDialects);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&context);
  tessel::driver::buildTilePipeline(pm);
  (void)pm.run(*module);
  return 0;
}
