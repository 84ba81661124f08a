//===- tessel-translate.cpp - code generation stages for one target -------===//
//
// A developer tool for the backends and their lit tests: reads tile IR (run through the GPU
// pipeline for --target) or a module already in the LLVM dialect, compiles each kernel with
// the target's adapter and prints one stage:
//
//   --emit=llvm       optimized LLVM IR (vendor math library linked)
//   --emit=asm        PTX or AMDGCN assembly
//   --emit=bin-info   JSON: binary kind and size, resources (registers, spills, LDS, ...) and
//                     the backend's binary metadata (AMD: kernel-argument layout)
//   --emit=bin        the binary (cubin or hsaco) of one kernel, into -o
//
// Errors are located diagnostics and exit code 1.
//
//===----------------------------------------------------------------------===//
#include "tessel/Driver/GPUPipeline.h"
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllTargets.h"
#include "tessel/Target/TargetRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tessel;

namespace {

enum class Emit { LLVM, Asm, BinInfo, Bin };

// --help lists these first and alone; LLVM's backend flags stay accepted, unlisted.
llvm::cl::OptionCategory translateCategory("tessel-translate options");

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional, llvm::cl::desc("<input .mlir>"),
                                     llvm::cl::init("-"), llvm::cl::cat(translateCategory));
llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("output file (default: stdout)"),
                                      llvm::cl::init("-"), llvm::cl::cat(translateCategory));
// main() sets the description: the registered targets.
llvm::cl::opt<std::string> targetName("target", llvm::cl::init(""),
                                      llvm::cl::cat(translateCategory));
llvm::cl::opt<std::string> kernelName("kernel",
                                      llvm::cl::desc("compile only this kernel (default: all)"),
                                      llvm::cl::init(""), llvm::cl::cat(translateCategory));
llvm::cl::opt<Emit> emit("emit", llvm::cl::desc("stage to print"), llvm::cl::init(Emit::Asm),
                         llvm::cl::cat(translateCategory),
                         llvm::cl::values(clEnumValN(Emit::LLVM, "llvm", "optimized LLVM IR"),
                                          clEnumValN(Emit::Asm, "asm", "PTX / AMDGCN assembly"),
                                          clEnumValN(Emit::BinInfo, "bin-info",
                                                     "binary size, resources, metadata (JSON)"),
                                          clEnumValN(Emit::Bin, "bin",
                                                     "the binary of one kernel (cubin / hsaco)")));

llvm::json::Value binInfo(StringRef name, const TargetInfo &target, const CompiledKernel &k) {
  llvm::json::Object resources;
  for (auto &entry : k.resources)
    resources[entry.getKey().str()] = entry.getValue();
  llvm::json::Object o{{"kernel", name},
                       {"target", target.getName()},
                       {"binary_kind", k.binaryKind},
                       {"binary_bytes", int64_t(k.binary.size())},
                       {"resources", std::move(resources)}};
  if (!k.binaryNote.empty())
    o["binary_note"] = k.binaryNote;
  if (!k.binaryMetadata.empty()) {
    if (auto md = llvm::json::parse(k.binaryMetadata))
      o["metadata"] = std::move(*md);
    else
      llvm::consumeError(md.takeError());
  }
  return o;
}

int run(MLIRContext &ctx, llvm::SourceMgr &sourceMgr) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &ctx);
  if (!module)
    return 1;
  std::string name = targetName;
  if (name.empty())
    if (auto attr = (*module)->getAttrOfType<StringAttr>(tile::TileDialect::getTargetAttrName()))
      name = attr.str();
  if (name.empty()) {
    emitError(module->getLoc()) << "no target: pass --target or set tile.target on the module";
    return 1;
  }
  std::string error;
  std::unique_ptr<TargetInfo> target = createTargetInfo(name, error);
  if (!target) {
    emitError(module->getLoc()) << error;
    return 1;
  }
  // Tile IR goes through the GPU pipeline first; LLVM-dialect input is compiled as it is.
  if (!module->getOps<func::FuncOp>().empty()) {
    if (failed(checkTargetLimits(*module, *target)))
      return 1;
    PassManager pm(&ctx);
    buildGPUPipeline(pm, *target);
    if (failed(pm.run(*module)))
      return 1;
  }
  if (failed(checkSharedMemory(*module, *target)))
    return 1;

  SmallVector<StringRef> kernels;
  for (auto func : module->getOps<LLVM::LLVMFuncOp>())
    if (func->hasAttr(tile::TileDialect::getKernelAttrName()) &&
        (kernelName.empty() || func.getSymName() == kernelName))
      kernels.push_back(func.getSymName());
  if (kernels.empty()) {
    emitError(module->getLoc()) << (kernelName.empty() ? "the module has no kernel"
                                                       : "no kernel named '" + kernelName + "'");
    return 1;
  }
  if (emit == Emit::Bin && kernels.size() != 1) {
    emitError(module->getLoc()) << "--emit=bin writes one kernel: pass --kernel";
    return 1;
  }

  // Everything is compiled before anything is written: a failure leaves no partial output.
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::Array infos;
  for (StringRef k : kernels) {
    CompiledKernel out;
    if (failed(compileKernel(*module, k, *target, out, error))) {
      emitError(module->getLoc()) << "kernel '" << k << "': " << error;
      return 1;
    }
    switch (emit) {
    case Emit::LLVM:
      os << out.llvmIR;
      break;
    case Emit::Asm:
      os << out.assembly;
      break;
    case Emit::BinInfo:
      infos.push_back(binInfo(k, *target, out));
      break;
    case Emit::Bin:
      if (out.binary.empty()) {
        emitError(module->getLoc()) << "kernel '" << k << "': no binary: " << out.binaryNote;
        return 1;
      }
      os << out.binary;
      break;
    }
  }
  if (emit == Emit::BinInfo)
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(infos))) << "\n";
  // "-" is stdout; a file is replaced atomically.
  if (llvm::Error err = llvm::writeToOutput(outputFile, [&](llvm::raw_ostream &file) {
        file << text;
        return llvm::Error::success();
      })) {
    llvm::errs() << "tessel-translate: error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllTargets();
  std::string targetHelp = "target: " + llvm::join(getRegisteredTargetNames(), ", ") +
                           " (default: the module's tile.target)";
  targetName.setDescription(targetHelp);
  llvm::cl::HideUnrelatedOptions(translateCategory);
  llvm::cl::ParseCommandLineOptions(argc, argv, "Tessel code generation stages\n");
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::string errorMessage;
  auto input = openInputFile(inputFile, &errorMessage);
  if (!input) {
    llvm::errs() << "tessel-translate: " << errorMessage << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &ctx);
  return run(ctx, sourceMgr);
}
