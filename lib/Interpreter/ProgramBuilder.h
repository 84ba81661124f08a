//===- ProgramBuilder.h - ops to interpreter slot handlers ------*- C++ -*-===//
//
// Internal to lib/Interpreter. One ProgramBuilder per kernel turns its ops into handlers over
// the Program's slots (closures in a Sequence); each op group lives in its own file
// (Elementwise.cpp, Casts.cpp, ShapeOps.cpp, MemoryOps.cpp, ReduceScan.cpp, Dot.cpp,
// ControlFlow.cpp) and offers `compileXxx(op, block, handled)`.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_INTERPRETER_PROGRAMBUILDER_H
#define TESSEL_LIB_INTERPRETER_PROGRAMBUILDER_H

#include "Program.h"

#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/Support/DebugStringHelper.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace tessel::interp {

/// "file:line:col" of `loc`, looking through fused, name and call-site locations.
std::string locationString(mlir::Location loc);

class ProgramBuilder {
public:
  explicit ProgramBuilder(Program &program) : prog(program) {}

  /// Compiles the kernel's body into prog.body and its arguments into prog.argSlots.
  Status compileKernel(mlir::func::FuncOp kernel, std::vector<ParamInfo> &params);

  //===--- slots ---------------------------------------------------------===//
  /// The slot type of an MLIR type; fails (with a located message) for unsupported types.
  Status slotTypeOf(mlir::Type type, mlir::Operation *where, SlotType &out);
  /// Defines `v`'s slot (with the combiner width override applied).
  Status define(mlir::Value v, mlir::Operation *where, int &slot);
  /// The slot of an already defined value.
  int slot(mlir::Value v) const { return slotOf.lookup(v); }
  const SlotType &type(int slot) const { return prog.slots[slot]; }
  /// A scratch buffer of `t` (per frame).
  int scratch(const SlotType &t);
  /// A constant slot filled with `data`.
  int constant(const SlotType &t, Buffer data);

  //===--- blocks --------------------------------------------------------===//
  /// Compiles every op of `block` but its terminator into `out`.
  Status compileBlock(mlir::Block &block, Sequence &out);
  Status compileOp(mlir::Operation *op, Sequence &out);

  //===--- op groups (each returns with handled = false when op is not theirs) --===//
  Status compileElementwise(mlir::Operation *op, Sequence &out, bool &handled);
  Status compileCast(mlir::Operation *op, Sequence &out, bool &handled);
  Status compileShapeOp(mlir::Operation *op, Sequence &out, bool &handled);
  Status compileMemoryOp(mlir::Operation *op, Sequence &out, bool &handled);
  Status compileReduceScan(mlir::Operation *op, Sequence &out, bool &handled);
  Status compileDot(mlir::Operation *op, Sequence &out, bool &handled);
  Status compileControlFlow(mlir::Operation *op, Sequence &out, bool &handled);

  /// The elementwise kernel of a binary arith/math op name on slot type `t` (operand type;
  /// results of cmp ops are i1), or null when `opName` is not a binary elementwise op.
  BinaryKernel binaryKernel(llvm::StringRef opName, const SlotType &t);

  /// "loc: error: msg".
  Status error(mlir::Operation *op, const llvm::Twine &msg) const;

  Program &prog;
  llvm::DenseMap<mlir::Value, int> slotOf;
  /// Set while compiling a reduce/scan combiner vectorized: every value defined gets shape
  /// {width} instead of its own (scalar) type.
  std::optional<int64_t> widthOverride;
  /// Compiled callees (func.call), by symbol; `calling` guards recursion.
  struct Callee {
    std::vector<int> argSlots;
    std::vector<int> resultSlots; ///< slots of the func.return operands
    std::shared_ptr<Sequence> body;
  };
  llvm::StringMap<Callee> callees;
  llvm::StringMap<bool> calling;
  mlir::ModuleOp module;
};

/// Copies `words` 64-bit words between slots.
inline void copySlot(Frame &f, int from, int to, int64_t words) {
  std::memcpy(f.slots[to].data(), f.slots[from].data(), words * 8);
}

} // namespace tessel::interp

#endif // TESSEL_LIB_INTERPRETER_PROGRAMBUILDER_H
