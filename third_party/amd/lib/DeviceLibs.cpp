//===- DeviceLibs.cpp - ocml / ockl linking and the oclc constants --------===//
//
// The ROCm device libraries are target-independent bitcode. What they need to know about the
// target and the compile options they read from __oclc_* constants, which clang normally
// links in from oclc_*.bc files (one per ISA version and per option). Debian's
// rocm-device-libs has no oclc_isa_version_942.bc, so Tessel defines every constant itself,
// with the values clang would pick for a HIP kernel without fast-math flags:
//
//   __oclc_ISA_version              arch (9010 gfx90a, 9402 gfx942, 11000 gfx1100)
//   __oclc_ABI_version              500 (code object v5, see DeviceLibs.h)
//   __oclc_wavefrontsize64          1 on CDNA (wave64 only), 0 on RDNA (built for wave32)
//   __oclc_finite_only_opt          0   (infinities and NaNs are honoured)
//   __oclc_unsafe_math_opt          0
//   __oclc_daz_opt                  0   (f32 denormals kept: the backend's default mode)
//   __oclc_correctly_rounded_sqrt32 1
//
// They are internal constants in the constant address space (4), as in the oclc files, so
// that O3 folds every test of them and drops the untaken paths.
//
//===----------------------------------------------------------------------===//
#include "DeviceLibs.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::amd;

std::string tessel::amd::findDeviceLibs() {
  std::vector<std::string> dirs;
  if (const char *env = getenv("TESSEL_ROCM_DEVICE_LIBS"))
    dirs.push_back(env);
  if (const char *rocm = getenv("ROCM_PATH"))
    dirs.push_back(std::string(rocm) + "/amdgcn/bitcode");
  dirs.push_back("/opt/rocm/amdgcn/bitcode");
  dirs.push_back("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode");
  for (const std::string &d : dirs)
    if (llvm::sys::fs::exists(d + "/ocml.bc"))
      return d;
  return "";
}

namespace {

bool declaresFrom(llvm::Module &m, StringRef prefix) {
  return llvm::any_of(m.functions(), [&](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with(prefix);
  });
}

LogicalResult linkLibrary(llvm::Module &m, StringRef dir, StringRef file, StringRef prefix,
                          std::string &error) {
  std::string path = (dir + "/" + file).str();
  llvm::SMDiagnostic diag;
  // Lazily: only the functions the kernel calls are materialized.
  std::unique_ptr<llvm::Module> lib = llvm::getLazyIRFileModule(path, diag, m.getContext());
  if (!lib) {
    error = "cannot read " + path + ": " + diag.getMessage().str();
    return failure();
  }
  lib->setTargetTriple(m.getTargetTriple());
  lib->setDataLayout(m.getDataLayout());
  // The libraries are built from OpenCL: without this, the code object's metadata would call
  // the kernel an OpenCL C kernel (.language).
  for (const char *name : {"opencl.ocl.version", "llvm.ident"})
    if (llvm::NamedMDNode *md = lib->getNamedMetadata(name))
      lib->eraseNamedMetadata(md);
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::LinkOnlyNeeded)) {
    error = "linking " + path + " failed";
    return failure();
  }
  for (llvm::Function &f : m.functions())
    if (!f.isDeclaration() && f.getName().starts_with(prefix)) {
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
      f.setVisibility(llvm::GlobalValue::DefaultVisibility);
    }
  return success();
}

struct ControlConstant {
  const char *name;
  unsigned bits;
  unsigned value;
};

} // namespace

LogicalResult tessel::amd::linkDeviceLibs(llvm::Module &m, const ArchInfo &arch,
                                          std::string &error) {
  bool ocml = declaresFrom(m, "__ocml_"), ockl = declaresFrom(m, "__ockl_");
  if (!ocml && !ockl)
    return success();
  std::string dir = findDeviceLibs();
  if (dir.empty()) {
    error = "the kernel calls ROCm device library functions (__ocml_* / __ockl_*) but ocml.bc "
            "was not found (install rocm-device-libs, or set TESSEL_ROCM_DEVICE_LIBS or "
            "ROCM_PATH)";
    return failure();
  }
  if (ocml && failed(linkLibrary(m, dir, "ocml.bc", "__ocml_", error)))
    return failure();
  // ocml itself may call ockl.
  if ((ockl || declaresFrom(m, "__ockl_")) &&
      failed(linkLibrary(m, dir, "ockl.bc", "__ockl_", error)))
    return failure();

  const ControlConstant constants[] = {
      {"__oclc_ISA_version", 32, arch.isaVersion},
      {"__oclc_ABI_version", 32, kCodeObjectVersion * 100},
      {"__oclc_wavefrontsize64", 8, arch.limits.warpSize == 64},
      {"__oclc_finite_only_opt", 8, 0},
      {"__oclc_unsafe_math_opt", 8, 0},
      {"__oclc_daz_opt", 8, 0},
      {"__oclc_correctly_rounded_sqrt32", 8, 1},
  };
  for (const ControlConstant &c : constants) {
    llvm::GlobalVariable *g = m.getGlobalVariable(c.name, /*AllowInternal=*/true);
    if (!g)
      continue; // not referenced
    auto *type = llvm::IntegerType::get(m.getContext(), c.bits);
    if (g->getValueType() != type) {
      error = std::string("ROCm device library declares ") + c.name + " with an unexpected type";
      return failure();
    }
    g->setInitializer(llvm::ConstantInt::get(type, c.value));
    g->setConstant(true);
    g->setLinkage(llvm::GlobalValue::InternalLinkage);
    g->setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
  for (llvm::GlobalVariable &g : m.globals())
    if (g.isDeclaration() && g.getName().starts_with("__oclc_")) {
      error = "ROCm device library needs " + g.getName().str() +
              ", which Tessel does not define (a newer rocm-device-libs?)";
      return failure();
    }
  return success();
}
