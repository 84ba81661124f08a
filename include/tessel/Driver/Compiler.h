//===- Compiler.h - compiling a kernel variant to its artifacts -*- C++ -*-===//
//
// The part of tesselc that does not care where a module came from (a traced kernel file or
// .mlir input): run the tile-level pipeline, then each requested stage, and write the
// artifacts and the JSON metadata of docs/Artifacts.md.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DRIVER_COMPILER_H
#define TESSEL_DRIVER_COMPILER_H

#include "tessel/Driver/Metadata.h"
#include "tessel/Driver/Stages.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"

#include <string>
#include <vector>

namespace tessel::driver {

/// Whether TESSEL_VERIFY_EACH=1 is set: the default of --verify-each (runPipeline), which the
/// lit suite turns on for every compile.
bool verifyEachByDefault();

struct CompileOptions {
  std::string outputDir;                   // "-": print the artifacts to stdout, no metadata
  std::vector<const Stage *> stages;       // requested stages (all available), in pipeline order
  std::string dumpDir;                     // --dump-ir root, or empty
  bool perfFallbackError = false;          // --Werror=perf-fallback: an FMA dot is an error
  bool debug = false;                      // --debug: keep device_assert (tile.assert)
  bool fpFusion = true;                    // --fp-fusion: fma contraction in the GPU code
  bool verifyEach = verifyEachByDefault(); // --verify-each: verify after every pass
};

/// Compiles one variant: `module` holds the kernel `meta.variant` (and any helpers). Runs the
/// tile pipeline (honouring MLIR's pass-manager command-line options such as
/// --mlir-print-ir-after-all), the stages, and writes `<variant><suffix>` per stage plus
/// `<variant>.json` to the output directory. Errors are reported through the diagnostic
/// engine or on stderr. `written`, when given, receives the metadata as written (the stages
/// add the binary's resources: registers, spills).
mlir::LogicalResult compileVariant(mlir::ModuleOp module, VariantMetadata meta,
                                   const CompileOptions &options, mlir::TimingScope &timing,
                                   VariantMetadata *written = nullptr);

/// One module per kernel function of `module` (other kernels removed; helpers kept until
/// symbol-dce), for .mlir input.
std::vector<mlir::OwningOpRef<mlir::ModuleOp>> splitKernels(mlir::ModuleOp module);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_COMPILER_H
