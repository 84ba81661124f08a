//===- TraceState.h - the state of one kernel trace -------------*- C++ -*-===//
//
// While a kernel variant is traced, one TraceState is current: it owns the builder positioned
// in the kernel function, the table from handle ids to IR values, and the stack of open
// regions (for_range bodies, if branches, combiners). The DSL's calls (dsl/Trace.h) find it
// with TraceState::current(). Misuse is reported through MLIR's diagnostic engine at the
// user's line, then the trace is aborted by throwing TraceAbort, which the kernel tracer
// catches; no exception ever crosses an MLIR or LLVM frame.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_LIB_TRACESTATE_H
#define TESSEL_DSL_LIB_TRACESTATE_H

#include "tessel/dsl/Tile.h"

#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <vector>

namespace tessel::dsl::tracer {

// The DSL's handles, as every op file names them.
using detail::RawValue;
using detail::ValueKind;

/// Thrown after a trace error has been reported; caught by traceVariant.
struct TraceAbort {};

/// An open region of the kernel: the op that owns it and where to continue after it.
struct OpenRegion {
  enum class Kind { forBody, ifThen, ifElse, combiner } kind;
  mlir::Operation *op;
  mlir::OpBuilder::InsertPoint after;
  llvm::SmallVector<mlir::Value> thenValues; // ifElse: what the then-branch yields
  int axis = 0;                              // combiner: reduce/scan axis
};

class TraceState {
public:
  TraceState(mlir::func::FuncOp func, mlir::OpBuilder &builder);
  ~TraceState();

  /// The trace in progress; reports an error and aborts when there is none (a DSL call made
  /// outside a kernel, e.g. from a static initializer).
  static TraceState &current();

  mlir::MLIRContext *getContext() { return builder.getContext(); }
  mlir::OpBuilder &b() { return builder; }
  mlir::func::FuncOp getFunc() { return func; }

  /// The IR location of a user source position.
  mlir::Location loc(detail::Loc l);
  /// Reports `message` at `l` and aborts the trace.
  [[noreturn]] void fail(detail::Loc l, const llvm::Twine &message);

  /// The IR value of a handle, after checking that it is assigned, from this trace, and
  /// visible here (not defined inside a region that has been closed).
  mlir::Value get(const detail::RawValue &v, detail::Loc l);
  /// A handle for an IR value.
  detail::RawValue wrap(mlir::Value v);

  std::vector<OpenRegion> regions;

private:
  mlir::func::FuncOp func;
  mlir::OpBuilder &builder;
  uint32_t traceId;
  std::vector<mlir::Value> values;
  TraceState *previous;
};

//===----------------------------------------------------------------------===//
// Helpers shared by the op files
//===----------------------------------------------------------------------===//

/// The MLIR element type of a dtype.
mlir::Type toMlirType(mlir::MLIRContext *ctx, DType t);
/// The dtype of an MLIR integer or float type.
DType toDType(mlir::Type t);
/// `elem`, or a ranked tensor of `shape` x `elem` when shape has rank >= 1.
mlir::Type shapedType(llvm::ArrayRef<int64_t> shape, mlir::Type elem);
/// The dims of a DSL shape.
llvm::SmallVector<int64_t, 4> dims(const Shape &s);
/// "[128, 64]", "scalar".
std::string shapeStr(llvm::ArrayRef<int64_t> s);
/// "a tile of f32 [128]", "an i64 scalar", "a pointer to bf16", ...
std::string describe(const detail::RawValue &v);

/// Numpy broadcast of two shapes (aligned at the right); nullopt when they do not broadcast.
std::optional<llvm::SmallVector<int64_t, 4>> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                                             llvm::ArrayRef<int64_t> b);
/// True when `from` broadcasts to exactly `to`.
bool broadcastsTo(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);
/// Splats, expands and broadcasts `v` to `shape` (which it must broadcast to).
mlir::Value broadcastValue(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                           llvm::ArrayRef<int64_t> shape);
/// Value conversion of an int/float scalar or tile to element type `to` (docs/DSL.md, "Casts").
mlir::Value convert(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, mlir::Type to);
/// A constant of `type` (scalar or tile) with every element `value`.
mlir::Value constantLike(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type, double value);
/// The element type of a value's type.
inline mlir::Type elemOf(mlir::Value v) { return mlir::getElementTypeOrSelf(v.getType()); }
inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value v) {
  return tile::getShapeOrScalar(v.getType());
}

} // namespace tessel::dsl::tracer

#endif // TESSEL_DSL_LIB_TRACESTATE_H
