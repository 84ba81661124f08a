//===- Interpreter.h - executing tile IR on the CPU --------------*- C++ -*-===//
//
// The interpreter compiles one kernel (a func.func marked tile.kernel, with the functions it
// calls) into a compact executable form once: every SSA value gets a slot of a statically
// sized flat buffer, every op a handler closure over slot indices that processes a whole tile
// (vectorized over its elements). Running a grid executes that form once per program
// instance, on several threads; results do not depend on the order (atomics aside).
//
// Semantics: docs/TileIR.md; interpreter specifics (poison, NaN policy, f16/bf16 rounding,
// integer corner cases, memory safety): docs/Interpreter.md.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_INTERPRETER_INTERPRETER_H
#define TESSEL_INTERPRETER_INTERPRETER_H

#include "tessel/Harness/DType.h"
#include "tessel/Harness/Status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace tessel::interp {

using harness::DType;
using harness::Status;

/// A region of host memory a kernel may access: [begin, begin + bytes).
struct MemoryRegion {
  uint64_t begin = 0;
  uint64_t bytes = 0;
  std::string name; ///< named in out-of-bounds reports
  DType dtype = DType::f32;
};

/// A kernel argument value: an address (pointer parameters), an integer or a float.
struct ArgValue {
  enum class Kind { Pointer, Int, Float } kind = Kind::Int;
  uint64_t address = 0;
  int64_t i = 0;
  double f = 0;
};

/// What one launch runs.
struct LaunchSpec {
  int64_t grid[3] = {1, 1, 1};
  int64_t firstProgram = 0;  ///< linear program id (x fastest) of the first instance to run
  int64_t programCount = -1; ///< -1: up to the end of the grid
  unsigned threads = 0;      ///< 0: TESSEL_INTERP_THREADS or the hardware concurrency
};

/// Parameter description of a compiled kernel.
struct ParamInfo {
  std::string name; ///< the argument's NameLoc (tesselc), a `tessel.name` attribute, or "arg<i>"
  std::string type; ///< MLIR spelling
  bool isPointer = false;
  /// tile.divisibility: the address (bytes) or value must be a multiple of it; 1 when absent.
  int64_t divisibility = 1;
  /// tile.equal_to: the value the argument must have (a specialized twin), if any.
  std::optional<int64_t> equalTo;
};

struct Program; // lib/Interpreter/Program.h

/// A kernel compiled for the interpreter. Thread-safe to run; one run at a time.
class CompiledKernel {
public:
  ~CompiledKernel();
  /// Compiles `kernel` (and the functions it calls). Errors name the op's location.
  static Status compile(mlir::func::FuncOp kernel, std::unique_ptr<CompiledKernel> &out);

  const std::vector<ParamInfo> &params() const { return params_; }
  const std::string &name() const { return name_; }

  /// Runs the grid. Arguments must honour their tile.divisibility (as the GPU runtime
  /// requires). Every access of an enabled lane must fall inside one of `memory`; the
  /// first out-of-bounds access (lowest program id) stops the run with an error naming the op's
  /// location, the program id and the element offset; nothing outside `memory` is touched.
  Status run(const std::vector<ArgValue> &args, const std::vector<MemoryRegion> &memory,
             const LaunchSpec &launch) const;

private:
  CompiledKernel();
  std::unique_ptr<Program> program_;
  std::vector<ParamInfo> params_;
  std::string name_;
};

/// "CPU interpreter (N threads)": the interpreter as the tuning cache names its device (N: the
/// threads a launch uses, TESSEL_INTERP_THREADS or the hardware's).
std::string deviceDescription();

/// Registers the "interpreter" executor with the harness (tessel-run calls it).
void registerInterpreterExecutor();

} // namespace tessel::interp

#endif // TESSEL_INTERPRETER_INTERPRETER_H
