//===- TraceState.cpp - handles, locations and errors of a trace ----------===//
#include "TraceState.h"

#include "tessel/Dialect/Tile/IR/ElementTypeEnum.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;

static TraceState *currentTrace = nullptr;
static uint32_t nextTraceId = 1;

TraceState::TraceState(func::FuncOp func, OpBuilder &builder)
    : func(func), builder(builder), traceId(nextTraceId++), previous(currentTrace) {
  currentTrace = this;
}

TraceState::~TraceState() { currentTrace = previous; }

TraceState &TraceState::current() {
  if (!currentTrace) {
    // No exception here: this runs during dlopen when a global calls the DSL.
    llvm::errs() << "tesselc: error: a DSL operation was called outside a kernel trace (from a "
                    "global or static variable of the kernel file?)\n";
    std::exit(1);
  }
  return *currentTrace;
}

Location TraceState::loc(dsl::detail::Loc l) {
  return FileLineColLoc::get(getContext(), l.file ? l.file : "<unknown>", l.line, l.col);
}

void TraceState::fail(dsl::detail::Loc l, const llvm::Twine &message) {
  emitError(loc(l)) << message;
  throw TraceAbort{};
}

/// True when the value `v` is visible at the builder's insertion block: its defining block
/// encloses the insertion point.
static bool isVisible(Value v, Block *at) {
  Block *def = v.getParentBlock();
  for (Block *blk = at; blk; blk = blk->getParentOp() ? blk->getParentOp()->getBlock() : nullptr)
    if (blk == def)
      return true;
  return false;
}

Value TraceState::get(const dsl::detail::RawValue &v, dsl::detail::Loc l) {
  if (v.id < 0)
    fail(l, "use of an unassigned handle (declared without a value)");
  if (v.trace != traceId || static_cast<size_t>(v.id) >= values.size())
    fail(l, "use of a handle from another kernel trace (kept in a static or global variable?)");
  Value value = values[v.id];
  if (!isVisible(value, builder.getInsertionBlock()))
    fail(l, llvm::Twine("this value was made inside a for_range, if_then_else or combiner body "
                        "and is used outside it; return it from the body instead (") +
                describe(v) + ")");
  return value;
}

dsl::detail::RawValue TraceState::wrap(Value v) {
  dsl::detail::RawValue r;
  r.id = static_cast<int32_t>(values.size());
  r.trace = traceId;
  values.push_back(v);
  Type t = v.getType();
  for (int64_t d : shapeOf(v))
    r.shape.push_back(d);
  Type elem = getElementTypeOrSelf(t);
  if (auto bp = dyn_cast<tile::BlockPtrType>(t)) {
    r.kind = dsl::detail::ValueKind::block_ptr;
    r.shape = Shape();
    for (int64_t d : bp.getBlockType().getShape())
      r.shape.push_back(d);
    r.dtype = toDType(bp.getBlockType().getElementType());
  } else if (auto p = dyn_cast<tile::PtrType>(elem)) {
    r.kind = dsl::detail::ValueKind::ptr;
    r.dtype = toDType(p.getPointeeType());
  } else {
    r.kind = dsl::detail::ValueKind::tile;
    r.dtype = toDType(elem);
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Type tracer::toMlirType(MLIRContext *ctx, DType t) {
  Builder b(ctx);
  switch (t) {
  case DType::i1:
    return b.getI1Type();
  case DType::i8:
    return b.getI8Type();
  case DType::i16:
    return b.getI16Type();
  case DType::i32:
    return b.getI32Type();
  case DType::i64:
    return b.getI64Type();
  case DType::f16:
    return b.getF16Type();
  case DType::bf16:
    return b.getBF16Type();
  case DType::f32:
    return b.getF32Type();
  case DType::f64:
    return b.getF64Type();
  case DType::f8e4m3:
    return b.getFloat8E4M3FNType();
  case DType::f8e5m2:
    return b.getFloat8E5M2Type();
  }
  llvm_unreachable("unknown dtype");
}

DType tracer::toDType(Type t) {
  if (std::optional<DType> d = tile::elementTypeEnum<DType>(t))
    return *d;
  llvm_unreachable("type without a DSL dtype");
}

Type tracer::shapedType(ArrayRef<int64_t> shape, Type elem) {
  if (shape.empty())
    return elem;
  return RankedTensorType::get(shape, elem);
}

SmallVector<int64_t, 4> tracer::dims(const Shape &s) {
  SmallVector<int64_t, 4> d;
  for (int i = 0; i < s.rank() && i < kMaxRank; ++i)
    d.push_back(s[i]);
  return d;
}

std::string tracer::shapeStr(ArrayRef<int64_t> s) { return tile::shapeToString(s); }

std::string tracer::describe(const dsl::detail::RawValue &v) {
  std::string shape = shapeStr(dims(v.shape));
  std::string type = dtypeName(v.dtype);
  switch (v.kind) {
  case dsl::detail::ValueKind::none:
    return "an unassigned handle";
  case dsl::detail::ValueKind::ptr:
    return v.shape.rank() ? "a tile of pointers to " + type + " " + shape : "a pointer to " + type;
  case dsl::detail::ValueKind::block_ptr:
    return "a block pointer to " + type + " " + shape;
  case dsl::detail::ValueKind::tile:
    return v.shape.rank() ? "a tile of " + type + " " + shape : "an " + type + " scalar";
  }
  return "a value";
}

std::optional<SmallVector<int64_t, 4>> tracer::broadcastShapes(ArrayRef<int64_t> a,
                                                               ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t, 4> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

bool tracer::broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  auto s = broadcastShapes(from, to);
  return s && ArrayRef<int64_t>(*s) == to;
}

Value tracer::broadcastValue(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> cur = shapeOf(v);
  if (cur == shape)
    return v;
  Type elem = elemOf(v);
  if (cur.empty())
    return b.create<tile::SplatOp>(loc, RankedTensorType::get(shape, elem), v);
  SmallVector<int64_t, 4> s(cur);
  while (s.size() < shape.size()) {
    s.insert(s.begin(), 1);
    v = b.create<tile::ExpandDimsOp>(loc, RankedTensorType::get(s, elem), v, 0u);
  }
  if (ArrayRef<int64_t>(s) != shape)
    v = b.create<tile::BroadcastOp>(loc, RankedTensorType::get(shape, elem), v);
  return v;
}

Value tracer::constantLike(OpBuilder &b, Location loc, Type type, double value) {
  Type elem = getElementTypeOrSelf(type);
  TypedAttr attr;
  if (auto ft = dyn_cast<FloatType>(elem))
    attr = b.getFloatAttr(ft, value);
  else
    attr = b.getIntegerAttr(elem, static_cast<int64_t>(value));
  if (auto tt = dyn_cast<RankedTensorType>(type))
    attr = DenseElementsAttr::get(tt, attr);
  return b.create<arith::ConstantOp>(loc, attr);
}

Value tracer::convert(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = elemOf(v);
  if (from == to)
    return v;
  Type result = shapedType(shapeOf(v), to);
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (!fromFloat && !toFloat) {
    if (to.isInteger(1))
      return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, v,
                                     constantLike(b, loc, v.getType(), 0));
    if (from.isInteger(1))
      return b.create<arith::ExtUIOp>(loc, result, v);
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return b.create<arith::ExtSIOp>(loc, result, v);
    return b.create<arith::TruncIOp>(loc, result, v);
  }
  if (!fromFloat) {
    if (from.isInteger(1))
      return b.create<arith::UIToFPOp>(loc, result, v);
    return b.create<arith::SIToFPOp>(loc, result, v);
  }
  if (!toFloat) {
    if (to.isInteger(1))
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, v,
                                     constantLike(b, loc, v.getType(), 0));
    return b.create<arith::FPToSIOp>(loc, result, v);
  }
  unsigned wf = from.getIntOrFloatBitWidth(), wt = to.getIntOrFloatBitWidth();
  if (wf < wt)
    return b.create<arith::ExtFOp>(loc, result, v);
  if (wf > wt)
    return b.create<arith::TruncFOp>(loc, result, v);
  // Same width, different formats (f16 <-> bf16, e4m3 <-> e5m2): through f32.
  Value wide = b.create<arith::ExtFOp>(loc, shapedType(shapeOf(v), b.getF32Type()), v);
  return b.create<arith::TruncFOp>(loc, result, wide);
}

//===----------------------------------------------------------------------===//
// Entry points: errors, arguments, rank checks
//===----------------------------------------------------------------------===//

void dsl::detail::fail(Loc loc, const char *message) { TraceState::current().fail(loc, message); }

dsl::detail::RawValue dsl::detail::kernelArg(int index) {
  TraceState &s = TraceState::current();
  return s.wrap(s.getFunc().getArgument(index));
}

void dsl::detail::requireRank(const RawValue &v, int rank, const char *what, Loc loc) {
  if (v.id < 0 || v.shape.rank() == rank)
    return;
  TraceState::current().fail(loc, llvm::Twine("expected ") + what + ", got " + describe(v));
}
