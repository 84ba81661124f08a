//===- LLVMCodegen.h - LLVM dialect to machine code, shared by adapters ---===//
//
// The steps every adapter's TargetInfo::compile takes between the LLVM dialect and a binary:
// translation to LLVM IR, the O3 pipeline with the backend's own pass callbacks, emission of
// assembly or an object through the backend, and external tools (ptxas, ld.lld) run on a
// temporary directory. What differs per vendor (dialect translations, device libraries, the
// binary's resource report) stays in third_party/<vendor>.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TARGET_LLVMCODEGEN_H
#define TESSEL_TARGET_LLVMCODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace tessel::codegen {

/// LLVM IR of `module` (LLVM dialect): builtin and LLVM translations plus the vendor's
/// (`addVendorTranslations`, e.g. NVVM or ROCDL). Null with `error` set on failure.
std::unique_ptr<llvm::Module>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                  llvm::function_ref<void(mlir::DialectRegistry &)> addVendorTranslations,
                  std::string &error);

/// A TargetMachine for `triple` at -O3, position independent; `fpFusion` lets the backend
/// contract a floating-point multiply and add into fma (the module's tile.fp_fusion,
/// TileDialect::isFpFusionEnabled). Null with `error` set when the LLVM build lacks the
/// backend (`backend` names it in the message).
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(llvm::StringRef triple, llvm::StringRef cpu, llvm::StringRef features,
                    llvm::StringRef backend, std::string &error, bool fpFusion = true);

/// The O3 module pipeline with the target machine's pass-builder callbacks (NVVMReflect,
/// AMDGPU's attributor, ...).
void optimize(llvm::Module &module, llvm::TargetMachine &machine);

/// Assembly or an object file of `module` through the backend. Codegen changes the IR it runs
/// on: emit from a clone to emit twice.
mlir::LogicalResult emit(llvm::Module &module, llvm::TargetMachine &machine,
                         llvm::CodeGenFileType kind, std::string &out, std::string &error);

/// Runs `tool` on `input` in a fresh temporary directory: the input is written to
/// <dir>/`inputName`; `args` (after the program name) may hold the placeholders "{in}" and
/// "{out}" for <dir>/`inputName` and <dir>/`outputName`. On exit 0 with the output present,
/// `output` holds its bytes; `log` always holds the tool's stdout and stderr. The directory is
/// removed. Errors name the tool, its exit status and its log. `env` ("NAME=value") is added
/// to this process's environment for the tool, except a NAME this process already sets (the
/// caller's choice wins).
mlir::LogicalResult runTool(llvm::StringRef tool, llvm::ArrayRef<llvm::StringRef> args,
                            llvm::StringRef input, llvm::StringRef inputName,
                            llvm::StringRef outputName, std::string &output, std::string &log,
                            std::string &error, llvm::ArrayRef<llvm::StringRef> env = {});

/// The first of `paths` that exists ("" entries skipped); "" when none does.
std::string firstExisting(std::initializer_list<std::string> paths);

} // namespace tessel::codegen

#endif // TESSEL_TARGET_LLVMCODEGEN_H
