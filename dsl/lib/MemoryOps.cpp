//===- MemoryOps.cpp - pointer arithmetic, loads, stores, atomics ---------===//
//
// `ptr + offsets` keeps scalars scalar: a scalar pointer plus a scalar offset is a scalar
// tile.addptr; only a tile of offsets splats the pointer. Masks and `other` broadcast to the
// pointer's shape; stored values and `other` must have the pointee type.
//
//===----------------------------------------------------------------------===//
#include "TraceState.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;

/// Reports an error unless `p` is a pointer or tile of pointers (or a block pointer, if allowed).
static void requirePointer(TraceState &s, const RawValue &p, const char *op, bool allowBlock,
                           dsl::detail::Loc loc) {
  if (p.kind == ValueKind::ptr || (allowBlock && p.kind == ValueKind::block_ptr))
    return;
  s.fail(loc, llvm::Twine(op) + " needs a pointer (Ptr<T>, a tile of pointers" +
                  (allowBlock ? " or a block pointer" : "") + "), got " + describe(p));
}

/// Broadcasts the mask to the pointer's shape; reports a shape or type mismatch.
static Value maskFor(TraceState &s, Value ptr, const RawValue *mask, dsl::detail::Loc loc) {
  if (!mask)
    return {};
  Value m = s.get(*mask, loc);
  if (mask->kind != ValueKind::tile || mask->dtype != DType::i1)
    s.fail(loc,
           llvm::Twine("mask must be i1 (a comparison such as cols < n), got ") + describe(*mask));
  if (!broadcastsTo(shapeOf(m), shapeOf(ptr)))
    s.fail(loc, llvm::Twine("mask shape ") + shapeStr(shapeOf(m)) +
                    " does not match pointer shape " + shapeStr(shapeOf(ptr)));
  return broadcastValue(s.b(), s.loc(loc), m, shapeOf(ptr));
}

/// Checks that `v` has the pointee type and broadcasts it to the pointer's shape.
static Value valueFor(TraceState &s, Value ptr, const RawValue &v, DType pointee, const char *what,
                      dsl::detail::Loc loc) {
  Value x = s.get(v, loc);
  if (v.kind != ValueKind::tile)
    s.fail(loc, llvm::Twine(what) + " must be a value, got " + describe(v));
  if (v.dtype != pointee)
    s.fail(loc, llvm::Twine(what) + " has type " + dtypeName(v.dtype) +
                    " but the pointer points to " + dtypeName(pointee) + "; convert it with cast<" +
                    dtypeName(pointee) + ">(...)");
  if (!broadcastsTo(shapeOf(x), shapeOf(ptr)))
    s.fail(loc, llvm::Twine(what) + " shape " + shapeStr(shapeOf(x)) +
                    " does not match pointer shape " + shapeStr(shapeOf(ptr)));
  return broadcastValue(s.b(), s.loc(loc), x, shapeOf(ptr));
}

RawValue dsl::detail::addptr(RawValue ptr, RawValue offset, Loc loc) {
  TraceState &s = TraceState::current();
  requirePointer(s, ptr, "pointer arithmetic", false, loc);
  if (offset.kind != ValueKind::tile || !isInt(offset.dtype) || offset.dtype == DType::i1)
    s.fail(loc, llvm::Twine("pointer offsets must be integers, got ") + describe(offset));
  Value p = s.get(ptr, loc), o = s.get(offset, loc);
  auto shape = broadcastShapes(shapeOf(p), shapeOf(o));
  if (!shape)
    s.fail(loc, llvm::Twine("offset shape ") + shapeStr(shapeOf(o)) +
                    " does not broadcast with pointer shape " + shapeStr(shapeOf(p)));
  Location l = s.loc(loc);
  p = broadcastValue(s.b(), l, p, *shape);
  o = broadcastValue(s.b(), l, o, *shape);
  return s.wrap(s.b().create<tile::AddPtrOp>(l, p.getType(), p, o));
}

RawValue dsl::detail::load(const LoadArgs &args, Loc loc) {
  TraceState &s = TraceState::current();
  requirePointer(s, args.ptr, "load", true, loc);
  Value p = s.get(args.ptr, loc);
  Location l = s.loc(loc);
  OpBuilder &b = s.b();
  tile::LoadOp op;
  if (args.ptr.kind == ValueKind::block_ptr) {
    op = b.create<tile::LoadOp>(l, p);
    if (args.numBoundaryCheck)
      op.setBoundaryCheck(ArrayRef<int32_t>(args.boundaryCheck, args.numBoundaryCheck));
    if (args.padding != Padding::none)
      op.setPadding(args.padding == Padding::zero ? tile::PaddingOption::zero
                                                  : tile::PaddingOption::nan);
  } else {
    Value mask = maskFor(s, p, args.mask, loc);
    Value other;
    if (args.other)
      other = valueFor(s, p, *args.other, args.ptr.dtype, "'other'", loc);
    op = b.create<tile::LoadOp>(l, p, mask, other);
  }
  op.setCache(static_cast<tile::CacheModifier>(args.hints.cache));
  op.setEvict(static_cast<tile::EvictionPolicy>(args.hints.evict));
  op.setIsVolatile(args.hints.is_volatile);
  return s.wrap(op);
}

void dsl::detail::store(const StoreArgs &args, Loc loc) {
  TraceState &s = TraceState::current();
  requirePointer(s, args.ptr, "store", true, loc);
  Value p = s.get(args.ptr, loc);
  Location l = s.loc(loc);
  OpBuilder &b = s.b();
  tile::StoreOp op;
  if (args.ptr.kind == ValueKind::block_ptr) {
    Value v = s.get(args.value, loc);
    Type blockType = cast<tile::BlockPtrType>(p.getType()).getBlockType();
    if (v.getType() != blockType)
      s.fail(loc, llvm::Twine("store of ") + describe(args.value) + " through a block pointer to " +
                      describe(args.ptr));
    op = b.create<tile::StoreOp>(l, p, v);
    if (args.numBoundaryCheck)
      op.setBoundaryCheck(ArrayRef<int32_t>(args.boundaryCheck, args.numBoundaryCheck));
  } else {
    Value v = valueFor(s, p, args.value, args.ptr.dtype, "the stored value", loc);
    Value mask = maskFor(s, p, args.mask, loc);
    op = b.create<tile::StoreOp>(l, p, v, mask);
  }
  op.setCache(static_cast<tile::CacheModifier>(args.hints.cache));
  op.setEvict(static_cast<tile::EvictionPolicy>(args.hints.evict));
}

void dsl::detail::barrier(Loc loc) {
  TraceState &s = TraceState::current();
  s.b().create<tile::BarrierOp>(s.loc(loc));
}

RawValue dsl::detail::atomicRMW(AtomicKind kind, RawValue ptr, RawValue value, const RawValue *mask,
                                Sem sem, Scope scope, Loc loc) {
  TraceState &s = TraceState::current();
  requirePointer(s, ptr, "an atomic", false, loc);
  Value p = s.get(ptr, loc);
  Value v = valueFor(s, p, value, ptr.dtype, "the atomic's value", loc);
  Value m = maskFor(s, p, mask, loc);
  tile::RMWKind k = tile::RMWKind::add;
  switch (kind) {
  case AtomicKind::add:
    k = tile::RMWKind::add;
    break;
  case AtomicKind::max:
    k = tile::RMWKind::max;
    break;
  case AtomicKind::min:
    k = tile::RMWKind::min;
    break;
  case AtomicKind::umax:
    k = tile::RMWKind::umax;
    break;
  case AtomicKind::umin:
    k = tile::RMWKind::umin;
    break;
  case AtomicKind::bit_and:
    k = tile::RMWKind::And;
    break;
  case AtomicKind::bit_or:
    k = tile::RMWKind::Or;
    break;
  case AtomicKind::bit_xor:
    k = tile::RMWKind::Xor;
    break;
  case AtomicKind::xchg:
    k = tile::RMWKind::xchg;
    break;
  }
  return s.wrap(s.b().create<tile::AtomicRMWOp>(s.loc(loc), v.getType(), k,
                                                static_cast<tile::MemSemantic>(sem),
                                                static_cast<tile::MemScope>(scope), p, v, m));
}

RawValue dsl::detail::atomicCAS(RawValue ptr, RawValue cmp, RawValue value, Sem sem, Scope scope,
                                Loc loc) {
  TraceState &s = TraceState::current();
  requirePointer(s, ptr, "atomic_cas", false, loc);
  Value p = s.get(ptr, loc);
  Value c = valueFor(s, p, cmp, ptr.dtype, "the compared value", loc);
  Value v = valueFor(s, p, value, ptr.dtype, "the new value", loc);
  return s.wrap(s.b().create<tile::AtomicCASOp>(s.loc(loc), v.getType(),
                                                static_cast<tile::MemSemantic>(sem),
                                                static_cast<tile::MemScope>(scope), p, c, v));
}

/// An i64 scalar from an integer scalar handle.
static Value indexScalar(TraceState &s, const RawValue &v, const char *what, dsl::detail::Loc loc) {
  if (v.kind != ValueKind::tile || !isInt(v.dtype) || v.dtype == DType::i1 || v.shape.rank())
    s.fail(loc, llvm::Twine(what) + " must be integer scalars, got " + describe(v));
  return convert(s.b(), s.loc(loc), s.get(v, loc), s.b().getI64Type());
}

RawValue dsl::detail::makeBlockPtr(RawValue base, const RawValue *shape, const RawValue *strides,
                                   const RawValue *offsets, int rank, const Shape &block,
                                   const int32_t *order, int numOrder, Loc loc) {
  TraceState &s = TraceState::current();
  requirePointer(s, base, "make_block_ptr", false, loc);
  if (base.shape.rank())
    s.fail(loc, llvm::Twine("make_block_ptr needs a scalar base pointer, got ") + describe(base));
  if (rank < 1 || rank > kMaxRank)
    s.fail(loc, llvm::Twine("make_block_ptr: rank ") + llvm::Twine(rank) + " is not in [1, " +
                    llvm::Twine(kMaxRank) + "]");
  if (numOrder != rank)
    s.fail(loc, llvm::Twine("make_block_ptr: order has ") + llvm::Twine(numOrder) +
                    " entries for a rank-" + llvm::Twine(rank) + " block");
  Value b = s.get(base, loc);
  SmallVector<Value, 4> sh, st, of;
  for (int i = 0; i < rank; ++i) {
    sh.push_back(indexScalar(s, shape[i], "make_block_ptr shape entries", loc));
    st.push_back(indexScalar(s, strides[i], "make_block_ptr strides", loc));
    of.push_back(indexScalar(s, offsets[i], "make_block_ptr offsets", loc));
  }
  auto blockType = RankedTensorType::get(dims(block), toMlirType(s.getContext(), base.dtype));
  return s.wrap(s.b().create<tile::MakeBlockPtrOp>(s.loc(loc), tile::BlockPtrType::get(blockType),
                                                   b, sh, st, of,
                                                   ArrayRef<int32_t>(order, order + numOrder)));
}

RawValue dsl::detail::advance(RawValue blockPtr, const RawValue *offsets, int n, Loc loc) {
  TraceState &s = TraceState::current();
  if (blockPtr.kind != ValueKind::block_ptr)
    s.fail(loc, llvm::Twine("advance needs a block pointer, got ") + describe(blockPtr));
  if (n != blockPtr.shape.rank())
    s.fail(loc, llvm::Twine("advance: ") + llvm::Twine(n) + " offsets for a rank-" +
                    llvm::Twine(blockPtr.shape.rank()) + " block pointer");
  Value p = s.get(blockPtr, loc);
  SmallVector<Value, 4> of;
  for (int i = 0; i < n; ++i)
    of.push_back(indexScalar(s, offsets[i], "advance offsets", loc));
  return s.wrap(s.b().create<tile::AdvanceOp>(s.loc(loc), p.getType(), p, of));
}
