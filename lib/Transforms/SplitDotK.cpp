//===- SplitDotK.cpp - dots over K slices of shared-memory operands -------===//
//
// The pipelined loop reads a whole stage of A and B into registers and then multiplies; the
// operand registers add to the accumulator's, and a 128x256 tile spills. Reading and
// multiplying one K slice at a time keeps one slice of operands live. The pass's description
// in Passes.td has the rewrite.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUSPLITDOTK
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// The operand's local_load if it is one, used by `dot` only and in its block.
LocalLoadOp sliceableLoad(Value operand, tile::DotOp dot) {
  auto load = operand.getDefiningOp<LocalLoadOp>();
  if (!load || !load->hasOneUse() || load->getBlock() != dot->getBlock())
    return {};
  return load;
}

/// Splits `dot` into K / slice dots; false when it does not qualify.
bool splitDot(tile::DotOp dot, int64_t slice) {
  auto resultEnc = dot.getType().getEncoding();
  if (!resultEnc || isa<BlockedEncodingAttr>(resultEnc))
    return false; // the FMA fallback reads its operands its own way
  LocalLoadOp la = sliceableLoad(dot.getA(), dot), lb = sliceableLoad(dot.getB(), dot);
  if (!la || !lb)
    return false;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  auto bType = cast<RankedTensorType>(dot.getB().getType());
  if (aType.getRank() != 2 || aType.getElementTypeBitWidth() != 16 ||
      bType.getElementTypeBitWidth() != 16)
    return false;
  int64_t M = aType.getDimSize(0), K = aType.getDimSize(1), N = bType.getDimSize(1);
  if (slice == 0)
    slice = 16;
  if (K <= slice || K % slice != 0)
    return false;

  OpBuilder b(dot);
  Location loc = dot.getLoc();
  MLIRContext *ctx = dot.getContext();
  auto view = [&](LocalLoadOp load, ArrayRef<int64_t> shape, ArrayRef<int64_t> offsets) {
    MemDescType src = load.getSrc().getType();
    auto type = MemDescType::get(ctx, shape, src.getElementType(), src.getEncoding());
    Value sub =
        b.create<MemDescSubviewOp>(loc, type, load.getSrc(), b.getDenseI64ArrayAttr(offsets));
    auto tensor = cast<RankedTensorType>(load.getType());
    return b.create<LocalLoadOp>(
        loc, RankedTensorType::get(shape, tensor.getElementType(), tensor.getEncoding()), sub);
  };
  Value acc = dot.getC();
  for (int64_t k = 0; k < K; k += slice) {
    Value a = view(la, {M, slice}, {0, k});
    Value bk = view(lb, {slice, N}, {k, 0});
    Operation *part = b.clone(*dot);
    part->setOperands({a, bk, acc});
    acc = part->getResult(0);
  }
  dot.replaceAllUsesWith(acc);
  dot.erase();
  la.erase();
  lb.erase();
  return true;
}

struct TileGPUSplitDotKPass : public tessel::impl::TileGPUSplitDotKBase<TileGPUSplitDotKPass> {
  using TileGPUSplitDotKBase::TileGPUSplitDotKBase;

  void runOnOperation() override {
    if (kSlice < 0 || (kSlice & (kSlice - 1))) {
      getOperation().emitError()
          << "tile-gpu-split-dot-k: k-slice must be 0 or a power of two, got " << kSlice;
      return signalPassFailure();
    }
    SmallVector<tile::DotOp> dots;
    getOperation().walk([&](tile::DotOp dot) { dots.push_back(dot); });
    for (tile::DotOp dot : dots)
      splitDot(dot, kSlice);
  }
};

} // namespace
