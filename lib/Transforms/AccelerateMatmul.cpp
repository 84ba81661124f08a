//===- AccelerateMatmul.cpp - tile.dot onto the target's matrix unit ------===//
//
// 1. Per dot, the adapter's candidate table picks the accumulator layout (or none: FMA, with a
//    remark). a -> dot_op(0), b -> dot_op(1), c -> accumulator layout; the result converts back.
// 2. Loop-carried accumulators: an scf.for iter_arg whose only use converts it to layout X and
//    whose yielded value is a conversion from X is retyped to X; the conversions move to the
//    loop's init and result. Innermost loops first, so nested K loops hoist level by level.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "tessel/Target/TargetRegistry.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUACCELERATEMATMUL
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

RankedTensorType withEncoding(Type t, Attribute enc) {
  auto tt = cast<RankedTensorType>(t);
  return RankedTensorType::get(tt.getShape(), tt.getElementType(), enc);
}

LogicalResult accelerate(tile::DotOp dot, const TargetInfo &target, bool fallbackIsError) {
  auto a = cast<RankedTensorType>(dot.getA().getType());
  auto b = cast<RankedTensorType>(dot.getB().getType());
  auto d = cast<RankedTensorType>(dot.getD().getType());
  if (isa_and_present<DotOperandEncodingAttr>(a.getEncoding()))
    return success(); // already on a matrix unit
  unsigned numWarps = 4;
  if (auto func = dot->getParentOfType<func::FuncOp>())
    if (auto nw = func->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName()))
      numWarps = nw.getInt();
  std::string reason;
  Attribute enc = target.getDotEncoding(a, b, d, dot.getPrecision(), numWarps, reason);
  // No matrix unit (FMA), or not the target's fastest one (the adapter's message says which).
  if (!enc || !reason.empty()) {
    // At the dot's location only: printing the whole op under a remark buries the reason.
    auto diag = fallbackIsError ? emitError(dot.getLoc()) : emitRemark(dot.getLoc());
    if (!enc)
      diag << "tile.dot runs on FMA units, not on " << target.getName() << "'s matrix unit: ";
    diag << reason;
    if (fallbackIsError)
      return failure();
    if (!enc)
      return success();
  }
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  unsigned kWidth = getDefaultKWidth(enc, a.getElementType());
  auto cvt = [&](Value v, Attribute layout) -> Value {
    return builder.create<ConvertLayoutOp>(loc, withEncoding(v.getType(), layout), v);
  };
  Value na = cvt(dot.getA(), DotOperandEncodingAttr::get(dot.getContext(), 0, enc, kWidth));
  Value nb = cvt(dot.getB(), DotOperandEncodingAttr::get(dot.getContext(), 1, enc, kWidth));
  Value nc = cvt(dot.getC(), enc);
  auto newDot =
      builder.create<tile::DotOp>(loc, withEncoding(d, enc), na, nb, nc, dot.getPrecisionAttr());
  // tile-gpu-pad-shapes' logical shape: the matrix unit may skip the padding.
  newDot->setDiscardableAttrs(dot->getDiscardableAttrDictionary());
  Value back = cvt(newDot.getD(), d.getEncoding());
  dot.getD().replaceAllUsesWith(back);
  dot.erase();
  return success();
}

/// One hoisting step on `loop`; true when an iter_arg was retyped.
bool hoistCarriedConversion(scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!arg.hasOneUse())
      continue;
    auto use = dyn_cast<ConvertLayoutOp>(*arg.getUsers().begin());
    auto def = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
    if (!use || !def || def.getSrc().getType() != use.getType())
      continue;
    Type inner = use.getType(), outer = arg.getType();
    OpBuilder b(loop);
    Value init = b.create<ConvertLayoutOp>(loop.getLoc(), inner, loop.getInitArgs()[i]);
    loop.getInitArgsMutable()[i].assign(init);
    arg.setType(inner);
    use.getResult().replaceAllUsesWith(arg);
    use.erase();
    yield->setOperand(i, def.getSrc());
    if (def->use_empty())
      def.erase();
    Value result = loop.getResult(i);
    result.setType(inner);
    b.setInsertionPointAfter(loop);
    auto after = b.create<ConvertLayoutOp>(loop.getLoc(), outer, result);
    result.replaceAllUsesExcept(after, after);
    return true;
  }
  return false;
}

struct AccelerateMatmulPass : tessel::impl::TileGPUAccelerateMatmulBase<AccelerateMatmulPass> {
  using TileGPUAccelerateMatmulBase::TileGPUAccelerateMatmulBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::unique_ptr<TargetInfo> info = createTargetInfoFor(module, target);
    if (!info)
      return signalPassFailure();
    SmallVector<tile::DotOp> dots;
    module.walk([&](tile::DotOp dot) { dots.push_back(dot); });
    bool failed = false;
    for (tile::DotOp dot : dots)
      failed |= mlir::failed(accelerate(dot, *info, perfFallbackError));
    if (failed)
      return signalPassFailure();
    // Post-order: inner loops before the loops around them.
    bool changed = true;
    while (changed) {
      changed = false;
      module.walk([&](scf::ForOp loop) { changed |= hoistCarriedConversion(loop); });
    }
  }
};

} // namespace
