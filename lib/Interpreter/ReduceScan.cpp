//===- ReduceScan.cpp - tile.reduce and tile.scan --------------------------===//
//
// Both ops first transpose their operands to a K-major scratch layout (K, M): K the length of
// the reduced axis, M the product of the other dimensions, so that one combine step works on
// whole contiguous rows:
//   reduce: a pairwise tree, rows[0:h] = combine(rows[0:h], rows[h:2h]), log2(K) steps (an odd
//           row is carried); rows[0] is the result;
//   scan:   rows[k] = combine(rows[k-1], rows[k]) for k = 1..K-1 (reverse: from the end).
// A combiner that is one recognized binary op (addf, maximumf, maxsi, ...) runs as that op's
// element loop directly (the fast path); any other combiner region is compiled vectorized (its
// scalars become rows of the step's width) and run once per step. The NaN policy is the
// combiner's: arith.maximumf/minimumf propagate NaN, max over -inf is -inf.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "ProgramBuilder.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace tessel::interp;
namespace tile = tessel::tile;

namespace {

/// The compiled combiner: either a fast-path kernel (one operand) or a vectorized region.
struct Combiner {
  BinaryKernel fast;
  std::shared_ptr<Sequence> body;
  std::vector<int> accSlots, newSlots, yieldSlots;
};

} // namespace

/// If the combiner is `yield(op(arg0, arg1))` (either order) for a recognized op, its kernel.
static BinaryKernel recognizeCombiner(ProgramBuilder &c, mlir::Block &body, const SlotType &t) {
  if (body.getNumArguments() != 2 || body.getOperations().size() != 2)
    return nullptr;
  Operation &op = body.front();
  auto yield = cast<tile::YieldOp>(body.getTerminator());
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      yield.getValues().front() != op.getResult(0))
    return nullptr;
  Value a = op.getOperand(0), b = op.getOperand(1);
  Value x = body.getArgument(0), y = body.getArgument(1);
  if (!((a == x && b == y) || (a == y && b == x)))
    return nullptr;
  StringRef name = op.getName().getStringRef();
  static const char *const commutative[] = {
      "arith.addf",    "arith.mulf",  "arith.maximumf", "arith.minimumf", "arith.maxnumf",
      "arith.minnumf", "arith.addi",  "arith.muli",     "arith.maxsi",    "arith.minsi",
      "arith.maxui",   "arith.minui", "arith.andi",     "arith.ori",      "arith.xori"};
  for (const char *n : commutative)
    if (name == n)
      return c.binaryKernel(name, t);
  return nullptr;
}

/// Compiles the combiner region of `op` for rows of `width` elements.
static Status compileCombiner(ProgramBuilder &c, Operation *op, Region &region, size_t numOperands,
                              int64_t width, Combiner &out) {
  mlir::Block &body = region.front();
  if (numOperands == 1)
    if ((out.fast = recognizeCombiner(c, body, c.type(c.slot(op->getOperand(0))))))
      return Status::ok();
  // Constants defined outside the region: the canonicalizer hoists a combiner's constants to
  // the function's entry (case C10: argmax's `true`). They are materialized again at the
  // step's width; any other outside value is an error.
  llvm::SmallVector<arith::ConstantOp> outerConstants;
  for (Operation &inner : body.without_terminator()) {
    StringRef ns = inner.getDialect() ? inner.getDialect()->getNamespace() : "";
    if (ns != "arith" && ns != "math")
      return c.error(&inner, "the interpreter runs combiners made of arith and math ops; '" +
                                 inner.getName().getStringRef() + "' is not one");
    for (Value v : inner.getOperands()) {
      if (v.getParentRegion() == &region)
        continue;
      auto cst = v.getDefiningOp<arith::ConstantOp>();
      if (!cst || isa<ShapedType>(cst.getType()))
        return c.error(&inner, "a combiner must not use values defined outside of it "
                               "(other than scalar constants)");
      if (!llvm::is_contained(outerConstants, cst))
        outerConstants.push_back(cst);
    }
  }
  std::optional<int64_t> saved = c.widthOverride;
  c.widthOverride = width;
  llvm::SmallVector<std::pair<Value, int>> outerSlots;
  for (arith::ConstantOp cst : outerConstants) {
    outerSlots.push_back({cst.getResult(), c.slot(cst.getResult())});
    Sequence none; // a constant has no handler: its slot is filled once per frame
    if (Status st = c.compileOp(cst, none); !st) {
      c.widthOverride = saved;
      return st;
    }
  }
  auto restoreOuter = llvm::make_scope_exit([&] {
    for (auto [v, s] : outerSlots)
      c.slotOf[v] = s;
  });
  for (BlockArgument arg : body.getArguments()) {
    int s;
    if (Status st = c.define(arg, op, s); !st)
      return st;
    (arg.getArgNumber() < numOperands ? out.accSlots : out.newSlots).push_back(s);
  }
  out.body = std::make_shared<Sequence>();
  Status st = c.compileBlock(body, *out.body);
  c.widthOverride = saved;
  if (!st)
    return st;
  for (Value v : cast<tile::YieldOp>(body.getTerminator()).getValues())
    out.yieldSlots.push_back(c.slot(v));
  return Status::ok();
}

Status ProgramBuilder::compileReduceScan(Operation *op, Sequence &out) {
  bool isScan = isa<tile::ScanOp>(op);
  int axis = isScan ? cast<tile::ScanOp>(op).getAxis() : cast<tile::ReduceOp>(op).getAxis();
  bool reverse = isScan && cast<tile::ScanOp>(op).getReverse();
  Region &region = op->getRegion(0);
  size_t numOps = op->getNumOperands();

  std::vector<int> srcs, results, rows;
  for (Value v : op->getOperands())
    srcs.push_back(slot(v));
  const SlotType &t0 = type(srcs[0]);
  llvm::SmallVector<int64_t, 4> shape(t0.shape);
  int64_t K = shape[axis], outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d)
    outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t M = outer * inner;
  for (int s : srcs) {
    SlotType st = type(s);
    st.shape = {K, M};
    rows.push_back(scratch(st));
  }
  for (Value v : op->getResults()) {
    int r;
    if (Status s = define(v, op, r); !s)
      return s;
    results.push_back(r);
  }
  Combiner comb;
  int64_t width = isScan ? M : std::max<int64_t>(1, K / 2) * M;
  if (Status s = compileCombiner(*this, op, region, numOps, width, comb); !s)
    return s;

  std::vector<size_t> bytes;
  for (int s : srcs)
    bytes.push_back(type(s).elemBytes());
  // (K, outer, inner) from (outer, K, inner) and back.
  llvm::SmallVector<int64_t, 4> inShape = {K, outer, inner}, inStrides = {inner, K * inner, 1};
  llvm::SmallVector<int64_t, 4> backShape = {outer, K, inner}, backStrides = {inner, M, 1};

  auto step = [=](Frame &f, int64_t dstRow, int64_t aRow, int64_t bRow, int64_t nRows) {
    int64_t n = nRows * M;
    if (comb.fast) {
      size_t b = bytes[0];
      char *base = static_cast<char *>(f.slots[rows[0]].data());
      comb.fast(base + aRow * M * b, base + bRow * M * b, base + dstRow * M * b, n);
      return;
    }
    for (size_t j = 0; j < rows.size(); ++j) {
      size_t b = bytes[j];
      char *base = static_cast<char *>(f.slots[rows[j]].data());
      std::memcpy(f.slots[comb.accSlots[j]].data(), base + aRow * M * b, n * b);
      std::memcpy(f.slots[comb.newSlots[j]].data(), base + bRow * M * b, n * b);
    }
    comb.body->run(f);
    for (size_t j = 0; j < rows.size(); ++j) {
      size_t b = bytes[j];
      char *base = static_cast<char *>(f.slots[rows[j]].data());
      std::memcpy(base + dstRow * M * b, f.slots[comb.yieldSlots[j]].data(), n * b);
    }
  };

  out.ops.push_back([=](Frame &f) {
    for (size_t j = 0; j < srcs.size(); ++j)
      stridedCopy(f.slots[srcs[j]].data(), f.slots[rows[j]].data(), inShape, inStrides, bytes[j]);
    if (isScan) {
      if (!reverse)
        for (int64_t k = 1; k < K && !f.failed; ++k)
          step(f, k, k - 1, k, 1);
      else
        for (int64_t k = K - 2; k >= 0 && !f.failed; --k)
          step(f, k, k + 1, k, 1);
      for (size_t j = 0; j < srcs.size(); ++j)
        stridedCopy(f.slots[rows[j]].data(), f.slots[results[j]].data(), backShape, backStrides,
                    bytes[j]);
      return;
    }
    for (int64_t k = K; k > 1 && !f.failed;) {
      int64_t h = k / 2;
      step(f, 0, 0, h, h);
      if (k & 1)
        for (size_t j = 0; j < rows.size(); ++j) {
          char *base = static_cast<char *>(f.slots[rows[j]].data());
          std::memcpy(base + h * M * bytes[j], base + (k - 1) * M * bytes[j], M * bytes[j]);
        }
      k = h + (k & 1);
    }
    for (size_t j = 0; j < srcs.size(); ++j)
      std::memcpy(f.slots[results[j]].data(), f.slots[rows[j]].data(), M * bytes[j]);
  });
  return Status::ok();
}
