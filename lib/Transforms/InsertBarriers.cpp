//===- InsertBarriers.cpp - order shared-memory accesses across threads ---===//
//
// Threads reach a buffer's bytes through different layouts (a copy writes what one thread's
// pointer layout gives it; ldmatrix reads what another thread's fragment needs), so a read
// after a write, or a write after a read or write, of the same bytes needs a barrier between
// them. The walk keeps the accesses since the last barrier:
//   reads, writes  local_load / local_store, and async copies once an async_wait has retired
//                  them (an async copy's bytes are not written until then: a barrier between
//                  the copy and its wait orders nothing);
//   scratch        an op that may use scratch ran (its lowering starts with a barrier of its
//                  own; afterwards any byte may be in use).
// Other ops (the adapters': wgmma reading its operands) take part through the read and write
// effects they declare on memdesc operands. A write on AsyncWriteResource (a bulk copy that
// completes on an mbarrier) needs the barrier before it but is not recorded: its readers wait
// on the mbarrier, which orders what a barrier would. Effects on other resources (an
// mbarrier's hardware state) order nothing here.
// An access names a buffer (its local_alloc) and, for a ring, a stage `(x + c) % S`. Two stages
// of one ring are disjoint when they have the same x and different c (mod S); buffers are
// disjoint when their [offset, offset + size) ranges are (offsets from
// tile-gpu-allocate-shared-memory).
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUINSERTBARRIERS
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct Access {
  LocalAllocOp buffer;
  /// Stage (x + c) % mod of a ring; x null with a constant stage c; mod 0: the whole buffer.
  Value x;
  int64_t c = 0, mod = 0;

  bool operator==(const Access &o) const {
    return buffer == o.buffer && x == o.x && c == o.c && mod == o.mod;
  }
  Access whole() const { return {buffer, Value(), 0, 0}; }

  bool conflicts(const Access &o) const {
    if (buffer != o.buffer) {
      auto range = [](LocalAllocOp a) {
        int64_t lo = a.getOffset().value_or(0);
        return std::make_pair(lo, lo + a.getType().getSizeInBytes());
      };
      auto [lo, hi] = range(buffer);
      auto [olo, ohi] = range(o.buffer);
      return lo < ohi && olo < hi;
    }
    if (!mod || !o.mod || mod != o.mod || x != o.x)
      return true;
    return (c - o.c) % mod == 0;
  }
};

struct State {
  SmallVector<Access> reads, writes, asyncWrites;
  bool scratch = false;

  static void add(SmallVector<Access> &list, const Access &a) {
    if (!llvm::is_contained(list, a))
      list.push_back(a);
  }
  void join(const State &o) {
    for (const Access &a : o.reads)
      add(reads, a);
    for (const Access &a : o.writes)
      add(writes, a);
    for (const Access &a : o.asyncWrites)
      add(asyncWrites, a);
    scratch |= o.scratch;
  }
  /// Stage indices are values of one iteration; past a back edge only the buffer is known.
  State widened() const {
    State w;
    w.scratch = scratch;
    for (const Access &a : reads)
      add(w.reads, a.whole());
    for (const Access &a : writes)
      add(w.writes, a.whole());
    for (const Access &a : asyncWrites)
      add(w.asyncWrites, a.whole());
    return w;
  }
  bool operator==(const State &o) const {
    auto same = [](const SmallVector<Access> &a, const SmallVector<Access> &b) {
      return a.size() == b.size() &&
             llvm::all_of(a, [&](const Access &x) { return llvm::is_contained(b, x); });
    };
    return scratch == o.scratch && same(reads, o.reads) && same(writes, o.writes) &&
           same(asyncWrites, o.asyncWrites);
  }
  void clearSynchronized() {
    reads.clear();
    writes.clear();
    scratch = false;
  }
};

bool anyConflict(ArrayRef<Access> list, const Access &a) {
  return llvm::any_of(list, [&](const Access &b) { return b.conflicts(a); });
}

/// The buffer and stage a memdesc value designates.
std::optional<Access> accessOf(Value memdesc) {
  // A view counts as its whole source (slices of one stage are not told apart).
  while (auto sub = memdesc.getDefiningOp<MemDescSubviewOp>())
    memdesc = sub.getSrc();
  if (memdesc.getDefiningOp<MemDescIndexOp>()) {
    std::optional<RingStage> s = getRingStage(memdesc);
    if (!s)
      return std::nullopt;
    Access a{s->ring, s->x, s->c, s->stages};
    return s->known ? a : a.whole();
  }
  if (auto alloc = memdesc.getDefiningOp<LocalAllocOp>())
    return Access{alloc, Value(), 0, 0};
  return std::nullopt;
}

class BarrierInserter {
public:
  State runBlock(Block &block, State state, bool insert) {
    for (Operation &op : llvm::make_early_inc_range(block))
      state = visit(&op, std::move(state), insert);
    return state;
  }

private:
  void barrierBefore(Operation *op, State &state, bool insert) {
    if (insert)
      OpBuilder(op).create<BarrierOp>(op->getLoc());
    state.clearSynchronized();
  }

  State visit(Operation *op, State state, bool insert) {
    if (isa<BarrierOp, tile::BarrierOp>(op)) {
      state.clearSynchronized();
      return state;
    }
    if (isa<AsyncWaitOp>(op)) {
      for (const Access &a : state.asyncWrites)
        State::add(state.writes, a);
      state.asyncWrites.clear();
      return state;
    }
    if (auto load = dyn_cast<LocalLoadOp>(op)) {
      std::optional<Access> a = accessOf(load.getSrc());
      if (!a || state.scratch || anyConflict(state.writes, *a))
        barrierBefore(op, state, insert);
      if (a)
        State::add(state.reads, *a);
      else
        state.scratch = true; // a buffer we cannot name: any byte
      return state;
    }
    if (isa<LocalStoreOp, AsyncCopyGlobalToLocalOp>(op)) {
      Value dst = isa<LocalStoreOp>(op) ? cast<LocalStoreOp>(op).getDst()
                                        : cast<AsyncCopyGlobalToLocalOp>(op).getDst();
      std::optional<Access> a = accessOf(dst);
      if (!a || state.scratch || anyConflict(state.reads, *a) || anyConflict(state.writes, *a))
        barrierBefore(op, state, insert);
      if (a)
        State::add(isa<LocalStoreOp>(op) ? state.writes : state.asyncWrites, *a);
      else
        state.scratch = true;
      return state;
    }
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffects(list);
      bool any = false;
      for (const MemoryEffects::EffectInstance &e : list) {
        Value v = e.getValue();
        if (!v || !isa<MemDescType>(v.getType()) || !isMemoryResource(e.getResource()))
          continue;
        bool write = isa<MemoryEffects::Write>(e.getEffect());
        if (!write && !isa<MemoryEffects::Read>(e.getEffect()))
          continue;
        any = true;
        std::optional<Access> a = accessOf(v);
        if (!a || state.scratch || anyConflict(state.writes, *a) ||
            (write && anyConflict(state.reads, *a)))
          barrierBefore(op, state, insert);
        // Readers of a write completed on a barrier wait for that barrier themselves.
        if (write && isa<AsyncWriteResource>(e.getResource()))
          continue;
        if (a)
          State::add(write ? state.writes : state.reads, *a);
        else
          state.scratch = true;
      }
      if (any)
        return state;
    }
    if (mayUseScratch(op)) {
      state.clearSynchronized(); // its own leading barrier
      state.scratch = true;
      return state;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      return visitLoop(forOp.getBody(), state, insert);
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      State s = visitLoop(whileOp.getBeforeBody(), state, insert);
      return visitLoop(whileOp.getAfterBody(), s, insert);
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      State out = runBlock(*ifOp.thenBlock(), state, insert);
      out.join(ifOp.elseBlock() ? runBlock(*ifOp.elseBlock(), state, insert) : state);
      return out;
    }
    return state;
  }

  /// A loop body runs zero or more times: analyse it from the state before the loop joined with
  /// its own end state until that is stable, then insert.
  State visitLoop(Block *body, const State &before, bool insert) {
    State entry = before;
    for (unsigned round = 0; round < 8; ++round) {
      State next = before;
      next.join(runBlock(*body, entry, /*insert=*/false).widened());
      if (next == entry)
        break;
      entry = next;
    }
    State exit = runBlock(*body, entry, insert).widened();
    exit.join(before);
    return exit;
  }
};

struct TileGPUInsertBarriersPass
    : public tessel::impl::TileGPUInsertBarriersBase<TileGPUInsertBarriersPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.getBody().empty())
        BarrierInserter().runBlock(func.getBody().front(), State(), /*insert=*/true);
  }
};

} // namespace
