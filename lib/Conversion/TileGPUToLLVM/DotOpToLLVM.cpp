//===- DotOpToLLVM.cpp - tile.dot on FMA units (the fallback) -------------===//
//
// The dot every target can run: a and b go to shared memory (row-major, a at offset 0, b
// after it), then each thread walks K once, reading a[m, k] for the distinct rows and b[k, n]
// for the distinct columns of its accumulator elements and accumulating with fma. The result
// keeps whatever distributed layout the dot was given. Matrix-unit dots (their operands in
// dot_op layouts) are lowered by the adapter's own patterns.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct FMADotOpConversion : public ConvertOpToLLVMPattern<tile::DotOp> {
  FMADotOpConversion(LLVMTypeConverter &c, const TargetInfo &target, SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<tile::DotOp>(c, /*benefit=*/10), target(target), shared(shared) {}

  LogicalResult matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto dType = cast<RankedTensorType>(op.getD().getType());
    if (isa_and_present<DotOperandEncodingAttr>(aType.getEncoding()))
      return failure(); // a matrix-unit dot: the adapter's pattern
    std::optional<LinearLayout> dLayout = toLinearLayout(dType);
    if (!dLayout)
      return failure();
    Location loc = op.getLoc();
    int64_t M = aType.getDimSize(0), K = aType.getDimSize(1), N = bType.getDimSize(1);
    Type inElem = getTypeConverter()->convertType(aType.getElementType());
    Type accElem = getTypeConverter()->convertType(dType.getElementType());
    unsigned bytes = byteWidth(inElem);
    unsigned scratch = shared.reserveScratch(op, unsigned((M * K + K * N) * bytes));

    // a (M, K) at [0, M*K), b (K, N) at [M*K, M*K + K*N), in elements.
    Value base = sharedMemoryPtr(rewriter, loc, target, scratch);
    auto at = [&](Value pos) -> Value {
      return rewriter.create<LLVM::GEPOp>(loc, base.getType(), inElem, base, ValueRange{pos});
    };
    target.barrier(rewriter, loc);
    auto storeTile = [&](Value tile, RankedTensorType type, int64_t rowLength, int64_t offset) {
      SmallVector<Value> elems = unpackStruct(rewriter, loc, tile);
      auto indices = emitIndices(rewriter, loc, target, type);
      for (auto [e, idx] : llvm::enumerate(indices)) {
        Value pos = rewriter.create<LLVM::MulOp>(loc, idx[0], i32Const(rewriter, loc, rowLength));
        pos = rewriter.create<LLVM::AddOp>(loc, pos, idx[1]);
        if (offset)
          pos = rewriter.create<LLVM::AddOp>(loc, pos, i32Const(rewriter, loc, offset));
        rewriter.create<LLVM::StoreOp>(loc, elems[e], at(pos));
      }
    };
    storeTile(adaptor.getA(), aType, K, 0);
    storeTile(adaptor.getB(), bType, N, M * K);
    target.barrier(rewriter, loc);

    // Distinct rows and columns of the accumulator: elements whose register part of the
    // coordinate agrees share the run-time part too.
    auto dIdx = emitIndices(rewriter, loc, target, dType);
    llvm::MapVector<int64_t, Value> rows, cols;
    SmallVector<std::pair<unsigned, unsigned>> slot; // element -> (row slot, column slot)
    for (unsigned e = 0; e < dLayout->numRegisters(); ++e) {
      LinearLayout::Coord c = dLayout->applyInput(LinearLayout::Register, e);
      auto r = rows.insert({c[0], dIdx[e][0]}).first, k = cols.insert({c[1], dIdx[e][1]}).first;
      slot.push_back({unsigned(r - rows.begin()), unsigned(k - cols.begin())});
    }
    SmallVector<Value> acc = unpackStruct(rewriter, loc, adaptor.getC());

    // for (k = 0; k < K; ++k) as LLVM blocks: current -> header(k, acc...) -> body -> header,
    // header -> rest(acc...). The enclosing scf ops are lowered later and accept several blocks.
    Type i32 = rewriter.getI32Type();
    Block *current = rewriter.getInsertionBlock();
    Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
    SmallVector<Type> carried(acc.size(), accElem);
    SmallVector<Location> locs(acc.size() + 1, loc);
    SmallVector<Type> headerTypes{i32};
    headerTypes.append(carried);
    Block *header = rewriter.createBlock(rest, headerTypes, locs);
    Block *body = rewriter.createBlock(rest);
    for (Type t : carried)
      rest->addArgument(t, loc);

    rewriter.setInsertionPointToEnd(current);
    SmallVector<Value> init{i32Const(rewriter, loc, 0)};
    init.append(acc);
    rewriter.create<LLVM::BrOp>(loc, init, header);

    rewriter.setInsertionPointToEnd(header);
    Value k = header->getArgument(0);
    Value more =
        rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, k, i32Const(rewriter, loc, K));
    rewriter.create<LLVM::CondBrOp>(loc, more, body, ValueRange{}, rest,
                                    header->getArguments().drop_front());

    rewriter.setInsertionPointToEnd(body);
    auto widen = [&](Value v) -> Value {
      if (v.getType() == accElem)
        return v;
      if (isa<FloatType>(accElem))
        return rewriter.create<LLVM::FPExtOp>(loc, accElem, v);
      return rewriter.create<LLVM::SExtOp>(loc, accElem, v);
    };
    SmallVector<Value> aVals, bVals;
    for (auto &[key, m] : rows) {
      Value pos = rewriter.create<LLVM::MulOp>(loc, m, i32Const(rewriter, loc, K));
      pos = rewriter.create<LLVM::AddOp>(loc, pos, k);
      aVals.push_back(widen(rewriter.create<LLVM::LoadOp>(loc, inElem, at(pos))));
    }
    for (auto &[key, n] : cols) {
      Value pos = rewriter.create<LLVM::MulOp>(loc, k, i32Const(rewriter, loc, N));
      pos = rewriter.create<LLVM::AddOp>(loc, pos, n);
      pos = rewriter.create<LLVM::AddOp>(loc, pos, i32Const(rewriter, loc, M * K));
      bVals.push_back(widen(rewriter.create<LLVM::LoadOp>(loc, inElem, at(pos))));
    }
    SmallVector<Value> next{rewriter.create<LLVM::AddOp>(loc, k, i32Const(rewriter, loc, 1))};
    for (auto [e, rc] : llvm::enumerate(slot)) {
      Value a = aVals[rc.first], b = bVals[rc.second], c = header->getArgument(e + 1);
      if (isa<FloatType>(accElem))
        next.push_back(rewriter.create<LLVM::FMAOp>(loc, a, b, c));
      else
        next.push_back(
            rewriter.create<LLVM::AddOp>(loc, rewriter.create<LLVM::MulOp>(loc, a, b), c));
    }
    rewriter.create<LLVM::BrOp>(loc, next, header);

    rewriter.setInsertionPointToStart(rest);
    rewriter.replaceOp(op, packStruct(rewriter, loc, getTypeConverter()->convertType(dType),
                                      rest->getArguments()));
    return success();
  }

  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

} // namespace

namespace tessel {
void populateDotOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                 SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<FMADotOpConversion>(converter, target, shared);
}
} // namespace tessel
