//===- ConvertLayoutThroughLDS.cpp - layout conversions of the MFMA path --===//
//
// blocked -> dot_op (MFMA or WMMA operands) and mfma/wmma -> blocked (the epilogue) through LDS,
// with the address math of linear layouts: when a layout's register bits and lane/warp bits are
// disjoint in every dimension (LinearLayout::registersDisjointFromThreads), a thread's
// element (register e) sits at  base(lane, warp) + offset(e)  with one run-time base and a
// compile-time offset per register, which the backend folds into the ds_read / ds_write
// immediate. The shared lowering's generic conversion (ConvertLayoutOpToLLVM.cpp) computes a
// full index per element instead; LLVM hoists those out of the K loop and a 128x128 GEMM then
// spills.
//
// Placement: row-major along the dimension the destination's registers are contiguous in
// (K for the operands: each lane reads its kWidth = 4 K elements as one ds_read_b64; N for the
// epilogue's blocked tile), rows padded by 16 bytes (fewer bank conflicts between the rows one
// wave reads in the same column, alignment of 16-byte vectors kept). Vectors of consecutive
// registers are used on both sides up to 16 bytes. A tile larger than the LDS (128x256 f32
// accumulators: 128 KB, CDNA has 64 KB) is converted in slices along the rows, barrier between
// them, when the slice of each element is known from its register index alone
// (LinearLayout::registerOnlyHighBits on both layouts).
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"

#include "tessel/Conversion/TileGPUToLLVM/TileGPUToLLVM.h"
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

bool isMfmaFamily(Attribute enc) {
  if (isa_and_present<MfmaEncodingAttr, WmmaEncodingAttr>(enc))
    return true;
  auto op = dyn_cast_if_present<DotOperandEncodingAttr>(enc);
  return op && isa<MfmaEncodingAttr, WmmaEncodingAttr>(op.getParent());
}

/// Where the elements go in LDS: row-major with rows along `od` and `cd` contiguous.
struct Placement {
  unsigned cd, od;
  int64_t rowStride;   ///< elements per row, padding included
  int64_t sliceRows;   ///< rows per slice (all rows when not sliced)
  unsigned sliceShift; ///< slice of a row r = r >> sliceShift
};

struct MfmaConvertLayoutThroughLDS : public ConvertOpToLLVMPattern<ConvertLayoutOp> {
  MfmaConvertLayoutThroughLDS(LLVMTypeConverter &c, const TargetInfo &target,
                              SharedMemoryPlan &shared)
      : ConvertOpToLLVMPattern<ConvertLayoutOp>(c, /*benefit=*/20), target(target), shared(shared) {
  }

  /// The lane/warp part of the element offset: rt[od] * rowStride + rt[cd].
  Value threadBase(OpBuilder &b, Location loc, const LinearLayout &ll, const Placement &p,
                   Value lane, Value warp) const {
    SmallVector<Value> rt = emitThreadCoords(b, loc, ll, lane, warp);
    Value row = b.create<LLVM::MulOp>(loc, rt[p.od], i32Const(b, loc, p.rowStride));
    return b.create<LLVM::AddOp>(loc, row, rt[p.cd]);
  }

  LogicalResult matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (srcType.getRank() != 2 ||
        (!isMfmaFamily(srcType.getEncoding()) && !isMfmaFamily(dstType.getEncoding())))
      return failure();
    Type elem = getTypeConverter()->convertType(srcType.getElementType());
    if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() < 8)
      return failure();
    std::optional<LinearLayout> src = toLinearLayout(srcType), dst = toLinearLayout(dstType);
    if (!src || !dst || !src->registersDisjointFromThreads() ||
        !dst->registersDisjointFromThreads())
      return failure();
    if (getElemsPerThread(srcType) != src->numRegisters() ||
        getElemsPerThread(dstType) != dst->numRegisters())
      return failure();
    int64_t bytes = byteWidth(elem);

    // The destination's contiguous dimension first (its reads become vectors); the other one
    // when only that one can be sliced to fit the LDS.
    Placement p;
    unsigned preferred = dst->contiguousRegisters(0) > dst->contiguousRegisters(1) ? 0 : 1;
    int64_t limit = target.getLimits().sharedMemoryPerProgram;
    bool placed = false;
    for (unsigned cd : {preferred, 1 - preferred}) {
      unsigned od = 1 - cd;
      int64_t rows = srcType.getDimSize(od), cols = srcType.getDimSize(cd);
      unsigned maxSlices = std::min(src->registerOnlyHighBits(od), dst->registerOnlyHighBits(od));
      for (unsigned s = 0; s <= maxSlices && !placed; ++s)
        for (int64_t pad : {std::max<int64_t>(16 / bytes, 0), int64_t(0)}) {
          int64_t sliceRows = rows >> s;
          if (sliceRows * (cols + pad) * bytes > limit)
            continue;
          p = {cd, od, cols + pad, sliceRows, unsigned(llvm::Log2_64(sliceRows))};
          placed = true;
          break;
        }
      if (placed)
        break;
    }
    if (!placed)
      return failure(); // the generic conversion reports the shared-memory overflow
    unsigned vecMax = std::max<int64_t>(1, 16 / bytes);
    unsigned srcVec = std::min(src->contiguousRegisters(p.cd), vecMax);
    unsigned dstVec = std::min(dst->contiguousRegisters(p.cd), vecMax);
    // Row strides keep vectors aligned (16-byte padding), so alignment = vector size.
    Location loc = op.getLoc();
    unsigned scratch = shared.reserveScratch(op, unsigned(p.sliceRows * p.rowStride * bytes));
    Value lds = sharedMemoryPtr(rewriter, loc, target, scratch);
    auto [lane, warp] = emitLaneAndWarp(rewriter, loc, target);
    Value srcBase = rewriter.create<LLVM::GEPOp>(loc, lds.getType(), elem, lds,
                                                 threadBase(rewriter, loc, *src, p, lane, warp));
    Value dstBase = rewriter.create<LLVM::GEPOp>(loc, lds.getType(), elem, lds,
                                                 threadBase(rewriter, loc, *dst, p, lane, warp));
    // Slice of register e and its offset within the slice.
    auto place = [&](const LinearLayout &ll, unsigned e) -> std::pair<int64_t, int64_t> {
      LinearLayout::Coord c = ll.applyInput(LinearLayout::Register, e);
      int64_t slice = c[p.od] >> p.sliceShift;
      return {slice, (c[p.od] - slice * p.sliceRows) * p.rowStride + c[p.cd]};
    };
    auto at = [&](Value base, int64_t offset) -> Value {
      return rewriter.create<LLVM::GEPOp>(loc, base.getType(), elem, base,
                                          ArrayRef<LLVM::GEPArg>{int32_t(offset)});
    };

    SmallVector<Value> in = unpackStruct(rewriter, loc, adaptor.getSrc());
    unsigned dstElems = dst->numRegisters();
    SmallVector<Value> out(dstElems);
    int64_t slices = srcType.getDimSize(p.od) / p.sliceRows;
    for (int64_t slice = 0; slice < slices; ++slice) {
      target.barrier(rewriter, loc);
      llvm::DenseSet<int64_t> written; // replicated registers store once
      for (unsigned e = 0; e < in.size(); e += srcVec) {
        auto [s, offset] = place(*src, e);
        if (s != slice || !written.insert(offset).second)
          continue;
        storeVector(rewriter, loc, ArrayRef(in).slice(e, srcVec), at(srcBase, offset));
      }
      target.barrier(rewriter, loc);
      for (unsigned e = 0; e < dstElems; e += dstVec) {
        auto [s, offset] = place(*dst, e);
        if (s != slice)
          continue;
        SmallVector<Value> run;
        loadVector(rewriter, loc, elem, dstVec, at(dstBase, offset), run);
        llvm::copy(run, out.begin() + e);
      }
    }
    rewriter.replaceOp(op,
                       packStruct(rewriter, loc, getTypeConverter()->convertType(dstType), out));
    return success();
  }

  const TargetInfo &target;
  SharedMemoryPlan &shared;
};

} // namespace

namespace tessel::amd {

void populateMfmaConvertLayoutPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                       SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<MfmaConvertLayoutThroughLDS>(converter, target, shared);
}

} // namespace tessel::amd
