//===- Codegen.cpp - LLVM dialect to PTX and cubin ------------------------===//
//
// translate to LLVM IR -> link libdevice (only if a __nv_ function is called; NVVMReflect
// folds its __CUDA_FTZ queries to 0) -> O3 with the NVPTX target's pass callbacks -> PTX through
// LLVM's NVPTX backend -> cubin through ptxas -v, whose register / spill / shared-memory report
// is kept for the kernel's metadata. Without ptxas the PTX is the product (the driver JITs it).
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include <mutex>

using namespace mlir;
using namespace tessel;
using namespace tessel::nvidia;

extern "C" {
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

static std::string firstExisting(std::initializer_list<std::string> paths) {
  for (const std::string &p : paths)
    if (!p.empty() && llvm::sys::fs::exists(p))
      return p;
  return "";
}

static std::string cudaHome() {
  if (const char *h = getenv("CUDA_HOME"))
    return h;
  return "/usr/local/cuda";
}

std::string tessel::nvidia::findLibdevice() {
  const char *env = getenv("TESSEL_LIBDEVICE");
  return firstExisting({env ? env : "", cudaHome() + "/nvvm/libdevice/libdevice.10.bc"});
}

std::string tessel::nvidia::findPtxas() {
  if (const char *env = getenv("TESSEL_PTXAS"))
    return llvm::sys::fs::exists(env) ? env : "";
  std::string p = firstExisting({cudaHome() + "/bin/ptxas"});
  if (!p.empty())
    return p;
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

static void initNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

static LogicalResult linkLibdevice(llvm::Module &m, std::string &error) {
  bool needed = llvm::any_of(m.functions(), [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (!needed)
    return success();
  std::string path = findLibdevice();
  if (path.empty()) {
    error = "the kernel calls libdevice math functions but libdevice.10.bc was not found "
            "(set TESSEL_LIBDEVICE or CUDA_HOME)";
    return failure();
  }
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> lib = llvm::parseIRFile(path, diag, m.getContext());
  if (!lib) {
    error = "cannot read " + path + ": " + diag.getMessage().str();
    return failure();
  }
  lib->setTargetTriple(m.getTargetTriple());
  lib->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::LinkOnlyNeeded)) {
    error = "linking libdevice failed";
    return failure();
  }
  for (llvm::Function &f : m.functions())
    if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return success();
}

/// ptxas -v: "Used 30 registers, used 1 barriers, 16 bytes smem, 380 bytes cmem[0]" and
/// "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads".
static void parsePtxasReport(StringRef report, llvm::StringMap<int64_t> &out) {
  auto grab = [&](const char *pattern, const char *key) {
    llvm::Regex re(pattern);
    SmallVector<StringRef> m;
    if (re.match(report, &m)) {
      int64_t v = 0;
      if (!m[1].getAsInteger(10, v))
        out[key] = v;
    }
  };
  grab("Used ([0-9]+) registers", "registers");
  grab("([0-9]+) bytes spill stores", "spill_stores");
  grab("([0-9]+) bytes spill loads", "spill_loads");
  grab("([0-9]+) bytes stack frame", "stack_frame");
  grab("([0-9]+) bytes smem", "static_shared_bytes");
}

static LogicalResult runPtxas(StringRef arch, StringRef ptx, CompiledKernel &out, std::string &error) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    out.binaryNote = "ptxas not found (set TESSEL_PTXAS or CUDA_HOME); the PTX is loaded by the "
                     "driver instead";
    return success();
  }
  SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("tessel-ptxas", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return failure();
  }
  std::string in = (dir + "/kernel.ptx").str(), cubin = (dir + "/kernel.cubin").str(),
              log = (dir + "/ptxas.log").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    os << ptx;
  }
  std::string archFlag = ("-arch=" + arch).str();
  SmallVector<StringRef> args = {ptxas, archFlag, "-v", "-O3", in, "-o", cubin};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &execError);
  auto logBuf = llvm::MemoryBuffer::getFile(log);
  std::string report = logBuf ? (*logBuf)->getBuffer().str() : "";
  if (rc != 0) {
    error = "ptxas failed (" + std::to_string(rc) + "): " + execError + "\n" + report;
    llvm::sys::fs::remove_directories(dir);
    return failure();
  }
  auto bin = llvm::MemoryBuffer::getFile(cubin, /*IsText=*/false);
  if (!bin) {
    error = "ptxas produced no cubin";
    return failure();
  }
  out.binary = (*bin)->getBuffer().str();
  out.binaryKind = "cubin";
  parsePtxasReport(report, out.resources);
  llvm::sys::fs::remove_directories(dir);
  return success();
}

/// Programs of 512 threads or more hold many elements per thread, and at ptxas's own register
/// allocation only one fits an SM: its load, reduce and store phases then leave the SM without
/// loads in flight. Two programs per SM (.minnctapersm 2: at most 64 registers at 512 threads)
/// overlap them. Measured on an H200 (docs/Performance.md): LayerNorm 4096x16384 bf16 went
/// from 2267 to 3276 GB/s with 28 bytes of spills, RMSNorm from 2780 to 3024 with 56; so the
/// request stands when it spills at most kMaxSpillBytes, and is dropped otherwise.
static constexpr int64_t kMaxSpillBytes = 64;

static LogicalResult assemble(StringRef arch, CompiledKernel &out, std::string &error) {
  llvm::Regex maxntid("\\.maxntid ([0-9]+), 1, 1");
  SmallVector<StringRef> m;
  unsigned threads = 0;
  if (maxntid.match(out.assembly, &m))
    m[1].getAsInteger(10, threads);
  // Matrix-unit kernels hold large accumulators. With only .maxntid, ptxas (CUDA 13) answers a
  // kernel that must spill anyway by going down to 32 registers for occupancy: the 128x128
  // f16 GEMM on 4 warps then spilled 8 KB; with .minnctapersm 1 it keeps 255 registers and
  // spills 1.2 KB.
  if (threads < 512 && out.assembly.find("mma.sync") != std::string::npos &&
      out.assembly.find(".minnctapersm") == std::string::npos) {
    size_t at = out.assembly.find('\n', out.assembly.find(".maxntid"));
    out.assembly.insert(at + 1, ".minnctapersm 1\n");
  }
  if (threads >= 512 && out.assembly.find(".minnctapersm") == std::string::npos) {
    size_t at = out.assembly.find('\n', out.assembly.find(".maxntid"));
    std::string twoPerSM = out.assembly;
    twoPerSM.insert(at + 1, ".minnctapersm 2\n");
    CompiledKernel attempt = out;
    std::string attemptError;
    if (succeeded(runPtxas(arch, twoPerSM, attempt, attemptError)) && !attempt.binary.empty() &&
        attempt.resources.lookup("spill_stores") <= kMaxSpillBytes) {
      attempt.assembly = std::move(twoPerSM);
      attempt.resources["min_programs_per_sm"] = 2;
      out = std::move(attempt);
      return success();
    }
  }
  return runPtxas(arch, out.assembly, out, error);
}

/// The portable resource record: ptxas's counters when it ran, plus the dynamic shared memory
/// the launch supplies (`tile_gpu.shared`, which ptxas does not see).
static void fillUsage(ModuleOp module, CompiledKernel &out) {
  auto reported = [&](StringRef key) -> std::optional<int64_t> {
    auto it = out.resources.find(key);
    return it == out.resources.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  int64_t dynamicShared = 0;
  for (auto f : module.getOps<LLVM::LLVMFuncOp>())
    if (auto bytes = f->getAttrOfType<IntegerAttr>("tile_gpu.shared"))
      dynamicShared = std::max(dynamicShared, bytes.getInt());
  out.usage.registers = reported("registers");
  out.usage.spillBytes = reported("spill_stores");
  out.usage.sharedBytes = reported("static_shared_bytes").value_or(0) + dynamicShared;
  out.usage.occupancyHint = reported("min_programs_per_sm");
}

LogicalResult NVIDIATargetInfo::compile(ModuleOp module, CompiledKernel &out,
                                        std::string &error) const {
  initNVPTX();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> m = translateModuleToLLVMIR(module, llvmContext, "tessel");
  if (!m) {
    error = "translation to LLVM IR failed";
    return failure();
  }
  std::string triple = "nvptx64-nvidia-cuda";
  std::string lookupError;
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!t) {
    error = "LLVM has no NVPTX backend: " + lookupError;
    return failure();
  }
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      triple, arch, "+ptx80", options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  m->setTargetTriple(triple);
  m->setDataLayout(tm->createDataLayout());
  m->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  if (failed(linkLibdevice(*m, error)))
    return failure();

  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get());
    tm->registerPassBuilderCallbacks(pb);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    mpm.run(*m, mam);
  }
  {
    llvm::raw_string_ostream os(out.llvmIR);
    m->print(os, nullptr);
  }
  {
    llvm::SmallString<0> ptx;
    llvm::raw_svector_ostream os(ptx);
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
      error = "the NVPTX backend cannot emit assembly";
      return failure();
    }
    pm.run(*m);
    out.assembly = ptx.str().str();
  }
  if (failed(assemble(arch, out, error)))
    return failure();
  fillUsage(module, out);
  return success();
}
