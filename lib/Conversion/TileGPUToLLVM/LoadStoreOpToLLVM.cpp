//===- LoadStoreOpToLLVM.cpp - loads, stores and atomics ------------------===//
//
// A thread's elements are grouped into vectors along the layout's fastest dimension: as wide as
// the pointers' contiguity and alignment and the mask's constancy allow (AxisInfo), at most 16
// bytes and never across a sizePerThread chunk. Each group is one access through the target,
// predicated by its mask; `other` fills the lanes the mask disables. Stores and atomics are
// also predicated on ownership so that an element held by several threads is written once.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "tessel/Analysis/AxisInfo.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

constexpr unsigned kBenefit = 10;

/// A tile access in vectors: the thread's elements and how many go in each access.
struct VectorAccess {
  ThreadElems te;
  unsigned vec;
  /// Whether element `e` starts a vector: its index along the fastest dimension is a multiple
  /// of the width.
  bool starts(unsigned e) const { return te.delinearize(e)[te.dimOrder[0]] % vec == 0; }
};

template <typename OpT> struct MemoryPattern : public ConvertOpToLLVMPattern<OpT> {
  MemoryPattern(LLVMTypeConverter &c, const TargetInfo &target, const AxisInfoMap &axis,
                SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<OpT>(c, kBenefit), target(target), axis(axis), shared(shared) {}

  /// Elements per access for a tile of pointers `ptr` (+ mask) in layout `te`.
  unsigned vectorWidth(Operation *op, Value ptr, Value mask, const ThreadElems &te,
                       unsigned elemBytes) const {
    const AxisInfoAnalysis *info = axis.lookup(op);
    unsigned f = te.dimOrder[0];
    unsigned k = te.view.keptDims[f];
    unsigned v = std::min<unsigned>(te.view.root.getSizePerThread()[k], te.perDim[f]);
    if (!info)
      return 1;
    return std::min(v, info->getVectorWidth(ptr, mask, f, elemBytes));
  }

  /// How `op` accesses the tile `type` in vectors; nullopt when it has no distributed layout.
  std::optional<VectorAccess> vectorAccess(OpT op, RankedTensorType type,
                                           unsigned elemBytes) const {
    std::optional<ThreadElems> te = getThreadElems(type);
    if (!te)
      return std::nullopt;
    return VectorAccess{*te, vectorWidth(op, op.getPtr(), op.getMask(), *te, elemBytes)};
  }

  MemoryHints hintsOf(OpT op) const {
    MemoryHints h;
    if constexpr (!std::is_same_v<OpT, tile::AtomicRMWOp> &&
                  !std::is_same_v<OpT, tile::AtomicCASOp>) {
      h.cache = op.getCache();
      h.evict = op.getEvict();
    }
    if constexpr (std::is_same_v<OpT, tile::LoadOp>)
      h.isVolatile = op.getIsVolatile();
    return h;
  }

  const TargetInfo &target;
  const AxisInfoMap &axis;
  SharedMemoryPlan &shared;
};

/// thread id == 0: the one thread that performs a program's scalar store or atomic.
Value isFirstThread(OpBuilder &b, Location loc, const TargetInfo &target) {
  return b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, target.getThreadId(b, loc),
                                i32Const(b, loc, 0));
}

/// The registers of each tile operand, in order; none for an absent mask or other.
template <size_t N>
std::array<SmallVector<Value>, N> unpackOperands(OpBuilder &b, Location loc,
                                                 std::array<Value, N> operands) {
  std::array<SmallVector<Value>, N> regs;
  for (size_t i = 0; i < N; ++i)
    if (operands[i])
      regs[i] = unpackStruct(b, loc, operands[i]);
  return regs;
}

/// Element e's predicate for a write: its owner bit and its mask bit, each where present.
Value writePred(OpBuilder &b, Location loc, ArrayRef<Value> owners, ArrayRef<Value> masks,
                unsigned e) {
  return andPred(b, loc, owners[e], masks.empty() ? Value() : masks[e]);
}

/// Whether `v` is a constant whose every element has all bits clear (0, +0.0, false): the lanes
/// a predicate disables already read as that (TargetInfo::loadGlobal), so `other` needs no
/// select. Masked row loads mostly take other = 0; the select cost one instruction per element.
bool isZeroBits(Value v) {
  return v && (matchPattern(v, m_Zero()) || matchPattern(v, m_PosZeroFloat()));
}

/// i1 lives in memory as a byte.
Type memoryType(Type t, OpBuilder &b) { return t.isInteger(1) ? b.getI8Type() : t; }

/// The bits, as stored in memory (`memBits` wide), of every element of a constant `other`:
/// a target that can fill the lanes a predicate disables (TargetInfo::fillsDisabledLoads) then
/// needs no select. -inf before a max is the common case: one instruction per element.
std::optional<APInt> constantBits(Value other, unsigned memBits) {
  Attribute attr;
  if (!other || !matchPattern(other, m_Constant(&attr)))
    return std::nullopt;
  if (auto dense = dyn_cast<SplatElementsAttr>(attr))
    attr = dense.getSplatValue<Attribute>();
  APInt bits;
  if (auto f = dyn_cast<FloatAttr>(attr))
    bits = f.getValue().bitcastToAPInt();
  else if (auto i = dyn_cast<IntegerAttr>(attr))
    bits = i.getValue();
  else
    return std::nullopt;
  return bits.zext(std::max(memBits, bits.getBitWidth()));
}

struct LoadOpConversion : MemoryPattern<tile::LoadOp> {
  using MemoryPattern::MemoryPattern;
  LogicalResult matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa<tile::BlockPtrType>(op.getPtr().getType()))
      return failure(); // checkLowerable reported it
    Location loc = op.getLoc();
    Type elemType = getElementTypeOrSelf(op.getType());
    Type memType = memoryType(elemType, rewriter);
    unsigned elemBytes = byteWidth(memType);
    MemoryHints hints = hintsOf(op);
    bool otherIsZero = isZeroBits(op.getOther());
    std::optional<APInt> fill;
    if (target.fillsDisabledLoads() && !otherIsZero)
      fill = constantBits(op.getOther(), memType.getIntOrFloatBitWidth());
    bool otherIsFilled = otherIsZero || fill;
    auto finish = [&](Value loaded, Value pred, Value other) -> Value {
      if (memType != elemType)
        loaded = rewriter.create<LLVM::TruncOp>(loc, elemType, loaded);
      if (pred && other && !otherIsFilled)
        loaded = rewriter.create<LLVM::SelectOp>(loc, pred, loaded, other);
      return loaded;
    };
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type) {
      Value v = target.loadGlobal(rewriter, loc, adaptor.getPtr(), memType, adaptor.getMask(),
                                  elemBytes, hints, fill);
      rewriter.replaceOp(op, finish(v, adaptor.getMask(), adaptor.getOther()));
      return success();
    }
    std::optional<VectorAccess> access = vectorAccess(op, type, elemBytes);
    if (!access)
      return failure();
    auto [ptrs, masks, others] =
        unpackOperands<3>(rewriter, loc, {adaptor.getPtr(), adaptor.getMask(), adaptor.getOther()});
    SmallVector<Value> out(access->te.total);
    for (unsigned e = 0; e < access->te.total; ++e) {
      if (!access->starts(e))
        continue;
      Value pred = masks.empty() ? Value() : masks[e];
      Type accessType = access->vec == 1 ? memType : VectorType::get({access->vec}, memType);
      Value v = target.loadGlobal(rewriter, loc, ptrs[e], accessType, pred, access->vec * elemBytes,
                                  hints, fill);
      for (unsigned j = 0; j < access->vec; ++j) {
        Value x = access->vec == 1
                      ? v
                      : rewriter.create<LLVM::ExtractElementOp>(loc, v, i32Const(rewriter, loc, j))
                            .getResult();
        out[e + j] = finish(x, pred, others.empty() ? Value() : others[e + j]);
      }
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, getTypeConverter()->convertType(type), out));
    return success();
  }
};

struct StoreOpConversion : MemoryPattern<tile::StoreOp> {
  using MemoryPattern::MemoryPattern;
  LogicalResult matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa<tile::BlockPtrType>(op.getPtr().getType()))
      return failure(); // checkLowerable reported it
    Location loc = op.getLoc();
    Type elemType = getElementTypeOrSelf(op.getValue().getType());
    Type memType = memoryType(elemType, rewriter);
    unsigned elemBytes = byteWidth(memType);
    MemoryHints hints = hintsOf(op);
    auto toMemory = [&](Value v) -> Value {
      return memType == elemType ? v : rewriter.create<LLVM::ZExtOp>(loc, memType, v).getResult();
    };
    auto type = dyn_cast<RankedTensorType>(op.getValue().getType());
    if (!type) {
      // Every thread computes the scalar; one stores it.
      Value first = isFirstThread(rewriter, loc, target);
      target.storeGlobal(rewriter, loc, adaptor.getPtr(), toMemory(adaptor.getValue()),
                         andPred(rewriter, loc, first, adaptor.getMask()), elemBytes, hints);
      rewriter.eraseOp(op);
      return success();
    }
    std::optional<VectorAccess> access = vectorAccess(op, type, elemBytes);
    if (!access)
      return failure();
    auto [ptrs, vals, masks] =
        unpackOperands<3>(rewriter, loc, {adaptor.getPtr(), adaptor.getValue(), adaptor.getMask()});
    SmallVector<Value> owners = emitOwnership(rewriter, loc, target, access->te);
    for (unsigned e = 0; e < access->te.total; ++e) {
      if (!access->starts(e))
        continue;
      Value pred = writePred(rewriter, loc, owners, masks, e);
      Value v;
      if (access->vec == 1) {
        v = toMemory(vals[e]);
      } else {
        v = rewriter.create<LLVM::UndefOp>(loc, VectorType::get({access->vec}, memType));
        for (unsigned j = 0; j < access->vec; ++j)
          v = rewriter.create<LLVM::InsertElementOp>(loc, v, toMemory(vals[e + j]),
                                                     i32Const(rewriter, loc, j));
      }
      target.storeGlobal(rewriter, loc, ptrs[e], v, pred, access->vec * elemBytes, hints);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Scalar atomics run in thread 0; the old value reaches every thread through shared memory.
/// Other threads write a second, unread slot, so no branch is needed (scf bodies must stay
/// single blocks during the conversion).
Value broadcastFromThread0(ConversionPatternRewriter &rewriter, Location loc,
                           const TargetInfo &target, SharedMemoryPlan &shared, Operation *op,
                           Value v, Value isThread0) {
  unsigned bytes = std::max(8u, byteWidth(v.getType()));
  unsigned base = shared.reserveScratch(op, 2 * bytes);
  Value slot = sharedMemoryPtr(rewriter, loc, target, base);
  Value dummy = sharedMemoryPtr(rewriter, loc, target, base + bytes);
  target.barrier(rewriter, loc);
  rewriter.create<LLVM::StoreOp>(loc, v,
                                 rewriter.create<LLVM::SelectOp>(loc, isThread0, slot, dummy));
  target.barrier(rewriter, loc);
  return rewriter.create<LLVM::LoadOp>(loc, v.getType(), slot);
}

/// A scalar atomic that releases does so for the whole program: every thread's earlier stores
/// reach the CTA barrier before thread 0's atomic publishes them (CUTLASS's semaphore:
/// a CTA barrier, then one release at gpu scope). Without it a split-K reduction's last program
/// could read a partial sum another program's threads had not stored yet.
void barrierBeforeRelease(ConversionPatternRewriter &rewriter, Location loc,
                          const TargetInfo &target, tile::MemSemantic sem) {
  if (sem == tile::MemSemantic::release || sem == tile::MemSemantic::acq_rel)
    target.barrier(rewriter, loc);
}

struct AtomicRMWOpConversion : MemoryPattern<tile::AtomicRMWOp> {
  using MemoryPattern::MemoryPattern;
  /// One element's atomic: the target's instruction, or float max / min through integers.
  Value rmw(OpBuilder &b, Location loc, tile::AtomicRMWOp op, Value ptr, Value val,
            Value pred) const {
    if (lowersFloatMinMaxThroughIntegers(target, op.getKind(), val.getType()))
      return emitFloatMinMaxAtomic(b, loc, target, op.getKind(), ptr, val, pred, op.getSem(),
                                   op.getScope());
    return target.atomicRMW(b, loc, op.getKind(), ptr, val, pred, op.getSem(), op.getScope());
  }
  LogicalResult matchAndRewrite(tile::AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type) {
      barrierBeforeRelease(rewriter, loc, target, op.getSem());
      Value first = isFirstThread(rewriter, loc, target);
      Value pred = andPred(rewriter, loc, first, adaptor.getMask());
      Value old = rmw(rewriter, loc, op, adaptor.getPtr(), adaptor.getVal(), pred);
      if (!op.getResult().use_empty())
        old = broadcastFromThread0(rewriter, loc, target, shared, op, old, first);
      rewriter.replaceOp(op, old);
      return success();
    }
    std::optional<ThreadElems> te = getThreadElems(type);
    if (!te)
      return failure();
    auto [ptrs, vals, masks] =
        unpackOperands<3>(rewriter, loc, {adaptor.getPtr(), adaptor.getVal(), adaptor.getMask()});
    SmallVector<Value> owners = emitOwnership(rewriter, loc, target, *te);
    if (!op.getResult().use_empty() && llvm::any_of(owners, [](Value v) { return bool(v); }))
      return op.emitError("the result of an atomic on a tile whose layout replicates elements is "
                          "not supported yet");
    SmallVector<Value> out;
    for (unsigned e = 0; e < te->total; ++e) {
      Value pred = writePred(rewriter, loc, owners, masks, e);
      out.push_back(rmw(rewriter, loc, op, ptrs[e], vals[e], pred));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, getTypeConverter()->convertType(type), out));
    return success();
  }
};

struct AtomicCASOpConversion : MemoryPattern<tile::AtomicCASOp> {
  using MemoryPattern::MemoryPattern;
  LogicalResult matchAndRewrite(tile::AtomicCASOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (isa<RankedTensorType>(op.getType()))
      return failure(); // checkLowerable reported it
    Location loc = op.getLoc();
    barrierBeforeRelease(rewriter, loc, target, op.getSem());
    Value first = isFirstThread(rewriter, loc, target);
    Value result = target.atomicCAS(rewriter, loc, adaptor.getPtr(), adaptor.getCmp(),
                                    adaptor.getVal(), first, op.getSem(), op.getScope());
    if (!op.getResult().use_empty())
      result = broadcastFromThread0(rewriter, loc, target, shared, op, result, first);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

namespace tessel {
void populateLoadStoreOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                       const AxisInfoMap &axis, SharedMemoryPlan &shared,
                                       RewritePatternSet &patterns) {
  patterns.add<LoadOpConversion, StoreOpConversion, AtomicRMWOpConversion, AtomicCASOpConversion>(
      converter, target, axis, shared);
}
} // namespace tessel
