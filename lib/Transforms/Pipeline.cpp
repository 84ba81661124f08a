//===- Pipeline.cpp - multi-stage async copies for a loop's dot operands --===//
//
// A GEMM's K loop loads a tile of A and one of B and feeds them to tile.dot. On its own every
// iteration waits for its loads; here the loads of iteration k + S - 1 (S = num_stages) are
// in flight while iteration k computes: the loop carries the addresses S - 1 iterations ahead
// and a ring of S shared-memory stages per operand holds the copies (Triton's and CUTLASS's
// multistage mainloop). The pass's description in Passes.td gives the schedule.
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

struct PipelinedLoad {
  tile::LoadOp load;
  ConvertLayoutOp convert; // its only user: to the dot operand layout
  Value ring;              // the local_alloc, once created
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
                const AxisInfoAnalysis &axis)
      : forOp(forOp), S(numStages), target(target), axis(axis) {}

  /// Rewrites the loop; false (and the loop untouched) when nothing can be pipelined.
  bool run() {
    collectLoads();
    if (loads.empty() || !collectAddressSlice())
      return false;
    rewrite();
    return true;
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
      auto blocked = dyn_cast_if_present<BlockedEncodingAttr>(type.getEncoding());
      if (!blocked)
        continue;
      unsigned bytes = std::max(1u, type.getElementTypeBitWidth() / 8);
      unsigned f = blocked.getOrder()[0];
      unsigned vec =
          std::min<unsigned>(blocked.getSizePerThread()[f],
                             axis.getVectorWidth(load.getPtr(), load.getMask(), f, bytes));
      if (!target.canPipelineDotOperand(type, cvt.getType(), vec * bytes))
        continue;
      loads.push_back({load, cvt, Value()});
    }
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
  /// copies into ring stage `stage`, masked off when `iv` is past the loop's end.
  SmallVector<Value> issueCopies(OpBuilder &b, Value iv, ArrayRef<Value> args, Value stage) {
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
    for (PipelinedLoad &l : loads) {
      Value ptr = map.lookupOrDefault(l.load.getPtr());
      auto ptrType = cast<RankedTensorType>(ptr.getType());
      auto maskType =
          RankedTensorType::get(ptrType.getShape(), b.getI1Type(), ptrType.getEncoding());
      Value mask = b.create<tile::SplatOp>(loc, maskType, inRange);
      if (l.load.getMask())
        mask = b.create<arith::AndIOp>(loc, map.lookupOrDefault(l.load.getMask()), mask);
      Value dst = b.create<MemDescIndexOp>(loc, stageTypeOf(l.ring), l.ring, stage);
      b.create<AsyncCopyGlobalToLocalOp>(loc, ptr, dst, mask);
    }
    b.create<AsyncCommitGroupOp>(loc);
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    SmallVector<Value> next;
    for (unsigned i : pointerArgs)
      next.push_back(map.lookupOrDefault(yield.getOperand(i)));
    return next;
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
    // Rings: S stages of each operand tile, swizzled for the dot operand reads.
    for (PipelinedLoad &l : loads) {
      auto type = cast<RankedTensorType>(l.load.getType());
      auto blocked = cast<BlockedEncodingAttr>(type.getEncoding());
      SharedEncodingAttr enc = getSwizzledSharedEncoding(ctx, type.getShape(), blocked.getOrder(),
                                                         type.getElementTypeBitWidth());
      SmallVector<int64_t> shape = {int64_t(S)};
      shape.append(type.getShape().begin(), type.getShape().end());
      l.ring = b.create<LocalAllocOp>(loc, MemDescType::get(ctx, shape, type.getElementType(), enc),
                                      IntegerAttr());
    }

    // Prologue: iterations 0 .. S - 2.
    SmallVector<Value> args;
    for (unsigned i : pointerArgs)
      args.push_back(forOp.getInitArgs()[i]);
    for (unsigned s = 0; s + 1 < S; ++s) {
      Value iv = b.create<arith::AddIOp>(
          loc, forOp.getLowerBound(), b.create<arith::MulIOp>(loc, forOp.getStep(), ivConst(b, s)));
      args = issueCopies(b, iv, args, i32Const(b, s));
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
    inits.push_back(i32Const(b, 0));
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
    nb.create<AsyncWaitOp>(loc, S - 2);
    Value readStage = nb.create<arith::RemUIOp>(loc, count, i32Const(nb, S));
    for (PipelinedLoad &l : loads) {
      Value stage = nb.create<MemDescIndexOp>(loc, stageTypeOf(l.ring), l.ring, readStage);
      map.map(l.convert.getResult(), nb.create<LocalLoadOp>(loc, l.convert.getType(), stage));
    }
    // Issue iteration k + S - 1.
    Value ivAhead = nb.create<arith::AddIOp>(
        loc, iv, nb.create<arith::MulIOp>(loc, forOp.getStep(), ivConst(nb, S - 1)));
    Value writeStage = nb.create<arith::RemUIOp>(
        loc, nb.create<arith::AddIOp>(loc, count, i32Const(nb, S - 1)), i32Const(nb, S));
    SmallVector<Value> aheadNext =
        issueCopies(nb, ivAhead, SmallVector<Value>(aheadArgs), writeStage);

    // The rest of the body.
    for (Operation &op : forOp.getBody()->without_terminator()) {
      if (aheadOnly.contains(&op) || llvm::any_of(loads, [&](const PipelinedLoad &l) {
            return l.load == &op || l.convert == &op;
          }))
        continue;
      nb.clone(op, map);
    }
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    SmallVector<Value> results;
    for (unsigned i : kept)
      results.push_back(map.lookupOrDefault(yield.getOperand(i)));
    results.append(aheadNext.begin(), aheadNext.end());
    results.push_back(nb.create<arith::AddIOp>(loc, count, i32Const(nb, 1)));
    nb.create<scf::YieldOp>(loc, results);

    // Copies still in flight (masked off, past the end) finish before the buffers are reused.
    b.setInsertionPointAfter(newFor);
    b.create<AsyncWaitOp>(loc, 0);
    for (auto [j, i] : llvm::enumerate(kept))
      forOp.getResult(i).replaceAllUsesWith(newFor.getResult(j));
    forOp.erase();
  }

  scf::ForOp forOp;
  unsigned S;
  const TargetInfo &target;
  const AxisInfoAnalysis &axis;
  SmallVector<PipelinedLoad> loads;
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
        LoopPipeliner(forOp, stages.getInt(), *info, axis).run();
      }
    }
  }
};

} // namespace
