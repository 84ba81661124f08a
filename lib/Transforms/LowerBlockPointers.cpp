//===- LowerBlockPointers.cpp - block pointers to pointer tiles and masks --===//
//
// A block pointer is the tuple (base, shape[r], strides[r], offsets[r]) of
// tile.make_block_ptr. This pass replaces every such value by its components (i64 scalars and
// the base pointer): tile.advance adds to the offsets, scf.for / scf.if / scf.while carry the
// components instead of the block pointer (an scf.for iter_arg that the body only advances
// carries just its offsets), and a load or store through one becomes an access through a tile
// of pointers whose mask is the interpreter's boundary check (lib/Interpreter/MemoryOps.cpp,
// blockAddresses): lane i of dimension d is at position p = offset_d + i, and a checked
// dimension reads or writes it only when 0 <= p < shape_d.
//
// The addresses, base + sum_d (offset_d + i_d) * stride_d (exact in 64 bits, as addptr is),
// are built (BlockPointerAccess.cpp) as one scalar start and per-lane i64 offsets, as the
// DSL's pointer arithmetic would build them:
//
//   start = addptr(base, sum_d offset_d * stride_d)
//   ptrs  = addptr(splat(start), sum_d broadcast(expand_dims(arange(0, B_d)) * stride_d))
//
// with no multiply along a dimension of the constant stride 1 (it stays contiguous for
// AxisInfo, so the access vectorizes along it; the other rows start at multiples of their
// stride's divisibility). `order` matters only for the make_block_ptr of a kept load
// (BlockPointerOrders.cpp follows it to each access).
//
// The address computations are then hoisted out of the loops around the new accesses
// (loop-invariant code motion on those loops only). A load that
// TargetInfo::loadsBlockThroughTensorMap keeps (asked on the input IR) stays a block-pointer
// load, through a make_block_ptr of the current components right before it; so does a store
// that TargetInfo::storesBlockThroughTensorMap keeps.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "BlockPointerAccess.h"
#include "BlockPointerOrders.h"

#include "tessel/Target/TargetRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace tessel {
#define GEN_PASS_DEF_TILELOWERBLOCKPOINTERS
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;

namespace {

bool isBlockPtr(Type t) { return isa<tile::BlockPtrType>(t); }
bool anyBlockPtr(TypeRange types) { return llvm::any_of(types, isBlockPtr); }

/// Whether `op` has a block-pointer operand, result or region argument.
bool touchesBlockPtr(Operation *op) {
  return anyBlockPtr(op->getOperandTypes()) || anyBlockPtr(op->getResultTypes()) ||
         llvm::any_of(op->getRegions(), [](Region &region) {
           return llvm::any_of(region.getBlocks(),
                               [](Block &b) { return anyBlockPtr(b.getArgumentTypes()); });
         });
}

unsigned rankOf(Type blockPtr) {
  return cast<tile::BlockPtrType>(blockPtr).getBlockType().getRank();
}

/// The types a block pointer of type `t` becomes: base, then 3 * rank i64.
SmallVector<Type> flatTypes(Type t, Type base) {
  SmallVector<Type> types = {base};
  types.append(3 * rankOf(t), IntegerType::get(t.getContext(), 64));
  return types;
}

/// What a loop or branch carries for one of its values: the value itself, all parts of a block
/// pointer, or (an scf.for iter_arg that the body only advances) the offsets the advances move.
struct Carried {
  enum Kind { Value, AllParts, Offsets } kind;
  SmallVector<bool, 4> moving; // Offsets: per dimension, whether an advance moves it

  static Carried of(Type t) { return {isBlockPtr(t) ? AllParts : Value, {}}; }
};

class Lowering {
public:
  Lowering(ModuleOp module, const TargetInfo *target) : module(module), target(target) {}

  /// Checks, decides and rewrites; fails after reporting an error, before changing anything
  /// (but for a bug in the pass, which cleanup reports).
  LogicalResult run() {
    if (failed(checkSupported()))
      return failure();
    orders.emplace(module);
    if (failed(decideAccesses()))
      return failure();
    for (Region &region : module->getRegions())
      lowerRegion(region);
    if (failed(cleanup()))
      return failure();
    hoistAddressComputations();
    return success();
  }

private:
  //===--- before any change ----------------------------------------------===//

  /// Every op that touches a block pointer is one this pass rewrites.
  LogicalResult checkSupported() {
    WalkResult r = module.walk([&](Operation *op) -> WalkResult {
      if (!touchesBlockPtr(op))
        return WalkResult::advance();
      if (auto mk = dyn_cast<tile::MakeBlockPtrOp>(op)) {
        ArrayRef<int64_t> block = mk.getType().getBlockType().getShape();
        if (block.empty()) {
          mk.emitError("tile-lower-block-pointers cannot lower a rank-0 block pointer; load "
                       "through its base pointer instead");
          return WalkResult::interrupt();
        }
        if (llvm::any_of(block, [](int64_t d) { return d < 1 || d > INT32_MAX - 1; })) {
          mk.emitError("tile-lower-block-pointers needs block dimensions in [1, 2^31 - 1), the "
                       "lengths of tile.arange");
          return WalkResult::interrupt();
        }
      }
      if (isa<scf::YieldOp, scf::ConditionOp>(op) &&
          !isa<scf::ForOp, scf::IfOp, scf::WhileOp>(op->getParentOp())) {
        op->emitError() << "tile-lower-block-pointers cannot carry a block pointer out of '"
                        << op->getParentOp()->getName()
                        << "'; carry it through scf.for, scf.if or scf.while";
        return WalkResult::interrupt();
      }
      if (isa<tile::MakeBlockPtrOp, tile::AdvanceOp, tile::LoadOp, tile::StoreOp, scf::ForOp,
              scf::IfOp, scf::WhileOp, scf::YieldOp, scf::ConditionOp>(op))
        return WalkResult::advance();
      if (isa<FunctionOpInterface>(op) || isa<CallOpInterface>(op) ||
          op->hasTrait<OpTrait::ReturnLike>()) {
        op->emitError("tile-lower-block-pointers cannot pass a block pointer between functions; "
                      "inline the function (the GPU pipeline's inliner runs first) or pass its "
                      "base pointer, shape, strides and offsets");
        return WalkResult::interrupt();
      }
      op->emitError() << "tile-lower-block-pointers cannot lower '" << op->getName()
                      << "' on a block pointer; use block pointers only in tile.advance, "
                         "tile.load, tile.store, and carry them through scf.for, scf.if or "
                         "scf.while";
      return WalkResult::interrupt();
    });
    return failure(r.wasInterrupted());
  }

  /// Which loads the adapter keeps, and each access's order.
  LogicalResult decideAccesses() {
    WalkResult r = module.walk([&](Operation *op) -> WalkResult {
      Value ptr;
      if (auto load = dyn_cast<tile::LoadOp>(op))
        ptr = load.getPtr();
      else if (auto store = dyn_cast<tile::StoreOp>(op))
        ptr = store.getPtr();
      if (!ptr || !isBlockPtr(ptr.getType()))
        return WalkResult::advance();
      accessOrder[op] = orders->orderOf(ptr);
      auto load = dyn_cast<tile::LoadOp>(op);
      auto store = dyn_cast<tile::StoreOp>(op);
      if (!target || !(load ? target->loadsBlockThroughTensorMap(load)
                            : target->storesBlockThroughTensorMap(store)))
        return WalkResult::advance();
      if (!accessOrder[op]) {
        op->emitError() << "the block pointer of this " << (load ? "load" : "store")
                        << " comes from make_block_ptr ops of different orders; give them one "
                           "order (the adapter keeps the access for its bulk tensor copies, "
                           "which need one)";
        return WalkResult::interrupt();
      }
      kept.insert(op);
      return WalkResult::advance();
    });
    return failure(r.wasInterrupted());
  }

  //===--- the rewrite -------------------------------------------------------===//

  void lowerRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : llvm::make_early_inc_range(block))
        lowerOp(&op);
  }

  void lowerOp(Operation *op) {
    if (auto mk = dyn_cast<tile::MakeBlockPtrOp>(op)) {
      parts[mk.getResult()] = {mk.getBase(), SmallVector<Value>(mk.getShape()),
                               SmallVector<Value>(mk.getStrides()),
                               SmallVector<Value>(mk.getOffsets())};
      dead.push_back(op);
    } else if (auto adv = dyn_cast<tile::AdvanceOp>(op)) {
      lowerAdvance(adv);
    } else if (auto load = dyn_cast<tile::LoadOp>(op);
               load && isBlockPtr(load.getPtr().getType())) {
      lowerLoad(load);
    } else if (auto store = dyn_cast<tile::StoreOp>(op);
               store && isBlockPtr(store.getPtr().getType())) {
      lowerStore(store);
    } else if (auto loop = dyn_cast<scf::ForOp>(op); loop && anyBlockPtr(loop->getResultTypes())) {
      lowerFor(loop);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && anyBlockPtr(ifOp->getResultTypes())) {
      lowerIf(ifOp);
    } else if (auto loop = dyn_cast<scf::WhileOp>(op);
               loop &&
               (anyBlockPtr(loop->getResultTypes()) || anyBlockPtr(loop.getInits().getTypes()))) {
      lowerWhile(loop);
    } else {
      for (Region &region : op->getRegions())
        lowerRegion(region);
    }
  }

  /// The parts of block pointer `v`, which the walk has met before its uses.
  const BlockPtrParts &partsOf(Value v) const {
    auto it = parts.find(v);
    assert(it != parts.end() && "block pointer used before its definition was lowered");
    return it->second;
  }

  void lowerAdvance(tile::AdvanceOp adv) {
    OpBuilder b(adv);
    I64Math m{b, adv.getLoc(), constants};
    BlockPtrParts p = partsOf(adv.getPtr());
    for (unsigned d = 0; d < p.rank(); ++d)
      p.offsets[d] = m.add(p.offsets[d], adv.getOffsets()[d]);
    parts[adv.getResult()] = p;
    dead.push_back(adv);
  }

  static ArrayRef<int32_t> checkedDims(std::optional<ArrayRef<int32_t>> bc) {
    return bc ? *bc : ArrayRef<int32_t>();
  }

  /// A kept access (the adapter's bulk copies) stays one, through a make_block_ptr of the
  /// block pointer's current components right before it.
  void keepBlockPtr(Operation *access, OpOperand &ptr) {
    OpBuilder b(access);
    const BlockPtrParts &p = partsOf(ptr.get());
    ptr.set(b.create<tile::MakeBlockPtrOp>(access->getLoc(), ptr.get().getType(), p.base, p.shape,
                                           p.strides, p.offsets, accessOrder.lookup(access)));
  }

  void lowerLoad(tile::LoadOp load) {
    if (kept.contains(load))
      return keepBlockPtr(load, load.getPtrMutable());
    OpBuilder b(load);
    Location loc = load.getLoc();
    const BlockPtrParts &p = partsOf(load.getPtr());
    auto bpType = cast<tile::BlockPtrType>(load.getPtr().getType());
    RankedTensorType block = bpType.getBlockType();
    auto [ptrs, mask] =
        blockAccess(b, loc, p, block, checkedDims(load.getBoundaryCheck()), constants);
    // Out-of-bounds lanes read the padding; without one they are undefined (no `other`).
    Value other;
    if (std::optional<tile::PaddingOption> pad = load.getPadding(); pad && mask) {
      TypedAttr value = b.getZeroAttr(block);
      if (*pad == tile::PaddingOption::nan)
        value = DenseElementsAttr::get(
            block, APFloat::getNaN(cast<FloatType>(block.getElementType()).getFloatSemantics()));
      other = b.create<arith::ConstantOp>(loc, value);
    }
    auto lowered = b.create<tile::LoadOp>(loc, block, ptrs, mask, other, load.getCacheAttr(),
                                          load.getEvictAttr(), load.getIsVolatileAttr(),
                                          DenseI32ArrayAttr(), tile::PaddingOptionAttr());
    lowered->setDiscardableAttrs(load->getDiscardableAttrDictionary());
    load.getResult().replaceAllUsesWith(lowered.getResult());
    load.erase();
    accesses.push_back(lowered);
  }

  void lowerStore(tile::StoreOp store) {
    if (kept.contains(store))
      return keepBlockPtr(store, store.getPtrMutable());
    OpBuilder b(store);
    RankedTensorType block = cast<tile::BlockPtrType>(store.getPtr().getType()).getBlockType();
    auto [ptrs, mask] = blockAccess(b, store.getLoc(), partsOf(store.getPtr()), block,
                                    checkedDims(store.getBoundaryCheck()), constants);
    auto lowered =
        b.create<tile::StoreOp>(store.getLoc(), ptrs, store.getValue(), mask, store.getCacheAttr(),
                                store.getEvictAttr(), DenseI32ArrayAttr());
    lowered->setDiscardableAttrs(store->getDiscardableAttrDictionary());
    store.erase();
    accesses.push_back(lowered);
  }

  /// Appends what `v` becomes as an operand of a loop or branch: its carried parts, or itself.
  void appendCarried(SmallVectorImpl<Value> &out, Value v, const Carried &how) const {
    if (how.kind == Carried::Value) {
      out.push_back(v);
    } else if (how.kind == Carried::AllParts) {
      llvm::append_range(out, partsOf(v).flat());
    } else {
      for (auto [o, moving] : llvm::zip(partsOf(v).offsets, how.moving))
        if (moving)
          out.push_back(o);
    }
  }

  /// The parts of a value carried as `how` (not Carried::Value) in `values`: all of them, or
  /// the moving offsets with the other parts from `like`.
  BlockPtrParts partsFrom(ValueRange values, const Carried &how, Value like, unsigned rank) const {
    if (how.kind == Carried::AllParts)
      return BlockPtrParts::fromFlat(values, rank);
    BlockPtrParts p = partsOf(like);
    unsigned k = 0;
    for (unsigned d = 0; d < rank; ++d)
      if (how.moving[d])
        p.offsets[d] = values[k++];
    return p;
  }

  /// How many values carry a value carried as `how`.
  static unsigned carriedCount(const Carried &how, unsigned rank) {
    if (how.kind == Carried::Value)
      return 1;
    if (how.kind == Carried::AllParts)
      return 1 + 3 * rank;
    return llvm::count(how.moving, true);
  }

  /// Replaces the block pointers among `block`'s arguments from `firstArg` on (carried as
  /// `how[i]`) by arguments for their carried parts. `like[i]` is a lowered block pointer of
  /// the same base type; for Carried::Offsets its other parts are the argument's.
  void expandArguments(Block *block, unsigned firstArg, ArrayRef<Carried> how,
                       ArrayRef<Value> like) {
    OpBuilder b = OpBuilder::atBlockBegin(block);
    unsigned pos = firstArg;
    for (auto [c, l] : llvm::zip(how, like)) {
      BlockArgument old = block->getArgument(pos);
      if (c.kind == Carried::Value) {
        ++pos;
        continue;
      }
      unsigned rank = rankOf(old.getType());
      SmallVector<Type> types;
      if (c.kind == Carried::Offsets)
        types.assign(carriedCount(c, rank), b.getI64Type());
      else
        types = flatTypes(old.getType(), partsOf(l).base.getType());
      SmallVector<Value> args;
      for (auto [k, t] : llvm::enumerate(types))
        args.push_back(block->insertArgument(pos + 1 + k, t, old.getLoc()));
      // A stand-in for the old argument until its users are rewritten.
      auto standIn = b.create<UnrealizedConversionCastOp>(old.getLoc(), old.getType(), args);
      parts[standIn.getResult(0)] = partsFrom(args, c, l, rank);
      dead.push_back(standIn);
      old.replaceAllUsesWith(standIn.getResult(0));
      block->eraseArgument(pos);
      pos += types.size();
    }
  }

  /// Replaces the operands of `term` from `first` on by what they carry.
  void rewriteTerminator(Operation *term, unsigned first, ArrayRef<Carried> how) {
    SmallVector<Value> operands(term->getOperands().take_front(first));
    for (auto [v, c] : llvm::zip(term->getOperands().drop_front(first), how))
      appendCarried(operands, v, c);
    term->setOperands(operands);
  }

  /// The parts of the results of `old`, now `results` of its replacement (carried as `how`;
  /// for Carried::Offsets, `like[i]` has the other parts).
  void mapResults(Operation *old, ValueRange results, ArrayRef<Carried> how, ArrayRef<Value> like) {
    unsigned pos = 0;
    for (auto [i, c] : llvm::enumerate(how)) {
      Value r = old->getResult(i);
      if (c.kind == Carried::Value) {
        r.replaceAllUsesWith(results[pos++]);
        continue;
      }
      unsigned rank = rankOf(r.getType()), n = carriedCount(c, rank);
      parts[r] = partsFrom(results.slice(pos, n), c, like.empty() ? Value() : like[i], rank);
      pos += n;
    }
    dead.push_back(old);
  }

  /// How the body of `loop` carries iter_arg `i`: when it yields the argument only advanced,
  /// just the offsets the advances move (by anything but the constant 0); the base, shape,
  /// strides and other offsets are the initial value's.
  static Carried carriedBy(scf::ForOp loop, unsigned i) {
    Value arg = loop.getRegionIterArgs()[i];
    if (!isBlockPtr(arg.getType()))
      return {Carried::Value, {}};
    Carried c{Carried::Offsets, SmallVector<bool, 4>(rankOf(arg.getType()), false)};
    Value v = loop.getBody()->getTerminator()->getOperand(i);
    while (auto adv = v.getDefiningOp<tile::AdvanceOp>()) {
      for (auto [d, step] : llvm::enumerate(adv.getOffsets()))
        c.moving[d] = c.moving[d] || !matchPattern(step, m_Zero());
      v = adv.getPtr();
    }
    return v == arg ? c : Carried{Carried::AllParts, {}};
  }

  void lowerFor(scf::ForOp loop) {
    SmallVector<Carried> how;
    SmallVector<Value> inits, like(loop.getInitArgs());
    for (auto [i, init] : llvm::enumerate(like)) {
      how.push_back(carriedBy(loop, i));
      appendCarried(inits, init, how.back());
    }
    OpBuilder b(loop);
    auto newLoop = b.create<scf::ForOp>(loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
                                        loop.getStep(), inits);
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    newLoop.getRegion().takeBody(loop.getRegion());
    expandArguments(newLoop.getBody(), 1, how, like);
    lowerRegion(newLoop.getRegion());
    rewriteTerminator(newLoop.getBody()->getTerminator(), 0, how);
    mapResults(loop, newLoop.getResults(), how, like);
  }

  void lowerIf(scf::IfOp ifOp) {
    lowerRegion(ifOp.getThenRegion());
    lowerRegion(ifOp.getElseRegion());
    SmallVector<Carried> how;
    for (Value r : ifOp.getResults())
      how.push_back(Carried::of(r.getType()));
    rewriteTerminator(ifOp.thenYield(), 0, how);
    rewriteTerminator(ifOp.elseYield(), 0, how);
    OpBuilder b(ifOp);
    auto newIf = b.create<scf::IfOp>(ifOp.getLoc(), ifOp.thenYield().getOperandTypes(),
                                     ifOp.getCondition(), /*addThenBlock=*/false,
                                     /*addElseBlock=*/false);
    newIf->setDiscardableAttrs(ifOp->getDiscardableAttrDictionary());
    newIf.getThenRegion().takeBody(ifOp.getThenRegion());
    newIf.getElseRegion().takeBody(ifOp.getElseRegion());
    mapResults(ifOp, newIf.getResults(), how, {});
  }

  void lowerWhile(scf::WhileOp loop) {
    SmallVector<Carried> before, after;
    SmallVector<Value> inits, initValues(loop.getInits());
    for (Value init : initValues) {
      before.push_back(Carried::of(init.getType()));
      appendCarried(inits, init, before.back());
    }
    for (Value r : loop.getResults())
      after.push_back(Carried::of(r.getType()));
    expandArguments(loop.getBeforeBody(), 0, before, initValues);
    lowerRegion(loop.getBefore());
    // The after block and the results take the parts the condition passes on.
    scf::ConditionOp cond = loop.getConditionOp();
    SmallVector<Value> passed(cond.getArgs());
    rewriteTerminator(cond, 1, after);
    SmallVector<Type> resultTypes(cond.getArgs().getTypes());
    expandArguments(loop.getAfterBody(), 0, after, passed);
    lowerRegion(loop.getAfter());
    rewriteTerminator(loop.getAfterBody()->getTerminator(), 0, before);
    OpBuilder b(loop);
    auto newLoop = b.create<scf::WhileOp>(loop.getLoc(), resultTypes, inits);
    newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    newLoop.getBefore().takeBody(loop.getBefore());
    newLoop.getAfter().takeBody(loop.getAfter());
    mapResults(loop, newLoop.getResults(), after, {});
  }

  /// Erases the replaced ops, users first, and the constants no one uses.
  LogicalResult cleanup() {
    for (Operation *op : llvm::reverse(dead)) {
      if (!op->use_empty()) {
        InFlightDiagnostic diag = op->emitError(
            "tile-lower-block-pointers left a use of this block pointer (a bug in the pass)");
        for (Operation *user : op->getUsers())
          diag.attachNote(user->getLoc()) << "used here by " << user->getName();
        return failure();
      }
      op->erase();
    }
    dead.clear();
    for (Operation *c : constants)
      if (c->use_empty())
        c->erase();
    constants.clear();
    return success();
  }

  /// Loop-invariant code motion on the loops around the new accesses, innermost first: the
  /// lane offsets depend on the strides only.
  void hoistAddressComputations() {
    llvm::SetVector<Operation *> loops;
    for (Operation *op : accesses)
      for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
        if (isa<LoopLikeOpInterface>(p))
          loops.insert(p);
    auto depth = [](Operation *op) {
      unsigned d = 0;
      for (; op; op = op->getParentOp())
        ++d;
      return d;
    };
    SmallVector<Operation *> sorted(loops.begin(), loops.end());
    llvm::stable_sort(sorted, [&](Operation *a, Operation *b) { return depth(a) > depth(b); });
    // A kept load's make_block_ptr stays right before it, where the adapter looks for it.
    for (Operation *op : sorted) {
      auto loop = cast<LoopLikeOpInterface>(op);
      moveLoopInvariantCode(
          loop.getLoopRegions(), [&](Value v, Region *) { return loop.isDefinedOutsideOfLoop(v); },
          [&](Operation *op, Region *) {
            return !isa<tile::MakeBlockPtrOp>(op) && isMemoryEffectFree(op) && isSpeculatable(op);
          },
          [&](Operation *op, Region *) { loop.moveOutOfLoop(op); });
    }
  }

  ModuleOp module;
  const TargetInfo *target;
  std::optional<BlockPointerOrders> orders;
  DenseMap<Operation *, DenseI32ArrayAttr> accessOrder;
  DenseSet<Operation *> kept;
  DenseMap<Value, BlockPtrParts> parts;
  SmallVector<Operation *> dead;      // replaced ops, erased users first
  SmallVector<Operation *> accesses;  // the new loads and stores
  SmallVector<Operation *> constants; // i64 constants made while folding
};

struct LowerBlockPointersPass : tessel::impl::TileLowerBlockPointersBase<LowerBlockPointersPass> {
  using TileLowerBlockPointersBase::TileLowerBlockPointersBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = module
                   .walk([](Operation *op) {
                     return touchesBlockPtr(op) ? WalkResult::interrupt() : WalkResult::advance();
                   })
                   .wasInterrupted();
    if (!any)
      return markAllAnalysesPreserved();
    // The target decides which loads stay block-pointer loads.
    std::unique_ptr<TargetInfo> info = createTargetInfoFor(module, target);
    if (!info)
      return signalPassFailure();
    if (failed(Lowering(module, info.get()).run()))
      return signalPassFailure();
  }
};

} // namespace
