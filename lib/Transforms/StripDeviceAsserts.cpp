//===- StripDeviceAsserts.cpp - drop device_assert without --debug --------===//
#include "tessel/Transforms/Passes.h"

#include "tessel/Dialect/Tile/IR/Tile.h"

namespace tessel {
#define GEN_PASS_DEF_TILESTRIPDEVICEASSERTS
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;

namespace {
struct TileStripDeviceAssertsPass
    : public tessel::impl::TileStripDeviceAssertsBase<TileStripDeviceAssertsPass> {
  void runOnOperation() override {
    getOperation().walk([](tessel::tile::AssertOp op) { op.erase(); });
  }
};
} // namespace
