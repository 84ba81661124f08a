//===- WarpSpecialize.cpp - a producer warpgroup for the TMA + wgmma loop -===//
//
// The rewrite is in Passes.td. The producer warpgroup comes after the num_warps warps the
// layouts cover, so no layout changes; every thread runs the code before the branch (scalar
// address math, the rings' allocation and the mbarrier inits, then a barrier of all threads).
//
// Registers (setmaxnreg). An SM has 65536 32-bit registers; a CTA of T threads gets T x R at
// launch, R its entry count, which ptxas must know (Codegen.cpp writes `.maxnreg R`; without
// it ptxas ignores setmaxnreg). setmaxnreg moves registers between warpgroups inside that
// allocation, in multiples of 8 per thread in [24, 256], and `inc` waits until the pool has
// them. So with C consumer threads and 128 producer threads (T = C + 128):
//   R        = min(65536 / T rounded down to 8, 248)     one CTA per SM
//   producer = 40                                         TMA issue: addresses and a loop
//   consumer = min(256, (T R - 128 x 40) / C rounded down to 8)
// 2 consumer warpgroups (T = 384): R = 168, consumer = (64512 - 5120) / 256 = 232 (CUTLASS's
// and Triton's numbers); 1 (T = 256): R = 248, consumer = 256.
//
//===----------------------------------------------------------------------===//
#include "tessel/NVIDIA/Transforms/Passes.h"

#include "../NVIDIATargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace tessel::tile_nv {
#define GEN_PASS_DEF_TILENVWARPSPECIALIZE
#include "tessel/NVIDIA/Transforms/Passes.h.inc"
} // namespace tessel::tile_nv

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

static constexpr unsigned kProducerWarps = 4;

nvidia::WarpSpecializedRegisters nvidia::warpSpecializedRegisters(unsigned consumerWarps) {
  unsigned consumers = consumerWarps * 32, threads = consumers + kProducerWarps * 32;
  unsigned entry = std::min(65536u / threads / 8 * 8, 248u);
  unsigned producer = 40;
  unsigned consumer =
      std::min(256u, (threads * entry - kProducerWarps * 32 * producer) / consumers / 8 * 8);
  return {entry, producer, consumer};
}

namespace {

/// The ring of full barriers a bulk-copy op completes on (the local_alloc its stage indexes).
Value ringOf(Value barrier) {
  if (auto index = barrier.getDefiningOp<MemDescIndexOp>())
    return index.getSrc();
  return {};
}

/// The issue number n of a copy into ring stage `index`: `index` is n % stages (the pipeline's
/// remui), or the constant n of a prologue stage; null otherwise.
Value issueNumber(Value index, int64_t stages) {
  if (auto rem = index.getDefiningOp<arith::RemUIOp>()) {
    IntegerAttr modulus;
    return matchPattern(rem.getRhs(), m_Constant(&modulus)) && modulus.getInt() == stages
               ? rem.getLhs()
               : Value();
  }
  return matchPattern(index, m_Constant()) ? index : Value();
}

struct WarpSpecializer {
  func::FuncOp func;
  unsigned numWarps;
  scf::ForOp tileLoop = {}; // a persistent kernel's loop over tiles, around the K loop

  LogicalResult fail(const Twine &why) { return func.emitError() << "warp_specialize: " << why; }

  LogicalResult run() {
    auto numStages = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumStagesAttrName());
    if (!numStages || numStages.getInt() < 2)
      return fail("needs num_stages >= 2: the producer fills a ring of TMA stages that the "
                  "pipeline builds (num_stages = " +
                  Twine(numStages ? numStages.getInt() : 1) + ")");
    // The K loop: a loop of the kernel's body that feeds wgmma, or of the body of its loop
    // over tiles (a persistent kernel, `tileLoop`), whose rings tile-gpu-pipeline set up
    // before that loop.
    scf::ForOp loop;
    auto kLoopIn = [&](Block &block) -> LogicalResult {
      for (auto forOp : block.getOps<scf::ForOp>()) {
        if (forOp.getBody()->getOps<tile_nv::WarpgroupDotOp>().empty())
          continue;
        if (loop)
          return fail("more than one K loop of wgmma dots");
        loop = forOp;
      }
      return success();
    };
    if (failed(kLoopIn(func.getBody().front())))
      return failure();
    for (auto forOp : func.getBody().front().getOps<scf::ForOp>()) {
      if (loop)
        break;
      if (failed(kLoopIn(*forOp.getBody())))
        return failure();
      if (loop)
        tileLoop = forOp;
    }
    if (!loop && func.walk([](tile::DotOp) { return WalkResult::interrupt(); }).wasInterrupted()) {
      // The dot runs on FMA units (f32 with IEEE products): no wgmma for a producer to feed.
      func.emitWarning() << "warp_specialize: ignored in this variant, whose dot does not run "
                            "on wgmma";
      return success();
    }
    if (!loop)
      return fail("needs a K loop whose operands are pipelined TMA copies into a wgmma dot "
                  "(block pointers with a stride-1 dimension, num_stages >= 2, cuda:sm_90a); "
                  "this kernel has none");
    auto waits = loop.getBody()->getOps<tile_nv::WaitBarrierOp>();
    if (waits.empty()) {
      // Operands through pointer tiles: strides this variant does not know to be 1 (the base
      // and __div8 variants of a kernel whose stride-1 twins copy with TMA). The twins are the
      // specialized ones; this variant stays as it is.
      func.emitWarning() << "warp_specialize: ignored in this variant, whose K loop loads its "
                            "operands without TMA (no stride known to be 1: a twin with "
                            "stride-1 dimensions copies with TMA)";
      return success();
    }
    if (loop.getBody()
            ->walk([](Operation *op) {
              return isa<AsyncCopyGlobalToLocalOp, tile::LoadOp>(op) ? WalkResult::interrupt()
                                                                     : WalkResult::advance();
            })
            .wasInterrupted()) {
      // One operand by TMA, the other through cp.async or registers (a padded BLOCK_N of a B
      // contiguous along N: 96 columns are not whole 128-byte boxes): the consumers load it
      // themselves, so a producer could not run ahead. The variant stays as it is.
      func.emitWarning() << "warp_specialize: ignored in this variant, whose K loop loads an "
                            "operand without TMA (its contiguous dimension is not whole "
                            "128-byte column blocks, or no stride of it is known to be 1)";
      return success();
    }
    tile_nv::WaitBarrierOp fullWait = *waits.begin();
    if (numWarps % 4 != 0)
      return fail("num_warps must be a multiple of 4 (whole consumer warpgroups)");
    Value full = ringOf(fullWait.getBarrier());
    auto fullAlloc = full ? full.getDefiningOp<LocalAllocOp>() : nullptr;
    auto waitIndex = fullWait.getBarrier().getDefiningOp<MemDescIndexOp>();
    auto countRem = waitIndex ? waitIndex.getIndex().getDefiningOp<arith::RemUIOp>() : nullptr;
    auto count = countRem ? dyn_cast<BlockArgument>(countRem.getLhs()) : nullptr;
    if (!fullAlloc || !count || count.getOwner() != loop.getBody())
      return fail("needs a K loop whose TMA copies are pipelined into a ring of stages "
                  "(num_stages >= 2); this kernel's copies are waited for in place");
    int64_t stages = fullAlloc.getType().getShape()[0];
    unsigned consumers = numWarps * 32, threads = consumers + kProducerWarps * 32;
    nvidia::WarpSpecializedRegisters regs = nvidia::warpSpecializedRegisters(numWarps);

    // The copies: barrier_expect and the TMA copies on the ring, before the loop (prologue)
    // and in it.
    SmallVector<Operation *> prologue, inLoop;
    Block &top = func.getBody().front();
    Block *kBlock = loop->getBlock(); // the prologue's
    Operation *topLoop = tileLoop ? tileLoop.getOperation() : loop.getOperation();
    WalkResult walk = func.walk([&](Operation *op) {
      if (!isa<tile_nv::BarrierExpectOp, tile_nv::AsyncTMACopyGlobalToLocalOp>(op))
        return WalkResult::advance();
      Value bar = isa<tile_nv::BarrierExpectOp>(op)
                      ? cast<tile_nv::BarrierExpectOp>(op).getBarrier()
                      : cast<tile_nv::AsyncTMACopyGlobalToLocalOp>(op).getBarrier();
      if (ringOf(bar) != full)
        return WalkResult::interrupt();
      if (op->getBlock() == kBlock)
        prologue.push_back(op);
      else if (op->getBlock() == loop.getBody())
        inLoop.push_back(op);
      else
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted() || inLoop.empty())
      return fail("TMA copies outside the pipelined loop's ring");

    // The empty barriers: one per stage, each counting every consumer thread's release, after
    // every buffer (the allocation ran before this pass).
    OpBuilder b(func.getContext());
    Location loc = loop.getLoc();
    int64_t end = 0;
    func.walk([&](LocalAllocOp a) {
      if (auto off = a.getOffsetAttr())
        end = std::max<int64_t>(end, off.getInt() + a.getType().getSizeInBytes());
    });
    b.setInsertionPointAfter(fullAlloc);
    auto emptyAlloc = b.create<LocalAllocOp>(loc, fullAlloc.getType(), IntegerAttr());
    emptyAlloc.setOffset(uint32_t(llvm::alignTo(end, 8)));
    // Scratch the allocator placed past the rings, where the empty ring now lies, moves past
    // it where the ring is still in use: in the K loop, and in a tile loop everywhere (the
    // producer waits on the ring while the consumers' epilogue converts through scratch).
    int64_t pastEmpty =
        llvm::alignTo(*emptyAlloc.getOffset() + emptyAlloc.getType().getSizeInBytes(), 16);
    topLoop->walk([&](Operation *op) {
      auto name = TileGPUDialect::getScratchOffsetAttrName();
      if (auto off = op->getAttrOfType<IntegerAttr>(name))
        op->setAttr(name, IntegerAttr::get(off.getType(), std::max(off.getInt(), pastEmpty)));
    });
    // Elsewhere (the epilogue after the loop) the ring is idle but never invalidated: its bytes
    // stay out of the scratch's way (tile-gpu-allocate-shared-memory's held buffers).
    func.walk([&](Operation *op) {
      if (mayUseScratch(op) && !topLoop->isAncestor(op))
        addScratchHeld(op, *emptyAlloc.getOffset(),
                       *emptyAlloc.getOffset() + emptyAlloc.getType().getSizeInBytes());
    });
    auto stageType = cast<MemDescType>(fullWait.getBarrier().getType());
    auto i32 = [&](OpBuilder &bb, int64_t v) -> Value {
      return bb.create<arith::ConstantIntOp>(loc, v, 32);
    };
    auto emptyStage = [&](OpBuilder &bb, Value index) -> Value {
      return bb.create<MemDescIndexOp>(loc, stageType, emptyAlloc, index);
    };

    // The barrier of all threads after the inits (tile-gpu-insert-barriers put it before the
    // first copy): the empty barriers' inits go before it, the branch after it.
    Operation *ctaBarrier = nullptr;
    for (Operation *op = emptyAlloc->getNextNode(); op && op != topLoop; op = op->getNextNode())
      if (isa<BarrierOp>(op)) {
        ctaBarrier = op;
        break;
      }
    // A tile loop has its barrier before each tile's first copy; the branch needs one before
    // the loop.
    if (!ctaBarrier && tileLoop)
      ctaBarrier = OpBuilder(tileLoop).create<BarrierOp>(loc);
    if (!ctaBarrier ||
        (!tileLoop && !prologue.empty() && !ctaBarrier->isBeforeInBlock(prologue.front())))
      return fail("no barrier between the ring's mbarrier inits and its first copy");
    b.setInsertionPoint(ctaBarrier);
    for (int64_t s = 0; s < stages; ++s)
      b.create<tile_nv::InitBarrierOp>(loc, emptyStage(b, i32(b, s)), consumers);
    b.create<tile_nv::NamedBarrierOp>(loc, 0, threads);
    // Code before the branch runs in the producer's threads too, whose thread ids no layout
    // covers: it may compute, not touch memory.
    for (Operation *op = &top.front(); op != ctaBarrier; op = op->getNextNode()) {
      if (isa<LocalAllocOp, MemDescIndexOp, tile_nv::InitBarrierOp, tile_nv::NamedBarrierOp>(op))
        continue;
      if (!isMemoryEffectFree(op))
        return op->emitError("warp_specialize: this op touches memory before the K loop's "
                             "mbarriers are set up, where the producer warps would run it");
    }

    // if (thread_id >= num_warps * 32) { producer } else { consumers }
    b.setInsertionPointAfter(ctaBarrier);
    Value tid = b.create<tile_nv::ThreadIdOp>(loc, b.getI32Type());
    Value isProducer =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::uge, tid, i32(b, consumers));
    auto branch = b.create<scf::IfOp>(loc, isProducer, /*withElseRegion=*/true);
    Block *consumer = branch.elseBlock();
    for (Operation *op = branch->getNextNode(); op && op != top.getTerminator();) {
      Operation *next = op->getNextNode();
      op->moveBefore(consumer->getTerminator());
      op = next;
    }
    ctaBarrier->erase();

    // Producer: the prologue's copies and the loop's, with what they are computed from.
    Block *producer = branch.thenBlock();
    b.setInsertionPointToStart(producer);
    b.create<tile_nv::SetMaxNRegOp>(loc, regs.producer, /*inc=*/false);
    // One warp runs the producer's loop (its first lane issues the copies). Nothing waits for
    // the other three, so in their copy of the loop they could fall two rounds of the ring
    // behind, where an mbarrier's parity no longer tells the phases apart, and spin forever
    // (the H200 hung so on a persistent kernel's thousands of K steps). The branch is on
    // warp_id, which ptxas knows to be warp-uniform.
    Value warp = b.create<tile_nv::WarpIdOp>(loc, b.getI32Type());
    auto leaderWarp = b.create<scf::IfOp>(
        loc, b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, warp, i32(b, numWarps)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(leaderWarp.thenBlock());
    llvm::SetVector<Operation *> needed;
    std::function<void(Value)> need = [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (!def || (def->getBlock() != consumer && def->getBlock() != kBlock) ||
          needed.contains(def))
        return;
      for (Value operand : def->getOperands())
        need(operand);
      needed.insert(def);
    };
    for (Operation *op : prologue)
      for (Value operand : op->getOperands())
        need(operand);
    for (Value operand : loop->getOperands())
      need(operand);
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(loop.getRegion(), above);
    for (Value v : above)
      need(v);
    if (tileLoop)
      for (Value operand : tileLoop->getOperands())
        need(operand);
    for (Operation *op : needed)
      if (hasEffect<MemoryEffects::Write>(op))
        return op->emitError("warp_specialize: the TMA copies' addresses depend on this op, "
                             "which writes memory: the producer cannot compute them alone");
    needed.insert(prologue.begin(), prologue.end());
    needed.insert(loop);
    IRMapping map;
    scf::ForOp producerLoop;
    for (Operation &op : *consumer) {
      if (tileLoop && &op == tileLoop.getOperation()) {
        // The whole tile loop, then its body cut down to the copies and what they need.
        auto clone = cast<scf::ForOp>(b.clone(op, map));
        SmallVector<std::pair<Operation *, Operation *>> pairs;
        for (auto [orig, copy] : llvm::zip(*kBlock, *clone.getBody()))
          pairs.push_back({&orig, &copy});
        for (auto [orig, copy] : llvm::reverse(pairs)) {
          if (orig == loop.getOperation())
            producerLoop = cast<scf::ForOp>(copy);
          if (needed.contains(orig) || copy->hasTrait<OpTrait::IsTerminator>())
            continue;
          if (!copy->use_empty())
            return orig->emitError("warp_specialize: the TMA copies of the tile loop depend "
                                   "on this op, which the producer cannot run alone");
          copy->erase();
        }
        continue;
      }
      if (needed.contains(&op)) {
        Operation *clone = b.clone(op, map);
        if (&op == loop.getOperation())
          producerLoop = cast<scf::ForOp>(clone);
      }
    }
    if (failed(stripToCopies(producerLoop)))
      return failure();
    unsigned leader = consumers;
    SmallVector<tile_nv::BarrierExpectOp> expects;
    producer->walk([&](Operation *op) {
      if (auto e = dyn_cast<tile_nv::BarrierExpectOp>(op)) {
        e.setLeader(leader);
        expects.push_back(e);
      } else if (auto c = dyn_cast<tile_nv::AsyncTMACopyGlobalToLocalOp>(op)) {
        c.setLeader(leader);
      }
    });
    // Before filling stage n % S, wait until the consumers released it: the empty barrier's
    // phase (n / S) - 1 has completed. Parity (n / S + 1) & 1; in the first round (n < S) that
    // is the phase before the barrier's first, which counts as complete.
    for (tile_nv::BarrierExpectOp e : expects) {
      Value index = e.getBarrier().getDefiningOp<MemDescIndexOp>().getIndex();
      IntegerAttr constant;
      if (matchPattern(index, m_Constant(&constant)) && constant.getInt() < stages)
        continue;
      Value n = issueNumber(index, stages);
      if (!n)
        return fail("a TMA copy's ring stage is not its issue number modulo the ring's size");
      OpBuilder eb(e);
      Value phase = eb.create<arith::AddIOp>(
          loc, eb.create<arith::DivUIOp>(loc, n, i32(eb, stages)), i32(eb, 1));
      auto guard = eb.create<scf::IfOp>(loc, e.getPred(), /*withElseRegion=*/false);
      OpBuilder gb = OpBuilder::atBlockBegin(guard.thenBlock());
      gb.create<tile_nv::WaitBarrierOp>(loc, emptyStage(gb, index), phase);
    }

    // Consumers: no copies; after iteration k's wgmma, k - 1's (pendings = 1) or k's own
    // (pendings = 0) stage is read no more and goes back to the producer.
    for (Operation *op : llvm::concat<Operation *>(prologue, inLoop))
      op->erase();
    for (auto bar : llvm::make_early_inc_range(loop.getBody()->getOps<BarrierOp>()))
      bar.erase();
    auto dotWaits = loop.getBody()->getOps<tile_nv::WarpgroupDotWaitOp>();
    if (dotWaits.empty())
      return fail("the K loop's wgmma has no wait in the loop");
    tile_nv::WarpgroupDotWaitOp dotWait = *dotWaits.begin();
    OpBuilder cb(dotWait->getBlock(), std::next(dotWait->getIterator()));
    Value released = count, pred = cb.create<arith::ConstantIntOp>(loc, 1, 1);
    if (dotWait.getPendings() == 1) {
      released = cb.create<arith::RemUIOp>(
          loc, cb.create<arith::AddIOp>(loc, count, i32(cb, stages - 1)), i32(cb, stages));
      // A tile loop's count starts at the tiles before; each tile releases its last stage
      // after its loop (below), so that the producer fills the whole ring during the epilogue.
      pred = tileLoop ? cb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                                 loop.getInductionVar(), loop.getLowerBound())
                      : cb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, count, i32(cb, 0));
      if (tileLoop) {
        tile_nv::WarpgroupDotWaitOp drain;
        for (auto w : kBlock->getOps<tile_nv::WarpgroupDotWaitOp>())
          if (llvm::any_of(w.getInputs(),
                           [&](Value v) { return v.getDefiningOp() == loop.getOperation(); }))
            drain = w;
        if (!drain || drain.getPendings() != 0)
          return fail("the tile loop's K loop has no wgmma wait of its results after it");
        OpBuilder db(drain->getBlock(), std::next(drain->getIterator()));
        unsigned i = count.getArgNumber() - 1; // the count among the iteration arguments
        Value end = loop.getResult(i), begin = loop.getInitArgs()[i];
        Value last = db.create<arith::RemUIOp>(
            loc, db.create<arith::AddIOp>(loc, end, i32(db, stages - 1)), i32(db, stages));
        Value ran = db.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, end, begin);
        db.create<tile_nv::ArriveBarrierOp>(loc, emptyStage(db, last), ran, /*cta=*/Value());
      }
    } else if (dotWait.getPendings() != 0) {
      return fail("the K loop's wgmma keeps more than one group in flight");
    } else {
      released = countRem;
    }
    cb.create<tile_nv::ArriveBarrierOp>(loc, emptyStage(cb, released), pred, /*cta=*/Value());
    b.setInsertionPointToStart(consumer);
    b.create<tile_nv::SetMaxNRegOp>(loc, regs.consumer, /*inc=*/true);
    // Barriers among the consumers only: the producer never arrives at them.
    consumer->walk([&](BarrierOp bar) {
      OpBuilder(bar).create<tile_nv::NamedBarrierOp>(bar.getLoc(), 1, consumers);
      bar.erase();
    });

    func->setAttr(tile::TileDialect::getProducerWarpsAttrName(),
                  b.getI32IntegerAttr(kProducerWarps));
    // Drop what the producer's loop no longer uses (the accumulator it carries along) and
    // the consumers' address math of the copies.
    RewritePatternSet patterns(func.getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, func.getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, func.getContext());
    return applyPatternsAndFoldGreedily(func, std::move(patterns));
  }

  /// The producer's copy of the loop: the copies and their addresses, no wgmma.
  LogicalResult stripToCopies(scf::ForOp forOp) {
    Block *body = forOp.getBody();
    for (Operation &op : llvm::make_early_inc_range(*body)) {
      if (auto wait = dyn_cast<tile_nv::WarpgroupDotWaitOp>(op)) {
        // The accumulator passes through unchanged (and is then dropped).
        for (auto [in, out] : llvm::zip(wait.getInputs(), wait.getOutputs())) {
          auto dot = in.getDefiningOp<tile_nv::WarpgroupDotOp>();
          if (!dot)
            return fail("a wgmma wait in the K loop waits for something else than its dot");
          out.replaceAllUsesWith(dot.getC());
        }
        wait.erase();
      }
    }
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body))) {
      if (isa<tile_nv::WarpgroupDotOp, tile_nv::WaitBarrierOp, tile_nv::FenceAsyncSharedOp,
              BarrierOp>(op) ||
          (op.use_empty() && isMemoryEffectFree(&op) && !op.hasTrait<OpTrait::IsTerminator>())) {
        if (!op.use_empty())
          return fail("the K loop's wgmma result is used by more than its wait");
        op.erase();
      }
    }
    for (Operation &op : *body)
      if (!isMemoryEffectFree(&op) && !op.hasTrait<OpTrait::IsTerminator>() &&
          !isa<tile_nv::BarrierExpectOp, tile_nv::AsyncTMACopyGlobalToLocalOp>(op))
        return op.emitError("warp_specialize: the K loop does more than its TMA copies and its "
                            "wgmma; the producer warps cannot take its copies alone");
    return success();
  }
};

struct WarpSpecializePass : tile_nv::impl::TileNVWarpSpecializeBase<WarpSpecializePass> {
  void runOnOperation() override {
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>())) {
      auto ws = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getWarpSpecializeAttrName());
      if (!ws || ws.getInt() == 0 || func->hasAttr(tile::TileDialect::getProducerWarpsAttrName()))
        continue;
      unsigned warps = 4;
      if (auto nw = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName()))
        warps = nw.getInt();
      if (failed(WarpSpecializer{func, warps}.run()))
        return signalPassFailure();
    }
  }
};

} // namespace
