//===- Compiler.cpp - compiling a kernel variant to its artifacts ---------===//
#include "tessel/Driver/Compiler.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Driver/ContentCache.h"
#include "tessel/Driver/TilePipeline.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::driver;

static LogicalResult writeOutput(StringRef dir, StringRef file, StringRef data) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  if (llvm::Error err = writeFileAtomically(path, data)) {
    llvm::errs() << "tesselc: error: " << llvm::toString(std::move(err)) << "\n";
    return failure();
  }
  return success();
}

bool tessel::driver::verifyEachByDefault() {
  const char *env = std::getenv("TESSEL_VERIFY_EACH");
  return env && StringRef(env) == "1";
}

LogicalResult tessel::driver::compileVariant(ModuleOp module, VariantMetadata meta,
                                             const CompileOptions &options, TimingScope &timing,
                                             VariantMetadata *written) {
  std::unique_ptr<IRDumper> dumper;
  if (!options.dumpDir.empty()) {
    llvm::SmallString<256> dir(options.dumpDir);
    llvm::sys::path::append(dir, meta.variant);
    dumper = std::make_unique<IRDumper>(dir.str().str());
    dumper->dump(module, "trace");
  }

  if (!options.fpFusion)
    module->setAttr(tile::TileDialect::getFpFusionAttrName(),
                    BoolAttr::get(module->getContext(), false));
  // The module's attribute, not the flag: a .mlir input may already carry tile.fp_fusion = false.
  meta.fpFusion = tile::TileDialect::isFpFusionEnabled(module);

  PassManager pm(module->getContext());
  buildTilePipeline(pm, options.debug);
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  TimingScope pipelineTiming = timing.nest("tile pipeline");
  pm.enableTiming(pipelineTiming);
  if (dumper)
    dumper->attach(pm);
  if (failed(runPipeline(pm, module, options.verifyEach)))
    return failure();
  pipelineTiming.stop();

  bool toStdout = options.outputDir == "-";
  if (!toStdout)
    if (std::error_code ec = llvm::sys::fs::create_directories(options.outputDir)) {
      llvm::errs() << "tesselc: error: cannot create '" << options.outputDir
                   << "': " << ec.message() << "\n";
      return failure();
    }
  std::map<std::string, std::string> products;
  StageContext context{
      meta.target,       dumper.get(), &timing, &meta, &products, options.perfFallbackError,
      options.verifyEach};
  for (const Stage *stage : options.stages) {
    TimingScope stageTiming = timing.nest(stage->name);
    std::string artifact;
    if (toStdout && stage->name == "tile") {
      // Honour --mlir-print-debuginfo and friends for what a user reads on the terminal.
      module->print(llvm::outs());
      llvm::outs() << "\n";
      continue;
    }
    if (failed(stage->run(module, context, artifact)))
      return failure();
    if (toStdout) {
      llvm::outs() << artifact;
      continue;
    }
    std::string file = meta.variant + stage->suffix;
    if (failed(writeOutput(options.outputDir, file, artifact)))
      return failure();
    meta.artifacts[stage->name] = file;
  }
  if (written)
    *written = meta;
  if (toStdout)
    return success();
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", toJSON(meta)) << "\n";
  return writeOutput(options.outputDir, meta.variant + ".json", json);
}

std::vector<OwningOpRef<ModuleOp>> tessel::driver::splitKernels(ModuleOp module) {
  std::vector<std::string> kernels;
  for (auto func : module.getOps<func::FuncOp>())
    if (tile::isKernel(func))
      kernels.push_back(func.getSymName().str());
  std::vector<OwningOpRef<ModuleOp>> out;
  for (const std::string &name : kernels) {
    OwningOpRef<ModuleOp> copy = module.clone();
    for (auto func : llvm::make_early_inc_range(copy->getOps<func::FuncOp>()))
      if (tile::isKernel(func) && func.getSymName() != name)
        func.erase();
    out.push_back(std::move(copy));
  }
  return out;
}
