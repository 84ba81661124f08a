//===- PadShapes.cpp - pad non-power-of-two tiles and mask the padding ----===//
//
// Blocked layouts tile power-of-two shapes (lanes, warps and registers are powers of two; a
// shape that is not one would wrap onto the wrong elements). A dimension of L elements that is
// not a power of two is padded to P = next power of two: element i < L is real, L <= i < P is
// padding. Element-wise ops compute garbage in the padding and nothing reads it back, because
// every op that could let it escape is masked here:
//   - load / store / atomic_rmw: mask &= valid, so padding lanes touch no memory;
//   - assert: a padding lane always passes;
//   - reduce along a padded axis: padding holds the combiner's identity, or (any other
//     combiner) an i1 validity operand lifts the combiner to skip invalid elements;
//   - reverse scan along a padded axis: the same (a forward scan's real prefixes hold no
//     padding: padding only comes after the last real element);
//   - arange(s, s + L) becomes arange(s, s + P): padding lanes hold s + L .. s + P - 1, used only
//     under the masks above.
// Padding along other axes of a reduce or scan only makes padded results, masked downstream;
// so does a dot's padding along M or N (rows of A, columns of B), which is why BLOCK_M and
// BLOCK_N may be 96 or 192: an adapter's matrix unit may skip the padding (it reads the
// logical shape recorded on the dot) or compute it. A block-pointer load
// kept for the adapter's bulk copy keeps its logical block type (the copy's box) and gets the
// padded tile as its result.
// Where padding cannot be hidden (a dot's K, atomic_cas without a mask, print, block-pointer
// stores, reshapes that move elements across padding), a located error names the op.
//
//===----------------------------------------------------------------------===//
#include "tessel/Transforms/Passes.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tessel {
#define GEN_PASS_DEF_TILEGPUPADSHAPES
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

using namespace mlir;
using namespace tessel;
using namespace tessel::tile;

namespace {

constexpr llvm::StringLiteral kLogicalShapeAttr =
    tile_gpu::TileGPUDialect::getLogicalShapeAttrName();

RankedTensorType paddedTile(Type t) {
  auto tt = dyn_cast<RankedTensorType>(t);
  if (!tt || llvm::all_of(tt.getShape(), [](int64_t d) { return llvm::isPowerOf2_64(d); }))
    return {};
  return RankedTensorType::get(tile_gpu::paddedShape(tt.getShape()), tt.getElementType(),
                               tt.getEncoding());
}

/// Whether padding both sides of a reshape keeps every real element at its row-major position.
/// Dimensions split or merge in groups of equal products; within a group only the outermost
/// dimension larger than 1 may be padded: (100, 4) -> (400) pads to (128, 4) -> (512) and
/// element (i, j) stays at 4 i + j, but (2, 50) -> (100) pads to (2, 64) -> (128), which moves
/// element (1, 0) from 50 to 64.
bool reshapeKeepsPositions(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  auto innerUnpadded = [](ArrayRef<int64_t> group) {
    bool outer = false;
    for (int64_t d : group) {
      if (outer && !llvm::isPowerOf2_64(d))
        return false;
      outer |= d > 1;
    }
    return true;
  };
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    int64_t pf = 1, pt = 1;
    size_t i0 = i, j0 = j;
    do {
      if ((pf <= pt && i < from.size()) || j == to.size())
        pf *= from[i++];
      else
        pt *= to[j++];
    } while (pf != pt && (i < from.size() || j < to.size()));
    if (!innerUnpadded(from.slice(i0, i - i0)) || !innerUnpadded(to.slice(j0, j - j0)))
      return false;
  }
  return true;
}

/// Identity of a single-op combiner `op(acc, v)` (commutative ops only), or null.
TypedAttr combinerIdentity(Region &combiner, Type elem) {
  Block &body = combiner.front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
    return {};
  Operation &op = body.front();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      body.getTerminator()->getOperand(0) != op.getResult(0))
    return {};
  auto args = body.getArguments();
  bool onArgs = (op.getOperand(0) == args[0] && op.getOperand(1) == args[1]) ||
                (op.getOperand(0) == args[1] && op.getOperand(1) == args[0]);
  if (!onArgs)
    return {};
  if (auto ft = dyn_cast<FloatType>(elem)) {
    // Formats with an infinity (fp8 e4m3fn has none): f16, bf16, f32, f64.
    if (!(ft.isF16() || ft.isBF16() || ft.isF32() || ft.isF64()))
      return {};
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    std::optional<APFloat> id;
    if (isa<arith::AddFOp>(op))
      id = APFloat::getZero(sem, /*Negative=*/true); // -0 + -0 = -0: +0 would flip a sum of -0s
    else if (isa<arith::MulFOp>(op))
      id = APFloat::getOne(sem);
    else if (isa<arith::MaximumFOp>(op))
      id = APFloat::getInf(sem, /*Negative=*/true);
    else if (isa<arith::MinimumFOp>(op))
      id = APFloat::getInf(sem, /*Negative=*/false);
    if (!id)
      return {};
    return FloatAttr::get(ft, *id);
  }
  auto it = dyn_cast<IntegerType>(elem);
  if (!it)
    return {};
  unsigned w = it.getWidth();
  std::optional<APInt> id;
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op))
    id = APInt::getZero(w);
  else if (isa<arith::MulIOp>(op))
    id = APInt(w, 1);
  else if (isa<arith::AndIOp, arith::MinUIOp>(op))
    id = APInt::getAllOnes(w);
  else if (isa<arith::MaxSIOp>(op))
    id = APInt::getSignedMinValue(w);
  else if (isa<arith::MinSIOp>(op))
    id = APInt::getSignedMaxValue(w);
  if (!id)
    return {};
  return IntegerAttr::get(it, *id);
}

class ShapePadder {
public:
  explicit ShapePadder(func::FuncOp func) : func(func) {}

  LogicalResult run() {
    bool any = llvm::any_of(func.getArgumentTypes(), [](Type t) { return bool(paddedTile(t)); });
    func.walk([&](Operation *op) {
      any |= llvm::any_of(op->getResultTypes(), [](Type t) { return bool(paddedTile(t)); });
    });
    if (!any)
      return success(); // power-of-two kernels are left exactly as they are
    if (failed(checkSupported()))
      return failure();
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops)
      if (failed(mask(op)))
        return failure();
    padTypes();
    return success();
  }

private:
  static std::string shapeOf(Value v) {
    return shapeToString(cast<RankedTensorType>(v.getType()).getShape());
  }
  static bool padded(Value v) { return bool(paddedTile(v.getType())); }

  LogicalResult checkSupported() {
    WalkResult r =
        func.walk([&](Operation *op) -> WalkResult {
          if (auto dot = dyn_cast<DotOp>(op)) {
            // Padding along M or N only makes padded rows or columns of the result; along K
            // it would be summed into every real element.
            int64_t k = cast<RankedTensorType>(dot.getA().getType()).getShape().back();
            if (!llvm::isPowerOf2_64(k))
              return op->emitError()
                     << "tile.dot of " << shapeOf(dot.getA()) << " x " << shapeOf(dot.getB())
                     << " on the GPU needs a power-of-two BLOCK_K (padding along K would be "
                        "summed into the product); BLOCK_M and BLOCK_N may be any size, "
                        "e.g. 96";
            return WalkResult::advance();
          }
          if (auto cas = dyn_cast<AtomicCASOp>(op)) {
            if (padded(cas.getPtr()))
              return op->emitError()
                     << "tile.atomic_cas on a " << shapeOf(cas.getPtr())
                     << " tile: the GPU pads it to a power of two, and atomic_cas has no mask to "
                        "keep the padding lanes off memory; use a power-of-two tile (and make the "
                        "extra lanes compare against a value that never matches)";
            return WalkResult::advance();
          }
          if (auto print = dyn_cast<PrintOp>(op)) {
            for (Value a : print.getArgs())
              if (padded(a))
                return op->emitError() << "tile.print of a " << shapeOf(a)
                                       << " tile on the GPU would print its padding to a power of "
                                          "two; print a power-of-two tile";
            return WalkResult::advance();
          }
          // Block-pointer accesses left here are the adapter's bulk copies
          // (tile-lower-block-pointers lowered the others to masked pointer tiles). A load's
          // copy moves the block's box into its padded tile's buffer
          // (TargetInfo::loadsBlockThroughTensorMap takes only boxes it can place there); a
          // store's would write the padding over the neighbouring block.
          if (isa<StoreOp>(op) && isa<BlockPtrType>(op->getOperand(0).getType())) {
            RankedTensorType t = cast<BlockPtrType>(op->getOperand(0).getType()).getBlockType();
            if (paddedTile(t))
              return op->emitError() << "a block-pointer store of a " << shapeToString(t.getShape())
                                     << " block on the GPU (a TMA copy) needs power-of-two block "
                                        "dimensions; round the block up and use boundary_check";
            return WalkResult::advance();
          }
          if (auto reshape = dyn_cast<ReshapeOp>(op)) {
            auto from = cast<RankedTensorType>(reshape.getSrc().getType()).getShape();
            auto to = cast<RankedTensorType>(reshape.getType()).getShape();
            if ((padded(reshape.getSrc()) || padded(reshape.getResult())) &&
                !reshapeKeepsPositions(from, to))
              return op->emitError()
                     << "tile.reshape from " << shapeToString(from) << " to " << shapeToString(to)
                     << " cannot run on the GPU's padded tiles: padding to powers of two ("
                     << shapeToString(tile_gpu::paddedShape(from)) << " -> "
                     << shapeToString(tile_gpu::paddedShape(to))
                     << ") puts the elements at different positions (only the outermost "
                        "dimension of each merged or split group may be padded); reshape "
                        "power-of-two tiles";
            return WalkResult::advance();
          }
          if (auto arange = dyn_cast<ArangeOp>(op)) {
            int64_t len = arange.getType().getDimSize(0);
            if (int64_t(int32_t(arange.getStart())) + int64_t(llvm::PowerOf2Ceil(len)) >
                std::numeric_limits<int32_t>::max())
              return op->emitError()
                     << "tile.arange " << arange.getStart() << ", " << arange.getEnd()
                     << " padded to a power of two passes the i32 range; start it "
                        "lower";
            return WalkResult::advance();
          }
          return WalkResult::advance();
        });
    return failure(r.wasInterrupted());
  }

  /// i1 tile of the padded shape of `logical`: true where the index along each dimension in
  /// `dims` (every padded one when empty) is below its logical size.
  Value validMask(OpBuilder &b, Location loc, ArrayRef<int64_t> logical,
                  ArrayRef<unsigned> dims = {}) {
    SmallVector<int64_t> full = tile_gpu::paddedShape(logical);
    unsigned rank = logical.size();
    Type i1 = b.getI1Type(), i32 = b.getI32Type();
    Value result;
    for (unsigned d = 0; d < rank; ++d) {
      if (logical[d] == full[d] || (!dims.empty() && !llvm::is_contained(dims, d)))
        continue;
      auto line = RankedTensorType::get({full[d]}, i32);
      Value idx = b.create<ArangeOp>(loc, line, 0, uint32_t(full[d])); // (P_d)
      Value size = b.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(line, ArrayRef<APInt>{APInt(32, logical[d])}));
      Value m = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, idx, size); // (P_d)
      SmallVector<int64_t> shape = {full[d]};
      for (unsigned a = 0; a < rank; ++a)
        if (a != d) {
          shape.insert(shape.begin() + a, 1);
          m = b.create<ExpandDimsOp>(loc, RankedTensorType::get(shape, i1), m, a);
        }
      if (shape != full)
        m = b.create<BroadcastOp>(loc, RankedTensorType::get(full, i1), m); // (P...)
      result = result ? b.create<arith::AndIOp>(loc, result, m).getResult() : m;
    }
    return result;
  }

  Value andMask(OpBuilder &b, Location loc, Value userMask, Value valid) {
    return userMask ? b.create<arith::AndIOp>(loc, userMask, valid).getResult() : valid;
  }

  LogicalResult mask(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto logicalOf = [](Value v) { return cast<RankedTensorType>(v.getType()).getShape(); };
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (padded(load.getPtr()))
        load.getMaskMutable().assign(
            andMask(b, loc, load.getMask(), validMask(b, loc, logicalOf(load.getPtr()))));
      return success();
    }
    if (auto store = dyn_cast<StoreOp>(op)) {
      if (padded(store.getPtr()))
        store.getMaskMutable().assign(
            andMask(b, loc, store.getMask(), validMask(b, loc, logicalOf(store.getPtr()))));
      return success();
    }
    if (auto rmw = dyn_cast<AtomicRMWOp>(op)) {
      if (padded(rmw.getPtr()))
        rmw.getMaskMutable().assign(
            andMask(b, loc, rmw.getMask(), validMask(b, loc, logicalOf(rmw.getPtr()))));
      return success();
    }
    if (auto assert = dyn_cast<AssertOp>(op)) {
      Value cond = assert.getCondition();
      if (padded(cond)) {
        Value valid = validMask(b, loc, logicalOf(cond));
        Value pass = b.create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(cast<ShapedType>(valid.getType()), ArrayRef<bool>{true}));
        assert.getConditionMutable().assign(
            b.create<arith::SelectOp>(loc, valid, cond, pass).getResult());
      }
      return success();
    }
    if (auto arange = dyn_cast<ArangeOp>(op)) {
      if (padded(arange.getResult()))
        arange.setEnd(uint32_t(int32_t(arange.getStart()) +
                               int32_t(llvm::PowerOf2Ceil(arange.getType().getDimSize(0)))));
      return success();
    }
    if (auto reduce = dyn_cast<ReduceOp>(op))
      return maskCombine(op, reduce.getSrcs(), reduce.getAxis());
    if (auto scan = dyn_cast<ScanOp>(op))
      return scan.getReverse() ? maskCombine(op, scan.getSrcs(), scan.getAxis()) : success();
    return success();
  }

  /// Keeps padding along `axis` out of a reduce's or reverse scan's combination.
  LogicalResult maskCombine(Operation *op, OperandRange srcs, unsigned axis) {
    auto srcType = cast<RankedTensorType>(srcs[0].getType());
    int64_t len = srcType.getDimSize(axis);
    if (llvm::isPowerOf2_64(len))
      return success();
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value valid = validMask(b, loc, srcType.getShape(), {axis});
    Region &combiner = op->getRegion(0);
    if (srcs.size() == 1)
      if (TypedAttr id = combinerIdentity(combiner, srcType.getElementType())) {
        // Padding = identity: the combination is unchanged, at one select per element.
        auto idType =
            RankedTensorType::get(tile_gpu::paddedShape(srcType.getShape()), id.getType());
        Value idTile = b.create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(idType, ArrayRef<Attribute>{id}));
        op->setOperand(0, b.create<arith::SelectOp>(loc, valid, srcs[0], idTile).getResult());
        return success();
      }
    // Any other combiner f: combine (x, valid) pairs with
    //   g((a, va), (b, vb)) = (va ? (vb ? f(a, b) : a) : b, va | vb),
    // associative whenever f is and in the same (earlier, later) order, so a non-commutative
    // scan stays correct. Every real result has a real element, so its flag ends true.
    unsigned n = srcs.size();
    SmallVector<Value> operands(srcs);
    operands.push_back(valid);
    SmallVector<Type> resultTypes(op->getResultTypes());
    Type flagType = b.getI1Type();
    if (auto t = dyn_cast<RankedTensorType>(resultTypes[0]))
      flagType = RankedTensorType::get(t.getShape(), b.getI1Type());
    resultTypes.push_back(flagType);
    OperationState state(loc, op->getName(), operands, resultTypes, op->getAttrs());
    state.addRegion();
    Operation *lifted = b.create(state);
    Block &old = combiner.front();
    Block *body = b.createBlock(&lifted->getRegion(0));
    SmallVector<Value> acc, cur;
    for (unsigned i = 0; i < n; ++i)
      acc.push_back(body->addArgument(old.getArgument(i).getType(), loc));
    Value accValid = body->addArgument(b.getI1Type(), loc);
    for (unsigned i = 0; i < n; ++i)
      cur.push_back(body->addArgument(old.getArgument(n + i).getType(), loc));
    Value curValid = body->addArgument(b.getI1Type(), loc);
    IRMapping map;
    for (unsigned i = 0; i < n; ++i) {
      map.map(old.getArgument(i), acc[i]);
      map.map(old.getArgument(n + i), cur[i]);
    }
    for (Operation &inner : old.without_terminator())
      b.clone(inner, map);
    SmallVector<Value> yields;
    for (auto [i, v] : llvm::enumerate(old.getTerminator()->getOperands())) {
      Value both = b.create<arith::SelectOp>(loc, curValid, map.lookup(v), acc[i]);
      yields.push_back(b.create<arith::SelectOp>(loc, accValid, both, cur[i]));
    }
    yields.push_back(b.create<arith::OrIOp>(loc, accValid, curValid));
    b.create<YieldOp>(loc, yields);
    op->replaceAllUsesWith(lifted->getResults().take_front(n));
    op->erase();
    return success();
  }

  /// Every tile type to its padded shape; constants follow (non-splat ones padded with zeros).
  void padTypes() {
    auto pad = [](Value v) {
      if (RankedTensorType t = paddedTile(v.getType()))
        v.setType(t);
    };
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument a : block.getArguments())
            pad(a);
      std::optional<SmallVector<int64_t>> logical;
      for (Value r : op->getResults())
        if (padded(r)) {
          if (!logical)
            logical = SmallVector<int64_t>(cast<RankedTensorType>(r.getType()).getShape());
          if (auto c = dyn_cast<arith::ConstantOp>(op))
            if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue()))
              c.setValueAttr(padConstant(dense, paddedTile(r.getType())));
          pad(r);
        }
      if (logical)
        op->setAttr(kLogicalShapeAttr, DenseI64ArrayAttr::get(op->getContext(), *logical));
    });
    Operation *ret = func.getBody().empty() ? nullptr : func.getBody().back().getTerminator();
    if (ret)
      func.setType(FunctionType::get(func.getContext(), func.getBody().front().getArgumentTypes(),
                                     ret->getOperandTypes()));
  }

  static DenseElementsAttr padConstant(DenseElementsAttr dense, RankedTensorType to) {
    if (dense.isSplat())
      return DenseElementsAttr::get(to, ArrayRef<Attribute>{dense.getSplatValue<Attribute>()});
    ArrayRef<int64_t> from = dense.getType().getShape();
    SmallVector<Attribute> values(dense.getValues<Attribute>());
    Attribute zero = isa<FloatType>(to.getElementType())
                         ? Attribute(FloatAttr::get(to.getElementType(), 0.0))
                         : Attribute(IntegerAttr::get(to.getElementType(), 0));
    SmallVector<Attribute> out(to.getNumElements(), zero);
    // Row-major: logical index (i...) -> padded linear index over the padded strides.
    for (int64_t lin = 0, n = values.size(); lin < n; ++lin) {
      int64_t rest = lin, dst = 0, stride = 1;
      for (int d = int(from.size()) - 1; d >= 0; --d) {
        dst += (rest % from[d]) * stride;
        rest /= from[d];
        stride *= to.getDimSize(d);
      }
      out[dst] = values[lin];
    }
    return DenseElementsAttr::get(to, out);
  }

  func::FuncOp func;
};

struct PadShapesPass : tessel::impl::TileGPUPadShapesBase<PadShapesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(ShapePadder(func).run()))
        return signalPassFailure();
  }
};

} // namespace
