//===- TilePipeline.h - the tile-level pass pipeline and IR dumps -*- C++ -*-===//
#ifndef TESSEL_DRIVER_TILEPIPELINE_H
#define TESSEL_DRIVER_TILEPIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tessel::driver {

/// Adds the tile-level cleanup pipeline: inline (helper functions; no nested simplification),
/// canonicalize, cse, loop-invariant-code-motion, symbol-dce; without `debug` (tesselc
/// --debug) first tile-strip-device-asserts.
void buildTilePipeline(mlir::OpPassManager &pm, bool debug = false);

/// Runs `pm` on `module`, verifying the module once at the end; with `verifyEach` (tesselc
/// --verify-each; the lit suite sets it) after every pass, MLIR's default. Release compilers
/// skip the per-pass verifier as clang skips LLVM's: the ~45 verifications of a GPU compile
/// took ~2 ms of 55 (perf, softmax tile IR -> cubin). An invalid result is reported as a
/// compiler bug, with the flag that names the pass that produced it.
mlir::LogicalResult runPipeline(mlir::PassManager &pm, mlir::ModuleOp module, bool verifyEach);

/// --dump-ir: writes the module to DIR/NN-<name>.mlir, numbered in order: 00-trace.mlir is
/// the traced (or parsed) input, then one file after every top-level pass, named after its
/// argument (01-inline.mlir, 02-canonicalize.mlir, ...). Locations are printed.
class IRDumper {
public:
  explicit IRDumper(std::string dir) : dir(std::move(dir)) {}
  /// Writes `module` as the next numbered file called `name`; reports I/O errors on stderr.
  void dump(mlir::Operation *module, llvm::StringRef name);
  /// Dumps after every top-level pass of `pm`.
  void attach(mlir::PassManager &pm);

private:
  std::string dir;
  int counter = 0;
};

/// Prints `module` with its locations (loc(#locN) aliases), as the artifacts carry them.
std::string printWithLocations(mlir::Operation *module);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_TILEPIPELINE_H
