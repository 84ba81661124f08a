//===- TileNVDialect.cpp - tile_nv dialect and ops ------------------------===//
#include "tessel/NVIDIA/Dialect/TileNV.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_nv;

#include "tessel/NVIDIA/Dialect/TileNVDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tessel/NVIDIA/Dialect/TileNVOps.cpp.inc"

void TileNVDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tessel/NVIDIA/Dialect/TileNVOps.cpp.inc"
      >();
}

LogicalResult WarpgroupDotOp::verify() {
  tile_gpu::MemDescType a = getA().getType(), b = getB().getType();
  auto c = cast<RankedTensorType>(getC().getType());
  if (c != getD().getType())
    return emitOpError("C and D must have the same type");
  if (a.getShape().size() != 2 || b.getShape().size() != 2 || c.getRank() != 2)
    return emitOpError("A, B and C must be 2-D");
  int64_t M = a.getShape()[0], K = a.getShape()[1], N = b.getShape()[1];
  if (b.getShape()[0] != K || c.getDimSize(0) != M || c.getDimSize(1) != N)
    return emitOpError() << "shapes do not form (M, K) x (K, N) -> (M, N): " << a << ", " << b
                         << ", " << c;
  Type elem = a.getElementType();
  if (elem != b.getElementType() || !(elem.isF16() || elem.isBF16()))
    return emitOpError("A and B must both be f16 or both bf16");
  if (!c.getElementType().isF32())
    return emitOpError("accumulates in f32");
  auto mma = dyn_cast_if_present<tile_gpu::MmaEncodingAttr>(c.getEncoding());
  if (!mma || mma.getVersionMajor() != 3)
    return emitOpError("C must be in an mma version 3 (wgmma) layout");
  if (K % 16 != 0)
    return emitOpError() << "K = " << K << " is not a multiple of wgmma's K step (16)";
  if (std::optional<int64_t> valid = getValidN(); valid && (*valid < 1 || *valid > N))
    return emitOpError() << "valid_n = " << *valid << " is outside the " << N << " columns of D";
  for (tile_gpu::MemDescType t : {a, b}) {
    auto enc = dyn_cast_if_present<tile_gpu::SharedEncodingAttr>(t.getEncoding());
    if (!enc || !enc.getBlockCols() || enc.getOrder().size() != 2)
      return emitOpError() << "operands must be in a hardware-swizzled placement "
                              "(#tile_gpu.shared with blockCols), not "
                           << t;
    // wgmma applies its own swizzle: the placement must be one it reads (rows of 128, 64 or
    // 32 bytes, 16-byte groups XORed with the row's phase, no padding, whole blocks).
    unsigned bytes = elem.getIntOrFloatBitWidth() / 8;
    int64_t rowBytes = int64_t(enc.getBlockCols()) * bytes;
    int64_t cols = t.getShape()[enc.getOrder()[0]];
    if ((rowBytes != 128 && rowBytes != 64 && rowBytes != 32) || enc.getVec() * bytes != 16 ||
        enc.getPerPhase() != 128 / rowBytes || enc.getMaxPhase() != rowBytes / 16 ||
        enc.getPad() != 0 || cols % enc.getBlockCols() != 0)
      return emitOpError() << "operand placement " << enc << " is not a swizzle wgmma reads for "
                           << t << " (e.g. "
                           << tile_gpu::getMmaSwizzledSharedEncoding(getContext(), t.getShape(),
                                                                     enc.getOrder(),
                                                                     elem.getIntOrFloatBitWidth())
                           << ")";
  }
  return success();
}

/// One 8-byte mbarrier: a memdesc of one i64.
static LogicalResult verifyBarrier(Operation *op, tile_gpu::MemDescType t) {
  if (!t.getElementType().isInteger(64) || t.getShape().size() != 1 || t.getShape()[0] != 1)
    return op->emitOpError() << "barrier must be one i64 in shared memory (a stage of a ring "
                                "memdesc<S x 1 x i64>), not "
                             << t;
  return success();
}

LogicalResult InitBarrierOp::verify() {
  if (getCount() < 1)
    return emitOpError("expects at least one arrival");
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult SetMaxNRegOp::verify() {
  if (getRegs() < 24 || getRegs() > 256 || getRegs() % 8 != 0)
    return emitOpError() << "register count must be a multiple of 8 in [24, 256], got "
                         << getRegs();
  return success();
}

LogicalResult InvalBarrierOp::verify() { return verifyBarrier(*this, getBarrier().getType()); }

/// The maps operand, coordinates and swizzled box shared by both directions of TMA copies;
/// `rows` is set to the box's outer dimension.
static LogicalResult verifyTensorMapCopy(Operation *op, Value maps, size_t numCoords,
                                         tile_gpu::MemDescType box, StringRef role, int64_t &rows) {
  auto mapsType = cast<tile::PtrType>(maps.getType());
  if (mapsType.getAddressSpace() != 0 || !mapsType.getPointeeType().isInteger(8))
    return op->emitOpError() << "expects the kernel's tensor maps as !tile.ptr<i8, 0> (a generic "
                                "pointer: the maps are a kernel parameter), not "
                             << mapsType;
  if (numCoords != box.getShape().size())
    return op->emitOpError() << "expects one coordinate per dimension of the box " << box
                             << ", got " << numCoords;
  auto enc = dyn_cast_if_present<tile_gpu::SharedEncodingAttr>(box.getEncoding());
  if (box.getShape().size() != 2 || !enc || enc.getOrder().size() != 2 || !enc.getBlockCols() ||
      enc.getPad() != 0)
    return op->emitOpError() << role
                             << " must be a 2-D tile in a hardware-swizzled placement "
                                "(#tile_gpu.shared with blockCols), not "
                             << box;
  unsigned bytes = std::max(1u, box.getElementType().getIntOrFloatBitWidth() / 8);
  int64_t rowBytes = int64_t(enc.getBlockCols()) * bytes;
  rows = box.getShape()[enc.getOrder()[1]];
  if (rowBytes != 128 && rowBytes != 64 && rowBytes != 32)
    return op->emitOpError() << "rows of " << rowBytes
                             << " bytes: TMA swizzles rows of 32, 64 or 128";
  if (rows > 256)
    return op->emitOpError() << "a box has at most 256 rows, not " << rows;
  return success();
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (failed(verifyBarrier(*this, getBarrier().getType())))
    return failure();
  int64_t rows = 0;
  if (failed(verifyTensorMapCopy(*this, getMaps(), getCoords().size(), getDst().getType(),
                                 "destination", rows)))
    return failure();
  if (bool(getMulticast()) != bool(getMulticastMapAttr()))
    return emitOpError() << "takes `multicast` with the half box's map, or neither";
  // Each CTA of the pair writes half of the rows; a half must start on a whole swizzle
  // pattern (8 rows) so that both halves land in the placement the full box has.
  if (getMulticast() && rows % 16 != 0)
    return emitOpError() << "a multicast box is split in two halves of whole 8-row swizzle "
                            "patterns: its "
                         << rows << " rows are not a multiple of 16";
  return success();
}

LogicalResult AsyncTMACopyLocalToGlobalOp::verify() {
  int64_t rows = 0;
  tile_gpu::MemDescType src = getSrc().getType();
  if (failed(verifyTensorMapCopy(*this, getMaps(), getCoords().size(), src, "source", rows)))
    return failure();
  // The lowering copies whole column blocks, each from a 1024-byte aligned swizzle atom.
  auto enc = cast<tile_gpu::SharedEncodingAttr>(src.getEncoding());
  int64_t cols = src.getShape()[enc.getOrder()[0]];
  if (cols % enc.getBlockCols() != 0)
    return emitOpError() << "copies whole column blocks of " << enc.getBlockCols()
                         << " elements: " << cols << " columns are not a multiple";
  if (rows % 8 != 0)
    return emitOpError() << "copies whole 8-row swizzle atoms: " << rows
                         << " rows are not a multiple of 8";
  return success();
}
