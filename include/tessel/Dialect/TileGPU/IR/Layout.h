//===- Layout.h - compile-time math of distributed layouts ------*- C++ -*-===//
//
// Which elements of a tensor a thread holds, in which order, at which compile-time offsets from
// the thread's base index. The lowering adds the run-time part (lane and warp ids); everything
// here is known when compiling.
//
// A tensor of rank r in a blocked layout (or a slice of one) is seen through its root blocked
// layout: tensor dimension i is root dimension keptDims[i]; root dimensions removed by slices
// are replicated (every thread along them holds the same elements).
//
// Along tensor dimension i (root dimension k) a thread holds E_i = sizePerThread[k] *
// ceil(shape[i] / ctaTile[k]) elements; local element l sits at
//   index = (base_k + (l / sizePerThread[k]) * ctaTile[k] + l % sizePerThread[k]) mod shape[i]
// with base_k = sizePerThread[k] * (laneComponent_k + threadsPerWarp[k] * warpComponent_k).
// A thread's elements are numbered with the fastest dimension (root order[0]) innermost, so a
// run of sizePerThread elements along it is consecutive in the numbering and in memory.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIALECT_TILEGPU_IR_LAYOUT_H
#define TESSEL_DIALECT_TILEGPU_IR_LAYOUT_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace tessel::tile_gpu {

class BlockedEncodingAttr;

/// A blocked or slice encoding seen as its root blocked layout.
struct LayoutView {
  BlockedEncodingAttr root;
  /// Root dimension of each tensor dimension.
  llvm::SmallVector<unsigned> keptDims;
  /// Root dimensions removed by slices.
  llvm::SmallVector<unsigned> slicedDims;
};

/// The view of a blocked or slice encoding; nullopt for any other attribute.
std::optional<LayoutView> getLayoutView(mlir::Attribute encoding);

/// The elements one thread holds of a tensor of a given shape in a given layout.
struct ThreadElems {
  LayoutView view;
  llvm::SmallVector<int64_t> shape;
  /// E_i per tensor dimension.
  llvm::SmallVector<unsigned> perDim;
  /// Tensor dimensions from fastest to slowest (the root order restricted to kept dimensions).
  llvm::SmallVector<unsigned> dimOrder;
  unsigned total = 1;

  /// Local multi-index (one entry per tensor dimension) of per-thread element k.
  llvm::SmallVector<unsigned> delinearize(unsigned k) const;
  /// Inverse of delinearize.
  unsigned linearize(llvm::ArrayRef<unsigned> local) const;
  /// Compile-time offset of local element l along tensor dimension i from the thread's base.
  int64_t offset(unsigned i, unsigned l) const;
  /// Number of distinct elements a thread's local indices cover along dimension i
  /// (smaller than perDim[i] when the tensor is narrower than sizePerThread).
  unsigned distinctLocal(unsigned i) const;
  /// Lanes / warps along tensor dimension i that hold distinct data.
  unsigned distinctLanes(unsigned i) const;
  unsigned distinctWarps(unsigned i) const;
};

/// Per-thread elements of a ranked tensor type with a distributed encoding.
std::optional<ThreadElems> getThreadElems(mlir::RankedTensorType type);

/// Stride of root dimension `dim`'s component within a lane id (or warp id): lanes decompose
/// as lane = sum_k component_k * stride_k in the layout's order.
unsigned laneStride(BlockedEncodingAttr layout, unsigned dim);
unsigned warpStride(BlockedEncodingAttr layout, unsigned dim);

/// A blocked layout for a tensor of `shape`: `vec` contiguous elements per thread along the
/// fastest dimension `order[0]`; lanes fill the shape from the fastest dimension; warps fill it
/// in `warpOrder` (put reduced dimensions last there to keep reductions inside a warp).
/// Lanes or warps left over once the shape is covered hold replicas.
BlockedEncodingAttr getDefaultBlocked(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                                      llvm::ArrayRef<unsigned> order, unsigned vec,
                                      unsigned numWarps, unsigned warpSize,
                                      llvm::ArrayRef<unsigned> warpOrder);

/// kWidth of the dot operands of a matrix-unit accumulator layout `parent` for inputs of type
/// `elem`: the K elements one 32-bit register holds (mma: 2 for 16-bit, 1 for tf32) or one
/// lane's operand holds (mfma: 4 for 16-bit, 1 for f32; wmma: 16).
unsigned getDefaultKWidth(mlir::Attribute parent, mlir::Type elem);

/// Warps along M and N for a matrix-unit tile (M, N) whose instruction covers (instrM, instrN):
/// the larger per-warp extent is split first, as long as each warp keeps at least one
/// instruction tile; warps left over replicate. Returns {wm, wn} with wm * wn = numWarps.
std::pair<unsigned, unsigned> chooseWarpsPerCTA(int64_t M, int64_t N, unsigned numWarps,
                                                int64_t instrM, int64_t instrN);

class SharedEncodingAttr;

/// The swizzled shared-memory placement of a 2-D tile whose contiguous dimension is
/// `order[0]` (C = shape[order[0]] elements per row, elements of `elemBits`): vec = 16 bytes of
/// elements, perPhase = max(1, 128 bytes / row bytes) rows share a phase, maxPhase =
/// min(C / vec, 8 / perPhase): 8 consecutive rows read at one column (an ldmatrix matrix, or
/// a column of 16-byte accesses) touch 8 distinct 16-byte bank groups. Rows shorter than one
/// vector are not swizzled.
SharedEncodingAttr getSwizzledSharedEncoding(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                                             llvm::ArrayRef<unsigned> order, unsigned elemBits);

/// The placement Hopper's wgmma (and TMA) read and write with their own swizzle: rows of S =
/// min(128, C * element bytes) bytes (S = 128, 64 or 32: the 128B, 64B, 32B swizzle modes), the
/// contiguous dimension cut into blocks of S bytes (blockCols), 16-byte groups XORed with the
/// row's phase. Null when a row is shorter than 32 bytes.
SharedEncodingAttr getMmaSwizzledSharedEncoding(mlir::MLIRContext *ctx,
                                                llvm::ArrayRef<int64_t> shape,
                                                llvm::ArrayRef<unsigned> order, unsigned elemBits);

} // namespace tessel::tile_gpu

#endif // TESSEL_DIALECT_TILEGPU_IR_LAYOUT_H
