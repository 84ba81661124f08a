//===- TilePipeline.cpp - the tile-level pass pipeline and IR dumps -------===//
#include "tessel/Driver/TilePipeline.h"

#include "tessel/Driver/ContentCache.h"
#include "tessel/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessel::driver;

void tessel::driver::buildTilePipeline(OpPassManager &pm, bool debug) {
  if (!debug)
    pm.addPass(tessel::createTileStripDeviceAsserts());
  // Inline DSL helper functions without the inliner's nested canonicalization: the
  // canonicalize pass that follows does it once for the whole module.
  pm.addPass(createInlinerPass({}, [](OpPassManager &) {}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Hoists loop-invariant pure ops (splats, casts, address arithmetic) out of for_range bodies;
  // memory operations stay where they are.
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createSymbolDCEPass());
}

LogicalResult tessel::driver::runPipeline(PassManager &pm, ModuleOp module, bool verifyEach) {
  pm.enableVerifier(verifyEach);
  if (failed(pm.run(module)))
    return failure();
  if (verifyEach || succeeded(verify(module)))
    return success();
  emitError(module.getLoc()) << "the compiler produced invalid IR (a bug in Tessel: please report "
                                "it); --verify-each names the pass that did";
  return failure();
}

std::string tessel::driver::printWithLocations(Operation *module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(/*enable=*/true, /*prettyForm=*/false));
  os << "\n";
  return text;
}

void IRDumper::dump(Operation *module, llvm::StringRef name) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << "tesselc: error: cannot create '" << dir << "': " << ec.message() << "\n";
    return;
  }
  llvm::SmallString<256> path(dir);
  std::string number = std::to_string(counter++);
  if (number.size() < 2)
    number.insert(0, 2 - number.size(), '0');
  llvm::sys::path::append(path, number + "-" + name + ".mlir");
  std::string file = path.str().str();
  if (llvm::Error err = writeFileAtomically(file, printWithLocations(module)))
    llvm::errs() << "tesselc: error: " << llvm::toString(std::move(err)) << "\n";
}

namespace {
/// Dumps the module after every top-level pass (nested pipelines, e.g. the inliner's, are
/// skipped: they run on functions, not on the module).
struct DumpAfterPass : public PassInstrumentation {
  explicit DumpAfterPass(IRDumper &dumper) : dumper(dumper) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    if (isa<ModuleOp>(op) && !op->getParentOp())
      dumper.dump(op, pass->getArgument().empty() ? pass->getName() : pass->getArgument());
  }
  void runAfterPassFailed(Pass *pass, Operation *op) override { runAfterPass(pass, op); }
  IRDumper &dumper;
};
} // namespace

void IRDumper::attach(PassManager &pm) {
  pm.addInstrumentation(std::make_unique<DumpAfterPass>(*this));
}
