//===- Pipeline.cpp - multi-stage async copies for a loop's dot operands --===//
//
// A GEMM's K loop loads a tile of A and one of B and feeds them to tile.dot. On its own every
// iteration waits for its loads; here the loads of iteration k + S - 1 (S = num_stages) are
// in flight while iteration k computes: the loop carries the addresses S - 1 iterations ahead
// and a ring of S shared-memory stages per operand holds the copies (Triton's and CUTLASS's
// multistage mainloop). The pass's description in Passes.td gives the schedule.
//
// Two ways to fill a stage, per load, as the adapter says (TargetInfo::getDotOperandStaging):
// an asynchronous copy (cp.async) into a ring of S stages, or a load into registers at the top
// of the iteration whose local_store comes after the rest of the body (AMD; narrow runs on
// NVIDIA). The registers hold one tile in flight, so that ring needs S - 1 stages: the store
// refills the stage this iteration read (with num_stages = 2, one buffer, as Triton's AMD
// stream pipeliner has it). num_stages is lowered, with a remark, until the rings fit the
// target's shared memory. A load through a block pointer that the adapter kept for its bulk
// tensor copies (TMA) is staged by the adapter's hooks: the copies of one iteration complete on
// one barrier of a ring beside the operands' rings, which the iteration waits on in every
// thread (its phase flips each time the ring goes round) instead of an async_wait.
//
// The "address slice" of a pipelined load is the set of pure ops in the loop body its pointer
// and mask are computed from. Loop-carried values it uses ("pointer arguments", such as the
// pointer tile advanced by BLOCK_K each iteration) must be used by nothing else in the loop and
// not after it: the new loop carries them S - 1 iterations ahead instead.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "tessel/Analysis/AxisInfo.h"
#include "tessel/Target/TargetRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

using Staging = TargetInfo::OperandStaging;

struct PipelinedLoad {
  tile::LoadOp load;
  ConvertLayoutOp convert; // its only user: to the dot operand layout
  Staging staging;
  Attribute placement;      // of one ring stage
  Value ring;               // the local_alloc, once created
  unsigned extraStages = 0; // TargetInfo::getDotOperandExtraStages

  /// Ring stages for a pipeline of `numStages`.
  unsigned ringStages(unsigned numStages) const {
    return (staging == Staging::Registers ? numStages - 1 : numStages) + extraStages;
  }
};

/// A register-staged tile waiting for its local_store into a ring stage.
struct PendingStore {
  Value value, stage;
};

/// One stage of `ring` (memdesc<S x ...>): the type memdesc_index returns.
MemDescType stageTypeOf(Value ring) {
  auto t = cast<MemDescType>(ring.getType());
  return MemDescType::get(ring.getContext(), t.getShape().drop_front(), t.getElementType(),
                          t.getEncoding());
}

bool isZero(Value v) {
  return !v || matchPattern(v, m_Zero()) || matchPattern(v, m_AnyZeroFloat());
}

class LoopPipeliner {
public:
  LoopPipeliner(scf::ForOp forOp, unsigned numStages, const TargetInfo &target,
                const AxisInfoAnalysis &axis, bool perfFallbackError)
      : forOp(forOp), S(numStages), target(target), axis(axis),
        perfFallbackError(perfFallbackError) {}

  /// Rewrites the loop when something can be pipelined; fails only when a config that does
  /// not fit is an error (perf-fallback-error).
  LogicalResult run() {
    collectLoads();
    if (loads.empty() || !collectAddressSlice())
      return success();
    FailureOr<bool> fits = fitStages();
    if (failed(fits))
      return failure();
    if (*fits && (!anyTensorMap || tensorMapStages()))
      rewrite();
    return success();
  }

private:
  void collectLoads() {
    for (Operation &op : forOp.getBody()->without_terminator()) {
      auto load = dyn_cast<tile::LoadOp>(&op);
      if (!load || !load->hasOneUse() || !isZero(load.getOther()) || load.getIsVolatile())
        continue;
      auto type = dyn_cast<RankedTensorType>(load.getType());
      auto cvt = dyn_cast<ConvertLayoutOp>(*load->getUsers().begin());
      if (!type || !cvt || cvt->getBlock() != load->getBlock())
        continue;
      if (isa<tile::BlockPtrType>(load.getPtr().getType())) {
        // Kept by the adapter (loadsBlockThroughTensorMap), through a make_block_ptr of the
        // iteration's offsets.
        auto block = load.getPtr().getDefiningOp<tile::MakeBlockPtrOp>();
        if (!block || block->getBlock() != load->getBlock())
          continue;
        loads.push_back({load, cvt, Staging::TensorMap, Attribute(), Value(),
                         target.getDotOperandExtraStages(cvt.getType())});
        anyTensorMap = true;
        continue;
      }
      auto blocked = dyn_cast_if_present<BlockedEncodingAttr>(type.getEncoding());
      if (!blocked)
        continue;
      unsigned bytes = std::max(1u, type.getElementTypeBitWidth() / 8);
      unsigned f = blocked.getOrder()[0];
      unsigned vec =
          std::min<unsigned>(blocked.getSizePerThread()[f],
                             axis.getVectorWidth(load.getPtr(), load.getMask(), f, bytes));
      Staging staging = target.getDotOperandStaging(type, cvt.getType(), vec * bytes);
      if (staging == Staging::None ||
          (staging == Staging::AsyncCopy && !target.supportsAsyncCopy()))
        continue;
      loads.push_back({load, cvt, staging, Attribute(), Value(),
                       target.getDotOperandExtraStages(cvt.getType())});
      anyAsync |= staging == Staging::AsyncCopy;
    }
  }

  /// Ring stages of the TensorMap-staged loads, which share one barrier per stage: the same
  /// for all of them, else 0.
  unsigned tensorMapStages() const {
    unsigned r = 0;
    for (const PipelinedLoad &l : loads)
      if (l.staging == Staging::TensorMap) {
        if (r && r != l.ringStages(S))
          return 0;
        r = l.ringStages(S);
      }
    return r;
  }

  /// Chooses the rings' placements and lowers S until they fit the target's shared memory;
  /// false when not even two stages fit (the loop stays as it is).
  FailureOr<bool> fitStages() {
    MLIRContext *ctx = forOp.getContext();
    SmallVector<int64_t> stageBytes;
    for (PipelinedLoad &l : loads) {
      auto type = cast<RankedTensorType>(l.load.getType());
      l.placement = l.staging == Staging::TensorMap
                        ? target.getTensorMapSharedEncoding(l.load)
                        : target.getDotOperandSharedEncoding(type, l.convert.getType());
      if (!l.placement)
        l.placement = getSwizzledSharedEncoding(
            ctx, type.getShape(), cast<BlockedEncodingAttr>(type.getEncoding()).getOrder(),
            type.getElementTypeBitWidth());
      stageBytes.push_back(
          MemDescType::get(ctx, type.getShape(), type.getElementType(), l.placement)
              .getSizeInBytes());
    }
    auto bytesFor = [&](unsigned stages) {
      int64_t total = 0;
      for (auto [l, b] : llvm::zip(loads, stageBytes))
        total += l.ringStages(stages) * b;
      return total;
    };
    int64_t limit = target.getLimits().sharedMemoryPerProgram;
    unsigned fit = S;
    while (fit >= 2 && bytesFor(fit) > limit)
      --fit;
    if (fit == S)
      return true;
    InFlightDiagnostic diag = perfFallbackError ? forOp.emitError() : forOp.emitRemark();
    diag << "num_stages = " << S << " needs " << bytesFor(S)
         << " bytes of shared memory for this loop's dot operands; " << target.getName()
         << " allows " << limit << " per program: ";
    if (fit >= 2)
      diag << "pipelined with num_stages = " << fit;
    else
      diag << "not pipelined";
    diag << " (a smaller num_stages or BLOCK_K keeps the config as written)";
    if (perfFallbackError)
      return failure();
    S = fit;
    return fit >= 2;
  }

  /// The address slice and pointer arguments; false when the loads' addresses depend on what
  /// the loop computes otherwise.
  bool collectAddressSlice() {
    Block *body = forOp.getBody();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Value> worklist;
    for (PipelinedLoad &l : loads) {
      worklist.push_back(l.load.getPtr());
      if (l.load.getMask())
        worklist.push_back(l.load.getMask());
    }
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() != body || arg == forOp.getInductionVar())
          continue;
        unsigned i = arg.getArgNumber() - 1;
        if (pointerArgs.insert(i))
          worklist.push_back(yield.getOperand(i));
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (def->getBlock() != body) {
        if (forOp->isAncestor(def))
          return false; // defined in a nested region
        continue;       // loop-invariant
      }
      if (slice.contains(def))
        continue;
      if (!isPure(def) || def->getNumRegions())
        return false;
      slice.insert(def);
      worklist.append(def->operand_begin(), def->operand_end());
    }
    // Ops computed from a pointer argument exist only ahead in the new loop: nothing else may
    // use them, nor the argument's final value.
    for (Operation &op : body->without_terminator())
      if (slice.contains(&op) &&
          llvm::any_of(op.getOperands(), [&](Value v) { return dependsOnPointerArg(v); }))
        aheadOnly.insert(&op);
    for (unsigned i : pointerArgs) {
      if (!forOp.getResult(i).use_empty())
        return false;
      if (!usedOnlyAhead(forOp.getRegionIterArgs()[i], i))
        return false;
    }
    for (Operation *op : aheadOnly)
      for (Value r : op->getResults())
        if (!usedOnlyAhead(r, std::nullopt))
          return false;
    return true;
  }

  bool dependsOnPointerArg(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == forOp.getBody() && arg != forOp.getInductionVar() &&
             pointerArgs.contains(arg.getArgNumber() - 1);
    Operation *def = v.getDefiningOp();
    return def && aheadOnly.contains(def);
  }

  /// `v` feeds only the address slice, the pipelined loads' address operands, or the yield of
  /// a pointer argument.
  bool usedOnlyAhead(Value v, std::optional<unsigned> argIndex) {
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (slice.contains(user))
        continue;
      if (isa<scf::YieldOp>(user) && user->getParentOp() == forOp &&
          pointerArgs.contains(use.getOperandNumber()))
        continue;
      if (auto load = dyn_cast<tile::LoadOp>(user);
          load && llvm::any_of(loads, [&](const PipelinedLoad &l) { return l.load == load; }) &&
          use.get() != load.getOther())
        continue;
      return false;
    }
    return true;
  }

  /// Clones the address slice for iteration `iv` with pointer arguments `args` and issues the
  /// copies of tile `count` (i32) into its ring stages, masked off when `iv` is past the loop's
  /// end; the tiles loaded into registers go to `pending`, for a local_store where the caller
  /// wants it.
  SmallVector<Value> issueCopies(OpBuilder &b, Value iv, ArrayRef<Value> args, Value count,
                                 SmallVector<PendingStore> &pending) {
    Location loc = forOp.getLoc();
    IRMapping map;
    map.map(forOp.getInductionVar(), iv);
    for (auto [i, arg] : llvm::zip(pointerArgs, args))
      map.map(forOp.getRegionIterArgs()[i], arg);
    for (Operation &op : forOp.getBody()->without_terminator())
      if (slice.contains(&op))
        b.clone(op, map);
    Value inRange =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, iv, forOp.getUpperBound());
    SmallVector<TargetInfo::TensorMapCopy> tensorMapCopies;
    for (PipelinedLoad &l : loads) {
      Value ptr = map.lookupOrDefault(l.load.getPtr());
      if (l.staging == Staging::TensorMap) {
        Value stage = b.create<arith::RemUIOp>(
            loc, count, b.create<arith::ConstantIntOp>(loc, l.ringStages(S), 32));
        tensorMapCopies.push_back(
            {ptr.getDefiningOp<tile::MakeBlockPtrOp>(),
             b.create<MemDescIndexOp>(loc, stageTypeOf(l.ring), l.ring, stage)});
        continue;
      }
      auto ptrType = cast<RankedTensorType>(ptr.getType());
      auto maskType =
          RankedTensorType::get(ptrType.getShape(), b.getI1Type(), ptrType.getEncoding());
      Value mask = b.create<tile::SplatOp>(loc, maskType, inRange);
      if (l.load.getMask())
        mask = b.create<arith::AndIOp>(loc, map.lookupOrDefault(l.load.getMask()), mask);
      Value stage = b.create<arith::RemUIOp>(
          loc, count, b.create<arith::ConstantIntOp>(loc, l.ringStages(S), 32));
      Value dst = b.create<MemDescIndexOp>(loc, stageTypeOf(l.ring), l.ring, stage);
      if (l.staging == Staging::AsyncCopy) {
        b.create<AsyncCopyGlobalToLocalOp>(loc, ptr, dst, mask);
        continue;
      }
      auto load = b.create<tile::LoadOp>(loc, ptr, mask, map.lookupOrDefault(l.load.getOther()));
      load.setCacheAttr(l.load.getCacheAttr());
      load.setEvictAttr(l.load.getEvictAttr());
      pending.push_back({load.getResult(), dst});
    }
    if (anyAsync)
      b.create<AsyncCommitGroupOp>(loc);
    if (!tensorMapCopies.empty())
      target.issueTensorMapCopies(b, loc, tensorMapCopies, barrierStage(b, count), inRange);
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    SmallVector<Value> next;
    for (unsigned i : pointerArgs)
      next.push_back(map.lookupOrDefault(yield.getOperand(i)));
    return next;
  }

  /// The stage of the TensorMap barrier ring that iteration `count` (i32) uses.
  Value barrierStage(OpBuilder &b, Value count) {
    Location loc = forOp.getLoc();
    Value stage = b.create<arith::RemUIOp>(
        loc, count, b.create<arith::ConstantIntOp>(loc, tensorMapStages(), 32));
    return b.create<MemDescIndexOp>(loc, stageTypeOf(barriers), barriers, stage);
  }

  void rewrite() {
    Location loc = forOp.getLoc();
    MLIRContext *ctx = forOp.getContext();
    OpBuilder b(forOp);
    Type ivType = forOp.getInductionVar().getType();
    auto ivConst = [&](OpBuilder &bb, int64_t v) -> Value {
      return bb.create<arith::ConstantOp>(loc, ivType, bb.getIntegerAttr(ivType, v));
    };
    auto i32Const = [&](OpBuilder &bb, int64_t v) -> Value {
      return bb.create<arith::ConstantIntOp>(loc, v, 32);
    };
    // A TMA-staged K loop in the body of a loop over tiles (a persistent kernel): the rings and
    // their barriers are set up once, before the tile loop, and the iteration count runs on
    // across its iterations (`base`), so each stage's barrier phase stays the count / stages
    // of every wait. The copies masked off past one tile's end are the next tile's prologue
    // counts, which then complete those phases. A producer warpgroup (tile-nv-warp-specialize)
    // can so fill the next tile's stages while the consumers run an epilogue.
    auto outer =
        anyTensorMap ? dyn_cast_if_present<scf::ForOp>(forOp->getParentOp()) : scf::ForOp();
    OpBuilder ringBuilder = outer ? OpBuilder(outer) : b;
    Value base;
    if (outer) {
      Value zero = i32Const(ringBuilder, 0);
      IRRewriter rewriter(ctx);
      auto grown = outer.replaceWithAdditionalYields(
          rewriter, zero, /*replaceInitOperandUsesInLoop=*/false,
          [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
            return SmallVector<Value>{args.back()};
          });
      outer = cast<scf::ForOp>(grown->getOperation());
      base = outer.getRegionIterArgs().back();
      // The body moved into the new loop: both builders' blocks are gone.
      ringBuilder.setInsertionPoint(outer);
      b.setInsertionPoint(forOp);
    }
    // Rings of each operand tile, placed for the dot operand reads (fitStages).
    for (PipelinedLoad &l : loads) {
      auto type = cast<RankedTensorType>(l.load.getType());
      SmallVector<int64_t> shape = {int64_t(l.ringStages(S))};
      shape.append(type.getShape().begin(), type.getShape().end());
      l.ring = ringBuilder.create<LocalAllocOp>(
          loc, MemDescType::get(ctx, shape, type.getElementType(), l.placement), IntegerAttr());
    }
    if (anyTensorMap)
      barriers = target.createCopyBarriers(ringBuilder, loc, tensorMapStages());
    auto countConst = [&](OpBuilder &bb, int64_t v) -> Value {
      return base ? bb.create<arith::AddIOp>(loc, base, i32Const(bb, v)).getResult()
                  : i32Const(bb, v);
    };

    // Prologue: iterations 0 .. S - 2.
    SmallVector<Value> args;
    for (unsigned i : pointerArgs)
      args.push_back(forOp.getInitArgs()[i]);
    for (unsigned s = 0; s + 1 < S; ++s) {
      Value iv = b.create<arith::AddIOp>(
          loc, forOp.getLowerBound(), b.create<arith::MulIOp>(loc, forOp.getStep(), ivConst(b, s)));
      SmallVector<PendingStore> pending;
      args = issueCopies(b, iv, args, countConst(b, s), pending);
      for (PendingStore &p : pending)
        b.create<LocalStoreOp>(loc, p.value, p.stage);
    }

    // The new loop: the other iteration arguments, the pointer arguments S - 1 iterations
    // ahead, and the iteration count (for the ring stages).
    SmallVector<Value> inits;
    SmallVector<unsigned> kept;
    for (unsigned i = 0; i < forOp.getNumRegionIterArgs(); ++i)
      if (!pointerArgs.contains(i)) {
        kept.push_back(i);
        inits.push_back(forOp.getInitArgs()[i]);
      }
    inits.append(args.begin(), args.end());
    inits.push_back(base ? base : i32Const(b, 0));
    auto newFor = b.create<scf::ForOp>(loc, forOp.getLowerBound(), forOp.getUpperBound(),
                                       forOp.getStep(), inits);
    newFor->setAttrs(forOp->getAttrs());
    OpBuilder nb = OpBuilder::atBlockBegin(newFor.getBody());
    Value iv = newFor.getInductionVar();
    ValueRange newArgs = newFor.getRegionIterArgs();
    Value count = newArgs.back();
    ValueRange aheadArgs = newArgs.drop_back().take_back(pointerArgs.size());

    IRMapping map;
    map.map(forOp.getInductionVar(), iv);
    for (auto [j, i] : llvm::enumerate(kept))
      map.map(forOp.getRegionIterArgs()[i], newArgs[j]);

    // Wait for this iteration's stage, read the operands.
    if (anyAsync)
      nb.create<AsyncWaitOp>(loc, S - 2);
    if (anyTensorMap) {
      Value round = nb.create<arith::DivUIOp>(loc, count, i32Const(nb, tensorMapStages()));
      target.waitTensorMapCopies(nb, loc, barrierStage(nb, count), round);
    }
    for (PipelinedLoad &l : loads) {
      Value readStage = nb.create<arith::RemUIOp>(loc, count, i32Const(nb, l.ringStages(S)));
      Value stage = nb.create<MemDescIndexOp>(loc, stageTypeOf(l.ring), l.ring, readStage);
      map.map(l.convert.getResult(), nb.create<LocalLoadOp>(loc, l.convert.getType(), stage));
    }
    // Issue iteration k + S - 1.
    Value ivAhead = nb.create<arith::AddIOp>(
        loc, iv, nb.create<arith::MulIOp>(loc, forOp.getStep(), ivConst(nb, S - 1)));
    Value countAhead = nb.create<arith::AddIOp>(loc, count, i32Const(nb, S - 1));
    SmallVector<PendingStore> pending;
    SmallVector<Value> aheadNext =
        issueCopies(nb, ivAhead, SmallVector<Value>(aheadArgs), countAhead, pending);

    // The rest of the body.
    for (Operation &op : forOp.getBody()->without_terminator()) {
      if (aheadOnly.contains(&op) || llvm::any_of(loads, [&](const PipelinedLoad &l) {
            return l.load == &op || l.convert == &op;
          }))
        continue;
      nb.clone(op, map);
    }
    // Register-staged tiles land in their stage once the dot has been issued.
    for (PendingStore &p : pending)
      nb.create<LocalStoreOp>(loc, p.value, p.stage);
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    SmallVector<Value> results;
    for (unsigned i : kept)
      results.push_back(map.lookupOrDefault(yield.getOperand(i)));
    results.append(aheadNext.begin(), aheadNext.end());
    results.push_back(nb.create<arith::AddIOp>(loc, count, i32Const(nb, 1)));
    nb.create<scf::YieldOp>(loc, results);

    // Copies still in flight (masked off, past the end) finish before the buffers are reused.
    b.setInsertionPointAfter(newFor);
    if (anyAsync)
      b.create<AsyncWaitOp>(loc, 0);
    for (auto [j, i] : llvm::enumerate(kept))
      forOp.getResult(i).replaceAllUsesWith(newFor.getResult(j));
    forOp.erase();
    if (outer) {
      auto outerYield = cast<scf::YieldOp>(outer.getBody()->getTerminator());
      outerYield->setOperand(outerYield.getNumOperands() - 1, newFor.getResults().back());
    }
  }

  scf::ForOp forOp;
  unsigned S;
  const TargetInfo &target;
  const AxisInfoAnalysis &axis;
  SmallVector<PipelinedLoad> loads;
  bool anyAsync = false;
  bool anyTensorMap = false;
  Value barriers; // TensorMap staging: one barrier per ring stage
  bool perfFallbackError;
  llvm::SetVector<Operation *> slice;
  llvm::SetVector<unsigned> pointerArgs;
  llvm::DenseSet<Operation *> aheadOnly;
};

struct TileGPUPipelinePass : public tessel::impl::TileGPUPipelineBase<TileGPUPipelinePass> {
  using TileGPUPipelineBase::TileGPUPipelineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::unique_ptr<TargetInfo> info = createTargetInfoFor(module, target);
    if (!info)
      return signalPassFailure();
    for (auto func : module.getOps<func::FuncOp>()) {
      auto stages = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumStagesAttrName());
      if (!stages || stages.getInt() < 2)
        continue;
      // Innermost loops first; each rewrite replaces its loop, so collect them up front.
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp forOp) {
        if (!forOp.getBody()
                 ->walk([](scf::ForOp) { return WalkResult::interrupt(); })
                 .wasInterrupted())
          loops.push_back(forOp);
      });
      for (scf::ForOp forOp : loops) {
        AxisInfoAnalysis axis(func);
        if (failed(LoopPipeliner(forOp, stages.getInt(), *info, axis, perfFallbackError).run()))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
