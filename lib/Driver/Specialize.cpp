//===- Specialize.cpp - specialization of variants on integer arguments ---===//
#include "tessel/Driver/Specialize.h"

#include "tessel/Analysis/AxisInfo.h"
#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::driver;

namespace {

/// Vector width of every tile load and store along its last dimension.
std::vector<unsigned> vectorWidths(func::FuncOp kernel) {
  AxisInfoAnalysis axis(kernel);
  std::vector<unsigned> widths;
  kernel.walk([&](Operation *op) {
    Value ptr, mask;
    if (auto l = dyn_cast<tile::LoadOp>(op))
      ptr = l.getPtr(), mask = l.getMask();
    else if (auto s = dyn_cast<tile::StoreOp>(op))
      ptr = s.getPtr(), mask = s.getMask();
    auto type = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : RankedTensorType();
    if (!type)
      return;
    Type elem = tile::getPointeeType(type);
    unsigned bytes = std::max(1u, elem.getIntOrFloatBitWidth() / 8);
    widths.push_back(axis.getVectorWidth(ptr, mask, type.getRank() - 1, bytes));
  });
  return widths;
}

/// Vector widths of `kernel` specialized as `s` (on a copy: ones are substituted, then folded).
std::vector<unsigned> vectorWidths(func::FuncOp kernel, const Specialization &s, int divisibility) {
  OwningOpRef<func::FuncOp> copy(kernel.clone());
  applySpecialization(*copy, s, divisibility);
  return vectorWidths(*copy);
}

/// `arg` may be a unit stride: it scales a tile of offsets (a tensor arith.muli), or is the
/// stride of a block pointer's fastest dimension, reached through casts and tile reshapes only.
/// Sizes that bound masks and loops (M in `rows < M`, `cdiv(M, BLOCK_M)`, a block pointer's
/// shape), strides of slower dimensions and scalar products are not: promising one of them equal
/// to 1 can still widen an access (the grid collapses to a single row of tiles) but makes a twin
/// no real launch uses (gemm_swiglu's __div8 twin promised M = 1, then stride_xm = 1).
bool scalesAnOffset(Value arg) {
  SmallVector<Value> work = {arg};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<arith::MulIOp>(user) && isa<RankedTensorType>(user->getResult(0).getType()))
        return true;
      if (auto bp = dyn_cast<tile::MakeBlockPtrOp>(user)) {
        OperandRange strides = bp.getStrides();
        ArrayRef<int32_t> order = bp.getOrder();
        if (!order.empty() && order[0] < int32_t(strides.size()) && strides[order[0]] == v)
          return true;
        continue;
      }
      if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp, tile::SplatOp,
              tile::BroadcastOp, tile::ExpandDimsOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}

bool widens(const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
  for (auto [x, y] : llvm::zip(a, b))
    if (x > y)
      return true;
  return false;
}

} // namespace

void tessel::driver::applySpecialization(func::FuncOp kernel, const Specialization &s,
                                         int divisibility) {
  MLIRContext *ctx = kernel.getContext();
  for (unsigned i : s.multiples)
    kernel.setArgAttr(i, tile::TileDialect::getDivisibilityAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 32), divisibility));
  if (s.ones.empty() || kernel.isExternal())
    return;
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.front());
  for (unsigned i : s.ones) {
    BlockArgument arg = kernel.getArgument(i);
    kernel.setArgAttr(i, tile::TileDialect::getEqualToAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 64), 1));
    Value one = b.create<arith::ConstantOp>(kernel.getLoc(), IntegerAttr::get(arg.getType(), 1));
    arg.replaceAllUsesWith(one);
  }
  // Fold x * 1 and friends so that AxisInfo sees the unit strides.
  RewritePatternSet patterns(ctx);
  for (Dialect *d : ctx->getLoadedDialects())
    d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsAndFoldGreedily(kernel, std::move(patterns));
}

Specialization tessel::driver::findSpecialization(func::FuncOp kernel, int divisibility) {
  std::vector<unsigned> candidates;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
    if (kernel.getArgument(i).getType().isSignlessInteger() &&
        !kernel.getArgAttr(i, tile::TileDialect::getDivisibilityAttrName()) &&
        !kernel.getArgAttr(i, tile::TileDialect::getEqualToAttrName()))
      candidates.push_back(i);
  if (candidates.empty())
    return {};
  // Ones first, each stride tried with every other candidate a multiple (a unit stride widens
  // an access only when its mask and alignment allow it too).
  Specialization best{candidates, {}};
  std::vector<unsigned> widths = vectorWidths(kernel, best, divisibility);
  for (unsigned c : candidates) {
    if (!scalesAnOffset(kernel.getArgument(c)))
      continue;
    Specialization trial = best;
    llvm::erase(trial.multiples, c);
    trial.ones.push_back(c);
    std::vector<unsigned> w = vectorWidths(kernel, trial, divisibility);
    if (widens(w, widths)) {
      best = trial;
      widths = w;
    }
  }
  if (!widens(widths, vectorWidths(kernel)))
    return {};
  // Keep only the multiples some access needs.
  for (unsigned c : std::vector<unsigned>(best.multiples)) {
    Specialization trial = best;
    llvm::erase(trial.multiples, c);
    if (vectorWidths(kernel, trial, divisibility) == widths)
      best = trial;
  }
  return best;
}

std::optional<TwinRequest> tessel::driver::parseTwinRequest(StringRef text,
                                                            const std::vector<ArgMetadata> &args,
                                                            std::string &error) {
  auto [suffix, list] = text.split(':');
  TwinRequest r;
  r.suffix = suffix.str();
  SmallVector<StringRef> items;
  list.split(items, ',', -1, /*KeepEmpty=*/false);
  if (suffix.empty() || items.empty()) {
    error = "'" + text.str() + "' is not SUFFIX:ARG=1,ARG=0,ARG%N,...";
    return std::nullopt;
  }
  for (StringRef item : items) {
    bool multiple = item.contains('%');
    auto [name, value] = multiple ? item.split('%') : item.split('=');
    auto it = llvm::find_if(args, [&](const ArgMetadata &a) {
      return a.name == name && a.kind == "scalar" && StringRef(a.type).starts_with("i");
    });
    int n = 0;
    if (it == args.end() || value.getAsInteger(10, n) || (multiple && n < 1) ||
        (!multiple && n != 0 && n != 1)) {
      error = "'" + item.str() + "' is not ARG=1, ARG=0 or ARG%N for an integer argument";
      return std::nullopt;
    }
    unsigned i = it - args.begin();
    if (multiple)
      r.multiples[n].push_back(i);
    else
      (n == 1 ? r.ones : r.zeros).push_back(i);
  }
  return r;
}

void tessel::driver::applyTwinRequest(func::FuncOp kernel, const TwinRequest &r,
                                      std::vector<ArgMetadata> &args) {
  for (const auto &[n, indices] : r.multiples) {
    applySpecialization(kernel, Specialization{indices, {}}, n);
    for (unsigned i : indices)
      args[i].divisibility = n;
  }
  // Zeros first, then the ones in one step (which folds every use together).
  if (!kernel.isExternal() && !r.zeros.empty()) {
    MLIRContext *ctx = kernel.getContext();
    OpBuilder b = OpBuilder::atBlockBegin(&kernel.front());
    for (unsigned i : r.zeros) {
      BlockArgument arg = kernel.getArgument(i);
      kernel.setArgAttr(i, tile::TileDialect::getEqualToAttrName(),
                        IntegerAttr::get(IntegerType::get(ctx, 64), 0));
      arg.replaceAllUsesWith(
          b.create<arith::ConstantOp>(kernel.getLoc(), IntegerAttr::get(arg.getType(), 0)));
      args[i].equalTo = 0;
    }
  }
  applySpecialization(kernel, Specialization{{}, r.ones}, kSpecializationDivisibility);
  for (unsigned i : r.ones)
    args[i].equalTo = 1;
}
