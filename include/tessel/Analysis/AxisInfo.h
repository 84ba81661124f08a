//===- AxisInfo.h - contiguity, divisibility, constancy of tiles -*- C++ -*-===//
//
// For every integer or pointer value of a kernel, per dimension:
//   contiguity  C: the value is made of runs of C consecutive integers (pointers: consecutive
//                  elements) along the dimension;
//   divisibility D: the first value of each run is a multiple of D (pointers: in bytes);
//   constancy   K: the value is made of runs of K equal values along the dimension.
// Scalars are treated as rank-1 tiles of one element. All three are powers of two except
// constancy, which may equal a dimension's size. The lattice and its transfer functions follow
// Triton's AxisInfo (lib/Analysis/AxisInfo.cpp in triton-lang/triton); it drives vector widths
// of loads and stores and the layout's elements per thread.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_ANALYSIS_AXISINFO_H
#define TESSEL_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::scf {
class ForOp;
} // namespace mlir::scf

namespace tessel {

struct AxisInfo {
  /// Divisibility given to 0 and to values known to be large multiples.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  llvm::SmallVector<int64_t> contiguity, divisibility, constancy;

  unsigned getRank() const { return contiguity.size(); }
  /// The unknown value of a given rank: runs of 1, divisible by 1.
  static AxisInfo pessimistic(unsigned rank);
  /// A value equal everywhere, divisible by `div`, of the given shape (empty for a scalar).
  static AxisInfo uniform(llvm::ArrayRef<int64_t> shape, int64_t div);
  bool operator==(const AxisInfo &o) const {
    return contiguity == o.contiguity && divisibility == o.divisibility && constancy == o.constancy;
  }
  void print(llvm::raw_ostream &os) const;
};

/// Runs once over a function (walking ops in order; scf.for induction variables get the
/// divisibility of their bounds and step; loop-carried values get what holds for the init
/// value and every yielded value, found by iterating the loop body to a fixpoint).
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(mlir::Operation *funcOp);
  /// Info of an integer, index, i1 or pointer value (scalar or tile); pessimistic for values
  /// the analysis knows nothing about.
  AxisInfo get(mlir::Value v) const;

  /// Largest number of elements along dimension `dim` that one vector access through the tile
  /// of pointers `ptr` (element `elemBytes` bytes wide) may cover, given a mask (or null): the
  /// minimum of contiguity, alignment and mask constancy, capped at `maxBytes`.
  unsigned getVectorWidth(mlir::Value ptr, mlir::Value mask, unsigned dim, unsigned elemBytes,
                          unsigned maxBytes = 16) const;

private:
  void visit(mlir::Operation *op);
  void visitLoopCarried(mlir::scf::ForOp forOp);
  llvm::DenseMap<mlir::Value, AxisInfo> infos;
};

/// Largest power of two dividing `v` (kMaxDivisibility for 0).
int64_t highestPowerOf2Divisor(int64_t v);

} // namespace tessel

#endif // TESSEL_ANALYSIS_AXISINFO_H
