//===- Codegen.cpp - LLVM dialect to AMDGCN and an hsaco ------------------===//
//
// LDS made static -> LLVM IR (ROCDL translation) -> ocml / ockl linked when called, with the
// __oclc_* constants (DeviceLibs.cpp) -> O3 with the AMDGPU target's pass callbacks ->
// AMDGCN assembly and an ELF relocatable object through LLVM's AMDGPU backend (triple
// amdgcn-amd-amdhsa, code object v5) -> hsaco through `ld.lld -shared`, the link ROCm's own
// toolchain does. The object's metadata note gives the resources (CodeObject.cpp).
//
// LDS. The shared lowering carves every kernel's scratch from one zero-sized extern array
// (dynamic shared memory on NVIDIA). Here the array becomes a static internal LDS global of
// the kernel's size, so the code object's .group_segment_fixed_size states it: the loader
// checks it against the 64 KB limit, the backend's occupancy estimate accounts for it, and a
// launch needs no dynamic LDS size.
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"
#include "CodeObject.h"
#include "DeviceLibs.h"

#include "tessel/Conversion/TileGPUToLLVM/TileGPUToLLVM.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <mutex>

using namespace mlir;
using namespace tessel;
using namespace tessel::amd;

extern "C" {
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
}

static constexpr llvm::StringLiteral kTriple = "amdgcn-amd-amdhsa";

std::string tessel::amd::findLld() {
  if (const char *env = getenv("TESSEL_LLD"))
    return llvm::sys::fs::can_execute(env) ? env : "";
  if (llvm::sys::fs::can_execute("/usr/lib/llvm-19/bin/ld.lld"))
    return "/usr/lib/llvm-19/bin/ld.lld";
  for (const char *name : {"ld.lld-19", "ld.lld"})
    if (auto found = llvm::sys::findProgramByName(name))
      return *found;
  return "";
}

static void initAMDGPU() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
}

/// Replaces the extern zero-sized scratch array by an internal LDS array of the largest size
/// a kernel of the module reserved (removes it when no kernel uses it).
static void makeSharedMemoryStatic(ModuleOp module) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kSharedMemoryGlobal);
  if (!global || global.getLinkage() != LLVM::Linkage::External || global.getValueOrNull() ||
      global.getInitializerBlock())
    return;
  int64_t bytes = 0;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (auto attr = func->getAttrOfType<IntegerAttr>(
            tile_gpu::TileGPUDialect::getSharedMemoryAttrName()))
      bytes = std::max(bytes, attr.getInt());
  bool used = !SymbolTable::symbolKnownUseEmpty(global, module);
  OpBuilder b(global);
  if (bytes == 0 && !used) {
    global.erase();
    return;
  }
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), std::max<int64_t>(bytes, 1));
  auto sized = b.create<LLVM::GlobalOp>(global.getLoc(), type, /*isConstant=*/false,
                                        LLVM::Linkage::Internal, kSharedMemoryGlobal,
                                        Attribute(), global.getAlignment().value_or(16),
                                        global.getAddrSpace());
  global.erase();
  // LDS cannot be initialized: its initializer is undef.
  Block *init = b.createBlock(&sized.getInitializerRegion());
  b.setInsertionPointToStart(init);
  b.create<LLVM::ReturnOp>(sized.getLoc(),
                           b.create<LLVM::UndefOp>(sized.getLoc(), type).getResult());
}

static std::unique_ptr<llvm::TargetMachine> createTargetMachine(StringRef cpu,
                                                                std::string &error) {
  std::string lookupError;
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(kTriple.str(), lookupError);
  if (!t) {
    error = "LLVM has no AMDGPU backend: " + lookupError;
    return nullptr;
  }
  llvm::TargetOptions options;
  return std::unique_ptr<llvm::TargetMachine>(
      t->createTargetMachine(kTriple.str(), cpu, "", options, llvm::Reloc::PIC_, std::nullopt,
                             llvm::CodeGenOptLevel::Aggressive));
}

static void optimize(llvm::Module &m, llvm::TargetMachine &tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  tm.registerPassBuilderCallbacks(pb);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
}

static LogicalResult emit(llvm::Module &m, llvm::TargetMachine &tm, llvm::CodeGenFileType kind,
                          std::string &out, std::string &error) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, kind)) {
    error = "the AMDGPU backend cannot emit this file type";
    return failure();
  }
  pm.run(m);
  out = buffer.str().str();
  return success();
}

/// `ld.lld -shared` of the relocatable object: the hsaco the HIP runtime loads.
static LogicalResult linkHsaco(StringRef object, CompiledKernel &out, std::string &error) {
  std::string lld = findLld();
  if (lld.empty()) {
    out.binaryNote = "ld.lld not found (install lld-19 or set TESSEL_LLD); no hsaco was linked";
    return success();
  }
  SmallString<128> dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("tessel-lld", dir)) {
    error = "cannot create a temporary directory: " + ec.message();
    return failure();
  }
  std::string in = (dir + "/kernel.o").str(), hsaco = (dir + "/kernel.hsaco").str(),
              log = (dir + "/lld.log").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write " + in + ": " + ec.message();
      return failure();
    }
    os << object;
  }
  SmallVector<StringRef> args = {lld, "-flavor", "gnu", "-shared", in, "-o", hsaco};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(lld, args, std::nullopt, redirects, 0, 0, &execError);
  auto logBuf = llvm::MemoryBuffer::getFile(log);
  std::string report = logBuf ? (*logBuf)->getBuffer().str() : "";
  auto bin = llvm::MemoryBuffer::getFile(hsaco, /*IsText=*/false);
  llvm::sys::fs::remove_directories(dir);
  if (rc != 0 || !bin) {
    error = "ld.lld failed (" + std::to_string(rc) + "): " + execError + "\n" + report;
    return failure();
  }
  out.binary = (*bin)->getBuffer().str();
  out.binaryKind = "hsaco";
  return success();
}

/// The portable resource record from the code object's counters. LDS is static here, so the
/// group segment is all of it. Each spilled VGPR takes 4 bytes of scratch per lane; SGPRs
/// spill into VGPR lanes, not memory. AMD states no occupancy request: the hint stays empty.
static void fillUsage(CompiledKernel &out) {
  auto reported = [&](StringRef key) -> std::optional<int64_t> {
    auto it = out.resources.find(key);
    return it == out.resources.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  out.usage.registers = reported("vgpr_count");
  out.usage.sharedBytes = reported("lds_bytes");
  if (std::optional<int64_t> spilled = reported("vgpr_spill_count"))
    out.usage.spillBytes = 4 * *spilled;
}

LogicalResult AMDTargetInfo::compile(ModuleOp module, CompiledKernel &out,
                                     std::string &error) const {
  initAMDGPU();
  makeSharedMemoryStatic(module);
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> m = translateModuleToLLVMIR(module, llvmContext, "tessel");
  if (!m) {
    error = "translation to LLVM IR failed";
    return failure();
  }
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(arch.name, error);
  if (!tm)
    return failure();
  m->setTargetTriple(kTriple);
  m->setDataLayout(tm->createDataLayout());
  m->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                   uint32_t(kCodeObjectVersion * 100));
  if (failed(linkDeviceLibs(*m, arch, error)))
    return failure();

  // Only kernels are entry points; every other definition may be inlined and dropped.
  std::vector<std::string> kernels;
  for (llvm::Function &f : *m) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", arch.name);
    if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
      kernels.push_back(f.getName().str());
    else
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  optimize(*m, *tm);
  {
    llvm::raw_string_ostream os(out.llvmIR);
    m->print(os, nullptr);
  }
  // Codegen changes the IR it runs on, so the assembly comes from a copy.
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*m);
  if (failed(emit(*copy, *tm, llvm::CodeGenFileType::AssemblyFile, out.assembly, error)))
    return failure();
  std::string object;
  if (failed(emit(*m, *tm, llvm::CodeGenFileType::ObjectFile, object, error)))
    return failure();
  if (kernels.size() == 1 && failed(readCodeObjectMetadata(object, kernels.front(), out.resources,
                                                           out.binaryMetadata, error)))
    return failure();
  fillUsage(out);
  return linkHsaco(object, out, error);
}
