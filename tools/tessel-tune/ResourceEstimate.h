//===- ResourceEstimate.h - what a config needs, before compiling -*- C++ -*-===//
//
// The autotuner drops configs that cannot fit the chip before they reach the pipeline. The
// estimate reads the traced tile IR (about a millisecond; the pipeline and the assembler take
// tens): threads are exact, shared memory and registers are lower-bound estimates, so that a
// config is dropped only when it clearly cannot fit (docs/Autotuning.md, "Pruning").
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_TUNE_RESOURCEESTIMATE_H
#define TESSEL_TOOLS_TESSEL_TUNE_RESOURCEESTIMATE_H

#include "tessel/Target/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace tessel::tune {

struct ResourceEstimate {
  int64_t threads = 0;
  /// Shared memory per program: operand tiles of each tile.dot (padded to powers of two), times
  /// num_stages when the dot is in a loop (the pipeline's ring), plus the dot's result when that
  /// loop is inside another (a persistent kernel's ring beside its epilogue's scratch), and a
  /// scan's tile.
  int64_t sharedBytes = 0;
  /// 32-bit registers per thread: the largest float tensor's words per thread, or a dot
  /// accumulator's (updated in place, its operands in shared memory), plus 16 for addresses
  /// and loop state. Once, not twice: a value computed element by element from a tensor may
  /// take its registers (the assembler fits RMSNorm's 16384-wide bf16 row on 4 warps, 128 f32 a
  /// thread, in 214 registers without spills; counting it twice, 272, dropped that config).
  int64_t registers = 0;
};

/// The limits a config may exceed, in the order they are checked (the cheapest first).
enum class Limit { none, threads, sharedMemory, registers };
const char *limitName(Limit l); // "threads per program", ...

/// Threads only (no trace needed): num_warps * warp size.
Limit checkThreads(int numWarps, const TargetLimits &limits, std::string &why);
/// The estimate of a traced kernel module.
ResourceEstimate estimateResources(mlir::ModuleOp module, int numWarps, int numStages,
                                   unsigned warpSize);
/// The first limit `e` exceeds, with `why` saying by how much.
Limit checkEstimate(const ResourceEstimate &e, const TargetLimits &limits, std::string &why);

} // namespace tessel::tune

#endif // TESSEL_TOOLS_TESSEL_TUNE_RESOURCEESTIMATE_H
