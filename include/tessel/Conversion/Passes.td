//===- Passes.td - Tessel's conversion passes --------------*- tablegen -*-===//
#ifndef TESSEL_CONVERSION_PASSES_TD
#define TESSEL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileGPUToLLVM : Pass<"convert-tile-gpu-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower tile IR with tile_gpu layouts to the LLVM dialect and the adapter's "
                "dialects";
  let description = [{
    The shared lowering (lib/Conversion/TileGPUToLLVM) with the target's adapter: every tile
    becomes an LLVM struct of the elements the thread holds, then scf -> cf -> LLVM. Everything
    chip-specific goes through TargetInfo, which the target registry picks from the `target`
    option or, without it, the module's `tile.target`; an unknown name is an error that lists
    the registered targets.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "a registered target name (default: the module's tile.target)">
  ];
  // The adapters' dialects are added by the pass from the target registry.
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::cf::ControlFlowDialect"];
}

#endif // TESSEL_CONVERSION_PASSES_TD
