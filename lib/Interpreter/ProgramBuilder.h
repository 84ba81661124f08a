//===- ProgramBuilder.h - ops to interpreter slot handlers ------*- C++ -*-===//
//
// Internal to lib/Interpreter. One ProgramBuilder per kernel turns its ops into handlers over
// the Program's slots (closures in a Sequence). compileOp picks the op's function with one
// llvm::TypeSwitch (ProgramBuilder.cpp); each op group lives in its own file (Elementwise.cpp,
// Casts.cpp, ShapeOps.cpp, MemoryOps.cpp, AtomicOps.cpp, ReduceScan.cpp, Dot.cpp,
// ControlFlow.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_INTERPRETER_PROGRAMBUILDER_H
#define TESSEL_LIB_INTERPRETER_PROGRAMBUILDER_H

#include "Program.h"

#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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

  //===--- one function per op, or per family of ops with one handler ----===//
  // compileOp dispatches with one TypeSwitch; each returns a located error for what it cannot
  // run. Elementwise.cpp:
  Status compileConstant(mlir::arith::ConstantOp op, Sequence &out);
  Status compileCmpI(mlir::arith::CmpIOp op, Sequence &out);
  Status compileCmpF(mlir::arith::CmpFOp op, Sequence &out);
  Status compileSelect(mlir::arith::SelectOp op, Sequence &out);
  Status compileFma(mlir::math::FmaOp op, Sequence &out);
  /// Every other op: binary and unary arith/math ops by name, else an "unsupported" error.
  Status compileMulExtended(mlir::Operation *op, Sequence &out);
  Status compileArithByName(mlir::Operation *op, Sequence &out);
  /// Casts.cpp: integer, float and index casts and bitcasts (the kCastOps of compileOp).
  Status compileCast(mlir::Operation *op, Sequence &out);
  // ShapeOps.cpp:
  Status compileProgramIndex(mlir::Operation *op, Sequence &out); ///< program_id, num_programs
  Status compileArange(tessel::tile::ArangeOp op, Sequence &out);
  Status compileSplat(tessel::tile::SplatOp op, Sequence &out);
  Status compileReshape(mlir::Operation *op, Sequence &out); ///< expand_dims, reshape
  Status compileBroadcastOrTrans(mlir::Operation *op, Sequence &out);
  // MemoryOps.cpp:
  Status compileAddPtr(tessel::tile::AddPtrOp op, Sequence &out);
  Status compileMakeBlockPtr(tessel::tile::MakeBlockPtrOp op, Sequence &out);
  Status compileAdvance(tessel::tile::AdvanceOp op, Sequence &out);
  Status compileLoad(tessel::tile::LoadOp op, Sequence &out);
  Status compileStore(tessel::tile::StoreOp op, Sequence &out);
  // AtomicOps.cpp:
  Status compileAtomicRMW(tessel::tile::AtomicRMWOp op, Sequence &out);
  Status compileAtomicCAS(tessel::tile::AtomicCASOp op, Sequence &out);
  /// ReduceScan.cpp: tile.reduce and tile.scan.
  Status compileReduceScan(mlir::Operation *op, Sequence &out);
  /// Dot.cpp:
  Status compileDot(tessel::tile::DotOp op, Sequence &out);
  // ControlFlow.cpp:
  Status compileFor(mlir::scf::ForOp op, Sequence &out);
  Status compileIf(mlir::scf::IfOp op, Sequence &out);
  Status compileWhile(mlir::scf::WhileOp op, Sequence &out);
  Status compileCall(mlir::func::CallOp op, Sequence &out);
  // DebugOps.cpp:
  Status compilePrint(tessel::tile::PrintOp op, Sequence &out);
  Status compileAssert(tessel::tile::AssertOp op, Sequence &out);

  /// The elementwise kernel of a binary arith/math op name on slot type `t` (operand type;
  /// results of cmp ops are i1), or null when `opName` is not a binary elementwise op.
  BinaryKernel binaryKernel(llvm::StringRef opName, const SlotType &t);

  /// "loc: error: msg".
  Status error(mlir::Operation *op, const llvm::Twine &msg) const;
  /// The error for an op the interpreter does not run, naming it.
  Status unsupported(mlir::Operation *op) const;

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
