//===- WarpgroupDot.cpp - tile.dot onto Hopper's wgmma --------------------===//
//
// The rewrite is in Passes.td. An operand already in shared memory in the hardware-swizzled
// placement (the pipelined ring's stage) is read where it is; any other operand is stored to a
// new buffer in that placement, along the contiguous dimension of the layout it comes from.
// Operands written by ordinary stores or cp.async get a proxy fence; rings that only bulk tensor
// copies (TMA) write need none.
//
//===----------------------------------------------------------------------===//
#include "tessel/NVIDIA/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tessel::tile_nv {
#define GEN_PASS_DEF_TILENVWARPGROUPDOT
#include "tessel/NVIDIA/Transforms/Passes.h.inc"
} // namespace tessel::tile_nv

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

bool isHardwareSwizzled(MemDescType t) {
  auto enc = dyn_cast_if_present<SharedEncodingAttr>(t.getEncoding());
  return enc && enc.getBlockCols() && t.getShape().size() == 2;
}

/// The shared-memory tile operand `opIdx` of `dot` is read from, creating it when the operand is
/// in registers (`stored` is then set). Ops left without uses go to `dead`.
FailureOr<Value> sharedOperand(OpBuilder &b, tile::DotOp dot, unsigned opIdx,
                               SmallVectorImpl<Operation *> &dead, bool &stored) {
  Value v = dot->getOperand(opIdx);
  // (A stage several dots read, as the x block of a fused SwiGLU up-projection, is read by each
  // where it is; the local_load goes once no other op uses it.)
  if (auto load = v.getDefiningOp<LocalLoadOp>();
      load && isHardwareSwizzled(load.getSrc().getType()) &&
      !load.getSrc().getDefiningOp<MemDescSubviewOp>()) {
    dead.push_back(load);
    return load.getSrc();
  }
  Value src = v;
  if (auto cvt = v.getDefiningOp<ConvertLayoutOp>()) {
    src = cvt.getSrc();
    if (cvt->hasOneUse())
      dead.push_back(cvt);
  }
  auto type = cast<RankedTensorType>(src.getType());
  // Along the contiguous dimension of the source's layout, else K-major.
  SmallVector<unsigned> order =
      opIdx == 0 ? SmallVector<unsigned>{1, 0} : SmallVector<unsigned>{0, 1};
  if (auto blocked = dyn_cast_if_present<BlockedEncodingAttr>(type.getEncoding()))
    order.assign(blocked.getOrder().begin(), blocked.getOrder().end());
  MLIRContext *ctx = dot.getContext();
  unsigned bits = type.getElementTypeBitWidth();
  SharedEncodingAttr enc = getMmaSwizzledSharedEncoding(ctx, type.getShape(), order, bits);
  if (!enc)
    enc = getMmaSwizzledSharedEncoding(ctx, type.getShape(), {order[1], order[0]}, bits);
  if (!enc)
    return dot.emitError() << "operand " << opIdx << " of shape "
                           << tile::shapeToString(type.getShape())
                           << " has no wgmma shared-memory placement (a row of at least 32 "
                              "bytes along M, N or K)";
  Location loc = dot.getLoc();
  auto alloc = b.create<LocalAllocOp>(
      loc, MemDescType::get(ctx, type.getShape(), type.getElementType(), enc), IntegerAttr());
  b.create<LocalStoreOp>(loc, src, alloc);
  stored = true;
  return Value(alloc);
}

/// The result's columns before its padding (tile-gpu-pad-shapes' logical shape on the dot),
/// when it has some: the wgmma instructions stop there (valid_n).
IntegerAttr validColumns(tile::DotOp dot) {
  auto logical = dot->getAttrOfType<DenseI64ArrayAttr>(TileGPUDialect::getLogicalShapeAttrName());
  int64_t n = dot.getType().getDimSize(1);
  if (!logical || logical.size() != 2 || logical[1] >= n)
    return {};
  return IntegerAttr::get(IntegerType::get(dot.getContext(), 64), logical[1]);
}

/// Lets `wait` (of the dot `wg` in a loop, accumulating into an iteration argument) keep one
/// group in flight across iterations: true when the loop writes the operands' rings only into
/// stages other than the one read and the one read the iteration before, so that the
/// iteration-ahead copies never overwrite what the previous, unfinished, wgmma reads. The loop
/// result then waits for the last group after the loop.
bool keepOneGroupInFlight(tile_nv::WarpgroupDotOp wg, tile_nv::WarpgroupDotWaitOp wait) {
  auto loop = dyn_cast<scf::ForOp>(wg->getParentOp());
  Value result = wait.getOutputs()[0];
  if (!loop || !result.hasOneUse() || !isa<scf::YieldOp>(*result.getUsers().begin()))
    return false;
  unsigned i = result.getUses().begin()->getOperandNumber();
  // The accumulator registers are in flight between iterations: nothing else may read them.
  if (wg.getC() != loop.getRegionIterArgs()[i] || !wg.getC().hasOneUse())
    return false;
  std::optional<RingStage> ra = getRingStage(wg.getA()), rb = getRingStage(wg.getB());
  if (!ra || !rb || !ra->known || !rb->known || !ra->x || ra->x != rb->x)
    return false;
  bool safe = true;
  loop.getBody()->walk([&](Operation *op) {
    Value dst;
    if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op))
      dst = copy.getDst();
    else if (auto tma = dyn_cast<tile_nv::AsyncTMACopyGlobalToLocalOp>(op))
      dst = tma.getDst();
    else if (auto store = dyn_cast<LocalStoreOp>(op))
      dst = store.getDst();
    else
      return;
    for (const RingStage &read : {*ra, *rb}) {
      std::optional<RingStage> w = getRingStage(dst);
      if (!w || !w->known) {
        safe = false; // a write we cannot place
        return;
      }
      if (w->ring != read.ring)
        continue;
      int64_t d = ((w->c - read.c) % read.stages + read.stages) % read.stages;
      if (w->x != read.x || d == 0 || d == read.stages - 1)
        safe = false;
    }
  });
  if (!safe)
    return false;
  wait.setPendings(1);
  OpBuilder b = OpBuilder::atBlockEnd(loop->getBlock());
  b.setInsertionPointAfter(loop);
  Value out = loop.getResult(i);
  auto last = b.create<tile_nv::WarpgroupDotWaitOp>(wait.getLoc(), TypeRange{out.getType()},
                                                    ValueRange{out}, 0);
  out.replaceAllUsesExcept(last.getOutputs()[0], last);
  return true;
}

/// Whether every write to the ring `memdesc` is a stage of comes from bulk tensor copies, which
/// write through the asynchronous proxy that wgmma reads through: no proxy fence is needed.
bool writtenOnlyByTensorCopies(Value memdesc) {
  std::optional<RingStage> stage = getRingStage(memdesc);
  if (!stage)
    return false;
  for (Operation *index : stage->ring->getUsers())
    for (Operation *user : index->getUsers())
      if (isa<LocalStoreOp, AsyncCopyGlobalToLocalOp>(user))
        return false;
  return true;
}

struct WarpgroupDotPass : tile_nv::impl::TileNVWarpgroupDotBase<WarpgroupDotPass> {
  void runOnOperation() override {
    SmallVector<tile::DotOp> dots;
    getOperation().walk([&](tile::DotOp dot) {
      auto mma = dyn_cast_if_present<MmaEncodingAttr>(dot.getType().getEncoding());
      if (mma && mma.getVersionMajor() == 3)
        dots.push_back(dot);
    });
    for (tile::DotOp dot : dots) {
      OpBuilder b(dot);
      SmallVector<Operation *> dead;
      bool stored = false;
      FailureOr<Value> a = sharedOperand(b, dot, 0, dead, stored);
      if (failed(a))
        return signalPassFailure();
      FailureOr<Value> bb = sharedOperand(b, dot, 1, dead, stored);
      if (failed(bb))
        return signalPassFailure();
      Location loc = dot.getLoc();
      // The writers fence before the barrier that tile-gpu-insert-barriers puts ahead of the
      // first read: after the operand stores made here (right before the dot: the barrier comes
      // between), else right after this thread's cp.async writes are complete (the last
      // async_wait before the dot in its block).
      OpBuilder fb(dot);
      for (Operation *p = dot->getPrevNode(); p && !stored; p = p->getPrevNode())
        if (isa<AsyncWaitOp>(p)) {
          fb.setInsertionPointAfter(p);
          break;
        }
      if (stored || !writtenOnlyByTensorCopies(*a) || !writtenOnlyByTensorCopies(*bb))
        fb.create<tile_nv::FenceAsyncSharedOp>(loc);
      auto wg = b.create<tile_nv::WarpgroupDotOp>(loc, dot.getType(), *a, *bb, dot.getC(),
                                                  validColumns(dot));
      auto wait = b.create<tile_nv::WarpgroupDotWaitOp>(loc, TypeRange{dot.getType()},
                                                        ValueRange{wg.getD()}, 0);
      dot.getD().replaceAllUsesWith(wait.getOutputs()[0]);
      dot.erase();
      for (Operation *op : dead)
        if (op->use_empty())
          op->erase();
      keepOneGroupInFlight(wg, wait);
    }
  }
};

} // namespace
