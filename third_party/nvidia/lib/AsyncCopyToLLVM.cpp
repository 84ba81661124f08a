//===- AsyncCopyToLLVM.cpp - cp.async, commit and wait groups -------------===//
//
// async_copy_global_to_local: each thread copies its elements of the pointer tile in runs as
// long as contiguity, alignment and mask constancy allow (AxisInfo), 4, 8 or 16 bytes per
// cp.async (16: .cg, bypassing L1; 4 and 8: .ca). A masked-off run is copied with src-size 0,
// which zero-fills its destination (PTX ISA, cp.async: "ignore-src"). Elements a layout
// replicates are copied by every holder: same bytes, same address.
// async_commit_group / async_wait: cp.async.commit_group / cp.async.wait_group N.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"
#include "PTXAsm.h"

#include "tessel/Analysis/AxisInfo.h"
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct AsyncCopyConversion : public ConvertOpToLLVMPattern<AsyncCopyGlobalToLocalOp> {
  AsyncCopyConversion(LLVMTypeConverter &c, const TargetInfo &target, const AxisInfoMap &axis)
      : ConvertOpToLLVMPattern<AsyncCopyGlobalToLocalOp>(c), target(target), axis(axis) {}

  LogicalResult matchAndRewrite(AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType ptrType = op.getPtr().getType();
    MemDescType dst = op.getDst().getType();
    auto enc = dyn_cast<SharedEncodingAttr>(dst.getEncoding());
    std::optional<ThreadElems> te = getThreadElems(ptrType);
    if (!enc || !te || dst.getShape().size() != 2)
      return op.emitError("async copies need a 2-D tile of pointers in a blocked layout and a "
                          "#tile_gpu.shared buffer");
    Type elem = getTypeConverter()->convertType(dst.getElementType());
    unsigned elemBytes = byteWidth(elem);
    unsigned f = te->dimOrder[0];
    unsigned vec =
        std::min<unsigned>(te->view.root.getSizePerThread()[te->view.keptDims[f]], te->perDim[f]);
    if (const AxisInfoAnalysis *info = axis.lookup(op))
      vec = std::min(vec, info->getVectorWidth(op.getPtr(), op.getMask(), f, elemBytes));
    else
      vec = 1;
    // A run must also be contiguous in the buffer: along its contiguous dimension, within one
    // swizzled group.
    if (f != enc.getOrder()[0])
      vec = 1;
    vec = std::min(vec, enc.getVec());
    unsigned bytes = vec * elemBytes;
    if (bytes < 4)
      return op.emitError() << "cp.async copies 4, 8 or 16 bytes; these pointers allow runs of "
                            << bytes << " byte(s) (contiguity, alignment or mask constancy): "
                            << "load the tile and local_store it instead";

    SmallVector<Value> ptrs = unpackStruct(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackStruct(rewriter, loc, adaptor.getMask());
    auto idx = emitIndices(rewriter, loc, target, *te);
    unsigned cdim = enc.getOrder()[0];
    std::string asmString =
        llvm::formatv("cp.async.{0}.shared.global [ $0 ], [ $1 ], {2}{1};",
                      bytes == 16 ? "cg" : "ca", masks.empty() ? "" : ", $2", bytes)
            .str();
    std::string constraints = masks.empty() ? "r,l" : "r,l,r";
    auto globalPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 1);
    for (unsigned e = 0; e < te->total; ++e) {
      if (te->delinearize(e)[f] % vec != 0)
        continue;
      Value off = sharedElemOffset(rewriter, loc, enc, SharedView::of(op.getDst()),
                                   idx[e][1 - cdim], idx[e][cdim]);
      Value to = rewriter.create<LLVM::GEPOp>(loc, adaptor.getDst().getType(), elem,
                                              adaptor.getDst(), ValueRange{off});
      SmallVector<Value> operands = {
          rewriter.create<LLVM::PtrToIntOp>(loc, rewriter.getI32Type(), to),
          rewriter.create<LLVM::AddrSpaceCastOp>(loc, globalPtr, ptrs[e])};
      if (!masks.empty())
        operands.push_back(rewriter.create<LLVM::SelectOp>(
            loc, masks[e], i32Const(rewriter, loc, bytes), i32Const(rewriter, loc, 0)));
      nvidia::ptxAsm(rewriter, loc, Type(), operands, asmString, constraints);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const TargetInfo &target;
  const AxisInfoMap &axis;
};

struct AsyncCommitGroupConversion : public ConvertOpToLLVMPattern<AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    return success();
  }
};

struct AsyncWaitConversion : public ConvertOpToLLVMPattern<AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getNum());
    return success();
  }
};

} // namespace

namespace tessel::nvidia {
void populateAsyncCopyToLLVMPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                     const AxisInfoMap &axis, RewritePatternSet &patterns) {
  patterns.add<AsyncCopyConversion>(converter, target, axis);
  patterns.add<AsyncCommitGroupConversion, AsyncWaitConversion>(converter);
}
} // namespace tessel::nvidia
