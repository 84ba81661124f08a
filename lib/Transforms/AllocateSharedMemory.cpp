//===- AllocateSharedMemory.cpp - offsets of shared-memory buffers --------===//
//
// Ops are numbered in program order (pre-order walk). A buffer's live range runs from its
// local_alloc to its last access (through memdesc_index and memdesc_subview); an access
// inside a loop that does not contain the allocation extends the range to the loop's last op,
// since the next iteration comes back to it. Buffers are placed first-fit in allocation order; two
// buffers share bytes only when their ranges are disjoint.
// A buffer that holds hardware state (an op declares an effect on it on a resource other than
// memory, e.g. an adapter's barrier phase) may be reused only after an op frees that state
// (MemFree on the resource: the adapter's invalidation); until then no later buffer is placed
// over it, although its live range may have ended (a pipeline's barrier ring after its loop).
// Scratch starts past the buffers live at its op; its size is known only to the lowering, so
// the held buffers past that start are listed beside it (tile_gpu.scratch_held) for the
// lowering to step over (SharedMemoryPlan::reserveScratch).
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUALLOCATESHAREDMEMORY
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct Buffer {
  LocalAllocOp alloc;
  unsigned start = 0, end = 0; // live range, inclusive op numbers
  int64_t size = 0, offset = 0;
  bool heldState = false; // hardware state never freed: its bytes stay taken after `end`
  bool overlapsInTime(const Buffer &o) const { return start <= o.end && o.start <= end; }
};

class SharedMemoryAllocator {
public:
  explicit SharedMemoryAllocator(func::FuncOp func) : func(func) {}

  void run() {
    number();
    SmallVector<Buffer> buffers;
    func.walk([&](LocalAllocOp alloc) { buffers.push_back(liveRange(alloc)); });
    for (unsigned i = 0; i < buffers.size(); ++i) {
      Buffer &b = buffers[i];
      // Lowest offset aligned as the buffer's placement needs (MemDescType::getAlignment) clear
      // of every placed buffer live at the same time.
      SmallVector<std::pair<int64_t, int64_t>> taken;
      for (unsigned j = 0; j < i; ++j)
        if (buffers[j].overlapsInTime(b) || (buffers[j].heldState && buffers[j].start <= b.end))
          taken.push_back({buffers[j].offset, buffers[j].offset + buffers[j].size});
      llvm::sort(taken);
      int64_t offset = 0, align = b.alloc.getType().getAlignment();
      for (auto [lo, hi] : taken)
        if (offset + b.size > lo && offset < hi)
          offset = llvm::alignTo(hi, align);
      b.offset = offset;
      b.alloc.setOffset(uint32_t(offset));
    }
    // Scratch starts past the buffers live at its op, and steps over the held ones after it.
    func.walk([&](Operation *op) {
      if (!mayUseScratch(op))
        return;
      int64_t base = 0;
      for (const Buffer &b : buffers)
        if (b.start <= pos[op] && pos[op] <= b.end)
          base = std::max(base, b.offset + b.size);
      base = llvm::alignTo(base, 16);
      if (base)
        op->setAttr(TileGPUDialect::getScratchOffsetAttrName(),
                    IntegerAttr::get(IntegerType::get(op->getContext(), 32), base));
      for (const Buffer &b : buffers)
        if (b.heldState && b.end < pos[op] && b.offset + b.size > base)
          addScratchHeld(op, b.offset, b.offset + b.size);
    });
  }

private:
  void number() {
    unsigned n = 0;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) { pos[op] = n++; });
    // Children are visited before their parent: a parent's last op is known when it is reached.
    // By value: inserting the parent may grow the map and move `last[op]`.
    func.walk<WalkOrder::PostOrder>([&](Operation *op) {
      unsigned e = std::max(last.lookup(op), pos[op]);
      last[op] = e;
      if (Operation *parent = op->getParentOp())
        last[parent] = std::max(last.lookup(parent), e);
    });
  }

  Buffer liveRange(LocalAllocOp alloc) {
    Buffer b;
    b.alloc = alloc;
    b.start = b.end = pos[alloc];
    b.size = alloc.getType().getSizeInBytes();
    SmallVector<Value> views = {alloc.getResult()};
    bool state = false, freed = false;
    while (!views.empty()) {
      Value v = views.pop_back_val();
      for (Operation *user : v.getUsers()) {
        if (isa<MemDescIndexOp, MemDescSubviewOp>(user))
          views.push_back(user->getResult(0));
        if (auto iface = dyn_cast<MemoryEffectOpInterface>(user)) {
          SmallVector<MemoryEffects::EffectInstance> effects;
          iface.getEffectsOnValue(v, effects);
          for (const MemoryEffects::EffectInstance &e : effects) {
            if (isMemoryResource(e.getResource()))
              continue;
            state = true;
            freed |= isa<MemoryEffects::Free>(e.getEffect());
          }
        }
        unsigned end = pos[user];
        // The outermost loop around the use that does not hold the allocation.
        for (Operation *p = user->getParentOp(); p && !p->isAncestor(alloc); p = p->getParentOp())
          if (isa<LoopLikeOpInterface>(p))
            end = std::max(end, last[p]);
        b.end = std::max(b.end, end);
      }
    }
    b.heldState = state && !freed;
    return b;
  }

  func::FuncOp func;
  llvm::DenseMap<Operation *, unsigned> pos, last;
};

struct TileGPUAllocateSharedMemoryPass
    : public tessel::impl::TileGPUAllocateSharedMemoryBase<TileGPUAllocateSharedMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      SharedMemoryAllocator(func).run();
  }
};

} // namespace
