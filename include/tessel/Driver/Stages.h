//===- Stages.h - the registry of compilation stages ------------*- C++ -*-===//
//
// A stage turns a variant's module into one artifact: `tile` writes the tile IR; the stages
// that later backends add (layout, llvm, ptx, cubin, amdgcn, hsaco, header) lower the module
// further and write their own. Stages run in registry order, each on the module left by the
// previous one. A stage without a `run` function is listed but not yet available.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DRIVER_STAGES_H
#define TESSEL_DRIVER_STAGES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessel::driver {

class IRDumper;
struct VariantMetadata;

/// What a stage gets besides the module.
struct StageContext {
  std::string target;              // the module's tile.target
  IRDumper *dumper;                // --dump-ir, or null; stages attach it to their pass managers
  mlir::TimingScope *timing;       // --mlir-timing scope of this variant
  VariantMetadata *meta = nullptr; // stages add resources (registers, shared memory) to it
  /// Products one stage computes for later ones (the GPU stages produce LLVM IR, assembly
  /// and the binary in one code-generation run).
  std::map<std::string, std::string> *products = nullptr;
  /// A tile.dot that falls back to FMA units is an error, not a remark.
  bool perfFallbackError = false;
  /// Verify after every pass, not once per pipeline (driver::runPipeline).
  bool verifyEach = false;
};

struct Stage {
  std::string name;        // --emit value: "tile", "ptx", ...
  std::string description; // one line for --help
  std::string suffix;      // artifact file suffix: ".tile.mlir"
  /// Lowers `module` as needed and writes the artifact's bytes to `artifact`; null when the
  /// stage is not yet available. Errors are reported through the diagnostic engine.
  std::function<mlir::LogicalResult(mlir::ModuleOp module, const StageContext &context,
                                    std::string &artifact)>
      run;
  bool available() const { return static_cast<bool>(run); }
};

/// All stages in pipeline order.
const std::vector<Stage> &getStages();
/// The stage called `name`, or null.
const Stage *findStage(llvm::StringRef name);
/// Registers (or replaces, by name) a stage; backends call this from their registration.
void registerStage(Stage stage);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_STAGES_H
