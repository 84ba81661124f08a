//===- FuncOpToLLVM.cpp - kernels, program ids, unsupported ops -----------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tessel;

namespace {

constexpr unsigned kBenefit = 10;

/// func.func -> llvm.func; kernels get the target's kernel attributes, pointer arguments the
/// alignment their tile.divisibility promises.
struct FuncOpConversion : public ConvertOpToLLVMPattern<func::FuncOp> {
  FuncOpConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern(c, kBenefit), target(target) {}
  LogicalResult matchAndRewrite(func::FuncOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion sig(type.getNumInputs());
    SmallVector<Type> inputs;
    for (auto [i, t] : llvm::enumerate(type.getInputs())) {
      Type c = getTypeConverter()->convertType(t);
      if (!c)
        return op.emitError() << "argument #" << i << " of type " << t
                              << " cannot be passed to a GPU kernel";
      sig.addInputs(i, c);
      inputs.push_back(c);
    }
    // Device helpers may return values (several travel as one struct); kernels return none.
    Type resultType = LLVM::LLVMVoidType::get(getContext());
    if (type.getNumResults() == 1)
      resultType = getTypeConverter()->convertType(type.getResult(0));
    else if (type.getNumResults() > 1)
      resultType = getTypeConverter()->packFunctionResults(type.getResults());
    if (!resultType)
      return op.emitError("results of this function cannot be lowered to the GPU");
    auto fnType = LLVM::LLVMFunctionType::get(resultType, inputs);
    auto func = rewriter.create<LLVM::LLVMFuncOp>(op.getLoc(), op.getSymName(), fnType);
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *getTypeConverter(), &sig)))
      return failure();
    for (unsigned i = 0; i < type.getNumInputs(); ++i)
      if (auto div =
              op.getArgAttrOfType<IntegerAttr>(i, tile::TileDialect::getDivisibilityAttrName()))
        if (isa<tile::PtrType>(type.getInput(i)) && div.getInt() > 1)
          func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                          rewriter.getI64IntegerAttr(div.getInt()));
    target.setKernelArgumentAttributes(op, func);
    if (tile::isKernel(op)) {
      unsigned warps = 4;
      if (auto nw = op->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName()))
        warps = nw.getInt();
      // A warp-specialized kernel launches its producer warps after the num_warps the
      // layouts cover.
      unsigned producers = 0;
      if (auto pw = op->getAttrOfType<IntegerAttr>(tile::TileDialect::getProducerWarpsAttrName())) {
        producers = pw.getInt();
        func->setAttr(tile::TileDialect::getProducerWarpsAttrName(), pw);
      }
      if (auto cluster =
              op->getAttrOfType<IntegerAttr>(tile::TileDialect::getClusterSizeAttrName()))
        func->setAttr(tile::TileDialect::getClusterSizeAttrName(), cluster);
      target.setKernelAttributes(func, (warps + producers) * target.getWarpSize());
      func->setAttr(tile::TileDialect::getKernelAttrName(), rewriter.getUnitAttr());
      func->setAttr(tile::TileDialect::getNumWarpsAttrName(), rewriter.getI32IntegerAttr(warps));
    }
    rewriter.eraseOp(op);
    return success();
  }
  const TargetInfo &target;
};

struct ReturnOpConversion : public ConvertOpToLLVMPattern<func::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(func::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ValueRange values = adaptor.getOperands();
    if (values.size() <= 1) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, values);
      return success();
    }
    Type packed = getTypeConverter()->packFunctionResults(op.getOperandTypes());
    Value s = packStruct(rewriter, op.getLoc(), packed, values);
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, s);
    return success();
  }
};

template <typename OpT> struct GridOpConversion : public ConvertOpToLLVMPattern<OpT> {
  GridOpConversion(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<OpT>(c, kBenefit), target(target) {}
  LogicalResult matchAndRewrite(OpT op, typename OpT::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value v = std::is_same_v<OpT, tile::ProgramIdOp>
                  ? target.getProgramId(rewriter, op.getLoc(), op.getAxis())
                  : target.getNumPrograms(rewriter, op.getLoc(), op.getAxis());
    rewriter.replaceOp(op, v);
    return success();
  }
  const TargetInfo &target;
};

/// No block pointer reaches the lowering: tile-lower-block-pointers rewrites them, except the
/// loads an adapter keeps for its bulk tensor copies (TargetInfo::loadsBlockThroughTensorMap),
/// which tile-gpu-pipeline stages (TensorMap staging) or the adapter copies in place with a pass
/// of its own.
LogicalResult checkBlockPointers(Operation *op, const TargetInfo &target) {
  auto isBlockPtr = [](Type t) { return isa<tile::BlockPtrType>(t); };
  bool touches = llvm::any_of(op->getOperandTypes(), isBlockPtr) ||
                 llvm::any_of(op->getResultTypes(), isBlockPtr) ||
                 llvm::any_of(op->getRegions(), [&](Region &region) {
                   return llvm::any_of(region.getBlocks(), [&](Block &b) {
                     return llvm::any_of(b.getArgumentTypes(), isBlockPtr);
                   });
                 });
  if (!touches)
    return success();
  auto isBlockLoad = [](Operation *user) {
    auto load = dyn_cast<tile::LoadOp>(user);
    return load && isa<tile::BlockPtrType>(load.getPtr().getType());
  };
  if (isBlockLoad(op) || (isa<tile::MakeBlockPtrOp>(op) && !op->use_empty() &&
                          llvm::all_of(op->getUsers(), isBlockLoad)))
    return op->emitError() << "a block-pointer load kept for " << target.getName()
                           << "'s bulk tensor copies (TMA) reached the lowering: neither "
                              "tile-gpu-pipeline nor the adapter's layout passes staged it";
  return op->emitError() << "'" << op->getName()
                         << "' on a block pointer reached the GPU lowering; run "
                            "--tile-lower-block-pointers before the layout passes";
}

} // namespace

namespace tessel {
void populateFuncOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                  RewritePatternSet &patterns) {
  patterns.add<FuncOpConversion, GridOpConversion<tile::ProgramIdOp>,
               GridOpConversion<tile::NumProgramsOp>>(converter, target);
  patterns.add<ReturnOpConversion>(converter, kBenefit);
}
} // namespace tessel

LogicalResult tessel::checkLowerable(ModuleOp module, const TargetInfo &target) {
  WalkResult r = module.walk([&](Operation *op) {
    auto fail = [&](const Twine &why) {
      op->emitError(why);
      return WalkResult::interrupt();
    };
    for (Type t : op->getResultTypes())
      if (auto tt = dyn_cast<RankedTensorType>(t); tt && !tile_gpu::getElemsPerThread(tt))
        return fail("tile of type '" + llvm::formatv("{0}", t).str() +
                    "' has no distributed layout; run --tile-gpu-assign-layouts first");
    if (failed(checkBlockPointers(op, target)))
      return WalkResult::interrupt();
    if (isa<tile_gpu::AsyncCopyGlobalToLocalOp, tile_gpu::AsyncCommitGroupOp,
            tile_gpu::AsyncWaitOp>(op) &&
        !target.supportsAsyncCopy())
      return fail("asynchronous global-to-shared copies are not supported by " + target.getName() +
                  " yet; load the tile and local_store it");
    if (auto alloc = dyn_cast<tile_gpu::LocalAllocOp>(op); alloc && !alloc.getOffset())
      return fail("local_alloc without an offset: run --tile-gpu-allocate-shared-memory before "
                  "the lowering");
    if (isa<func::CallOp>(op))
      return fail("calls must be inlined before the GPU lowering (run the inliner)");
    if (auto rmw = dyn_cast<tile::AtomicRMWOp>(op)) {
      Type elem = tile::getPointeeType(rmw.getPtr().getType());
      if (!target.supportsAtomic(rmw.getKind(), elem) &&
          !lowersFloatMinMaxThroughIntegers(target, rmw.getKind(), elem))
        return fail("atomic " + stringifyRMWKind(rmw.getKind()) + " on " +
                    llvm::Twine(llvm::formatv("'{0}'", elem).str()) + " is not supported by " +
                    target.getName());
    }
    if (auto cas = dyn_cast<tile::AtomicCASOp>(op); cas && isa<RankedTensorType>(cas.getType()))
      return fail("atomic_cas on tiles is not supported by the GPU backends yet");
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}
