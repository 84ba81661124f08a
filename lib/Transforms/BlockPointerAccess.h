//===- BlockPointerAccess.h - the addresses a block-pointer access reads -*- C++ -*-===//
//
// Internal to lib/Transforms (tile-lower-block-pointers): a block pointer as its components,
// i64 scalar arithmetic that folds constants, and the pointer tile and boundary mask of a load
// or store through one.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_TRANSFORMS_BLOCKPOINTERACCESS_H
#define TESSEL_LIB_TRANSFORMS_BLOCKPOINTERACCESS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace tessel {

/// The components of one block pointer.
struct BlockPtrParts {
  mlir::Value base;
  llvm::SmallVector<mlir::Value> shape, strides, offsets;

  unsigned rank() const { return shape.size(); }
  llvm::SmallVector<mlir::Value> flat() const {
    llvm::SmallVector<mlir::Value> v = {base};
    llvm::append_range(v, shape);
    llvm::append_range(v, strides);
    llvm::append_range(v, offsets);
    return v;
  }
  static BlockPtrParts fromFlat(mlir::ValueRange v, unsigned rank) {
    BlockPtrParts p;
    p.base = v[0];
    p.shape.assign(v.begin() + 1, v.begin() + 1 + rank);
    p.strides.assign(v.begin() + 1 + rank, v.begin() + 1 + 2 * rank);
    p.offsets.assign(v.begin() + 1 + 2 * rank, v.begin() + 1 + 3 * rank);
    return p;
  }
};

/// i64 scalar arithmetic that folds constants as it builds (wrapping, as the interpreter's).
struct I64Math {
  mlir::OpBuilder &b;
  mlir::Location loc;
  llvm::SmallVectorImpl<mlir::Operation *> &created; // constants, erased if unused in the end

  static std::optional<int64_t> constant(mlir::Value v) {
    llvm::APInt c;
    if (mlir::matchPattern(v, mlir::m_ConstantInt(&c)))
      return c.getSExtValue();
    return std::nullopt;
  }
  mlir::Value get(int64_t v) {
    auto c = b.create<mlir::arith::ConstantIntOp>(loc, v, 64);
    created.push_back(c);
    return c;
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    std::optional<int64_t> cx = constant(x), cy = constant(y);
    if (cx && cy)
      return get(int64_t(uint64_t(*cx) + uint64_t(*cy)));
    if (cy == 0)
      return x;
    if (cx == 0)
      return y;
    return b.create<mlir::arith::AddIOp>(loc, x, y);
  }
  mlir::Value add(mlir::Value x, int64_t c) {
    if (c == 0)
      return x;
    if (std::optional<int64_t> cx = constant(x))
      return get(int64_t(uint64_t(*cx) + uint64_t(c)));
    return b.create<mlir::arith::AddIOp>(loc, x, get(c));
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    std::optional<int64_t> cx = constant(x), cy = constant(y);
    if (cx && cy)
      return get(int64_t(uint64_t(*cx) * uint64_t(*cy)));
    if (cy == 1)
      return x;
    if (cx == 1)
      return y;
    return b.create<mlir::arith::MulIOp>(loc, x, y);
  }
};

/// The pointer tile of an access through the block pointer `p` of block type `block` (the
/// pointers base + sum_d (offset_d + i_d) * stride_d, exact in 64 bits), and its boundary mask
/// over the `checked` dimensions: lane i_d is in bounds when 0 <= offset_d + i_d < shape_d, the
/// interpreter's test (null when no dimension is checked). Constants it creates go to
/// `constants`.
std::pair<mlir::Value, mlir::Value>
blockAccess(mlir::OpBuilder &b, mlir::Location loc, const BlockPtrParts &p,
            mlir::RankedTensorType block, llvm::ArrayRef<int32_t> checked,
            llvm::SmallVectorImpl<mlir::Operation *> &constants);

} // namespace tessel

#endif // TESSEL_LIB_TRANSFORMS_BLOCKPOINTERACCESS_H
