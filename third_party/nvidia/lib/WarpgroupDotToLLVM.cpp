//===- WarpgroupDotToLLVM.cpp - tile_nv ops to wgmma PTX ------------------===//
//
// warpgroup_dot: per warpgroup, per 64-row repetition along M, per instruction along N
// (instrShape[1] columns) and per 16-element step of K, one
//   wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}.{f16,bf16} {d}, descA, descB, p, 1, 1, tA,
//   tB
// between a wgmma.fence and a wgmma.commit_group. The accumulator registers are the mma
// version 3 layout's: (repetition along M, 8-column chunk, c0..c3), and an instruction at
// chunk n0 / 8 writes its N / 2 registers d[4 j + e] to chunk n0 / 8 + j, element e. With
// valid_n (a padded BLOCK_N), the instructions end at the first multiple of 8 at or past it:
// m64n96 over the first 48 registers of a 128-column tile; the padding's registers keep C's
// values.
//
// Shared-memory matrix descriptors (PTX ISA, "Matrix Descriptor Format"; CUTLASS's
// GmmaDescriptor): bits 0-13 start address >> 4, 16-29 leading byte offset >> 4, 32-45 stride
// byte offset >> 4, 62-63 swizzle (1: 128 B, 2: 64 B, 3: 32 B). With rows of R bytes (the
// swizzle width, R = blockCols * element bytes):
//   K-major operand (K contiguous): 8-row core groups R * 8 bytes apart along M/N (stride byte
//     offset); the leading byte offset is unused (1). A K step inside a row block moves the
//     start address by 32 bytes, as the hardware applies the swizzle to the address it forms.
//   MN-major operand (M or N contiguous, transpose bit set): 8 K rows at R bytes, groups of 8 K
//     rows R * 8 bytes apart (stride byte offset), blocks of R bytes of M/N one column block
//     (rows extent * R bytes) apart (leading byte offset).
//
// warpgroup_dot_wait is wgmma.wait_group with the waited registers as tied in/out operands,
// so that no use of them is scheduled above it.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "PTXAsm.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"
#include "tessel/NVIDIA/Dialect/TileNV.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// How wgmma addresses one operand tile: (mn, k) is an element of A (M, K) or of B^T (N, K).
struct OperandPlacement {
  bool mnMajor = false; // M or N contiguous: the instruction's transpose bit
  int64_t rowBytes = 0; // swizzle width
  int64_t rows = 0;     // extent of the non-contiguous dimension
  int64_t elemBytes = 2;
  uint64_t fields = 0; // the descriptor without its start address

  OperandPlacement(MemDescType t, unsigned opIdx) {
    auto enc = cast<SharedEncodingAttr>(t.getEncoding());
    unsigned cdim = enc.getOrder()[0];
    unsigned mnDim = opIdx == 0 ? 0 : 1;
    mnMajor = cdim == mnDim;
    elemBytes = t.getElementType().getIntOrFloatBitWidth() / 8;
    rowBytes = int64_t(enc.getBlockColsFor(t.getShape()[cdim])) * elemBytes;
    rows = t.getShape()[1 - cdim];
    uint64_t mode = rowBytes == 128 ? 1 : rowBytes == 64 ? 2 : 3;
    uint64_t sbo = 8 * rowBytes, lbo = mnMajor ? rows * rowBytes : 16;
    fields = ((lbo >> 4) & 0x3fff) << 16 | ((sbo >> 4) & 0x3fff) << 32 | mode << 62;
  }

  /// Byte offset of element (mn, k), mn a multiple of 8 (64 for MN-major) and k of 8.
  int64_t offset(int64_t mn, int64_t k) const {
    int64_t blockCols = rowBytes / elemBytes;
    int64_t c = mnMajor ? mn : k, r = mnMajor ? k : mn;
    return (c / blockCols) * rows * rowBytes + r * rowBytes + (c % blockCols) * elemBytes;
  }
};

/// Inline-asm constraints for `n` f32 registers read and written in place: n outputs "=f", then
/// n inputs tied to them ("0", "1", ...).
std::string tiedF32Constraints(unsigned n) {
  std::string c;
  for (unsigned i = 0; i < n; ++i)
    c += "=f,";
  for (unsigned i = 0; i < n; ++i)
    c += std::to_string(i) + (i + 1 < n ? "," : "");
  return c;
}

/// i64 descriptor for the byte address `addr` (i32, shared window).
Value descriptor(OpBuilder &b, Location loc, Value addr, const OperandPlacement &p) {
  Type i64 = b.getI64Type();
  Value start = b.create<LLVM::LShrOp>(loc, addr, i32Const(b, loc, 4));
  start = b.create<LLVM::AndOp>(loc, start, i32Const(b, loc, 0x3fff));
  start = b.create<LLVM::ZExtOp>(loc, i64, start);
  Value fields = b.create<LLVM::ConstantOp>(loc, i64, b.getI64IntegerAttr(int64_t(p.fields)));
  return b.create<LLVM::OrOp>(loc, start, fields);
}

struct WarpgroupDotConversion : public ConvertOpToLLVMPattern<tile_nv::WarpgroupDotOp> {
  WarpgroupDotConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<tile_nv::WarpgroupDotOp>(c), target(target) {}

  LogicalResult matchAndRewrite(tile_nv::WarpgroupDotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType aType = op.getA().getType(), bType = op.getB().getType();
    auto dType = cast<RankedTensorType>(op.getD().getType());
    auto mma = cast<MmaEncodingAttr>(dType.getEncoding());
    int64_t M = dType.getDimSize(0), N = dType.getDimSize(1), K = aType.getShape()[1];
    int64_t wm = mma.getWarpsPerCTA()[0];
    int64_t instrN = mma.getInstrShape()[1];
    int64_t mReps = M / (16 * wm), nChunks = N / 8;
    SmallVector<Value> acc = unpackStruct(rewriter, loc, adaptor.getC());
    if (int64_t(acc.size()) != mReps * nChunks * 4 || N % instrN != 0)
      return op.emitError() << "warpgroup_dot: " << dType << " does not split into wgmma m64n"
                            << instrN << " instructions over " << wm / 4 << " warpgroup(s)";
    OperandPlacement pa(aType, 0), pb(bType, 1);
    std::string ty = aType.getElementType().isBF16() ? "bf16" : "f16";

    // Warpgroup g works on rows 64 g + 16 wm r of repetition r.
    auto [lane, warp] = emitLaneAndWarp(rewriter, loc, target);
    Value group = rewriter.create<LLVM::UDivOp>(loc, warp, i32Const(rewriter, loc, 4));
    Type i32 = rewriter.getI32Type();
    auto addrOf = [&](Value ptr) { return rewriter.create<LLVM::PtrToIntOp>(loc, i32, ptr); };
    Value aBase = rewriter.create<LLVM::AddOp>(
        loc, addrOf(adaptor.getA()),
        rewriter.create<LLVM::MulOp>(loc, group, i32Const(rewriter, loc, pa.offset(64, 0))));
    Value bBase = addrOf(adaptor.getB());
    Value one = i32Const(rewriter, loc, 1);

    rewriter.create<NVVM::WgmmaFenceAlignedOp>(loc);
    // The instruction of `width` columns (a multiple of 8): its inline asm, constraints and
    // result struct of width / 2 registers.
    Type f32 = rewriter.getF32Type();
    auto instruction = [&](int64_t width) {
      unsigned n = unsigned(width / 2);
      std::string regs;
      for (unsigned i = 0; i < n; ++i)
        regs += (i ? ", $" : "$") + std::to_string(i);
      auto operand = [](unsigned i) { return "$" + std::to_string(i); };
      std::string asmString = "{ .reg .pred p; setp.ne.b32 p, " + operand(2 * n + 2) +
                              ", 0; wgmma.mma_async.sync.aligned.m64n" + std::to_string(width) +
                              "k16.f32." + ty + "." + ty + " {" + regs + "}, " + operand(2 * n) +
                              ", " + operand(2 * n + 1) + ", p, 1, 1, " + (pa.mnMajor ? "1" : "0") +
                              ", " + (pb.mnMajor ? "1" : "0") + "; }";
      return std::tuple{
          asmString, tiedF32Constraints(n) + ",l,l,r",
          LLVM::LLVMStructType::getLiteral(rewriter.getContext(), SmallVector<Type>(n, f32))};
    };
    // Columns from valid_n on are padding: the last instruction narrows to the real ones
    // (rounded up to wgmma's step of 8) and none is issued past them.
    int64_t validN = std::min<int64_t>(op.getValidN().value_or(N), N);

    for (int64_t r = 0; r < mReps; ++r)
      for (int64_t n0 = 0; n0 < validN; n0 += instrN) {
        int64_t width = std::min<int64_t>(instrN, llvm::alignTo(validN - n0, 8));
        auto [asmString, constraints, resultType] = instruction(width);
        unsigned n = unsigned(width / 2); // accumulator registers of the instruction
        auto first = acc.begin() + (r * nChunks + n0 / 8) * 4;
        SmallVector<Value> d(first, first + n);
        for (int64_t k = 0; k < K; k += 16) {
          Value aAddr = rewriter.create<LLVM::AddOp>(
              loc, aBase, i32Const(rewriter, loc, pa.offset(16 * wm * r, k)));
          Value bAddr =
              rewriter.create<LLVM::AddOp>(loc, bBase, i32Const(rewriter, loc, pb.offset(n0, k)));
          SmallVector<Value> operands(d);
          operands.push_back(descriptor(rewriter, loc, aAddr, pa));
          operands.push_back(descriptor(rewriter, loc, bAddr, pb));
          operands.push_back(one);
          Value out = nvidia::ptxAsm(rewriter, loc, resultType, operands, asmString, constraints);
          d = unpackStruct(rewriter, loc, out);
        }
        std::copy(d.begin(), d.end(), first);
      }
    rewriter.create<NVVM::WgmmaGroupSyncAlignedOp>(loc);
    rewriter.replaceOp(op, packStruct(rewriter, loc, getTypeConverter()->convertType(dType), acc));
    return success();
  }

  const TargetInfo &target;
};

struct WarpgroupDotWaitConversion : public ConvertOpToLLVMPattern<tile_nv::WarpgroupDotWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(tile_nv::WarpgroupDotWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> all;
    SmallVector<unsigned> counts;
    for (Value v : adaptor.getInputs()) {
      SmallVector<Value> elems = unpackStruct(rewriter, loc, v);
      counts.push_back(elems.size());
      all.append(elems.begin(), elems.end());
    }
    Type f32 = rewriter.getF32Type();
    if (!llvm::all_of(all, [&](Value v) { return v.getType() == f32; }))
      return op.emitError("warpgroup_dot_wait waits for f32 accumulators");
    std::string constraints = tiedF32Constraints(all.size());
    auto resultType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), SmallVector<Type>(all.size(), f32));
    Value out = nvidia::ptxAsm(
        rewriter, loc, resultType, all,
        llvm::formatv("wgmma.wait_group.sync.aligned {0};", op.getPendings()).str(), constraints);
    SmallVector<Value> waited = unpackStruct(rewriter, loc, out);
    SmallVector<Value> results;
    unsigned at = 0;
    for (auto [i, t] : llvm::enumerate(op.getOutputs().getTypes())) {
      results.push_back(packStruct(rewriter, loc, getTypeConverter()->convertType(t),
                                   ArrayRef(waited).slice(at, counts[i])));
      at += counts[i];
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct FenceAsyncSharedConversion : public ConvertOpToLLVMPattern<tile_nv::FenceAsyncSharedOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(tile_nv::FenceAsyncSharedOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyOp>(
        op, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    return success();
  }
};

} // namespace

namespace tessel::nvidia {
void populateWarpgroupDotToLLVMPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                        RewritePatternSet &patterns) {
  patterns.add<WarpgroupDotConversion>(converter, target);
  patterns.add<WarpgroupDotWaitConversion, FenceAsyncSharedConversion>(converter);
}
} // namespace tessel::nvidia
