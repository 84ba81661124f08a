//===- BlockPointerOrders.h - the order each block pointer has --*- C++ -*-===//
//
// Internal to lib/Transforms (tile-lower-block-pointers): the `order` of each make_block_ptr
// follows its value through tile.advance and scf.for / scf.if / scf.while to a fixed point. A
// value that several orders reach has none; a load the adapter keeps as a block-pointer load
// needs one.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_TRANSFORMS_BLOCKPOINTERORDERS_H
#define TESSEL_LIB_TRANSFORMS_BLOCKPOINTERORDERS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace tessel {

class BlockPointerOrders {
public:
  /// The orders of every block-pointer value in `module`.
  explicit BlockPointerOrders(mlir::ModuleOp module);
  /// The order of the block pointer an access goes through; null when it is not one order.
  mlir::DenseI32ArrayAttr orderOf(mlir::Value bp) const;

private:
  /// The `order` a block-pointer value may have: unknown (no make_block_ptr reaches it yet),
  /// one order, or several (conflict).
  struct OrderState {
    mlir::DenseI32ArrayAttr order;
    bool conflict = false;
  };
  /// Joins the order of `src` into `dst`; true when `dst` changed.
  bool join(mlir::Value dst, mlir::Value src);

  llvm::DenseMap<mlir::Value, OrderState> orders;
};

} // namespace tessel

#endif // TESSEL_LIB_TRANSFORMS_BLOCKPOINTERORDERS_H
