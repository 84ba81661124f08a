//===- TensorMapLoads.cpp - unpipelined TMA loads copied in place ---------===//
//
// The rewrite is in Passes.td. The buffer takes the placement the pipeline would give a stage
// (the 128-byte swizzle along the block's stride-1 dimension), so wgmma reads it in place.
//
//===----------------------------------------------------------------------===//
#include "tessel/NVIDIA/Transforms/Passes.h"

#include "../NVIDIATargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tessel::tile_nv {
#define GEN_PASS_DEF_TILENVTENSORMAPLOADS
#include "tessel/NVIDIA/Transforms/Passes.h.inc"
} // namespace tessel::tile_nv

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct TensorMapLoadsPass : tile_nv::impl::TileNVTensorMapLoadsBase<TensorMapLoadsPass> {
  void runOnOperation() override {
    SmallVector<tile::LoadOp> loads;
    getOperation().walk([&](tile::LoadOp load) {
      if (isa<tile::BlockPtrType>(load.getPtr().getType()) &&
          load.getPtr().getDefiningOp<tile::MakeBlockPtrOp>())
        loads.push_back(load);
    });
    MLIRContext *ctx = &getContext();
    for (tile::LoadOp load : loads) {
      auto block = load.getPtr().getDefiningOp<tile::MakeBlockPtrOp>();
      auto type = cast<RankedTensorType>(load.getType());
      SharedEncodingAttr enc = nvidia::getTensorMapPlacement(block, type);
      if (!enc) {
        load.emitError("this block-pointer load was kept for TMA copies but its box has no "
                       "swizzled placement (a row of at least 32 bytes)");
        return signalPassFailure();
      }
      OpBuilder b(load);
      Location loc = load.getLoc();
      auto bufType = MemDescType::get(ctx, type.getShape(), type.getElementType(), enc);
      Value buffer = b.create<LocalAllocOp>(loc, bufType, IntegerAttr());
      Value barriers = nvidia::createTensorMapBarriers(b, loc, 1);
      auto barType = MemDescType::get(ctx, {1}, b.getI64Type(),
                                      cast<MemDescType>(barriers.getType()).getEncoding());
      Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
      Value barrier = b.create<MemDescIndexOp>(loc, barType, barriers, zero);
      Value always = b.create<arith::ConstantIntOp>(loc, 1, 1);
      nvidia::issueTensorMapCopies(b, loc, {{block, buffer}}, barrier, always);
      b.create<tile_nv::WaitBarrierOp>(loc, barrier, zero);
      b.create<tile_nv::InvalBarrierOp>(loc, barrier);
      // Each layout conversion of the tile reads the buffer in its own layout.
      for (Operation *user : llvm::make_early_inc_range(load->getUsers()))
        if (auto cvt = dyn_cast<ConvertLayoutOp>(user)) {
          OpBuilder ub(cvt);
          cvt.getResult().replaceAllUsesWith(
              ub.create<LocalLoadOp>(cvt.getLoc(), cvt.getType(), buffer).getResult());
          cvt.erase();
        }
      if (!load->use_empty())
        load.getResult().replaceAllUsesWith(b.create<LocalLoadOp>(loc, type, buffer).getResult());
      load.erase();
      if (block->use_empty())
        block.erase();
    }
  }
};

} // namespace
