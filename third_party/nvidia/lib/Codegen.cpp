//===- Codegen.cpp - LLVM dialect to PTX and cubin ------------------------===//
//
// translate to LLVM IR -> link libdevice (only if a __nv_ function is called; NVVMReflect
// folds its __CUDA_FTZ queries to 0) -> O3 with the NVPTX target's pass callbacks -> PTX through
// LLVM's NVPTX backend -> cubin through ptxas -v, whose register / spill / shared-memory report
// is kept for the kernel's metadata. Without ptxas the PTX is the product (the driver JITs it).
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"
#include "RematerializeAcrossBarriers.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"
#include "tessel/Target/LLVMCodegen.h"

#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Dialect/LLVMIR/BasicPtxBuilderInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>
#include <optional>

using namespace mlir;
using namespace tessel;
using namespace tessel::nvidia;

extern "C" {
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

static std::string cudaHome() {
  if (const char *h = getenv("CUDA_HOME"))
    return h;
  return "/usr/local/cuda";
}

std::string tessel::nvidia::findLibdevice() {
  const char *env = getenv("TESSEL_LIBDEVICE");
  return codegen::firstExisting({env ? env : "", cudaHome() + "/nvvm/libdevice/libdevice.10.bc"});
}

std::string tessel::nvidia::findPtxas() {
  if (const char *env = getenv("TESSEL_PTXAS"))
    return llvm::sys::fs::exists(env) ? env : "";
  std::string p = codegen::firstExisting({cudaHome() + "/bin/ptxas"});
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
  // Lazily: only the functions the kernel calls (and theirs) are read from the bitcode, which
  // LinkOnlyNeeded then materializes; parsing all of libdevice cost more than the rest of the
  // link.
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> lib = llvm::getLazyIRFileModule(path, diag, m.getContext());
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

static LogicalResult runPtxas(StringRef arch, StringRef ptx, CompiledKernel &out,
                              std::string &error) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    out.binaryNote = "ptxas not found (set TESSEL_PTXAS or CUDA_HOME); the PTX is loaded by the "
                     "driver instead";
    return success();
  }
  std::string archFlag = ("-arch=" + arch).str(), report;
  // glibc's malloc grows ptxas's heap 64 MiB at a time in transparent huge pages (unless the
  // caller set GLIBC_TUNABLES): it faults its heap in 4 KiB at a time otherwise, 3196 page
  // faults for a softmax variant against 806 (ptxas 28.4 -> 22.5 ms; docs/Performance.md,
  // "Session 67"). glibc before 2.35 ignores tunables it does not know.
  if (failed(codegen::runTool(
          ptxas, {archFlag, "-v", "-O3", "{in}", "-o", "{out}"}, ptx, "kernel.ptx", "kernel.cubin",
          out.binary, report, error,
          {"GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864"})))
    return failure();
  out.binaryKind = "cubin";
  parsePtxasReport(report, out.resources);
  return success();
}

/// Programs of 512 threads or more hold many elements per thread, and at ptxas's own register
/// allocation only one fits an SM: its load, reduce and store phases then leave the SM without
/// loads in flight. Two programs per SM (.minnctapersm 2: at most 64 registers at 512 threads)
/// overlap them. Measured on an H200 (docs/Performance.md): LayerNorm 4096x16384 bf16 went
/// from 2267 to 3276 GB/s with 28 bytes of spills, RMSNorm from 2780 to 3024 with 56; so the
/// request stands when it spills at most kMaxSpillBytes, and is dropped otherwise. (Since
/// predicated loads zero their registers, LayerNorm fits without spills: 3518 GB/s.)
static constexpr int64_t kMaxSpillBytes = 64;

/// `ptx` with `directive` on the line after the entry's .maxntid.
static std::string withEntryDirective(const std::string &ptx, const std::string &directive) {
  std::string r = ptx;
  r.insert(r.find('\n', r.find(".maxntid")) + 1, directive + "\n");
  return r;
}

/// `out` assembled again from its PTX with `directive` added; empty when ptxas failed or wrote
/// no binary (the caller keeps `out`).
static std::optional<CompiledKernel> assembleWith(StringRef arch, const CompiledKernel &out,
                                                  const std::string &directive) {
  CompiledKernel attempt = out;
  attempt.assembly = withEntryDirective(out.assembly, directive);
  std::string error;
  if (failed(runPtxas(arch, attempt.assembly, attempt, error)) || attempt.binary.empty())
    return std::nullopt;
  return attempt;
}

static LogicalResult assemble(StringRef arch, CompiledKernel &out, std::string &error) {
  llvm::Regex maxntid("\\.maxntid ([0-9]+), 1, 1");
  SmallVector<StringRef> m;
  unsigned threads = 0;
  if (maxntid.match(out.assembly, &m))
    m[1].getAsInteger(10, threads);
  bool minPrograms = out.assembly.find(".minnctapersm") != std::string::npos;
  // Matrix-unit kernels hold large accumulators. With only .maxntid, ptxas (CUDA 13) answers a
  // kernel that must spill anyway by going down to 32 registers for occupancy: the 128x128
  // f16 GEMM on 4 warps then spilled 8 KB; with .minnctapersm 1 it keeps 255 registers and
  // spills 1.2 KB.
  if (threads > 0 && threads < 512 && out.assembly.find("mma.sync") != std::string::npos &&
      !minPrograms) {
    out.assembly = withEntryDirective(out.assembly, ".minnctapersm 1");
    minPrograms = true;
  }
  // setmaxnreg moves registers between the warpgroups of the CTA's allocation, which is fixed
  // at launch: ptxas ignores it unless the entry's register count is known (.maxnreg; the
  // consumers' setmaxnreg.inc must not exceed what the producer's dec frees).
  if (out.assembly.find("setmaxnreg") != std::string::npos &&
      out.assembly.find(".maxnreg") == std::string::npos && threads > 128) {
    unsigned entry = nvidia::warpSpecializedRegisters(threads / 32 - 4).entry;
    out.assembly = withEntryDirective(out.assembly, ".maxnreg " + std::to_string(entry));
    return runPtxas(arch, out.assembly, out, error);
  }
  if (threads >= 512 && !minPrograms) {
    std::optional<CompiledKernel> two = assembleWith(arch, out, ".minnctapersm 2");
    if (two && two->resources.lookup("spill_stores") <= kMaxSpillBytes) {
      two->resources["min_programs_per_sm"] = 2;
      out = std::move(*two);
      return success();
    }
  }
  if (failed(runPtxas(arch, out.assembly, out, error)))
    return failure();
  // Below 512 threads ptxas may trade spills for occupancy on its own: the f32 sampling mask
  // (256 threads) came back at 128 registers with 72 bytes of spills, and at 208 registers
  // without spills under .minnctapersm 1. A kernel that spills more than kMaxSpillBytes tries
  // that once and keeps it when it spills less. A few bytes are cheaper than the occupancy:
  // cross_entropy bf16 at BLOCK 16384 / 8 warps spilled 4 bytes at 80 registers (3 programs per
  // SM) and none at 192 (1), and ran 684 against 928 us at 8192x128256 on an H100.
  if (threads > 0 && threads < 512 && !minPrograms &&
      out.resources.lookup("spill_stores") > kMaxSpillBytes) {
    std::optional<CompiledKernel> one = assembleWith(arch, out, ".minnctapersm 1");
    if (one && one->resources.lookup("spill_stores") < out.resources.lookup("spill_stores"))
      out = std::move(*one);
  }
  return success();
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
    if (auto bytes =
            f->getAttrOfType<IntegerAttr>(tile_gpu::TileGPUDialect::getSharedMemoryAttrName()))
      dynamicShared = std::max(dynamicShared, bytes.getInt());
  out.usage.registers = reported("registers");
  out.usage.spillBytes = reported("spill_stores");
  out.usage.sharedBytes = reported("static_shared_bytes").value_or(0) + dynamicShared;
  out.usage.occupancyHint = reported("min_programs_per_sm");
}

LogicalResult NVIDIATargetInfo::compile(ModuleOp module, CompiledKernel &out,
                                        std::string &error) const {
  initNVPTX();
  // NVVM ops that have no intrinsic in LLVM 19 (wgmma fences and groups, proxy fences) become
  // the inline PTX MLIR's NVVM-to-LLVM patterns write for them. The greedy driver visits every
  // op of the module, so it runs only where such an op exists (GEMMs, not row kernels).
  bool needsInlinePtx =
      module.walk([](NVVM::BasicPtxBuilderInterface) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (needsInlinePtx) {
    RewritePatternSet patterns(module.getContext());
    populateNVVMToLLVMConversionPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(module, std::move(patterns)))) {
      error = "lowering NVVM ops to inline PTX did not converge";
      return failure();
    }
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> m = codegen::translateToLLVMIR(
      module, llvmContext, [](DialectRegistry &r) { registerNVVMDialectTranslation(r); }, error);
  if (!m)
    return failure();
  std::string triple = "nvptx64-nvidia-cuda";
  std::unique_ptr<llvm::TargetMachine> tm = codegen::createTargetMachine(
      triple, arch, "+ptx80", "NVPTX", error, tile::TileDialect::isFpFusionEnabled(module));
  if (!tm)
    return failure();
  m->setTargetTriple(triple);
  m->setDataLayout(tm->createDataLayout());
  m->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  if (failed(linkLibdevice(*m, error)))
    return failure();
  codegen::optimize(*m, *tm);
  if (rematerializeAcrossBarriers(*m)) {
    std::string broken;
    llvm::raw_string_ostream os(broken);
    if (llvm::verifyModule(*m, &os)) {
      error = "internal error: RematerializeAcrossBarriers broke the LLVM IR: " + broken;
      return failure();
    }
  }
  {
    llvm::raw_string_ostream os(out.llvmIR);
    m->print(os, nullptr);
  }
  if (failed(codegen::emit(*m, *tm, llvm::CodeGenFileType::AssemblyFile, out.assembly, error)))
    return failure();
  // A cluster's size is fixed at compile time, so that a plain cuLaunchKernel launches it.
  // Only sm_90a builds clusters (tile-nv-cluster-multicast keeps the attribute where it did);
  // other architectures ignore the field.
  for (auto f : module.getOps<LLVM::LLVMFuncOp>())
    if (arch == "sm_90a")
      if (auto cluster = f->getAttrOfType<IntegerAttr>(tile::TileDialect::getClusterSizeAttrName()))
        if (cluster.getInt() > 1)
          out.assembly = withEntryDirective(
              out.assembly, ".reqnctapercluster " + std::to_string(cluster.getInt()) + ", 1, 1");
  if (failed(assemble(arch, out, error)))
    return failure();
  fillUsage(module, out);
  return success();
}
