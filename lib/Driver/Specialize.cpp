//===- Specialize.cpp - divisibility specialization of variants -----------===//
#include "tessel/Driver/Specialize.h"

#include "tessel/Analysis/AxisInfo.h"
#include "tessel/Dialect/Tile/IR/Tile.h"

using namespace mlir;
using namespace tessel;

namespace {

/// Vector width of every tile load, store and atomic along its last dimension, with the
/// arguments in `assumed` taken as multiples of `divisibility`.
std::vector<unsigned> vectorWidths(func::FuncOp kernel, const std::vector<unsigned> &assumed,
                                   int divisibility) {
  StringRef name = tile::TileDialect::getDivisibilityAttrName();
  std::vector<Attribute> saved;
  for (unsigned i : assumed) {
    saved.push_back(kernel.getArgAttr(i, name));
    kernel.setArgAttr(i, name, IntegerAttr::get(IntegerType::get(kernel.getContext(), 32),
                                                divisibility));
  }
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
  for (auto [i, attr] : llvm::zip(assumed, saved)) {
    if (attr)
      kernel.setArgAttr(i, name, attr);
    else
      kernel.removeArgAttr(i, name);
  }
  return widths;
}

} // namespace

std::vector<unsigned> tessel::driver::findSpecializableArgs(func::FuncOp kernel,
                                                           int divisibility) {
  std::vector<unsigned> candidates;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
    if (kernel.getArgument(i).getType().isSignlessInteger() &&
        !kernel.getArgAttr(i, tile::TileDialect::getDivisibilityAttrName()))
      candidates.push_back(i);
  if (candidates.empty())
    return {};
  std::vector<unsigned> all = vectorWidths(kernel, candidates, divisibility);
  if (all == vectorWidths(kernel, {}, divisibility))
    return {};
  // Keep only the arguments whose assumption some access needs.
  std::vector<unsigned> needed = candidates;
  for (unsigned c : candidates) {
    std::vector<unsigned> without;
    for (unsigned n : needed)
      if (n != c)
        without.push_back(n);
    if (vectorWidths(kernel, without, divisibility) == all)
      needed = without;
  }
  return needed;
}
