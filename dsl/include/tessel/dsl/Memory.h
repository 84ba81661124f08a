//===- Memory.h - load, store, atomics, block pointers ----------*- C++ -*-===//
//
// Masks and `other` broadcast to the pointer's shape (a (1, BLOCK_K) mask guards a
// (BLOCK_M, BLOCK_K) tile of pointers); a shape that does not broadcast is an error at the
// user's line. A masked-off lane reads no memory and takes `other`; without `other` its value is
// undefined (the interpreter poisons it). Stored values and `other` must have the pointee type
// (literals adopt it): convert explicitly with cast<T>(x).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_MEMORY_H
#define TESSEL_DSL_MEMORY_H

#include "tessel/dsl/Ptr.h"

namespace tessel::dsl {

namespace detail {
template <DTypeTag T>
RawValue loadRaw(const RawValue &ptr, const RawValue *mask, const Operand *other, LoadHints hints,
                 Loc loc) {
  LoadArgs args;
  args.ptr = ptr;
  args.mask = mask;
  RawValue o;
  if (other) {
    o = other->value(T::dtype);
    args.other = &o;
  }
  args.hints = hints;
  return load(args, loc);
}
inline void storeRaw(const RawValue &ptr, const Operand &value, DType pointee, const RawValue *mask,
                     StoreHints hints, Loc loc) {
  StoreArgs args;
  args.ptr = ptr;
  args.value = value.value(pointee);
  args.mask = mask;
  args.hints = hints;
  store(args, loc);
}
} // namespace detail

/// Loads the (shape of p) values `*p`.
template <DTypeTag T> Tile<T> load(const Ptr<T> &p, LoadHints hints = {}, TESSEL_DSL_LOC) {
  return Tile<T>(detail::loadRaw<T>(p.raw(), nullptr, nullptr, hints, detail::Loc::from(loc)));
}
/// Loads `*p` where `mask` is true; masked-off lanes are undefined.
template <DTypeTag T, DTypeTag M>
Tile<T> load(const Ptr<T> &p, const Tile<M> &mask, LoadHints hints = {}, TESSEL_DSL_LOC) {
  return Tile<T>(detail::loadRaw<T>(p.raw(), &mask.raw(), nullptr, hints, detail::Loc::from(loc)));
}
/// Loads `*p` where `mask` is true and `other` elsewhere: `load(p, cols < n, -inf)`.
template <DTypeTag T, DTypeTag M>
Tile<T> load(const Ptr<T> &p, const Tile<M> &mask, detail::Operand other, LoadHints hints = {},
             TESSEL_DSL_LOC) {
  return Tile<T>(detail::loadRaw<T>(p.raw(), &mask.raw(), &other, hints, detail::Loc::from(loc)));
}
// A load from a tile that is not a pointer: reported at the user's line.
template <DTypeTag T>
Tile<T> load(const Tile<T> &notAPointer, LoadHints hints = {}, TESSEL_DSL_LOC) {
  return Tile<T>(
      detail::loadRaw<T>(notAPointer.raw(), nullptr, nullptr, hints, detail::Loc::from(loc)));
}
template <DTypeTag T, DTypeTag M>
Tile<T> load(const Tile<T> &notAPointer, const Tile<M> &mask, detail::Operand other = 0,
             LoadHints hints = {}, TESSEL_DSL_LOC) {
  return Tile<T>(
      detail::loadRaw<T>(notAPointer.raw(), &mask.raw(), nullptr, hints, detail::Loc::from(loc)));
}

/// Stores `value` (broadcast to p's shape) to `*p`.
template <DTypeTag T>
void store(const Ptr<T> &p, detail::Operand value, StoreHints hints = {}, TESSEL_DSL_LOC) {
  detail::storeRaw(p.raw(), value, T::dtype, nullptr, hints, detail::Loc::from(loc));
}
/// Stores `value` to `*p` where `mask` is true.
template <DTypeTag T, DTypeTag M>
void store(const Ptr<T> &p, detail::Operand value, const Tile<M> &mask, StoreHints hints = {},
           TESSEL_DSL_LOC) {
  detail::storeRaw(p.raw(), value, T::dtype, &mask.raw(), hints, detail::Loc::from(loc));
}
// A store to a tile that is not a pointer: reported at the user's line.
template <DTypeTag T>
void store(const Tile<T> &notAPointer, detail::Operand value, TESSEL_DSL_LOC) {
  detail::storeRaw(notAPointer.raw(), value, T::dtype, nullptr, {}, detail::Loc::from(loc));
}
template <DTypeTag T, DTypeTag M>
void store(const Tile<T> &notAPointer, detail::Operand value, const Tile<M> &mask, TESSEL_DSL_LOC) {
  detail::storeRaw(notAPointer.raw(), value, T::dtype, &mask.raw(), {}, detail::Loc::from(loc));
}

// Atomics: each enabled lane atomically replaces *p with op(*p, value) and returns the old
// value. Defaults: acq_rel ordering at gpu scope.
#define TESSEL_DSL_ATOMIC(NAME, KIND)                                                              \
  template <DTypeTag T>                                                                            \
  Tile<T> NAME(const Ptr<T> &p, detail::Operand value, Sem sem = Sem::acq_rel,                     \
               Scope scope = Scope::gpu, TESSEL_DSL_LOC) {                                         \
    return Tile<T>(detail::atomicRMW(detail::AtomicKind::KIND, p.raw(), value.value(T::dtype),     \
                                     nullptr, sem, scope, detail::Loc::from(loc)));                \
  }                                                                                                \
  template <DTypeTag T, DTypeTag M>                                                                \
  Tile<T> NAME(const Ptr<T> &p, detail::Operand value, const Tile<M> &mask,                        \
               Sem sem = Sem::acq_rel, Scope scope = Scope::gpu, TESSEL_DSL_LOC) {                 \
    return Tile<T>(detail::atomicRMW(detail::AtomicKind::KIND, p.raw(), value.value(T::dtype),     \
                                     &mask.raw(), sem, scope, detail::Loc::from(loc)));            \
  }
TESSEL_DSL_ATOMIC(atomic_add, add)
TESSEL_DSL_ATOMIC(atomic_max, max)
TESSEL_DSL_ATOMIC(atomic_min, min)
TESSEL_DSL_ATOMIC(atomic_umax, umax)
TESSEL_DSL_ATOMIC(atomic_umin, umin)
TESSEL_DSL_ATOMIC(atomic_and, bit_and)
TESSEL_DSL_ATOMIC(atomic_or, bit_or)
TESSEL_DSL_ATOMIC(atomic_xor, bit_xor)
TESSEL_DSL_ATOMIC(atomic_xchg, xchg)
#undef TESSEL_DSL_ATOMIC

/// Waits for every thread of the program; afterwards its loads see what it stored before (the
/// elements of a tile belong to different threads on a GPU). Needed between a store and a load
/// of the same addresses, e.g. a row compacted into a workspace and then read back
/// (tile.barrier; Triton's tl.debug_barrier).
inline void barrier(TESSEL_DSL_LOC) { detail::barrier(detail::Loc::from(loc)); }

/// Atomically `old = *p; if (old == cmp) *p = value;` per lane; returns old.
template <DTypeTag T>
Tile<T> atomic_cas(const Ptr<T> &p, detail::Operand cmp, detail::Operand value,
                   Sem sem = Sem::acq_rel, Scope scope = Scope::gpu, TESSEL_DSL_LOC) {
  return Tile<T>(detail::atomicCAS(p.raw(), cmp.value(T::dtype), value.value(T::dtype), sem, scope,
                                   detail::Loc::from(loc)));
}

/// A block pointer to the `block` window at `offsets` of the tensor at `base` with `shape` and
/// `strides` (in elements); `order` lists dimensions from fastest to slowest varying.
/// `make_block_ptr(a, {M, K}, {stride_am, 1}, {pid_m * BLOCK_M, 0}, {BLOCK_M, BLOCK_K}, {1, 0})`.
template <DTypeTag T>
BlockPtr<T> make_block_ptr(const Ptr<T> &base, std::initializer_list<detail::Operand> shape,
                           std::initializer_list<detail::Operand> strides,
                           std::initializer_list<detail::Operand> offsets, Shape block,
                           std::initializer_list<int32_t> order, TESSEL_DSL_LOC) {
  detail::Loc l = detail::Loc::from(loc);
  detail::RawValue s[kMaxRank], st[kMaxRank], o[kMaxRank];
  auto fill = [](std::initializer_list<detail::Operand> in, detail::RawValue *out) {
    int n = 0;
    for (const detail::Operand &x : in)
      if (n < kMaxRank)
        out[n++] = x.value(DType::i64);
    return static_cast<int>(in.size());
  };
  int rank = fill(shape, s);
  if (fill(strides, st) != rank || fill(offsets, o) != rank || block.rank() != rank)
    detail::fail(l, "make_block_ptr: shape, strides, offsets and block must have one rank");
  return BlockPtr<T>(detail::makeBlockPtr(base.raw(), s, st, o, rank, block, order.begin(),
                                          static_cast<int>(order.size()), l));
}

/// Moves a block pointer by per-dimension element offsets.
template <DTypeTag T>
BlockPtr<T> advance(const BlockPtr<T> &p, std::initializer_list<detail::Operand> offsets,
                    TESSEL_DSL_LOC) {
  detail::RawValue o[kMaxRank];
  int n = 0;
  for (const detail::Operand &x : offsets)
    if (n < kMaxRank)
      o[n++] = x.value(DType::i64);
  return BlockPtr<T>(
      detail::advance(p.raw(), o, static_cast<int>(offsets.size()), detail::Loc::from(loc)));
}

/// Loads the block; lanes outside the tensor along the `boundary_check` dimensions read no
/// memory and take `padding` (zero or NaN).
template <DTypeTag T>
Tile<T> load(const BlockPtr<T> &p, std::initializer_list<int32_t> boundary_check = {},
             Padding padding = Padding::none, LoadHints hints = {}, TESSEL_DSL_LOC) {
  detail::LoadArgs args;
  args.ptr = p.raw();
  args.hints = hints;
  args.boundaryCheck = boundary_check.begin();
  args.numBoundaryCheck = static_cast<int>(boundary_check.size());
  args.padding = padding;
  return Tile<T>(detail::load(args, detail::Loc::from(loc)));
}

/// Stores the block; lanes outside the tensor along the `boundary_check` dimensions are skipped.
template <DTypeTag T>
void store(const BlockPtr<T> &p, const Tile<T> &value,
           std::initializer_list<int32_t> boundary_check = {}, StoreHints hints = {},
           TESSEL_DSL_LOC) {
  detail::StoreArgs args;
  args.ptr = p.raw();
  args.value = value.raw();
  args.hints = hints;
  args.boundaryCheck = boundary_check.begin();
  args.numBoundaryCheck = static_cast<int>(boundary_check.size());
  detail::store(args, detail::Loc::from(loc));
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_MEMORY_H
