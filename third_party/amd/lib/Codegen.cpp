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
#include "tessel/Dialect/Tile/IR/Tile.h"

#include "tessel/Target/LLVMCodegen.h"

#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
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
void LLVMInitializeAMDGPUAsmParser();
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
    // ockl's hostcall printf (device_print) carries inline assembly the object emitter parses.
    LLVMInitializeAMDGPUAsmParser();
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
    if (auto attr =
            func->getAttrOfType<IntegerAttr>(tile_gpu::TileGPUDialect::getSharedMemoryAttrName()))
      bytes = std::max(bytes, attr.getInt());
  bool used = !SymbolTable::symbolKnownUseEmpty(global, module);
  OpBuilder b(global);
  if (bytes == 0 && !used) {
    global.erase();
    return;
  }
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), std::max<int64_t>(bytes, 1));
  auto sized = b.create<LLVM::GlobalOp>(global.getLoc(), type, /*isConstant=*/false,
                                        LLVM::Linkage::Internal, kSharedMemoryGlobal, Attribute(),
                                        global.getAlignment().value_or(16), global.getAddrSpace());
  global.erase();
  // LDS cannot be initialized: its initializer is undef.
  Block *init = b.createBlock(&sized.getInitializerRegion());
  b.setInsertionPointToStart(init);
  b.create<LLVM::ReturnOp>(sized.getLoc(),
                           b.create<LLVM::UndefOp>(sized.getLoc(), type).getResult());
}

/// `ld.lld -shared` of the relocatable object: the hsaco the HIP runtime loads.
static LogicalResult linkHsaco(StringRef object, CompiledKernel &out, std::string &error) {
  std::string lld = findLld();
  if (lld.empty()) {
    out.binaryNote = "ld.lld not found (install lld-19 or set TESSEL_LLD); no hsaco was linked";
    return success();
  }
  std::string log;
  if (failed(codegen::runTool(lld, {"-flavor", "gnu", "-shared", "{in}", "-o", "{out}"}, object,
                              "kernel.o", "kernel.hsaco", out.binary, log, error)))
    return failure();
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
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> m = codegen::translateToLLVMIR(
      module, llvmContext, [](DialectRegistry &r) { registerROCDLDialectTranslation(r); }, error);
  if (!m)
    return failure();
  std::unique_ptr<llvm::TargetMachine> tm = codegen::createTargetMachine(
      kTriple, arch.name, "", "AMDGPU", error, tile::TileDialect::isFpFusionEnabled(module));
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
  codegen::optimize(*m, *tm);
  {
    llvm::raw_string_ostream os(out.llvmIR);
    m->print(os, nullptr);
  }
  // Codegen changes the IR it runs on, so the assembly comes from a copy.
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*m);
  if (failed(codegen::emit(*copy, *tm, llvm::CodeGenFileType::AssemblyFile, out.assembly, error)))
    return failure();
  std::string object;
  if (failed(codegen::emit(*m, *tm, llvm::CodeGenFileType::ObjectFile, object, error)))
    return failure();
  if (kernels.size() == 1 && failed(readCodeObjectMetadata(object, kernels.front(), out.resources,
                                                           out.binaryMetadata, error)))
    return failure();
  fillUsage(out);
  return linkHsaco(object, out, error);
}
