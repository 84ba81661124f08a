//===- TensorMapStores.cpp - block-pointer stores through TMA -------------===//
//
// The rewrite is in Passes.td; the buffer, fence, barrier and copy are
// nvidia::storeThroughTensorMap's (TensorMaps.cpp).
//
//===----------------------------------------------------------------------===//
#include "tessel/NVIDIA/Transforms/Passes.h"

#include "../NVIDIATargetInfo.h"

namespace tessel::tile_nv {
#define GEN_PASS_DEF_TILENVTENSORMAPSTORES
#include "tessel/NVIDIA/Transforms/Passes.h.inc"
} // namespace tessel::tile_nv

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct TensorMapStoresPass : tile_nv::impl::TileNVTensorMapStoresBase<TensorMapStoresPass> {
  void runOnOperation() override {
    SmallVector<tile::StoreOp> stores;
    getOperation().walk([&](tile::StoreOp store) {
      if (isa<tile::BlockPtrType>(store.getPtr().getType()))
        stores.push_back(store);
    });
    for (tile::StoreOp store : stores) {
      auto block = store.getPtr().getDefiningOp<tile::MakeBlockPtrOp>();
      if (!block) {
        store.emitError("this block-pointer store was kept for a TMA copy but its block pointer "
                        "is not made right before it");
        return signalPassFailure();
      }
      // The value as computed (the accumulator's layout, say): the buffer replaces the
      // conversion to the store's blocked layout.
      Value value = store.getValue();
      auto cvt = value.getDefiningOp<ConvertLayoutOp>();
      if (cvt && cvt->hasOneUse())
        value = cvt.getSrc();
      OpBuilder b(store);
      nvidia::storeThroughTensorMap(b, store.getLoc(), block, value);
      store.erase();
      if (cvt && cvt->use_empty())
        cvt.erase();
      if (block->use_empty())
        block.erase();
    }
  }
};

} // namespace
