//===- ClusterMulticast.cpp - TMA multicast between the two CTAs of a cluster ------===//
//
// The rewrite is in Passes.td. Why: a small GEMM (1024x1024x2048 on 128 CTAs) reads its
// operand tiles from L2 once per CTA, 24 KB per K step for a 64x128 tile, and is bound by L2
// bandwidth (about 10 TB/s on an H200); two CTAs that need the same tile of B can read it from
// L2 once and have the TMA unit write it into both shared memories (cuBLAS's nvjet kernels run
// clusters of two there). That takes the cluster's CTAs in step: a stage is refilled only when
// both have read it.
//
// Which copies are shared is decided at run time: the pair is programs 2c and 2c + 1, and a
// copy is multicast when its coordinates at program_id(0) equal those at program_id(0) ^ 1
// (the pass clones their computation with the peer's program id). With GEMM's GROUP_M order
// the pair usually shares B (two rows of tiles in one column); at the edge of a group with an
// odd number of rows it shares A, or nothing. The relation is symmetric, so both CTAs agree.
//
//===----------------------------------------------------------------------===//
#include "tessel/NVIDIA/Transforms/Passes.h"
#include "tessel/Target/TargetInfo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace tessel::tile_nv {
#define GEN_PASS_DEF_TILENVCLUSTERMULTICAST
#include "tessel/NVIDIA/Transforms/Passes.h.inc"
} // namespace tessel::tile_nv

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct ClusterMulticaster {
  explicit ClusterMulticaster(func::FuncOp func) : func(func) {}

  func::FuncOp func;
  /// The kernel's body before the branch into producer and consumers.
  Block *top = nullptr;
  /// Where values of the top block that the conditions need are computed: before the branch.
  Operation *branch = nullptr;
  Value peerPid;
  DenseMap<Value, bool> dependence;
  IRMapping peer;
  /// Top-block values -> their comparison with the peer's.
  DenseMap<Value, Value> compared;

  LogicalResult fail(const Twine &why) { return func.emitError() << "cluster_size: " << why; }

  /// Whether `v` may differ between the two programs of a cluster: it is computed from
  /// program_id(0), directly or through a loop-carried value.
  bool dependsOnPid(Value v) {
    if (auto it = dependence.find(v); it != dependence.end())
      return it->second;
    dependence[v] = false; // a loop-carried value's own update does not count
    bool result = false;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto loop = dyn_cast_if_present<scf::ForOp>(arg.getOwner()->getParentOp())) {
        if (arg == loop.getInductionVar())
          result = dependsOnPid(loop.getLowerBound()) || dependsOnPid(loop.getStep());
        else
          result = dependsOnPid(loop.getTiedLoopInit(arg)->get()) ||
                   dependsOnPid(loop.getTiedLoopYieldedValue(arg)->get());
      }
    } else {
      Operation *def = v.getDefiningOp();
      if (auto pid = dyn_cast<tile::ProgramIdOp>(def))
        result = pid.getAxis() == 0;
      else if (def->getNumRegions() || !isMemoryEffectFree(def))
        result = true; // not followed: taken as differing
      else
        result = llvm::any_of(def->getOperands(), [&](Value o) { return dependsOnPid(o); });
    }
    dependence[v] = result;
    return result;
  }

  /// `v`, a value of the top block, computed for the peer program (clones before the branch);
  /// failure when its computation has an op the clone could not redo for the peer (regions,
  /// whose captured values it would not remap, or memory effects).
  FailureOr<Value> peerValue(Value v) {
    if (!dependsOnPid(v))
      return v;
    if (Value known = peer.lookupOrNull(v))
      return known;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != top)
      return failure();
    if (isa<tile::ProgramIdOp>(def)) {
      peer.map(v, peerPid);
      return peerPid;
    }
    if (def->getNumRegions() || !isMemoryEffectFree(def))
      return failure();
    for (Value o : def->getOperands())
      if (failed(peerValue(o)))
        return failure();
    OpBuilder b(branch);
    Operation *clone = b.clone(*def, peer);
    return clone->getResult(cast<OpResult>(v).getResultNumber());
  }

  /// An i1 that holds when `v` is the same in both programs (null: always), built before the
  /// branch; failure when `v` is computed in a way the pass does not follow.
  FailureOr<Value> sameCondition(Value v) {
    if (!dependsOnPid(v))
      return Value();
    OpBuilder b(branch);
    Location loc = v.getLoc();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast_if_present<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg == loop.getInductionVar())
        return failure();
      // The same start and an update from itself and program-independent values only.
      Value yielded = loop.getTiedLoopYieldedValue(arg)->get();
      DenseMap<Value, bool> saved = dependence;
      dependence[arg] = false;
      bool updateDiffers = dependsOnPid(yielded);
      dependence = std::move(saved);
      if (updateDiffers)
        return failure();
      return sameCondition(loop.getTiedLoopInit(arg)->get());
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() == top) {
      if (!v.getType().isIntOrIndex())
        return failure();
      if (Value known = compared.lookup(v))
        return known;
      FailureOr<Value> other = peerValue(v);
      if (failed(other))
        return failure();
      return compared[v] = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, v, *other);
    }
    // Computed after the branch from values that are the same: the same.
    if (isa<tile::ProgramIdOp>(def) || def->getNumRegions() || !isMemoryEffectFree(def))
      return failure();
    Value all;
    for (Value o : def->getOperands()) {
      FailureOr<Value> c = sameCondition(o);
      if (failed(c))
        return failure();
      if (*c)
        all = all ? b.create<arith::AndIOp>(loc, all, *c).getResult() : *c;
    }
    return all;
  }

  /// The module's maps and `map`'s box (two integers), or nulls where they do not describe it.
  std::pair<ArrayAttr, ArrayAttr> mapAndBox(int64_t map) {
    ModuleOp module = func->getParentOfType<ModuleOp>();
    auto maps = module ? module->getAttrOfType<ArrayAttr>(kTensorMapsAttrName) : nullptr;
    auto entry = maps && map < int64_t(maps.size()) ? dyn_cast<DictionaryAttr>(maps[map]) : nullptr;
    auto box = entry ? dyn_cast_if_present<ArrayAttr>(entry.get("box")) : nullptr;
    if (!box || box.size() != 2 || !isa<IntegerAttr>(box[0]) || !isa<IntegerAttr>(box[1]))
      return {maps, nullptr};
    return {maps, box};
  }

  /// The outer dimension of `map`'s box, when the module's maps describe it.
  std::optional<int64_t> mapBoxRows(int64_t map) {
    ArrayAttr box = mapAndBox(map).second;
    return box ? std::optional<int64_t>(cast<IntegerAttr>(box[1]).getInt()) : std::nullopt;
  }

  /// The index of `map` with its box's outer dimension halved, added to the module's maps;
  /// failure when the module's maps do not describe `map` as a 2-D box.
  FailureOr<int64_t> halfBoxMap(int64_t map) {
    auto [maps, box] = mapAndBox(map);
    if (!box)
      return failure();
    NamedAttrList fields(cast<DictionaryAttr>(maps[map]));
    Builder b(func.getContext());
    fields.set("box", b.getI64ArrayAttr({cast<IntegerAttr>(box[0]).getInt(),
                                         cast<IntegerAttr>(box[1]).getInt() / 2}));
    DictionaryAttr half = fields.getDictionary(func.getContext());
    SmallVector<Attribute> list(maps.begin(), maps.end());
    if (auto it = llvm::find(list, half); it != list.end())
      return it - list.begin();
    list.push_back(half);
    func->getParentOfType<ModuleOp>()->setAttr(kTensorMapsAttrName, b.getArrayAttr(list));
    return int64_t(list.size() - 1);
  }

  LogicalResult run(int64_t clusterSize) {
    if (clusterSize != 2)
      return fail("clusters of " + Twine(clusterSize) +
                  " CTAs are not supported; cluster_size is 1 or 2");
    auto ws = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getWarpSpecializeAttrName());
    if (!ws || ws.getInt() == 0)
      return fail("a cluster multicasts the TMA copies of a producer warpgroup: set "
                  "warp_specialize=1 too");
    top = &func.getBody().front();
    scf::IfOp split;
    for (auto candidate : top->getOps<scf::IfOp>())
      if (!candidate.getThenRegion().empty() &&
          isa<tile_nv::SetMaxNRegOp>(candidate.thenBlock()->front()))
        split = candidate;
    if (!split || !func->hasAttr(tile::TileDialect::getProducerWarpsAttrName())) {
      // As warp_specialize: the variant without TMA copies (no stride known to be 1).
      func.emitWarning() << "cluster_size: ignored in this variant, which has no producer "
                            "warpgroup (its K loop loads without TMA)";
      func->removeAttr(tile::TileDialect::getClusterSizeAttrName());
      return success();
    }
    branch = split;
    Block *producer = split.thenBlock(), *consumer = split.elseBlock();
    Location loc = split.getLoc();
    OpBuilder b(split);

    // The producer's loop runs in one warp (an scf.if on tile_nv.warp_id inside the branch).
    Block *producerLoops = producer;
    for (auto leaderWarp : producer->getOps<scf::IfOp>())
      if (!leaderWarp.thenBlock()->getOps<scf::ForOp>().empty())
        producerLoops = leaderWarp.thenBlock();

    // Both programs must run the same iterations: each waits for the other's releases.
    for (Block *side : {producerLoops, consumer})
      for (auto loop : side->getOps<scf::ForOp>())
        for (Value bound : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
          if (dependsOnPid(bound))
            return fail(Twine(loop.getBody()->getOps<scf::ForOp>().empty()
                                  ? "the K loop's"
                                  : "the tile loop's (a persistent kernel's)") +
                        " trip count may differ between the two programs of a cluster (it is "
                        "computed from program_id(0), or through an op the pass does not "
                        "follow); they wait for each other's iterations, so they must run the "
                        "same number");

    // The empty ring (the producer waits on it) and its consumers' arrivals.
    Value emptyRing;
    producer->walk([&](tile_nv::WaitBarrierOp w) {
      if (auto index = w.getBarrier().getDefiningOp<MemDescIndexOp>())
        emptyRing = index.getSrc();
    });
    SmallVector<tile_nv::ArriveBarrierOp> arrivals;
    consumer->walk([&](tile_nv::ArriveBarrierOp a) {
      auto index = a.getBarrier().getDefiningOp<MemDescIndexOp>();
      if (index && index.getSrc() == emptyRing)
        arrivals.push_back(a);
    });
    if (!emptyRing || arrivals.empty())
      return fail("no ring of empty barriers between the producer and the consumers");
    auto warps = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName());
    int64_t consumerWarps = warps ? warps.getInt() : 4;
    // Each stage now also counts one arrival per consumer warp of the peer.
    for (auto init : top->getOps<tile_nv::InitBarrierOp>()) {
      auto index = init.getBarrier().getDefiningOp<MemDescIndexOp>();
      if (index && index.getSrc() == emptyRing)
        init.setCount(init.getCount() + consumerWarps);
    }

    peerPid = Value();
    for (auto pid : top->getOps<tile::ProgramIdOp>())
      if (pid.getAxis() == 0 && !peerPid) {
        OpBuilder pb(pid->getNextNode());
        peerPid = pb.create<arith::XOrIOp>(loc, pid.getResult(),
                                           pb.create<arith::ConstantIntOp>(loc, 1, 32));
      }

    // The copies: multicast where both programs copy the same box.
    SmallVector<tile_nv::AsyncTMACopyGlobalToLocalOp> copies;
    producer->walk([&](tile_nv::AsyncTMACopyGlobalToLocalOp c) { copies.push_back(c); });
    for (tile_nv::AsyncTMACopyGlobalToLocalOp copy : copies) {
      Value same;
      // The box, whether it is copied, and where it lands: a multicast writes the same offset
      // and completes the same barrier in both CTAs.
      SmallVector<Value> inputs(copy.getCoords());
      inputs.push_back(copy.getPred());
      for (Value stage : {copy.getDst(), copy.getBarrier()})
        if (auto index = stage.getDefiningOp<MemDescIndexOp>())
          inputs.push_back(index.getIndex());
      for (Value v : inputs) {
        FailureOr<Value> c = sameCondition(v);
        if (failed(c))
          return copy.emitError("cluster_size: this TMA copy's coordinates are computed in a "
                                "way the pass does not follow (through a loop-carried value "
                                "updated from program_id, or an op with regions or memory "
                                "effects); use a kernel without cluster_size");
        if (*c)
          same = same ? b.create<arith::AndIOp>(loc, same, *c).getResult() : *c;
      }
      if (!same)
        same = b.create<arith::ConstantIntOp>(loc, 1, 1); // no program_id in it at all
      MemDescType dst = copy.getDst().getType();
      auto enc = cast<SharedEncodingAttr>(dst.getEncoding());
      int64_t rows = dst.getShape()[enc.getOrder()[1]];
      if (rows % 16 != 0)
        continue; // halves of less than a swizzle pattern: each CTA copies its own
      if (std::optional<int64_t> boxRows = mapBoxRows(copy.getMap()); boxRows && *boxRows != rows)
        continue; // a box of a padded tile's real rows: its halves are not the buffer's
      FailureOr<int64_t> half = halfBoxMap(copy.getMap());
      if (failed(half))
        return copy.emitError("cluster_size: the module's tensor maps (tessel.tensor_maps) do "
                              "not describe this copy's map ")
               << copy.getMap() << " as a 2-D box";
      copy.getMulticastMutable().assign(same);
      copy.setMulticastMap(uint32_t(*half));
    }

    // Consumers: lane 0 of each warp also releases the stage in the peer.
    for (tile_nv::ArriveBarrierOp arrive : arrivals) {
      OpBuilder ab(arrive->getBlock(), std::next(arrive->getIterator()));
      Value tid = ab.create<tile_nv::ThreadIdOp>(loc, ab.getI32Type());
      Value lane = ab.create<arith::AndIOp>(loc, tid, ab.create<arith::ConstantIntOp>(loc, 31, 32));
      Value first = ab.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lane,
                                             ab.create<arith::ConstantIntOp>(loc, 0, 32));
      Value rank = ab.create<tile_nv::ClusterCTARankOp>(loc, ab.getI32Type());
      Value other =
          ab.create<arith::XOrIOp>(loc, rank, ab.create<arith::ConstantIntOp>(loc, 1, 32));
      Value pred = ab.create<arith::AndIOp>(loc, arrive.getPred(), first);
      ab.create<tile_nv::ArriveBarrierOp>(loc, arrive.getBarrier(), pred, other);
    }

    // The peer's barriers are initialized before anything reaches them. After the K loops,
    // before the consumers' epilogue reuses shared memory (its layout conversions' scratch may
    // overlap the rings), every copy and arrival the peer sends here has landed: the peer's
    // consumers are past their last release, and this CTA's consumers have waited for every
    // copy into it. Each thread of both CTAs arrives once (producer after its loop, consumers
    // after theirs); that also keeps a CTA's shared memory alive as long as its peer uses it.
    b.create<tile_nv::ClusterBarrierOp>(loc);
    for (Block *side : {producerLoops, consumer}) {
      scf::ForOp kLoop;
      for (auto loop : side->getOps<scf::ForOp>())
        kLoop = loop; // one K loop per side (tile-nv-warp-specialize)
      if (!kLoop)
        return fail("no K loop in the warp-specialized branch");
      // Every producer warp arrives: after the leader warp's scf.if, not in it.
      Operation *after =
          side == producerLoops && side != producer ? side->getParentOp() : kLoop.getOperation();
      OpBuilder(after->getBlock(), std::next(after->getIterator()))
          .create<tile_nv::ClusterBarrierOp>(loc);
    }
    return success();
  }
};

struct ClusterMulticastPass : tile_nv::impl::TileNVClusterMulticastBase<ClusterMulticastPass> {
  void runOnOperation() override {
    for (auto func : llvm::make_early_inc_range(getOperation().getOps<func::FuncOp>())) {
      auto size = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getClusterSizeAttrName());
      if (!size || size.getInt() == 1)
        continue;
      if (failed(ClusterMulticaster(func).run(size.getInt())))
        return signalPassFailure();
    }
  }
};

} // namespace
