//===- TileGPUDialect.cpp - tile_gpu dialect, attributes and ops ----------===//
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessel::tile_gpu;

#include "tessel/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

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
    return emitError() << "blocked layout lists must all have the rank (" << rank
                       << ") as length";
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

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        unsigned dim, Attribute parent) {
  std::optional<LayoutView> view = getLayoutView(parent);
  if (!view)
    return emitError() << "slice parent must be a blocked or slice layout, got " << parent;
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
