//===- ShapeOps.cpp - program ids, arange, full and shape ops -------------===//
#include "TraceState.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;

/// Checks a static shape given by the user: rank <= kMaxRank, positive dimensions.
static void checkShape(TraceState &s, const Shape &shape, const char *what, dsl::detail::Loc loc) {
  if (shape.rank() > kMaxRank)
    s.fail(loc, llvm::Twine(what) + ": tiles have at most " + llvm::Twine(kMaxRank) +
                    " dimensions, got " + llvm::Twine(shape.rank()));
  for (int i = 0; i < shape.rank(); ++i)
    if (shape[i] <= 0)
      s.fail(loc, llvm::Twine(what) + ": dimension " + llvm::Twine(i) + " of " +
                      shapeStr(dims(shape)) + " is not positive");
}

static void requireTileOrPtr(TraceState &s, const RawValue &v, const char *what,
                             dsl::detail::Loc loc) {
  if (v.kind == dsl::detail::ValueKind::block_ptr)
    s.fail(loc, llvm::Twine(what) + " does not apply to a block pointer");
}

/// The source of an op to the user's `shape` (full, broadcast_to, reshape), once the shape and
/// the source's kind are checked.
static Value sourceToShape(TraceState &s, const RawValue &v, const Shape &shape, const char *what,
                           dsl::detail::Loc loc) {
  checkShape(s, shape, what, loc);
  requireTileOrPtr(s, v, what, loc);
  return s.get(v, loc);
}

RawValue dsl::detail::gridIndex(bool numPrograms, int axis, Loc loc) {
  TraceState &s = TraceState::current();
  const char *what = numPrograms ? "num_programs" : "program_id";
  if (axis < 0 || axis > 2)
    s.fail(loc, llvm::Twine(what) + " axis must be 0, 1 or 2, got " + llvm::Twine(axis));
  Location l = s.loc(loc);
  Value v = numPrograms ? Value(s.b().create<tile::NumProgramsOp>(l, axis))
                        : Value(s.b().create<tile::ProgramIdOp>(l, axis));
  // DSL integers are i64: pid * BLOCK cannot wrap for tensors over 2^31 elements.
  return s.wrap(s.b().create<arith::ExtSIOp>(l, s.b().getI64Type(), v));
}

RawValue dsl::detail::arange(int64_t start, int64_t end, Loc loc) {
  TraceState &s = TraceState::current();
  if (start >= end)
    s.fail(loc, llvm::Twine("arange(") + llvm::Twine(start) + ", " + llvm::Twine(end) +
                    "): start must be less than end");
  if (start < INT32_MIN || end > INT32_MAX)
    s.fail(loc, llvm::Twine("arange(") + llvm::Twine(start) + ", " + llvm::Twine(end) +
                    "): bounds must fit in i32");
  OpBuilder &b = s.b();
  auto type = RankedTensorType::get({end - start}, b.getI32Type());
  return s.wrap(b.create<tile::ArangeOp>(s.loc(loc), type, b.getI32IntegerAttr(start),
                                         b.getI32IntegerAttr(end)));
}

RawValue dsl::detail::full(const Shape &shape, RawValue scalar, Loc loc) {
  TraceState &s = TraceState::current();
  Value v = sourceToShape(s, scalar, shape, "full", loc);
  if (scalar.shape.rank() != 0)
    s.fail(loc, llvm::Twine("full needs a scalar fill value, got ") + describe(scalar));
  if (shape.rank() == 0)
    return scalar;
  return s.wrap(broadcastValue(s.b(), s.loc(loc), v, dims(shape)));
}

RawValue dsl::detail::expandDims(RawValue v, int axis, Loc loc) {
  TraceState &s = TraceState::current();
  requireTileOrPtr(s, v, "expand_dims", loc);
  Value x = s.get(v, loc);
  int rank = v.shape.rank();
  if (axis < 0)
    axis += rank + 1;
  if (axis < 0 || axis > rank)
    s.fail(loc, llvm::Twine("expand_dims axis ") + llvm::Twine(axis) + " is out of range [0, " +
                    llvm::Twine(rank) + "] for " + describe(v));
  if (rank + 1 > kMaxRank)
    s.fail(loc,
           llvm::Twine("expand_dims: tiles have at most ") + llvm::Twine(kMaxRank) + " dimensions");
  Location l = s.loc(loc);
  if (rank == 0)
    return s.wrap(broadcastValue(s.b(), l, x, {1}));
  SmallVector<int64_t, 4> shape = dims(v.shape);
  shape.insert(shape.begin() + axis, 1);
  return s.wrap(s.b().create<tile::ExpandDimsOp>(l, RankedTensorType::get(shape, elemOf(x)), x,
                                                 static_cast<uint32_t>(axis)));
}

RawValue dsl::detail::broadcastTo(RawValue v, const Shape &shape, Loc loc) {
  TraceState &s = TraceState::current();
  Value x = sourceToShape(s, v, shape, "broadcast_to", loc);
  SmallVector<int64_t, 4> to = dims(shape);
  if (!broadcastsTo(shapeOf(x), to))
    s.fail(loc, llvm::Twine("cannot broadcast ") + describe(v) + " to " + shapeStr(to));
  return s.wrap(broadcastValue(s.b(), s.loc(loc), x, to));
}

RawValue dsl::detail::reshape(RawValue v, const Shape &shape, Loc loc) {
  TraceState &s = TraceState::current();
  Value x = sourceToShape(s, v, shape, "reshape", loc);
  SmallVector<int64_t, 4> to = dims(shape);
  if (to.empty())
    s.fail(loc, "reshape to a scalar; reduce the tile instead (e.g. sum(x, 0))");
  if (shape.numel() != v.shape.numel())
    s.fail(loc, llvm::Twine("cannot reshape ") + describe(v) + " (" + llvm::Twine(v.shape.numel()) +
                    " elements) to " + shapeStr(to) + " (" + llvm::Twine(shape.numel()) +
                    " elements)");
  Location l = s.loc(loc);
  if (v.shape.rank() == 0)
    return s.wrap(broadcastValue(s.b(), l, x, to));
  if (shapeOf(x) == ArrayRef<int64_t>(to))
    return v;
  return s.wrap(s.b().create<tile::ReshapeOp>(l, RankedTensorType::get(to, elemOf(x)), x));
}

RawValue dsl::detail::trans(RawValue v, const int32_t *order, int n, Loc loc) {
  TraceState &s = TraceState::current();
  requireTileOrPtr(s, v, "trans", loc);
  Value x = s.get(v, loc);
  int rank = v.shape.rank();
  if (rank == 0)
    s.fail(loc, "trans of a scalar");
  SmallVector<int32_t, 4> perm;
  if (n == 0)
    for (int i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  else
    perm.assign(order, order + n);
  SmallVector<bool, 4> seen(rank, false);
  bool ok = static_cast<int>(perm.size()) == rank;
  for (int32_t d : perm) {
    if (!ok || d < 0 || d >= rank || seen[d]) {
      ok = false;
      break;
    }
    seen[d] = true;
  }
  if (!ok) {
    std::string list;
    for (int32_t d : perm)
      list += (list.empty() ? "" : ", ") + std::to_string(d);
    s.fail(loc, llvm::Twine("trans order {") + list + "} is not a permutation of the " +
                    llvm::Twine(rank) + " dimensions of " + describe(v));
  }
  SmallVector<int64_t, 4> shape;
  for (int32_t d : perm)
    shape.push_back(v.shape[d]);
  return s.wrap(
      s.b().create<tile::TransOp>(s.loc(loc), RankedTensorType::get(shape, elemOf(x)), x, perm));
}

RawValue dsl::detail::subscript(const RawValue &v, const Subscript *subs, int n, Loc loc) {
  TraceState &s = TraceState::current();
  requireTileOrPtr(s, v, "subscript", loc);
  s.get(v, loc); // an unassigned handle is reported as such
  int kept = 0;
  for (int i = 0; i < n; ++i)
    kept += subs[i].newAxis ? 0 : 1;
  if (kept != v.shape.rank())
    s.fail(loc, llvm::Twine("subscript with ") + llvm::Twine(kept) + " '_' for " + describe(v) +
                    "; write one '_' per dimension and a None per new unit dimension");
  RawValue r = v;
  for (int i = 0; i < n; ++i)
    if (subs[i].newAxis)
      r = expandDims(r, i, loc);
  return r;
}
