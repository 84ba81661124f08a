//===- Utility.h - helpers of the TileGPU to LLVM lowering ------*- C++ -*-===//
//
// Public so that the adapters under third_party/<vendor> build their own patterns (dot, async
// copies) from the same pieces as the shared lowering.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_CONVERSION_TILEGPUTOLLVM_UTILITY_H
#define TESSEL_CONVERSION_TILEGPUTOLLVM_UTILITY_H

#include "tessel/Conversion/TileGPUToLLVM/TileGPUToLLVM.h"
#include "tessel/Dialect/TileGPU/IR/LinearLayout.h"

namespace tessel {

class AxisInfoAnalysis;

/// AxisInfo of every kernel, computed before the conversion rewrites anything; patterns look
/// up the original (not yet replaced) values of the op they convert.
struct AxisInfoMap {
  /// By kernel name: a kernel's body moves into its llvm.func during the conversion.
  llvm::StringMap<std::unique_ptr<AxisInfoAnalysis>> perFunc;
  const AxisInfoAnalysis *lookup(mlir::Operation *op) const;
};

mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
mlir::Value i64Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
mlir::Value i1Const(mlir::OpBuilder &b, mlir::Location loc, bool v);

/// The elements of an LLVM struct value.
llvm::SmallVector<mlir::Value> unpackStruct(mlir::OpBuilder &b, mlir::Location loc,
                                            mlir::Value structValue);
/// An LLVM struct of type `structType` holding `elems`.
mlir::Value packStruct(mlir::OpBuilder &b, mlir::Location loc, mlir::Type structType,
                       mlir::ValueRange elems);
/// Replaces `op` by one LLVM struct per result, packed from `elemsOf(i)`: this thread's
/// elements of result i, asked for in result order.
void replaceOpWithStructs(mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
                          const mlir::TypeConverter &converter,
                          llvm::function_ref<llvm::SmallVector<mlir::Value>(unsigned)> elemsOf);

/// A pattern that emits through the target and takes shared-memory scratch (reductions,
/// scans), tried before the elementwise patterns.
template <typename OpT> struct ScratchPattern : public mlir::ConvertOpToLLVMPattern<OpT> {
  ScratchPattern(mlir::LLVMTypeConverter &c, const TargetInfo &target, SharedMemoryPlan &shared)
      : mlir::ConvertOpToLLVMPattern<OpT>(c, /*benefit=*/10), target(target), shared(shared) {}
  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

/// Per-thread position in a root blocked layout: lane and warp components per root dimension
/// and the base index base_k = sizePerThread_k * (lane_k + threadsPerWarp_k * warp_k).
struct ThreadPosition {
  mlir::Value tid, lane, warp;
  llvm::SmallVector<mlir::Value> laneComp, warpComp, base;
};
ThreadPosition emitThreadPosition(mlir::OpBuilder &b, mlir::Location loc, const TargetInfo &target,
                                  tile_gpu::BlockedEncodingAttr root);

/// Index (i32, one per tensor dimension) of every element the thread holds, in ThreadElems
/// order. Requires power-of-two dimensions.
llvm::SmallVector<llvm::SmallVector<mlir::Value>> emitIndices(mlir::OpBuilder &b,
                                                              mlir::Location loc,
                                                              const TargetInfo &target,
                                                              const tile_gpu::ThreadElems &te);

/// Index (i32, one per dimension) of every element the thread holds of a tile in any
/// distributed layout (blocked, slice, mma, mfma, dot_op), in the order of its LLVM struct.
llvm::SmallVector<llvm::SmallVector<mlir::Value>> emitIndices(mlir::OpBuilder &b,
                                                              mlir::Location loc,
                                                              const TargetInfo &target,
                                                              mlir::RankedTensorType type);

/// Per dimension, the lane and warp part of a thread's coordinates in `ll`: the XOR of the
/// bases of the set bits of `lane` and `warp` (i32). A register's coordinates are these XOR its
/// register part; when LinearLayout::registersDisjointFromThreads, also their sum.
llvm::SmallVector<mlir::Value> emitThreadCoords(mlir::OpBuilder &b, mlir::Location loc,
                                                const tile_gpu::LinearLayout &ll, mlir::Value lane,
                                                mlir::Value warp);

/// Registers per vector access of `type`'s elements (`bytes` each) along dimension `dim`: runs
/// of consecutive registers holding consecutive elements, each starting at a multiple of the
/// run (no other register, lane or warp basis moves `dim` by less), at most 16 bytes. 1 when
/// the layout has no linear form.
unsigned vectorRun(mlir::RankedTensorType type, unsigned bytes, unsigned dim);

/// Stores `elems` (consecutive elements of one type) at `addr` as one access of their total
/// size, aligned to it (a plain store for one element).
void storeVector(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange elems, mlir::Value addr);
/// Loads `n` consecutive elements of `elem` from `addr` as one access of their total size,
/// aligned to it, and appends them to `out`.
void loadVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Type elem, unsigned n,
                mlir::Value addr, llvm::SmallVectorImpl<mlir::Value> &out);

/// Lane and warp ids of the executing thread (i32); the thread id too when `threadId` is set.
std::pair<mlir::Value, mlir::Value> emitLaneAndWarp(mlir::OpBuilder &b, mlir::Location loc,
                                                    const TargetInfo &target,
                                                    mlir::Value *threadId = nullptr);

/// Per element: true when this thread is the one that owns it (its un-wrapped index lies in the
/// tensor and it is lane/warp 0 along sliced dimensions). Stores and atomics use it so that a
/// replicated element is written once. Null entries mean "always".
llvm::SmallVector<mlir::Value> emitOwnership(mlir::OpBuilder &b, mlir::Location loc,
                                             const TargetInfo &target,
                                             const tile_gpu::ThreadElems &te);

/// Whether a float atomic max / min on `elem` (f32, f64) that `target` has no instruction for
/// lowers through its integer atomics (emitFloatMinMaxAtomic).
bool lowersFloatMinMaxThroughIntegers(const TargetInfo &target, tile::RMWKind kind,
                                      mlir::Type elem);

/// Float atomic max / min through integer atomics, ordered as arith.maximumf / minimumf (-0 <
/// +0, NaN wins), as Triton lowers them: non-negative floats order as signed integers, negative
/// ones in reverse as unsigned integers. max: a non-negative operand takes a signed integer max,
/// a negative one an unsigned min; min the mirror image. A NaN operand is stored as the NaN that
/// wins every later comparison of the same kind (max: 0x7fff..., min: 0xffff...); a NaN stored
/// by other means with the opposite sign may be replaced. Both atomics are issued, each
/// predicated on the operand's sign and `pred`; returns the old value (float).
mlir::Value emitFloatMinMaxAtomic(mlir::OpBuilder &b, mlir::Location loc, const TargetInfo &target,
                                  tile::RMWKind kind, mlir::Value ptr, mlir::Value value,
                                  mlir::Value pred, tile::MemSemantic sem, tile::MemScope scope);

/// `a && b` where either may be null (meaning true).
mlir::Value andPred(mlir::OpBuilder &b, mlir::Location loc, mlir::Value a, mlir::Value b2);

/// Pointer to byte `offset` of the kernel's dynamic shared memory.
mlir::Value sharedMemoryPtr(mlir::OpBuilder &b, mlir::Location loc, const TargetInfo &target,
                            unsigned offset);

/// Element offset (i32) of element (row, col) of a 2-D tile placed in shared memory by `enc`
/// (#tile_gpu.shared): `col` runs along the contiguous dimension enc.order[0] (C = its extent,
/// plus pad, elements per row), `row` along the other one:
///   row * (C + pad) + ((col / vec) ^ ((row / perPhase) % maxPhase)) * vec + col % vec.
mlir::Value sharedElemOffset(mlir::OpBuilder &b, mlir::Location loc,
                             tile_gpu::SharedEncodingAttr enc, llvm::ArrayRef<int64_t> shape,
                             mlir::Value row, mlir::Value col);

/// A shared-memory tile seen through tile_gpu.memdesc_subview: the shape of the tile the views
/// start from (its row length and swizzle place every element) and the view's offset in it,
/// per dimension (zeros for a tile that is not a view).
struct SharedView {
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<int64_t> offsets;
  static SharedView of(mlir::Value memdesc);
};

/// sharedElemOffset of element (row, col) of a view: (row, col) + the view's offsets, placed
/// in the tile the view starts from.
mlir::Value sharedElemOffset(mlir::OpBuilder &b, mlir::Location loc,
                             tile_gpu::SharedEncodingAttr enc, const SharedView &view,
                             mlir::Value row, mlir::Value col);

/// The function `name` of `type` in `module`, declared (external) at its start on first use.
mlir::LLVM::LLVMFuncOp getOrDeclareFunction(mlir::OpBuilder &b, mlir::ModuleOp module,
                                            llvm::StringRef name,
                                            mlir::LLVM::LLVMFunctionType type);

/// A generic pointer to a NUL-terminated constant copy of `text` in `module`: one internal
/// global per text, in address space `addrSpace` (cast to the generic space when not 0).
mlir::Value addressOfString(mlir::OpBuilder &b, mlir::Location loc, mlir::ModuleOp module,
                            llvm::StringRef text, unsigned addrSpace = 0);

/// Calls the device-library function `name` (libdevice's __nv_*, ocml's __ocml_*) of
/// `args.size()` operands of `type` returning `type`, declared in `from`'s module on first use.
mlir::Value callDeviceFunction(mlir::OpBuilder &b, mlir::Operation *from, llvm::StringRef name,
                               mlir::Type type, mlir::ValueRange args);

/// Replaces the float op `op` (its converted operands `operands`) by `compute(operands, t)`
/// with t = f32 or f64: f16 and bf16 are widened to f32 and the result rounded back once, as
/// the device libraries have no half-precision entry points. `compute` returns null for a type
/// it cannot take; the op then gets an error naming the type and `targetName`.
mlir::LogicalResult lowerFloatThroughF32(
    mlir::Operation *op, mlir::ValueRange operands, mlir::ConversionPatternRewriter &rewriter,
    llvm::StringRef targetName,
    llvm::function_ref<mlir::Value(llvm::ArrayRef<mlir::Value>, mlir::Type)> compute);

/// Name of the func.func or llvm.func enclosing `op`.
llvm::StringRef enclosingKernelName(mlir::Operation *op);

/// Shuffles a scalar of any type up to 64 bits (split into i32 words).
mlir::Value shuffleXorAny(mlir::OpBuilder &b, mlir::Location loc, const TargetInfo &target,
                          mlir::Value v, unsigned laneMask);

/// Emits the body of a reduce/scan combiner on scalars: returns the yielded values.
llvm::SmallVector<mlir::Value> emitCombine(mlir::OpBuilder &b, mlir::Location loc,
                                           mlir::Region &combiner, mlir::ValueRange acc,
                                           mlir::ValueRange cur);

/// Bytes of a scalar type (pointers: 8) or of a vector of them.
unsigned byteWidth(mlir::Type t);

} // namespace tessel

#endif // TESSEL_CONVERSION_TILEGPUTOLLVM_UTILITY_H
