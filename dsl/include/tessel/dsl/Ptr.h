//===- Ptr.h - pointers, block pointers and argument hints ------*- C++ -*-===//
//
// `Ptr<T>` is a pointer to T in global memory, or a tile of such pointers. Pointer arithmetic
// is in elements: `in + row * stride` is a scalar `tile.addptr`; adding a tile of offsets,
// `in + row * stride + cols`, splats the pointer and yields a tile of pointers, so the per-row
// part of an address stays scalar. `BlockPtr<T>` is a structured pointer to a block of a
// strided tensor (make_block_ptr / advance in Memory.h).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_PTR_H
#define TESSEL_DSL_PTR_H

#include "tessel/dsl/Tile.h"

namespace tessel::dsl {

/// Alignment hint of a pointer kernel argument, in bytes: `Ptr<f16, Align<1>>` makes no
/// promise. `Ptr<T>` is `Ptr<T, Align<16>>`: the runtime checks 16-byte alignment at launch.
template <int Bytes> struct Align {
  static_assert(Bytes >= 1 && (Bytes & (Bytes - 1)) == 0, "Align<N>: N must be a power of two");
  static constexpr int bytes = Bytes;
};

template <DTypeTag T, class A = Align<16>> class Ptr;

/// A pointer to T, or a tile of pointers (rank >= 1). Load through it with `load`.
template <DTypeTag T> class Ptr<T, Align<16>> {
public:
  using pointee_type = T;
  static constexpr DType pointee = T::dtype;
  static constexpr int alignment = 16;

  Ptr() = default;
  explicit Ptr(const detail::RawValue &raw) : raw_(raw) {}

  const detail::RawValue &raw() const { return raw_; }
  /// Shape of the tile of pointers; rank 0 for a single pointer.
  const Shape &shape() const { return raw_.shape; }
  int64_t shape(int dim) const { return raw_.shape[dim]; }
  int rank() const { return raw_.shape.rank(); }

  /// `p + offsets`: advance by a signed number of elements (an integer scalar or tile).
  template <DTypeTag U> friend Ptr operator+(detail::At<Ptr> p, const Tile<U> &offset) {
    return Ptr(detail::addptr(p.h.raw(), offset.raw(), p.loc));
  }
  template <std::integral L> friend Ptr operator+(detail::At<Ptr> p, L offset) {
    return Ptr(detail::addptr(p.h.raw(), detail::constInt(offset, DType::i64, p.loc), p.loc));
  }
  template <DTypeTag U> friend Ptr operator-(detail::At<Ptr> p, const Tile<U> &offset) {
    detail::RawValue neg = detail::unary(detail::UnaryOp::neg, offset.raw(), p.loc);
    return Ptr(detail::addptr(p.h.raw(), neg, p.loc));
  }
  template <std::integral L> friend Ptr operator-(detail::At<Ptr> p, L offset) {
    return Ptr(detail::addptr(p.h.raw(), detail::constInt(-offset, DType::i64, p.loc), p.loc));
  }
  friend Ptr &operator+=(Ptr &p, detail::Operand offset) {
    p.raw_ = detail::addptr(p.raw_, offset.value(offset.typeNextTo(DType::i64)), offset.loc);
    return p;
  }

  /// `p(_, None)`: insert unit dimensions, as for tiles.
  Ptr operator()(detail::Subscript a, TESSEL_DSL_LOC) const {
    detail::Subscript s[] = {a};
    return Ptr(detail::subscript(raw_, s, 1, detail::Loc::from(loc)));
  }
  Ptr operator()(detail::Subscript a, detail::Subscript b, TESSEL_DSL_LOC) const {
    detail::Subscript s[] = {a, b};
    return Ptr(detail::subscript(raw_, s, 2, detail::Loc::from(loc)));
  }

protected:
  detail::RawValue raw_;
};

/// A pointer kernel argument with another alignment promise (see Align).
template <DTypeTag T, class A> class Ptr : public Ptr<T, Align<16>> {
public:
  using Ptr<T, Align<16>>::Ptr;
  static constexpr int alignment = A::bytes;
};

/// An `Int` kernel argument whose value is a multiple of N (`tile.divisibility = N`), e.g. a
/// row stride: `IntDiv<16> stride`. The runtime checks it at launch.
template <int N> class IntDiv : public Int {
public:
  static_assert(N >= 1 && (N & (N - 1)) == 0, "IntDiv<N>: N must be a power of two");
  using Int::Int;
  static constexpr int divisibility = N;
};

/// A block pointer: a (block shape) window into an N-D strided tensor of T. Loads and stores
/// through it take a boundary check instead of a mask.
template <DTypeTag T> class BlockPtr {
public:
  using pointee_type = T;
  BlockPtr() = default;
  explicit BlockPtr(const detail::RawValue &raw) : raw_(raw) {}
  const detail::RawValue &raw() const { return raw_; }
  /// The block's shape.
  const Shape &shape() const { return raw_.shape; }

private:
  detail::RawValue raw_;
};

} // namespace tessel::dsl

#endif // TESSEL_DSL_PTR_H
