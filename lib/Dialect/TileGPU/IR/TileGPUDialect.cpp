//===- TileGPUDialect.cpp - tile_gpu dialect, attributes and ops ----------===//
#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tessel::tile_gpu;

#include "tessel/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

/// `3x128x64xf16` in !tile_gpu.memdesc<...>.
static ParseResult parseShape(AsmParser &p, SmallVector<int64_t> &shape, Type &elem) {
  if (p.parseDimensionList(shape, /*allowDynamic=*/false, /*withTrailingX=*/true) ||
      p.parseType(elem))
    return failure();
  return success();
}
static void printShape(AsmPrinter &p, ArrayRef<int64_t> shape, Type elem) {
  for (int64_t d : shape)
    p << d << "x";
  p << elem;
}

#define GET_TYPEDEF_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"

namespace {
/// Prints layouts as #blocked, #blocked1, #slice, ... aliases, as Triton's IR does.
struct TileGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceEncodingAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<MfmaEncodingAttr>(attr)) {
      os << "mfma";
      return AliasResult::FinalAlias;
    }
    if (isa<WmmaEncodingAttr>(attr)) {
      os << "wmma";
      return AliasResult::FinalAlias;
    }
    if (isa<DotOperandEncodingAttr>(attr)) {
      os << "dot_op";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  addInterfaces<TileGPUOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessel/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessel/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tessel/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}

unsigned BlockedEncodingAttr::getCTATile(unsigned dim) const {
  return getSizePerThread()[dim] * getThreadsPerWarp()[dim] * getWarpsPerCTA()[dim];
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

unsigned BlockedEncodingAttr::getWarpSize() const {
  unsigned n = 1;
  for (unsigned t : getThreadsPerWarp())
    n *= t;
  return n;
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0 || sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "blocked layout lists must all have the rank (" << rank << ") as length";
  llvm::SmallSet<unsigned, 4> seen;
  for (unsigned d : order)
    if (d >= rank || !seen.insert(d).second)
      return emitError() << "blocked layout order must be a permutation of [0, " << rank << ")";
  for (size_t i = 0; i < rank; ++i)
    if (!llvm::isPowerOf2_32(sizePerThread[i]) || !llvm::isPowerOf2_32(threadsPerWarp[i]) ||
        !llvm::isPowerOf2_32(warpsPerCTA[i]))
      return emitError() << "blocked layout sizes must be powers of two";
  return success();
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned dim,
                                        Attribute parent) {
  // A row or column of a matrix unit's accumulator (rank 2): the epilogue's bias and row
  // statistics next to the dot's result (RemoveLayoutConversions).
  if (mlir::isa<MmaEncodingAttr, MfmaEncodingAttr, WmmaEncodingAttr>(parent)) {
    if (dim >= 2)
      return emitError() << "slice dim " << dim << " is out of range for a rank-2 parent";
    return success();
  }
  std::optional<LayoutView> view = getLayoutView(parent);
  if (!view)
    return emitError() << "slice parent must be a blocked, slice or matrix-unit accumulator "
                          "layout, got "
                       << parent;
  if (dim >= view->keptDims.size())
    return emitError() << "slice dim " << dim << " is out of range for a rank-"
                       << view->keptDims.size() << " parent";
  return success();
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getShape() != dst.getShape() || src.getElementType() != dst.getElementType())
    return emitOpError() << "changes shape or element type: " << src << " to " << dst;
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>())
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
  return {};
}

//===----------------------------------------------------------------------===//
// Matrix-unit layouts
//===----------------------------------------------------------------------===//

static bool allPow2(ArrayRef<unsigned> v) {
  return llvm::all_of(v, [](unsigned x) { return llvm::isPowerOf2_32(x); });
}

LogicalResult MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned versionMajor, ArrayRef<unsigned> warpsPerCTA,
                                      ArrayRef<unsigned> instrShape) {
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "mma layout version " << versionMajor
                       << " is not supported (2: mma.sync m16n8; 3: wgmma m64nN)";
  if (warpsPerCTA.size() != 2 || !allPow2(warpsPerCTA))
    return emitError() << "mma warpsPerCTA must be two powers of two";
  if (versionMajor == 2 && (instrShape.size() != 2 || instrShape[0] != 16 || instrShape[1] != 8))
    return emitError() << "mma version 2 has instrShape = [16, 8]";
  if (versionMajor == 3) {
    if (warpsPerCTA[0] % 4 != 0 || warpsPerCTA[1] != 1)
      return emitError() << "mma version 3 stacks warpgroups along M: warpsPerCTA = [4 * g, 1]";
    if (instrShape.size() != 2 || instrShape[0] != 64 || instrShape[1] % 8 != 0 ||
        instrShape[1] < 8 || instrShape[1] > 256)
      return emitError() << "mma version 3 has instrShape = [64, N] with N a multiple of 8 in "
                            "[8, 256] (wgmma m64nNk16)";
  }
  return success();
}

LogicalResult MfmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       unsigned nonKDim, ArrayRef<unsigned> warpsPerCTA) {
  if (nonKDim != 32 && nonKDim != 16)
    return emitError() << "mfma nonKDim must be 32 or 16, got " << nonKDim;
  if (warpsPerCTA.size() != 2 || !allPow2(warpsPerCTA))
    return emitError() << "mfma warpsPerCTA must be two powers of two";
  return success();
}

LogicalResult WmmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       ArrayRef<unsigned> warpsPerCTA) {
  if (warpsPerCTA.size() != 2 || !allPow2(warpsPerCTA))
    return emitError() << "wmma warpsPerCTA must be two powers of two";
  return success();
}

LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, Attribute parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot_op opIdx must be 0 (A) or 1 (B), got " << opIdx;
  if (!llvm::isa<MmaEncodingAttr, MfmaEncodingAttr, WmmaEncodingAttr>(parent))
    return emitError() << "dot_op parent must be an mma, mfma or wmma layout, got " << parent;
  if (llvm::isa<MmaEncodingAttr>(parent) && kWidth != 1 && kWidth != 2)
    return emitError() << "dot_op of an mma parent has kWidth 2 (16-bit) or 1 (tf32), got "
                       << kWidth;
  if (llvm::isa<MfmaEncodingAttr>(parent) && kWidth != 4 && kWidth != 1)
    return emitError() << "dot_op of an mfma parent has kWidth 4 (16-bit) or 1 (f32), got "
                       << kWidth;
  if (llvm::isa<WmmaEncodingAttr>(parent) && kWidth != 16)
    return emitError() << "dot_op of a wmma parent has kWidth 16 (16-bit), got " << kWidth;
  return success();
}

LogicalResult SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned vec,
                                         unsigned perPhase, unsigned maxPhase,
                                         ArrayRef<unsigned> order, unsigned pad,
                                         unsigned blockCols) {
  size_t rank = order.size();
  llvm::SmallSet<unsigned, 4> seen;
  for (unsigned d : order)
    if (d >= rank || !seen.insert(d).second)
      return emitError() << "shared placement order must be a permutation of [0, " << rank
                         << "), got [" << order << "]";
  if (rank == 0)
    return emitError() << "shared placement order must name at least one dimension";
  // The lowering divides by these and XORs the phase into the column group
  // (TileGPUToLLVM/Utility.cpp, sharedElemOffset); a power of two keeps it inside the row.
  if (!llvm::isPowerOf2_32(vec) || !llvm::isPowerOf2_32(perPhase) || !llvm::isPowerOf2_32(maxPhase))
    return emitError() << "shared placement vec, perPhase and maxPhase must be powers of two, "
                          "got "
                       << vec << ", " << perPhase << ", " << maxPhase;
  if (blockCols && !llvm::isPowerOf2_32(blockCols))
    return emitError() << "shared placement blockCols must be 0 (no blocks) or a power of two, "
                          "got "
                       << blockCols;
  return success();
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType, Attribute encoding) {
  if (shape.empty() || llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "memdesc dimensions must be positive, got " << shape.size()
                       << " dimension(s)";
  if (!elementType.isIntOrFloat())
    return emitError() << "memdesc element type must be an integer or a float, not " << elementType;
  // Shared memory holds at most a few hundred KiB (checked per target by the limit checks);
  // this bound only keeps every size computed from the shape inside int64.
  int64_t bytes = std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  for (int64_t d : shape)
    if (llvm::MulOverflow(bytes, d, bytes) || bytes > (int64_t(1) << 32))
      return emitError() << "memdesc of more than 2^32 bytes";
  auto enc = dyn_cast_if_present<SharedEncodingAttr>(encoding);
  if (!enc)
    return emitError() << "memdesc placement must be a #tile_gpu.shared, not " << encoding;
  size_t tileRank = enc.getOrder().size();
  if (shape.size() != tileRank && shape.size() != tileRank + 1)
    return emitError() << "memdesc of rank " << shape.size() << " with a placement of rank "
                       << tileRank
                       << ": the rank must be the placement's, or one more (a "
                          "leading stage dimension)";
  return success();
}

int64_t MemDescType::getSizeInBytes() const {
  ArrayRef<int64_t> shape = getShape();
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  // Padded placements skew every row (the trailing tile's contiguous dimension) by `pad`.
  if (auto enc = dyn_cast_if_present<SharedEncodingAttr>(getEncoding());
      enc && enc.getPad() && shape.size() >= enc.getOrder().size()) {
    int64_t cols = shape[shape.size() - enc.getOrder().size() + enc.getOrder()[0]];
    n += n / cols * enc.getPad();
  }
  return n * std::max<unsigned>(1, getElementType().getIntOrFloatBitWidth() / 8);
}

std::optional<RingStage> tessel::tile_gpu::getRingStage(Value memdesc) {
  auto index = memdesc.getDefiningOp<MemDescIndexOp>();
  auto ring = index ? index.getSrc().getDefiningOp<LocalAllocOp>() : nullptr;
  if (!ring)
    return std::nullopt;
  RingStage s{ring, Value(), 0, ring.getType().getShape().front()};
  Value idx = index.getIndex();
  APInt cst, m, c;
  if (matchPattern(idx, m_ConstantInt(&cst))) {
    s.c = cst.getSExtValue() % s.stages;
    return s;
  }
  Operation *rem = idx.getDefiningOp();
  if (!isa_and_present<arith::RemUIOp, arith::RemSIOp>(rem) ||
      !matchPattern(rem->getOperand(1), m_ConstantInt(&m)) || m.getSExtValue() != s.stages) {
    s.known = false;
    return s;
  }
  s.x = rem->getOperand(0);
  if (auto add = s.x.getDefiningOp<arith::AddIOp>();
      add && matchPattern(add.getRhs(), m_ConstantInt(&c))) {
    s.x = add.getLhs();
    s.c = c.getSExtValue() % s.stages;
  }
  return s;
}

int64_t MemDescType::getAlignment() const {
  auto enc = dyn_cast_if_present<SharedEncodingAttr>(getEncoding());
  return enc && enc.getBlockCols() ? 1024 : 16;
}

//===----------------------------------------------------------------------===//
// Shared-memory ops
//===----------------------------------------------------------------------===//

LogicalResult MemDescIndexOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getShape().size() != dst.getShape().size() + 1 ||
      src.getShape().drop_front() != dst.getShape() ||
      src.getElementType() != dst.getElementType() || src.getEncoding() != dst.getEncoding())
    return emitOpError() << "result must be one stage of the source: " << src << " -> " << dst;
  return success();
}

LogicalResult MemDescSubviewOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  ArrayRef<int64_t> off = getOffsets();
  if (src.getShape().size() != dst.getShape().size() || off.size() != dst.getShape().size() ||
      src.getElementType() != dst.getElementType() || src.getEncoding() != dst.getEncoding())
    return emitOpError() << "result must be a sub-tile of the source with one offset per "
                            "dimension: "
                         << src << " -> " << dst;
  for (auto [o, n, total] : llvm::zip(off, dst.getShape(), src.getShape()))
    if (o < 0 || o + n > total)
      return emitOpError() << "view " << dst << " at its offsets exceeds the source " << src;
  return success();
}

static LogicalResult checkTileMatchesBuffer(Operation *op, RankedTensorType t, MemDescType m) {
  if (t.getShape() != m.getShape() || t.getElementType() != m.getElementType())
    return op->emitOpError() << "tile " << t << " does not match buffer " << m;
  return success();
}

LogicalResult LocalLoadOp::verify() {
  return checkTileMatchesBuffer(*this, getType(), getSrc().getType());
}

LogicalResult LocalStoreOp::verify() {
  return checkTileMatchesBuffer(*this, getSrc().getType(), getDst().getType());
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto ptr = getPtr().getType();
  auto dst = getDst().getType();
  auto elem = dyn_cast<tessel::tile::PtrType>(ptr.getElementType());
  if (!elem || ptr.getShape() != dst.getShape() || elem.getPointeeType() != dst.getElementType())
    return emitOpError() << "pointers " << ptr << " do not match buffer " << dst;
  if (getMask() && cast<RankedTensorType>(getMask().getType()).getShape() != ptr.getShape())
    return emitOpError() << "mask shape does not match the pointers";
  return success();
}

void tessel::tile_gpu::addScratchHeld(Operation *op, int64_t lo, int64_t hi) {
  SmallVector<std::pair<int32_t, int32_t>> held;
  if (auto old = op->getAttrOfType<DenseI32ArrayAttr>(TileGPUDialect::getScratchHeldAttrName()))
    for (unsigned i = 0; i + 1 < old.size(); i += 2)
      held.push_back({old[i], old[i + 1]});
  held.push_back({int32_t(lo), int32_t(hi)});
  llvm::sort(held);
  SmallVector<int32_t> flat;
  for (auto [l, h] : held)
    flat.append({l, h});
  op->setAttr(TileGPUDialect::getScratchHeldAttrName(),
              DenseI32ArrayAttr::get(op->getContext(), flat));
}

SmallVector<int64_t> tessel::tile_gpu::paddedShape(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> p;
  for (int64_t d : shape)
    p.push_back(int64_t(llvm::PowerOf2Ceil(uint64_t(d))));
  return p;
}

bool tessel::tile_gpu::mayUseScratch(Operation *op) {
  using namespace tessel::tile;
  if (isa<ConvertLayoutOp, ReduceOp, ScanOp, TransOp, ReshapeOp>(op))
    return true;
  // Only the FMA fallback (a blocked result) stages its operands; matrix units do not.
  if (auto dot = dyn_cast<DotOp>(op))
    return !dot.getType().getEncoding() || isa<BlockedEncodingAttr>(dot.getType().getEncoding());
  // Scalar atomics broadcast thread 0's old value through shared memory.
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return !isa<RankedTensorType>(op->getResult(0).getType());
  return false;
}
