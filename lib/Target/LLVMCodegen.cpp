//===- LLVMCodegen.cpp - LLVM dialect to machine code, shared by adapters -===//
#include "tessel/Target/LLVMCodegen.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h> // environ

using namespace mlir;

namespace tessel::codegen {

std::unique_ptr<llvm::Module>
translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                  llvm::function_ref<void(DialectRegistry &)> addVendorTranslations,
                  std::string &error) {
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  addVendorTranslations(registry);
  module->getContext()->appendDialectRegistry(registry);
  std::unique_ptr<llvm::Module> m = translateModuleToLLVMIR(module, context, "tessel");
  if (!m)
    error = "translation to LLVM IR failed";
  return m;
}

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(llvm::StringRef triple, llvm::StringRef cpu, llvm::StringRef features,
                    llvm::StringRef backend, std::string &error, bool fpFusion) {
  std::string lookupError;
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple.str(), lookupError);
  if (!t) {
    error = ("LLVM has no " + backend + " backend: ").str() + lookupError;
    return nullptr;
  }
  llvm::TargetOptions options;
  // Fast: a * b + c becomes fma where the backend can (Triton's enable_fp_fusion). Standard
  // fuses only ops marked `contract` (ours are not), and backends then keep each op rounded.
  options.AllowFPOpFusion = fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  return std::unique_ptr<llvm::TargetMachine>(
      t->createTargetMachine(triple.str(), cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
                             llvm::CodeGenOptLevel::Aggressive));
}

void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&machine);
  machine.registerPassBuilderCallbacks(pb);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, mam);
}

LogicalResult emit(llvm::Module &module, llvm::TargetMachine &machine, llvm::CodeGenFileType kind,
                   std::string &out, std::string &error) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, os, nullptr, kind)) {
    error = "the " + machine.getTargetTriple().str() + " backend cannot emit " +
            (kind == llvm::CodeGenFileType::AssemblyFile ? "assembly" : "an object file");
    return failure();
  }
  pm.run(module);
  out = buffer.str().str();
  return success();
}

/// This process's environment plus `extra` ("NAME=value"), except the names it already sets.
static SmallVector<std::string> toolEnvironment(llvm::ArrayRef<llvm::StringRef> extra) {
  SmallVector<std::string> env;
  for (char **e = environ; e && *e; ++e)
    env.push_back(*e);
  for (llvm::StringRef x : extra) {
    llvm::StringRef name = x.take_front(x.find('=') + 1);
    if (llvm::none_of(env,
                      [&](const std::string &e) { return llvm::StringRef(e).starts_with(name); }))
      env.push_back(x.str());
  }
  return env;
}

LogicalResult runTool(llvm::StringRef tool, llvm::ArrayRef<llvm::StringRef> args,
                      llvm::StringRef input, llvm::StringRef inputName, llvm::StringRef outputName,
                      std::string &output, std::string &log, std::string &error,
                      llvm::ArrayRef<llvm::StringRef> extraEnv) {
  llvm::StringRef name = llvm::sys::path::filename(tool);
  llvm::SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tessel-" + name, dir)) {
    error = "cannot create a temporary directory for " + name.str() + ": " + ec.message();
    return failure();
  }
  std::string in = (dir + "/" + inputName).str(), out = (dir + "/" + outputName).str(),
              logPath = (dir + "/log").str();
  auto cleanup = llvm::make_scope_exit([&] { llvm::sys::fs::remove_directories(dir); });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write " + in + ": " + ec.message();
      return failure();
    }
    os << input;
  }
  SmallVector<std::string> expanded;
  for (llvm::StringRef a : args)
    expanded.push_back(a == "{in}" ? in : a == "{out}" ? out : a.str());
  SmallVector<llvm::StringRef> argv = {tool};
  argv.append(expanded.begin(), expanded.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(logPath),
                                                llvm::StringRef(logPath)};
  std::string execError;
  SmallVector<std::string> env;
  SmallVector<llvm::StringRef> envRefs;
  std::optional<llvm::ArrayRef<llvm::StringRef>> envArg; // unset: the tool inherits ours
  if (!extraEnv.empty()) {
    env = toolEnvironment(extraEnv);
    envRefs.assign(env.begin(), env.end());
    envArg = envRefs;
  }
  int rc = llvm::sys::ExecuteAndWait(tool, argv, envArg, redirects, 0, 0, &execError);
  auto logBuf = llvm::MemoryBuffer::getFile(logPath);
  log = logBuf ? (*logBuf)->getBuffer().str() : "";
  auto bin = llvm::MemoryBuffer::getFile(out, /*IsText=*/false);
  if (rc != 0 || !bin) {
    error = name.str() + " failed (exit " + std::to_string(rc) + ")" +
            (execError.empty() ? "" : ": " + execError) + "\n" + log;
    return failure();
  }
  output = (*bin)->getBuffer().str();
  return success();
}

std::string firstExisting(std::initializer_list<std::string> paths) {
  for (const std::string &p : paths)
    if (!p.empty() && llvm::sys::fs::exists(p))
      return p;
  return "";
}

} // namespace tessel::codegen
