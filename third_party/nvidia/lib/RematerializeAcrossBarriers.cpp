//===- RematerializeAcrossBarriers.cpp - widen loads again after barriers -===//
//
// A row kernel loads its row as 16-bit elements packed two to a 32-bit word, widens them to f32
// for a block-wide reduction, and uses them again once the reduction's barrier has passed
// (RMSNorm's x * rstd * w, LayerNorm's x - mean after the mean). Kept as f32 across the barrier the
// row costs one register per element; ptxas does not recompute the widening on its own (it
// allocates what the PTX holds live), so at 128 bf16 elements a thread RMSNorm took 214
// registers, two programs of 4 warps per SM. This pass, run on the optimized LLVM IR of a
// kernel, recomputes each such value after the barrier from the loaded word instead: a packed
// word holds two elements, and the widening is one instruction (bf16: a shift or a mask of
// the word, f16: a cvt of one half). The same RMSNorm takes 160 registers, three programs per SM.
// On an H100 that made the 8-warp RMSNorm at 4096x16384 1.3% faster (95.5 -> 94.3 us) and
// LayerNorm's (x - mean unmasked) 0.8%; the tuned winners (16 warps, ~94% of a device copy)
// did not move (benchmarks/gpu/results/2026-12-06-h100-s61).
//
// What is recomputed, per use U after a barrier B that the value V was defined before (both in
// one basic block, where a row kernel's straight-line code is; B is the last barrier before U):
//   - fpext to f32 of a half or bfloat taken from a 32-bit word (extractelement of a bitcast of
//     i32 or <N x i32>): the word stays live instead, and the widening is inline PTX, which no
//     later CSE (LLVM's or the instruction selector's) merges with the original;
//   - from bf16 words only, fadd, fsub, fmul, fneg, fcmp and select of recomputable operands,
//     up to kMaxDepth deep (x - mean after a variance, when the mean is stored after it: 128 ->
//     104 registers at 16384 columns on 8 warps in test/Target/NVIDIA/Inputs/centered_norm.cpp;
//     the library's layernorm masks x - mean, and that mask is not live after the variance). From
//     f16 words such trees took more registers, not fewer (8192 columns on 8 warps: 66 -> 80), so
//     f16 recomputes only the widening itself;
//   - leaves: constants, arguments, and values that are live after B anyway (they have a use
//     after B of their own: rstd, mean, the store's mask).
// A tree is recomputed only when it reads one loaded word: the word holds two elements, half a
// register an element against V's one; with two (x = in + res) nothing is saved. One copy per
// value and barrier interval, placed before its first use there, and shared only within that
// value's tree (another value's first use may come earlier; the module verifier runs after the
// pass). Values of 32-bit elements (an f32 row) have nothing narrower to keep.
//
//===----------------------------------------------------------------------===//
#include "RematerializeAcrossBarriers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <tuple>

using namespace llvm;

namespace {

constexpr unsigned kMaxDepth = 4;

/// Kernels whose recomputable values read fewer loaded elements than this a thread (about the
/// elements of the row it holds: LayerNorm's x and x - mean read the same ones) are left
/// alone: registers are not what limits such a kernel, and the recomputation lengthens the
/// path from the barrier to the store. Measured on an H100 (session 61, old -> new time): 64
/// elements a thread gained (RMSNorm 16384 columns on 8 warps 1.014x, 4096 on 2 warps 1.019x),
/// 32 were even (0.996-1.007x), 16 and fewer lost (RMSNorm 4096 columns on 8 warps 0.991x,
/// LayerNorm 1000 on 4 warps 0.982x, and up to 0.90x on 8-32 warps). Counted as values, x and
/// x - mean made LayerNorm's 32 elements 64 once its mask was live after the variance, and
/// 16384 columns on 16 warps lost 0.7% (session 70).
constexpr unsigned kMinElements = 64;

/// Block-wide barriers: the reductions' bar.sync (llvm.nvvm.barrier0 and its variants).
bool isBarrier(const Instruction &i) {
  auto *call = dyn_cast<CallInst>(&i);
  if (!call)
    return false;
  if (Function *f = call->getCalledFunction())
    return f->getName().starts_with("llvm.nvvm.barrier");
  if (auto *asmCall = dyn_cast<InlineAsm>(call->getCalledOperand()))
    return StringRef(asmCall->getAsmString()).contains("bar.sync");
  return false;
}

/// The 32-bit word a 16-bit float element was loaded in, and which half of it (0: low bits).
struct PackedHalf {
  Value *word;
  Value *vector; ///< <N x i32> the word is element `index` of, or null when `word` is set
  unsigned index;
  unsigned half;
};

std::optional<PackedHalf> packedSource(Value *narrow) {
  auto *extract = dyn_cast<ExtractElementInst>(narrow);
  if (!extract)
    return std::nullopt;
  auto *lane = dyn_cast<ConstantInt>(extract->getIndexOperand());
  auto *cast = dyn_cast<BitCastInst>(extract->getVectorOperand());
  if (!lane || !cast)
    return std::nullopt;
  Type *from = cast->getOperand(0)->getType();
  unsigned i = lane->getZExtValue();
  if (from->isIntegerTy(32))
    return PackedHalf{cast->getOperand(0), nullptr, 0, i};
  auto *vec = dyn_cast<FixedVectorType>(from);
  if (!vec || !vec->getElementType()->isIntegerTy(32))
    return std::nullopt;
  // Look through the insertelement chain the load's words were gathered by.
  Value *v = cast->getOperand(0);
  while (auto *insert = dyn_cast<InsertElementInst>(v)) {
    auto *at = dyn_cast<ConstantInt>(insert->getOperand(2));
    if (!at)
      break;
    if (at->getZExtValue() == i / 2)
      return PackedHalf{insert->getOperand(1), nullptr, 0, i % 2};
    v = insert->getOperand(0);
  }
  return PackedHalf{nullptr, cast->getOperand(0), i / 2, i % 2};
}

/// A widening of a loaded 16-bit float to f32.
struct Widening {
  PackedHalf source;
  bool bf16;
};

class BlockRematerializer {
public:
  explicit BlockRematerializer(BasicBlock &block) : block(block) {
    // Spaced: a copy takes the position just before the instruction it is inserted before,
    // and a tree's copies (at most kMaxDepth deep, three instructions a widening) must all
    // stay after the barrier before them.
    uint64_t n = 0;
    for (Instruction &i : block) {
      position[&i] = n += 1 << 16;
      if (isBarrier(i))
        barriers.push_back(&i);
    }
  }

  bool run() {
    if (barriers.empty() || countSourceElements() < kMinElements)
      return false;
    bool changed = false;
    // In program order, copies included: a value's own uses after a barrier are rewritten
    // before those of the values computed from it, which then find it dead there and
    // recompute it as well (x after the mean, then x - mean after the variance).
    for (Instruction &v : block) {
      if (!v.getType()->isFloatTy())
        continue;
      SmallVector<Use *> late;
      for (Use &u : v.uses())
        if (Instruction *b = barrierBetween(&v, cast<Instruction>(u.getUser())))
          if (recomputable(&v, b))
            late.push_back(&u);
      // Copies are shared within one value's tree only: each is placed before that value's
      // first use in the interval, which another value's first use may come before.
      copies.clear();
      for (Use *u : late) {
        Instruction *b = barrierBetween(&v, cast<Instruction>(u->getUser()));
        u->set(recompute(&v, b, firstUseAfter(&v, b), /*root=*/true));
        changed = true;
      }
    }
    return changed;
  }

private:
  /// A loaded 16-bit element: its word (or the <N x i32> vector and the word's index in it)
  /// and its half.
  using Element = std::tuple<Value *, unsigned, unsigned>;
  using Elements = SmallSet<Element, 4>;

  /// The loaded elements that the values recomputable after some barrier read, counted before
  /// anything is rewritten: run() decides value by value on the block it is rewriting, so the
  /// threshold needs this dry count first.
  unsigned countSourceElements() {
    DenseSet<Element> all;
    for (Instruction &v : block) {
      if (!v.getType()->isFloatTy())
        continue;
      for (Use &u : v.uses()) {
        Elements read;
        if (Instruction *b = barrierBetween(&v, cast<Instruction>(u.getUser()));
            b && recomputable(&v, b, &read)) {
          all.insert(read.begin(), read.end());
          break;
        }
      }
    }
    return all.size();
  }

  /// The last barrier before `user` when it comes after `v`'s definition, else null.
  Instruction *barrierBetween(Instruction *v, Instruction *user) {
    if (user->getParent() != &block || isa<PHINode>(user))
      return nullptr;
    Instruction *last = nullptr;
    for (Instruction *b : barriers)
      if (position[b] < position[user])
        last = b;
    return last && position[last] > position[v] ? last : nullptr;
  }

  bool usedAfter(Value *v, Instruction *b) {
    for (User *u : v->users())
      if (auto *i = dyn_cast<Instruction>(u))
        if (i->getParent() != &block || position[i] > position[b])
          return true;
    return false;
  }

  /// What is live after `b` as it is: constants, arguments, values defined after it or in
  /// another block, and (below the root) values that still have a use after it.
  bool isLeaf(Value *v, Instruction *b, bool root) {
    auto *i = dyn_cast<Instruction>(v);
    if (!i || i->getParent() != &block || position[i] > position[b])
      return true;
    return !root && !widening(i) && usedAfter(v, b);
  }

  /// The 16-bit element `i` widens to f32 from a loaded word: an fpext of it, or a copy this
  /// pass made.
  std::optional<Widening> widening(Instruction *i) {
    if (auto it = widenings.find(i); it != widenings.end())
      return it->second;
    auto *ext = dyn_cast<FPExtInst>(i);
    if (!ext || !ext->getType()->isFloatTy())
      return std::nullopt;
    Type *src = ext->getSrcTy();
    if (!src->isHalfTy() && !src->isBFloatTy())
      return std::nullopt;
    std::optional<PackedHalf> p = packedSource(ext->getOperand(0));
    if (!p)
      return std::nullopt;
    return Widening{*p, src->isBFloatTy()};
  }

  /// Whether `v` can be computed again after `b` from leaves and one loaded word: a word holds
  /// two elements, so keeping it costs half a register an element against the one of `v`;
  /// with two words (x = in + res) nothing is saved. The elements it reads go to `read`.
  bool recomputable(Instruction *v, Instruction *b, Elements *read = nullptr) {
    Elements elements;
    bool f16 = false;
    if (!recomputable(v, b, /*root=*/true, 0, elements, f16) || elements.empty())
      return false;
    auto word = [](const Element &e) { return std::make_pair(std::get<0>(e), std::get<1>(e)); };
    for (const Element &e : elements)
      if (word(e) != word(*elements.begin()))
        return false;
    if (f16 && !widening(v))
      return false;
    if (read)
      *read = std::move(elements);
    return true;
  }
  bool recomputable(Value *v, Instruction *b, bool root, unsigned depth, Elements &elements,
                    bool &f16) {
    if (isLeaf(v, b, root))
      return true;
    auto *i = cast<Instruction>(v);
    if (std::optional<Widening> w = widening(i)) {
      const PackedHalf &p = w->source;
      elements.insert(p.word ? Element{p.word, 0, p.half} : Element{p.vector, p.index, p.half});
      f16 |= !w->bf16;
      return true;
    }
    if (depth == kMaxDepth)
      return false;
    switch (i->getOpcode()) {
    case Instruction::FAdd:
    case Instruction::FSub:
    case Instruction::FMul:
    case Instruction::FNeg:
    case Instruction::Select:
    case Instruction::FCmp:
      break;
    default:
      return false;
    }
    for (Value *op : i->operands())
      if (!recomputable(op, b, false, depth + 1, elements, f16))
        return false;
    return true;
  }

  Instruction *firstUseAfter(Value *v, Instruction *b) {
    Instruction *first = nullptr;
    for (User *u : v->users()) {
      auto *i = cast<Instruction>(u);
      if (i->getParent() == &block && !isa<PHINode>(i) && position[i] > position[b] &&
          (!first || position[i] < position[first]))
        first = i;
    }
    return first;
  }

  /// `v` computed again for the interval after `b`, before `at`; one copy per interval.
  Value *recompute(Value *v, Instruction *b, Instruction *at, bool root) {
    if (isLeaf(v, b, root))
      return v;
    auto key = std::make_pair(v, b);
    if (auto it = copies.find(key); it != copies.end())
      return it->second;
    auto *i = cast<Instruction>(v);
    IRBuilder<> builder(at);
    Instruction *copy;
    if (std::optional<Widening> w = widening(i)) {
      Value *word = w->source.word;
      if (!word)
        word = place(builder.CreateExtractElement(w->source.vector, w->source.index), at);
      copy = widen(at, word, w->source.half, w->bf16);
      widenings[copy] = *w;
    } else {
      copy = i->clone();
      copy->insertBefore(at);
      place(copy, at);
      for (Use &op : copy->operands())
        op.set(recompute(op.get(), b, copy, false));
    }
    copies[key] = copy;
    return copy;
  }

  Instruction *place(Value *v, Instruction *at) {
    auto *i = cast<Instruction>(v);
    position[i] = position[at] - 1;
    return i;
  }

  /// f32 from half `half` of `word`: bf16 is the f32's upper 16 bits (a shift or a mask), f16
  /// a cvt. Inline PTX, so that no CSE merges it with the widening before the barrier.
  Instruction *widen(Instruction *at, Value *word, unsigned half, bool bf16) {
    IRBuilder<> builder(at);
    Type *f32 = builder.getFloatTy(), *i32 = builder.getInt32Ty();
    if (bf16) {
      const char *body = half == 0 ? "shl.b32 $0, $1, 16;" : "and.b32 $0, $1, 0xFFFF0000;";
      auto *asmBody = InlineAsm::get(FunctionType::get(i32, {i32}, false), body, "=r,r", false);
      Instruction *bits = place(builder.CreateCall(asmBody, {word}), at);
      return place(builder.CreateBitCast(bits, f32), at);
    }
    const char *body = half == 0
                           ? "{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $1; cvt.f32.f16 $0, lo; }"
                           : "{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $1; cvt.f32.f16 $0, hi; }";
    auto *asmBody = InlineAsm::get(FunctionType::get(f32, {i32}, false), body, "=f,r", false);
    return place(builder.CreateCall(asmBody, {word}), at);
  }

  BasicBlock &block;
  DenseMap<Instruction *, uint64_t> position;
  SmallVector<Instruction *> barriers;
  DenseMap<std::pair<Value *, Instruction *>, Value *> copies;
  DenseMap<Instruction *, Widening> widenings;
};

} // namespace

bool tessel::nvidia::rematerializeAcrossBarriers(Module &module) {
  bool changed = false;
  for (Function &f : module)
    for (BasicBlock &block : f)
      changed |= BlockRematerializer(block).run();
  return changed;
}
