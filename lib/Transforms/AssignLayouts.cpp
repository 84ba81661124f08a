//===- AssignLayouts.cpp - give every tile a distributed layout -----------===//
//
// 1. Duplicate cheap multi-use producers (arange, splat, tensor constants, and integer
//    arithmetic, expand_dims and broadcast on them such as `(pid * BLOCK + arange)[:, None]`)
//    per use, so that a column index used
//    both as [None, :] and [:, None], or by tiles of different contiguity (a GEMM's B and C
//    sharing their column indices), does not tie their layouts or force a conversion.
// 2. Union tiles that must share a layout into classes; record slice relations between classes
//    (expand_dims: operand = slice(axis, result); reduce: result = slice(axis, operand)).
// 3. Give each root class (one that is no slice of another) a blocked layout from its shape,
//    the contiguity and alignment of its pointers and its reduced axes; derive slices from
//    parents breadth-first. A class reached with two different layouts keeps the first; the
//    other expand_dims / reduce gets a tile_gpu.convert_layout.
// 4. Rewrite every tensor type in place.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "tessel/Analysis/AxisInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUASSIGNLAYOUTS
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile;
using namespace tessel::tile_gpu;

namespace {

bool isTile(Value v) { return isa<RankedTensorType>(v.getType()); }

bool isCheapProducer(Operation *op, unsigned depth = 0) {
  if (op->getNumResults() != 1 || !isTile(op->getResult(0)))
    return false;
  if (isa<ArangeOp, SplatOp>(op) || isa<arith::ConstantOp>(op))
    return true;
  // Index arithmetic a few ops deep (`(pid * BLOCK + arange)[:, None]` broadcast to a tile):
  // cloning it costs a few integer ops per use, a shared layout can cost a conversion through
  // shared memory or a narrow load.
  if (depth >= 6 ||
      !isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::AddIOp, arith::SubIOp,
           arith::MulIOp, arith::IndexCastOp, ExpandDimsOp, BroadcastOp>(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == op->getBlock() && isCheapProducer(def, depth + 1);
  });
}

/// Ops whose tile operands and results all share one layout.
bool sharesLayout(Operation *op) {
  return !isa<ExpandDimsOp, ReduceOp, TransOp, ReshapeOp, DotOp, ConvertLayoutOp, scf::ForOp,
              scf::IfOp, scf::WhileOp, scf::YieldOp, scf::ConditionOp, YieldOp, func::ReturnOp,
              func::CallOp>(op);
}

struct SliceEdge {
  Value child;  // a member of the child class
  Value parent; // a member of the parent class
  unsigned axis;
  Operation *op;
};

class LayoutAssigner {
public:
  LayoutAssigner(func::FuncOp func, unsigned warpSize)
      : func(func), warpSize(warpSize), ctx(func.getContext()) {
    if (auto nw = func->getAttrOfType<IntegerAttr>(TileDialect::getNumWarpsAttrName()))
      numWarps = nw.getInt();
  }

  LogicalResult run() {
    // Layouts tile power-of-two shapes; other shapes would wrap onto the wrong elements.
    // tile-gpu-pad-shapes (before this pass in the GPU pipeline) pads them.
    WalkResult shapes = func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto tt = dyn_cast<RankedTensorType>(t))
          if (llvm::any_of(tt.getShape(), [](int64_t d) { return !llvm::isPowerOf2_64(d); })) {
            op->emitError() << "tile shape " << shapeToString(tt.getShape())
                            << " is not a power of two in every dimension; GPU layouts need "
                               "power-of-two blocks (run tile-gpu-pad-shapes first)";
            return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
    if (shapes.wasInterrupted())
      return failure();
    duplicateCheapProducers();
    collectClasses();
    uniteParentsOfSameSlice();
    AxisInfoAnalysis axis(func);
    if (failed(chooseLayouts(axis)))
      return failure();
    rewriteTypes();
    insertConversions();
    // Helpers may take and return tiles: their signature follows the new types.
    if (!func.getBody().empty()) {
      Operation *ret = func.getBody().back().getTerminator();
      func.setType(FunctionType::get(ctx, func.getBody().front().getArgumentTypes(),
                                     ret->getOperandTypes()));
    }
    return success();
  }

private:
  void duplicateCheapProducers() {
    SmallVector<Operation *> cheap;
    func.walk([&](Operation *op) {
      if (isCheapProducer(op))
        cheap.push_back(op);
    });
    // Users before producers: a clone's operands gain uses, duplicated when their turn comes.
    for (Operation *op : llvm::reverse(cheap)) {
      if (op->getResult(0).hasOneUse() || op->use_empty())
        continue;
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : op->getResult(0).getUses())
        uses.push_back(&use);
      OpBuilder b(op);
      b.setInsertionPointAfter(op);
      for (OpOperand *use : llvm::drop_begin(uses))
        use->set(b.clone(*op)->getResult(0));
    }
  }

  /// Union-find over tile values, in first-seen order so that the result is deterministic.
  Value find(Value v) {
    auto it = parent.find(v);
    if (it == parent.end()) {
      parent[v] = v;
      members[v].push_back(v);
      return v;
    }
    if (it->second == v)
      return v;
    Value root = find(it->second);
    parent[v] = root;
    return root;
  }
  void unite(Value a, Value b) {
    Value ra = find(a), rb = find(b);
    if (ra == rb)
      return;
    parent[rb] = ra;
    auto &ma = members[ra], &mb = members[rb];
    ma.append(mb.begin(), mb.end());
    members.erase(rb);
  }

  void collectClasses() {
    func.walk([&](Operation *op) {
      for (Value r : op->getResults())
        if (isTile(r))
          find(r);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument a : block.getArguments())
            if (isTile(a))
              find(a);
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
        for (auto [i, init] : llvm::enumerate(forOp.getInitArgs()))
          if (isTile(init)) {
            unite(init, forOp.getRegionIterArgs()[i]);
            unite(init, forOp.getResult(i));
            unite(init, yield.getOperand(i));
          }
        return;
      }
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        for (auto [i, r] : llvm::enumerate(ifOp.getResults()))
          if (isTile(r)) {
            unite(r, ifOp.thenYield().getOperand(i));
            if (!ifOp.getElseRegion().empty())
              unite(r, ifOp.elseYield().getOperand(i));
          }
        return;
      }
      if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
        auto cond = whileOp.getConditionOp();
        auto yield = cast<scf::YieldOp>(whileOp.getAfterBody()->getTerminator());
        for (auto [i, init] : llvm::enumerate(whileOp.getInits()))
          if (isTile(init)) {
            unite(init, whileOp.getBeforeArguments()[i]);
            unite(init, yield.getOperand(i));
          }
        for (auto [i, r] : llvm::enumerate(whileOp.getResults()))
          if (isTile(r)) {
            unite(r, cond.getArgs()[i]);
            unite(r, whileOp.getAfterArguments()[i]);
          }
        return;
      }
      // A dot's accumulator and result share a layout (the matrix-unit pass changes both).
      if (auto dot = dyn_cast<DotOp>(op)) {
        unite(dot.getC(), dot.getD());
        return;
      }
      if (auto e = dyn_cast<ExpandDimsOp>(op)) {
        edges.push_back({e.getSrc(), e.getResult(), unsigned(e.getAxis()), op});
        return;
      }
      if (auto r = dyn_cast<ReduceOp>(op)) {
        for (Value s : r.getSrcs().drop_front())
          unite(r.getSrcs()[0], s);
        for (Value res : r.getResults())
          if (isTile(res)) {
            unite(r.getResults()[0], res);
            edges.push_back({res, r.getSrcs()[0], unsigned(r.getAxis()), op});
          }
        reducedAxes[r.getSrcs()[0]].insert(r.getAxis());
        return;
      }
      if (!sharesLayout(op))
        return;
      Value first;
      SmallVector<Value> all(op->getOperands());
      all.append(op->result_begin(), op->result_end());
      for (Value v : all) {
        if (!isTile(v))
          continue;
        if (first)
          unite(first, v);
        else
          first = v;
      }
    });
  }

  Value leader(Value v) { return find(v); }

  /// Largest extent along `axis` among the members of `v`'s class.
  int64_t classExtent(Value v, unsigned axis) {
    int64_t extent = 1;
    for (Value m : members[leader(v)])
      extent = std::max(extent, cast<RankedTensorType>(m.getType()).getDimSize(axis));
    return extent;
  }
  bool differentExtents(Value a, Value b, unsigned axis) {
    int64_t ea = classExtent(a, axis), eb = classExtent(b, axis);
    return ea > 1 && eb > 1 && ea != eb;
  }

  /// slice(axis, X) == slice(axis, Y) only if X == Y: parents of one shape reached from one
  /// class through the same axis are one class (reduce then expand_dims along that axis
  /// round-trips).
  void uniteParentsOfSameSlice() {
    bool changed = true;
    while (changed) {
      changed = false;
      llvm::DenseMap<std::pair<Value, unsigned>, Value> parentOf;
      for (SliceEdge &e : edges) {
        auto key = std::make_pair(leader(e.child), e.axis);
        auto [it, inserted] = parentOf.try_emplace(key, leader(e.parent));
        // Parents with two different extents (> 1) along the axis stay apart (a GEMM's row
        // index feeds A's (BLOCK_M, BLOCK_K) and C's (BLOCK_M, BLOCK_N) tiles): one layout for
        // both would replicate the smaller tile across threads; the slice is converted instead.
        if (!inserted && leader(it->second) != leader(e.parent) &&
            !differentExtents(it->second, e.parent, e.axis)) {
          unite(it->second, e.parent);
          changed = true;
        }
      }
    }
  }

  /// Blocked layout of a root class from its members' shapes, memory ops and reductions.
  Attribute rootLayout(Value cls, const AxisInfoAnalysis &axis) {
    unsigned rank = cast<RankedTensorType>(cls.getType()).getRank();
    SmallVector<int64_t> shape(rank, 1);
    Value anchorPtr;
    unsigned vec = 1;
    SmallVector<std::pair<Value, Value>> memOps; // (ptr, mask)
    llvm::SmallSet<unsigned, 4> reduced;
    for (Value v : members[cls]) {
      auto t = cast<RankedTensorType>(v.getType());
      for (unsigned d = 0; d < rank; ++d)
        shape[d] = std::max(shape[d], t.getDimSize(d));
      for (Operation *user : v.getUsers()) {
        if (auto l = dyn_cast<LoadOp>(user); l && l.getPtr() == v)
          memOps.push_back({l.getPtr(), l.getMask()});
        if (auto s = dyn_cast<StoreOp>(user); s && s.getPtr() == v)
          memOps.push_back({s.getPtr(), s.getMask()});
        if (auto a = dyn_cast<AtomicRMWOp>(user); a && a.getPtr() == v)
          memOps.push_back({a.getPtr(), a.getMask()});
      }
      auto red = reducedAxes.find(v);
      if (red != reducedAxes.end())
        reduced.insert(red->second.begin(), red->second.end());
    }
    // Order: the most contiguous dimension of the first pointer first, then row-major.
    SmallVector<unsigned> order;
    for (int d = rank - 1; d >= 0; --d)
      order.push_back(d);
    if (!memOps.empty()) {
      anchorPtr = memOps.front().first;
      AxisInfo info = axis.get(anchorPtr);
      llvm::stable_sort(
          order, [&](unsigned a, unsigned b) { return info.contiguity[a] > info.contiguity[b]; });
    }
    auto elemBytes = [](Value ptr) {
      return std::max(1u, getPointeeType(ptr.getType()).getIntOrFloatBitWidth() / 8);
    };
    for (auto [ptr, mask] : memOps)
      vec = std::max(vec, axis.getVectorWidth(ptr, mask, order[0], elemBytes(ptr)));
    // A short reduced fastest dimension (one 16-byte vector at most, as the (BLOCK / 8, 8) view
    // of the online softmax) stays whole in each thread even where its loads cannot be
    // vectors: its reduction then takes no shuffles, and the reduced values are not
    // replicated over the lanes that would have shared it.
    if (!memOps.empty() && reduced.contains(order[0]) &&
        shape[order[0]] * elemBytes(anchorPtr) <= 16)
      vec = std::max<unsigned>(vec, shape[order[0]]);
    SmallVector<unsigned> warpOrder;
    for (int d = 0; d < int(rank); ++d)
      if (!reduced.contains(d))
        warpOrder.push_back(d);
    for (int d = 0; d < int(rank); ++d)
      if (reduced.contains(d))
        warpOrder.push_back(d);
    return getDefaultBlocked(ctx, shape, order, vec, numWarps, warpSize, warpOrder);
  }

  LogicalResult chooseLayouts(const AxisInfoAnalysis &axis) {
    llvm::DenseSet<Value> childClasses;
    for (SliceEdge &e : edges)
      childClasses.insert(leader(e.child));
    // Roots, highest rank first (deterministic: first appearance order).
    SmallVector<Value> roots;
    func.walk([&](Operation *op) {
      for (Value r : op->getResults())
        if (isTile(r) && !childClasses.contains(leader(r)) && !layouts.count(leader(r))) {
          layouts[leader(r)] = rootLayout(leader(r), axis);
          roots.push_back(leader(r));
        }
    });
    // Propagate slices breadth-first; repeat until no edge assigns a new class.
    bool changed = true;
    while (changed) {
      changed = false;
      for (SliceEdge &e : edges) {
        Value p = leader(e.parent), c = leader(e.child);
        auto pl = layouts.find(p);
        if (pl == layouts.end() || layouts.count(c))
          continue;
        layouts[c] = SliceEncodingAttr::get(ctx, e.axis, pl->second);
        changed = true;
      }
    }
    for (SliceEdge &e : edges)
      if (!layouts.count(leader(e.child)) || !layouts.count(leader(e.parent)))
        return e.op->emitError("internal error: no layout reached this tile"), failure();
    return success();
  }

  Type withLayout(Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return RankedTensorType::get(t.getShape(), t.getElementType(), layouts.lookup(leader(v)));
  }

  void rewriteTypes() {
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument a : block.getArguments())
            if (isTile(a))
              a.setType(withLayout(a));
      for (Value r : op->getResults()) {
        if (!isTile(r))
          continue;
        Type t = withLayout(r);
        r.setType(t);
        if (auto c = dyn_cast<arith::ConstantOp>(op))
          if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
            c.setValueAttr(dense.reshape(cast<ShapedType>(t)));
      }
    });
  }

  void insertConversions() {
    for (SliceEdge &e : edges) {
      auto childType = cast<RankedTensorType>(e.child.getType());
      auto parentType = cast<RankedTensorType>(e.parent.getType());
      Attribute want = SliceEncodingAttr::get(ctx, e.axis, parentType.getEncoding());
      if (childType.getEncoding() == want)
        continue;
      auto wantType = RankedTensorType::get(childType.getShape(), childType.getElementType(), want);
      OpBuilder b(e.op);
      if (auto expand = dyn_cast<ExpandDimsOp>(e.op)) {
        Value cvt = b.create<ConvertLayoutOp>(e.op->getLoc(), wantType, expand.getSrc());
        expand.getSrcMutable().assign(cvt);
        continue;
      }
      // A reduce result: produce it in the slice layout, convert for its users.
      b.setInsertionPointAfter(e.op);
      Value res = e.child;
      res.setType(wantType);
      auto cvt = b.create<ConvertLayoutOp>(e.op->getLoc(), childType, res);
      res.replaceAllUsesExcept(cvt, cvt);
    }
  }

  func::FuncOp func;
  unsigned warpSize;
  MLIRContext *ctx;
  unsigned numWarps = 4;
  llvm::DenseMap<Value, Value> parent;
  llvm::DenseMap<Value, SmallVector<Value>> members;
  SmallVector<SliceEdge> edges;
  llvm::DenseMap<Value, llvm::SmallSet<unsigned, 2>> reducedAxes;
  llvm::DenseMap<Value, Attribute> layouts; // class leader -> layout
};

struct AssignLayoutsPass : tessel::impl::TileGPUAssignLayoutsBase<AssignLayoutsPass> {
  using TileGPUAssignLayoutsBase::TileGPUAssignLayoutsBase;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(LayoutAssigner(func, threadsPerWarp).run()))
        return signalPassFailure();
  }
};

} // namespace
