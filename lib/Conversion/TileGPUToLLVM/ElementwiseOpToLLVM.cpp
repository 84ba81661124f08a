//===- ElementwiseOpToLLVM.cpp - element-wise and shape ops ---------------===//
//
// Element-wise ops on tiles become the same op on each element the thread holds (the scalar
// ops are then legalized by the arith/math patterns), once per run of equal results where
// AxisInfo's constancy promises one (below); shape ops (splat, broadcast,
// expand_dims) only re-index the thread's elements, which the layouts make a compile-time
// mapping; arange adds its start to the element index.
//
// A few scalar arith ops get Tessel's own lowering here, the same on every target, because
// arith's or LLVM's differs from docs/TileIR.md (cases C11, C13, C14 of the field):
//  - floordivsi / ceildivsi / ceildivui (arith-to-llvm has none): sdiv/srem and a correction;
//  - fptosi / fptoui: round toward zero, saturate to the integer's range, NaN -> 0 (LLVM's
//    fptosi is poison out of range; NVPTX and AMDGPU then convert to 16 or 32 bits and wrap);
//  - sitofp / uitofp of integers wider than 24 bits to bf16: rounded once to nearest even (the
//    backends go through f32, rounding twice); the integer is first rounded to odd at f32's 24
//    bits, which the final f32 -> bf16 rounding then rounds correctly.
//
//===----------------------------------------------------------------------===//
#include "tessel/Analysis/AxisInfo.h"
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

constexpr unsigned kBenefit = 10;

RankedTensorType tileType(Value v) { return dyn_cast<RankedTensorType>(v.getType()); }

/// For each element a thread holds of `op`'s single result, the element whose value it
/// equals: the first of its run when AxisInfo's constancy promises aligned runs of equal values
/// inside the thread's sizePerThread chunk (a chunk starts at a multiple of sizePerThread, so a
/// run length r dividing it is aligned); itself otherwise. A mask `cols < n_cols` of a __div8
/// twin is one value per 8 columns: on a 1024-column row on one warp, 4 compares a thread
/// instead of 32, and none of the 28 column indices they would widen to 64 bits.
SmallVector<unsigned> runLeaders(Operation *op, const AxisInfoAnalysis *info, unsigned n) {
  SmallVector<unsigned> leader(n);
  std::iota(leader.begin(), leader.end(), 0u);
  if (!info || op->getNumResults() != 1)
    return leader;
  auto type = tileType(op->getResult(0));
  std::optional<ThreadElems> te = getThreadElems(type);
  if (!te || te->total != n)
    return leader;
  AxisInfo ai = info->get(op->getResult(0));
  if (ai.getRank() != te->perDim.size())
    return leader;
  SmallVector<unsigned> run;
  bool any = false;
  for (auto [d, k] : llvm::enumerate(te->view.keptDims)) {
    int64_t g = std::gcd<int64_t>(ai.constancy[d], te->view.root.getSizePerThread()[k]);
    run.push_back(static_cast<unsigned>(highestPowerOf2Divisor(std::max<int64_t>(g, 1))));
    any |= run.back() > 1;
  }
  if (!any)
    return leader;
  for (unsigned e = 0; e < n; ++e) {
    SmallVector<unsigned> local = te->delinearize(e);
    for (auto [d, l] : llvm::enumerate(local))
      l -= l % run[d];
    leader[e] = te->linearize(local);
  }
  return leader;
}

/// Any op with the Elementwise trait whose results are tiles.
struct ElementwiseOpConversion : public ConversionPattern {
  ElementwiseOpConversion(TypeConverter &converter, MLIRContext *ctx, const AxisInfoMap &axis)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), kBenefit, ctx), axis(axis) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    // Several results (arith.mulsi_extended: low and high halves) map element by element too.
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() == 0 ||
        op->getNumRegions() != 0 ||
        !llvm::all_of(op->getResults(), [](Value r) { return tileType(r); }))
      return failure();
    auto resultType = tileType(op->getResult(0));
    unsigned n = getElemsPerThread(resultType);
    if (!n)
      return rewriter.notifyMatchFailure(op, "tile without a distributed layout");
    Location loc = op->getLoc();
    SmallVector<SmallVector<Value>> elems;
    for (auto [orig, conv] : llvm::zip(op->getOperands(), operands))
      elems.push_back(tileType(orig) ? unpackStruct(rewriter, loc, conv) : SmallVector<Value>{});
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    SmallVector<unsigned> leader = runLeaders(op, axis.lookup(op), n);
    for (unsigned e = 0; e < n; ++e) {
      if (leader[e] != e) {
        for (auto &r : results)
          r.push_back(r[leader[e]]);
        continue;
      }
      OperationState state(loc, op->getName());
      for (auto [i, conv] : llvm::enumerate(operands))
        state.addOperands(elems[i].empty() ? conv : elems[i][e]);
      for (Value r : op->getResults())
        state.addTypes(tileType(r).getElementType());
      state.addAttributes(op->getAttrs());
      Operation *scalar = rewriter.create(state);
      for (auto [k, r] : llvm::enumerate(scalar->getResults()))
        results[k].push_back(r);
    }
    replaceOpWithStructs(rewriter, op, *getTypeConverter(), [&](unsigned k) { return results[k]; });
    return success();
  }

  const AxisInfoMap &axis;
};

template <typename OpT> struct TilePattern : public ConvertOpToLLVMPattern<OpT> {
  TilePattern(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<OpT>(c, kBenefit), target(target) {}
  const TargetInfo &target;
};

struct ConstantOpConversion : TilePattern<arith::ConstantOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = tileType(op.getResult());
    if (!type)
      return failure();
    auto splat = dyn_cast<SplatElementsAttr>(op.getValue());
    unsigned n = getElemsPerThread(type);
    if (!splat || !n)
      return op.emitError("only splat tile constants are supported by the GPU backends");
    Location loc = op.getLoc();
    Type elemType = getTypeConverter()->convertType(type.getElementType());
    Value scalar =
        rewriter.create<LLVM::ConstantOp>(loc, elemType, splat.getSplatValue<TypedAttr>());
    SmallVector<Value> elems(n, scalar);
    rewriter.replaceOp(op, packStruct(rewriter, loc, getTypeConverter()->convertType(type), elems));
    return success();
  }
};

struct SplatOpConversion : TilePattern<tile::SplatOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    unsigned n = getElemsPerThread(cast<RankedTensorType>(op.getType()));
    if (!n)
      return failure();
    SmallVector<Value> elems(n, adaptor.getSrc());
    rewriter.replaceOp(op, packStruct(rewriter, op.getLoc(),
                                      getTypeConverter()->convertType(op.getType()), elems));
    return success();
  }
};

struct ArangeOpConversion : TilePattern<tile::ArangeOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(tile::ArangeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!getElemsPerThread(op.getType()))
      return failure();
    Location loc = op.getLoc();
    auto indices = emitIndices(rewriter, loc, target, op.getType());
    SmallVector<Value> elems;
    for (auto &idx : indices)
      elems.push_back(
          op.getStart() == 0
              ? idx[0]
              : rewriter.create<LLVM::AddOp>(loc, idx[0], i32Const(rewriter, loc, op.getStart())));
    rewriter.replaceOp(
        op, packStruct(rewriter, loc, getTypeConverter()->convertType(op.getType()), elems));
    return success();
  }
};

/// Result element -> source element by a mapping of local indices.
/// Tiles in other layouts (an mma accumulator and its rows or columns) go through their linear
/// layouts: result register r reads the source register that holds sourceCoord(r's element),
/// which is the same thread's when the source's lane and warp bases are the result's mapped by
/// sourceCoord (a linear map: dropping or zeroing coordinates).
template <typename OpT> struct ReindexConversion : TilePattern<OpT> {
  using TilePattern<OpT>::TilePattern;
  using OpAdaptor = typename OpT::Adaptor;
  virtual SmallVector<unsigned> sourceLocal(OpT op, ArrayRef<unsigned> resultLocal) const = 0;
  virtual LinearLayout::Coord sourceCoord(OpT op, LinearLayout::Coord resultCoord) const = 0;
  LogicalResult matchAndRewrite(OpT op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    SmallVector<Value> in = unpackStruct(rewriter, loc, adaptor.getSrc()), out;
    std::optional<ThreadElems> src = getThreadElems(srcType), dst = getThreadElems(dstType);
    if (src && dst) {
      for (unsigned e = 0; e < dst->total; ++e)
        out.push_back(in[src->linearize(sourceLocal(op, dst->delinearize(e)))]);
    } else {
      std::optional<LinearLayout> srcLL = toLinearLayout(srcType), dstLL = toLinearLayout(dstType);
      if (!srcLL || !dstLL)
        return failure();
      for (auto input : {LinearLayout::Lane, LinearLayout::Warp}) {
        bool same = srcLL->bases[input].size() == dstLL->bases[input].size();
        for (unsigned i = 0; same && i < dstLL->bases[input].size(); ++i)
          same = sourceCoord(op, dstLL->bases[input][i]) == srcLL->bases[input][i];
        if (!same)
          return op.emitError("operand and result layouts place an element in different "
                              "threads; expected a convert_layout before this op");
      }
      DenseMap<unsigned, unsigned> byCoord; // linearized source coordinate -> register
      auto key = [&](const LinearLayout::Coord &c) {
        unsigned k = 0;
        for (auto [d, v] : llvm::enumerate(c))
          k = k * srcType.getShape()[d] + v;
        return k;
      };
      for (unsigned r = srcLL->numRegisters(); r-- > 0;)
        byCoord[key(srcLL->applyInput(LinearLayout::Register, r))] = r;
      for (unsigned e = 0; e < dstLL->numRegisters(); ++e) {
        auto it = byCoord.find(key(sourceCoord(op, dstLL->applyInput(LinearLayout::Register, e))));
        if (it == byCoord.end())
          return op.emitError("a result element's source is not in the same thread's registers");
        out.push_back(in[it->second]);
      }
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc, this->getTypeConverter()->convertType(dstType), out));
    return success();
  }
};

/// Same layout; broadcast dimensions (size 1 in the source) read local index 0.
struct BroadcastOpConversion : ReindexConversion<tile::BroadcastOp> {
  using ReindexConversion::ReindexConversion;
  LogicalResult matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    if (srcType.getEncoding() != cast<RankedTensorType>(op.getType()).getEncoding())
      return op.emitError("broadcast between different layouts reached the lowering");
    return ReindexConversion::matchAndRewrite(op, adaptor, rewriter);
  }
  SmallVector<unsigned> sourceLocal(tile::BroadcastOp op, ArrayRef<unsigned> local) const override {
    auto srcShape = cast<RankedTensorType>(op.getSrc().getType()).getShape();
    SmallVector<unsigned> s(local);
    for (unsigned d = 0; d < s.size(); ++d)
      if (srcShape[d] == 1)
        s[d] = 0;
    return s;
  }
  LinearLayout::Coord sourceCoord(tile::BroadcastOp op, LinearLayout::Coord c) const override {
    auto srcShape = cast<RankedTensorType>(op.getSrc().getType()).getShape();
    for (unsigned d = 0; d < c.size(); ++d)
      if (srcShape[d] == 1)
        c[d] = 0;
    return c;
  }
};

/// slice(axis, P) -> P: the result's local index without `axis`.
struct ExpandDimsOpConversion : ReindexConversion<tile::ExpandDimsOp> {
  using ReindexConversion::ReindexConversion;
  LogicalResult matchAndRewrite(tile::ExpandDimsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto src =
        dyn_cast<SliceEncodingAttr>(cast<RankedTensorType>(op.getSrc().getType()).getEncoding());
    auto dst = cast<RankedTensorType>(op.getType()).getEncoding();
    if (!src || src.getDim() != unsigned(op.getAxis()) || src.getParent() != dst)
      return op.emitError("expand_dims operand is not a slice of the result's layout");
    return ReindexConversion::matchAndRewrite(op, adaptor, rewriter);
  }
  SmallVector<unsigned> sourceLocal(tile::ExpandDimsOp op,
                                    ArrayRef<unsigned> local) const override {
    SmallVector<unsigned> s(local);
    s.erase(s.begin() + op.getAxis());
    return s;
  }
  LinearLayout::Coord sourceCoord(tile::ExpandDimsOp op, LinearLayout::Coord c) const override {
    c.erase(c.begin() + op.getAxis());
    return c;
  }
};

struct AddPtrOpConversion : TilePattern<tile::AddPtrOp> {
  using TilePattern::TilePattern;
  LogicalResult matchAndRewrite(tile::AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType = getTypeConverter()->convertType(tile::getPointeeType(op.getType()));
    Type resultType = getTypeConverter()->convertType(op.getType());
    auto gep = [&](Value p, Value off) -> Value {
      return rewriter.create<LLVM::GEPOp>(loc, p.getType(), elemType, p, ValueRange{off});
    };
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, gep(adaptor.getPtr(), adaptor.getOffset()));
      return success();
    }
    SmallVector<Value> ptrs = unpackStruct(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offs = unpackStruct(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> out;
    for (auto [p, o] : llvm::zip(ptrs, offs))
      out.push_back(gep(p, o));
    rewriter.replaceOp(op, packStruct(rewriter, loc, resultType, out));
    return success();
  }
};

/// Scalar arith ops (operands already converted) whose lowering Tessel defines itself.
template <typename OpT> struct ScalarArithPattern : public ConvertOpToLLVMPattern<OpT> {
  ScalarArithPattern(LLVMTypeConverter &c) : ConvertOpToLLVMPattern<OpT>(c, kBenefit) {}
};

Value intConst(OpBuilder &b, Location loc, Type t, int64_t v) {
  return b.create<LLVM::ConstantOp>(loc, t, b.getIntegerAttr(t, v));
}

/// floordivsi: q - 1 when the remainder is non-zero and its sign differs from the divisor's;
/// ceildivsi: q + 1 when the remainder is non-zero and its sign is the divisor's; ceildivui:
/// q + 1 when the remainder is non-zero (q, r: the truncating sdiv/srem or udiv/urem).
template <typename OpT> struct DivRoundingPattern : ScalarArithPattern<OpT> {
  using ScalarArithPattern<OpT>::ScalarArithPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type t = op.getType();
    if (!isa<IntegerType>(t))
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getLhs(), y = adaptor.getRhs();
    Value zero = intConst(rewriter, loc, t, 0), one = intConst(rewriter, loc, t, 1);
    using P = LLVM::ICmpPredicate;
    auto cmp = [&](P p, Value a, Value b) { return rewriter.create<LLVM::ICmpOp>(loc, p, a, b); };
    Value q, r, adjust;
    if constexpr (std::is_same_v<OpT, arith::CeilDivUIOp>) {
      q = rewriter.create<LLVM::UDivOp>(loc, x, y);
      r = rewriter.create<LLVM::URemOp>(loc, x, y);
      adjust = cmp(P::ne, r, zero);
    } else {
      q = rewriter.create<LLVM::SDivOp>(loc, x, y);
      r = rewriter.create<LLVM::SRemOp>(loc, x, y);
      Value rNeg = cmp(P::slt, r, zero), yNeg = cmp(P::slt, y, zero);
      Value signsDiffer = rewriter.create<LLVM::XOrOp>(loc, rNeg, yNeg);
      Value sameSign = rewriter.create<LLVM::XOrOp>(loc, signsDiffer, i1Const(rewriter, loc, true));
      adjust = rewriter.create<LLVM::AndOp>(loc, cmp(P::ne, r, zero),
                                            std::is_same_v<OpT, arith::FloorDivSIOp> ? signsDiffer
                                                                                     : sameSign);
    }
    Value step = rewriter.create<LLVM::SelectOp>(loc, adjust, one, zero);
    if constexpr (std::is_same_v<OpT, arith::FloorDivSIOp>)
      rewriter.replaceOp(op, rewriter.create<LLVM::SubOp>(loc, q, step).getResult());
    else
      rewriter.replaceOp(op, rewriter.create<LLVM::AddOp>(loc, q, step).getResult());
    return success();
  }
};

/// fptosi / fptoui: toward zero, saturated to the integer's range, NaN -> 0 (docs/TileIR.md,
/// case C14), on every target. f16/bf16 are first extended to f32 (exactly); the bounds
/// -2^(w-1), 2^(w-1) (2^w unsigned) are powers of two, exact in f32 and f64. LLVM's fptosi is
/// used only for in-range values; the selects take the saturated value otherwise.
template <typename OpT> struct SaturatingFPToIntPattern : ScalarArithPattern<OpT> {
  using ScalarArithPattern<OpT>::ScalarArithPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto it = dyn_cast<IntegerType>(op.getType());
    auto ft = dyn_cast<FloatType>(op.getIn().getType());
    if (!it || !ft || it.getWidth() > 64)
      return failure();
    constexpr bool isSigned = std::is_same_v<OpT, arith::FPToSIOp>;
    Location loc = op.getLoc();
    unsigned w = it.getWidth();
    Value x = adaptor.getIn();
    if (ft.getWidth() < 32) {
      ft = rewriter.getF32Type();
      x = rewriter.create<LLVM::FPExtOp>(loc, ft, x);
    }
    auto fconst = [&](double v) {
      return rewriter.create<LLVM::ConstantOp>(loc, ft, rewriter.getFloatAttr(ft, v));
    };
    using P = LLVM::FCmpPredicate;
    auto cmp = [&](P p, Value a, Value b) { return rewriter.create<LLVM::FCmpOp>(loc, p, a, b); };
    APInt maxV = isSigned ? APInt::getSignedMaxValue(w) : APInt::getMaxValue(w);
    APInt minV = isSigned ? APInt::getSignedMinValue(w) : APInt::getZero(w);
    Value maxC = rewriter.create<LLVM::ConstantOp>(loc, it, rewriter.getIntegerAttr(it, maxV));
    Value minC = rewriter.create<LLVM::ConstantOp>(loc, it, rewriter.getIntegerAttr(it, minV));
    Value zero = intConst(rewriter, loc, it, 0);
    double hi = std::ldexp(1.0, isSigned ? int(w) - 1 : int(w));
    double lo = isSigned ? -hi : 0.0;
    Value conv = isSigned ? Value(rewriter.create<LLVM::FPToSIOp>(loc, it, x))
                          : Value(rewriter.create<LLVM::FPToUIOp>(loc, it, x));
    // x >= hi: max; x <= lo: min (trunc(x) for lo - 1 < x <= lo is lo itself); NaN: 0.
    Value r = rewriter.create<LLVM::SelectOp>(loc, cmp(P::ole, x, fconst(lo)), minC, conv);
    r = rewriter.create<LLVM::SelectOp>(loc, cmp(P::oge, x, fconst(hi)), maxC, r);
    r = rewriter.create<LLVM::SelectOp>(loc, cmp(P::uno, x, x), zero, r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// sitofp / uitofp of an integer wider than 24 bits to bf16, rounded once (case C11): the
/// magnitude u is rounded to odd at 24 bits (t = u >> s, with the lost bits ORed into t's
/// lowest bit), converted exactly to f32 and scaled by 2^s, then rounded to bf16 by fptrunc.
/// Rounding to odd at 24 >= 8 + 2 bits keeps the final rounding correct.
template <typename OpT> struct IntToBF16Pattern : ScalarArithPattern<OpT> {
  using ScalarArithPattern<OpT>::ScalarArithPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto it = dyn_cast<IntegerType>(op.getIn().getType());
    if (!it || !op.getType().isBF16() || it.getWidth() <= 24 || it.getWidth() > 64)
      return failure();
    constexpr bool isSigned = std::is_same_v<OpT, arith::SIToFPOp>;
    Location loc = op.getLoc();
    unsigned w = it.getWidth();
    Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
    Value x = adaptor.getIn(), zero = intConst(rewriter, loc, it, 0);
    Value u = x, neg;
    if (isSigned) {
      neg = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, x, zero);
      u = rewriter.create<LLVM::SelectOp>(loc, neg, rewriter.create<LLVM::SubOp>(loc, zero, x), x);
    }
    Value lz = rewriter.create<LLVM::CountLeadingZerosOp>(loc, it, u, /*is_zero_poison=*/false);
    Value s = rewriter.create<LLVM::SubOp>(loc, intConst(rewriter, loc, it, w - 24), lz);
    s = rewriter.create<LLVM::SelectOp>(
        loc, rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::sgt, s, zero), s, zero);
    Value t = rewriter.create<LLVM::LShrOp>(loc, u, s);
    Value back = rewriter.create<LLVM::ShlOp>(loc, t, s);
    Value inexact = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ne, back, u);
    t = rewriter.create<LLVM::OrOp>(loc, t, rewriter.create<LLVM::ZExtOp>(loc, it, inexact));
    if (w > 32) {
      t = rewriter.create<LLVM::TruncOp>(loc, i32, t);
      s = rewriter.create<LLVM::TruncOp>(loc, i32, s);
    }
    Value f = rewriter.create<LLVM::UIToFPOp>(loc, f32, t); // t < 2^24: exact
    // 2^s as the bits (s + 127) << 23; s <= 40.
    Value scaleBits = rewriter.create<LLVM::ShlOp>(
        loc, rewriter.create<LLVM::AddOp>(loc, s, i32Const(rewriter, loc, 127)),
        i32Const(rewriter, loc, 23));
    f = rewriter.create<LLVM::FMulOp>(loc, f,
                                      rewriter.create<LLVM::BitcastOp>(loc, f32, scaleBits));
    if (isSigned)
      f = rewriter.create<LLVM::SelectOp>(loc, neg, rewriter.create<LLVM::FNegOp>(loc, f), f);
    rewriter.replaceOp(op, rewriter.create<LLVM::FPTruncOp>(loc, op.getType(), f).getResult());
    return success();
  }
};

} // namespace

namespace tessel {
void populateElementwiseOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                         const AxisInfoMap &axis, RewritePatternSet &patterns) {
  patterns.add<ElementwiseOpConversion>(converter, patterns.getContext(), axis);
  patterns.add<ConstantOpConversion, SplatOpConversion, ArangeOpConversion, BroadcastOpConversion,
               ExpandDimsOpConversion, AddPtrOpConversion>(converter, target);
  patterns.add<DivRoundingPattern<arith::FloorDivSIOp>, DivRoundingPattern<arith::CeilDivSIOp>,
               DivRoundingPattern<arith::CeilDivUIOp>, SaturatingFPToIntPattern<arith::FPToSIOp>,
               SaturatingFPToIntPattern<arith::FPToUIOp>, IntToBF16Pattern<arith::SIToFPOp>,
               IntToBF16Pattern<arith::UIToFPOp>>(converter);
}
} // namespace tessel
