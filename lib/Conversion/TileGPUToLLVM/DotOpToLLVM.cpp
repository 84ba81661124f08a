//===- DotOpToLLVM.cpp - tile.dot on FMA units (the fallback) -------------===//
//
// The dot every target can run: a and b go to shared memory (row-major, a at offset 0, b
// after it; K in slices where both would not fit), then each thread walks K once, reading a[m, k]
// for the distinct rows and b[k, n] for the distinct columns of its accumulator elements and
// accumulating with fma. The result keeps whatever distributed layout the dot was given.
// Matrix-unit dots (their operands in dot_op layouts) are lowered by the adapter's own patterns.
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
    unsigned threads = dLayout->numLanes() * dLayout->numWarps();
    // K in slices of kc when a and b together would not fit beside the buffers live at the
    // dot (the target's limit): 64x256 + 128x64 f32 is 96 KB, over a target's 64 KB per
    // program. A thread stores each of its elements in the slice that holds its k; in the
    // other slices it stores to a slot of its own past the operands, so no store is predicated.
    unsigned live = 0;
    if (auto attr = op->getAttrOfType<IntegerAttr>(TileGPUDialect::getScratchOffsetAttrName()))
      live = attr.getInt();
    int64_t kc = K;
    while (kc > 1 && live + (M + N) * kc * bytes + threads * bytes >
                         target.getLimits().sharedMemoryPerProgram)
      kc /= 2;
    bool sliced = kc < K;
    unsigned scratch =
        shared.reserveScratch(op, unsigned(((M + N) * kc + (sliced ? threads : 0)) * bytes));

    // a (M, kc) at [0, M*kc), b (kc, N) at [M*kc, M*kc + kc*N), in elements.
    Value base = sharedMemoryPtr(rewriter, loc, target, scratch);
    auto at = [&](Value pos) -> Value {
      return rewriter.create<LLVM::GEPOp>(loc, base.getType(), inElem, base, ValueRange{pos});
    };
    Value ownSlot;
    if (sliced)
      ownSlot = rewriter.create<LLVM::AddOp>(loc, target.getThreadId(rewriter, loc),
                                             i32Const(rewriter, loc, (M + N) * kc));
    // Element (i, j) of `tile` at offset + i * rowLength + j; sliced, only where the K
    // coordinate (dimension kDim) is in [k0, k0 + kc), at that coordinate minus k0.
    auto storeTile = [&](Value tile, RankedTensorType type, int64_t rowLength, int64_t offset,
                         unsigned kDim, int64_t k0) {
      SmallVector<Value> elems = unpackStruct(rewriter, loc, tile);
      auto indices = emitIndices(rewriter, loc, target, type);
      for (auto [e, idx] : llvm::enumerate(indices)) {
        SmallVector<Value, 2> ij(idx.begin(), idx.end());
        Value inSlice;
        if (sliced) {
          ij[kDim] = rewriter.create<LLVM::SubOp>(loc, ij[kDim], i32Const(rewriter, loc, k0));
          inSlice = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, ij[kDim],
                                                  i32Const(rewriter, loc, kc));
        }
        Value pos = rewriter.create<LLVM::MulOp>(loc, ij[0], i32Const(rewriter, loc, rowLength));
        pos = rewriter.create<LLVM::AddOp>(loc, pos, ij[1]);
        if (offset)
          pos = rewriter.create<LLVM::AddOp>(loc, pos, i32Const(rewriter, loc, offset));
        if (inSlice)
          pos = rewriter.create<LLVM::SelectOp>(loc, inSlice, pos, ownSlot);
        rewriter.create<LLVM::StoreOp>(loc, elems[e], at(pos));
      }
    };
    auto storeSlice = [&](int64_t k0) {
      target.barrier(rewriter, loc);
      storeTile(adaptor.getA(), aType, kc, 0, 1, k0);
      storeTile(adaptor.getB(), bType, N, M * kc, 0, k0);
      target.barrier(rewriter, loc);
    };
    storeSlice(0);

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

    // for (k = 0; k < kc; ++k) as LLVM blocks: current -> header(k, acc...) -> body -> header,
    // header -> rest(acc...). The enclosing scf ops are lowered later and accept several blocks.
    Type i32 = rewriter.getI32Type();
    auto multiplySlice = [&](ValueRange accIn) -> Block * {
      Block *current = rewriter.getInsertionBlock();
      Block *rest = rewriter.splitBlock(current, rewriter.getInsertionPoint());
      SmallVector<Type> carried(accIn.size(), accElem);
      SmallVector<Location> locs(accIn.size() + 1, loc);
      SmallVector<Type> headerTypes{i32};
      headerTypes.append(carried);
      Block *header = rewriter.createBlock(rest, headerTypes, locs);
      Block *body = rewriter.createBlock(rest);
      for (Type t : carried)
        rest->addArgument(t, loc);

      rewriter.setInsertionPointToEnd(current);
      SmallVector<Value> init{i32Const(rewriter, loc, 0)};
      init.append(accIn.begin(), accIn.end());
      rewriter.create<LLVM::BrOp>(loc, init, header);

      rewriter.setInsertionPointToEnd(header);
      Value k = header->getArgument(0);
      Value more = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, k,
                                                 i32Const(rewriter, loc, kc));
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
        Value pos = rewriter.create<LLVM::MulOp>(loc, m, i32Const(rewriter, loc, kc));
        pos = rewriter.create<LLVM::AddOp>(loc, pos, k);
        aVals.push_back(widen(rewriter.create<LLVM::LoadOp>(loc, inElem, at(pos))));
      }
      for (auto &[key, n] : cols) {
        Value pos = rewriter.create<LLVM::MulOp>(loc, k, i32Const(rewriter, loc, N));
        pos = rewriter.create<LLVM::AddOp>(loc, pos, n);
        pos = rewriter.create<LLVM::AddOp>(loc, pos, i32Const(rewriter, loc, M * kc));
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
      return rest;
    };
    Block *rest = multiplySlice(acc);
    for (int64_t k0 = kc; k0 < K; k0 += kc) {
      storeSlice(k0);
      rest = multiplySlice(SmallVector<Value>(rest->getArguments()));
    }

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
