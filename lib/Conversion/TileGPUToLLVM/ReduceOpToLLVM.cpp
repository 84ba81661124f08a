//===- ReduceOpToLLVM.cpp - reductions along one axis ---------------------===//
//
// Three levels, each skipped when the layout puts no distinct data there: the thread's own
// elements along the axis, then the lanes along it (xor butterfly: every lane ends with the
// warp's value), then the warps along it (partials through shared memory, combined in warp
// order by every thread that needs the result). Replicated elements never combine twice.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct ReduceOpConversion : ScratchPattern<tile::ReduceOp> {
  using ScratchPattern::ScratchPattern;

  LogicalResult matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    std::optional<ThreadElems> te = getThreadElems(srcType);
    if (!te)
      return failure();
    unsigned axis = op.getAxis(), n = op.getSrcs().size();
    Region &combiner = op.getCombineOp();
    SmallVector<SmallVector<Value>> vals;
    for (Value s : adaptor.getSrcs())
      vals.push_back(unpackStruct(rewriter, loc, s));

    // Output elements: the thread's local indices without `axis`.
    Type resultType = op.getResult(0).getType();
    auto resultTile = dyn_cast<RankedTensorType>(resultType);
    std::optional<ThreadElems> out;
    if (resultTile) {
      out = getThreadElems(resultTile);
      if (!out)
        return op.emitError("reduce result has no slice layout of its operand's layout");
    }
    unsigned numOut = out ? out->total : 1;
    SmallVector<SmallVector<Value>> acc(numOut);

    // 1. Within the thread.
    for (unsigned e = 0; e < te->total; ++e) {
      SmallVector<unsigned> local = te->delinearize(e);
      if (local[axis] >= te->distinctLocal(axis))
        continue;
      local.erase(local.begin() + axis);
      unsigned o = out ? out->linearize(local) : 0;
      SmallVector<Value> cur;
      for (unsigned i = 0; i < n; ++i)
        cur.push_back(vals[i][e]);
      acc[o] = acc[o].empty() ? cur : emitCombine(rewriter, loc, combiner, acc[o], cur);
    }

    // 2. Across the lanes along the axis.
    BlockedEncodingAttr root = te->view.root;
    unsigned k = te->view.keptDims[axis];
    unsigned lanes = te->distinctLanes(axis);
    for (unsigned mask = laneStride(root, k), step = 1; step < lanes; step *= 2, mask *= 2)
      for (auto &a : acc) {
        SmallVector<Value> other;
        for (Value v : a)
          other.push_back(shuffleXorAny(rewriter, loc, target, v, mask));
        a = emitCombine(rewriter, loc, combiner, a, other);
      }

    // 3. Across the warps along the axis, through shared memory.
    unsigned warps = te->distinctWarps(axis);
    if (warps > 1) {
      SmallVector<int64_t> resultShape(srcType.getShape());
      resultShape.erase(resultShape.begin() + axis);
      int64_t r = 1;
      for (int64_t d : resultShape)
        r *= d;
      SmallVector<unsigned> offsets;
      unsigned bytes = 0;
      for (unsigned i = 0; i < n; ++i) {
        offsets.push_back(bytes);
        bytes += (warps * r * byteWidth(acc[0][i].getType()) + 15) / 16 * 16;
      }
      unsigned scratch = shared.reserveScratch(op, bytes);
      // Linear index of each output element in the result tile.
      SmallVector<Value> linear(numOut);
      if (out) {
        auto idx = emitIndices(rewriter, loc, target, *out);
        for (unsigned o = 0; o < numOut; ++o) {
          Value lin = i32Const(rewriter, loc, 0);
          for (unsigned d = 0; d < idx[o].size(); ++d)
            lin = rewriter.create<LLVM::AddOp>(
                loc,
                rewriter.create<LLVM::MulOp>(loc, lin, i32Const(rewriter, loc, resultShape[d])),
                idx[o][d]);
          linear[o] = lin;
        }
      } else {
        linear[0] = i32Const(rewriter, loc, 0);
      }
      ThreadPosition pos = emitThreadPosition(rewriter, loc, target, root);
      Value warpSlot =
          rewriter.create<LLVM::AndOp>(loc, pos.warpComp[k], i32Const(rewriter, loc, warps - 1));
      auto slotPtr = [&](unsigned i, Value slot, Type t) -> Value {
        Value base = sharedMemoryPtr(rewriter, loc, target, scratch + offsets[i]);
        return rewriter.create<LLVM::GEPOp>(loc, base.getType(), t, base, ValueRange{slot});
      };
      target.barrier(rewriter, loc);
      for (unsigned o = 0; o < numOut; ++o) {
        Value slot = rewriter.create<LLVM::AddOp>(
            loc, rewriter.create<LLVM::MulOp>(loc, warpSlot, i32Const(rewriter, loc, r)),
            linear[o]);
        for (unsigned i = 0; i < n; ++i)
          rewriter.create<LLVM::StoreOp>(loc, acc[o][i], slotPtr(i, slot, acc[o][i].getType()));
      }
      target.barrier(rewriter, loc);
      for (unsigned o = 0; o < numOut; ++o) {
        SmallVector<Value> total;
        for (unsigned w = 0; w < warps; ++w) {
          Value slot = rewriter.create<LLVM::AddOp>(loc, linear[o], i32Const(rewriter, loc, w * r));
          SmallVector<Value> part;
          for (unsigned i = 0; i < n; ++i) {
            Type t = acc[o][i].getType();
            part.push_back(rewriter.create<LLVM::LoadOp>(loc, t, slotPtr(i, slot, t)));
          }
          total = w == 0 ? part : emitCombine(rewriter, loc, combiner, total, part);
        }
        acc[o] = total;
      }
    }

    if (!out) {
      rewriter.replaceOp(op, acc[0]); // scalar results
      return success();
    }
    replaceOpWithStructs(rewriter, op, *getTypeConverter(), [&](unsigned i) {
      SmallVector<Value> elems;
      for (unsigned o = 0; o < numOut; ++o)
        elems.push_back(acc[o][i]);
      return elems;
    });
    return success();
  }
};

} // namespace

namespace tessel {
void populateReduceOpToLLVMPatterns(TileGPUTypeConverter &converter, const TargetInfo &target,
                                    SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, target, shared);
}
} // namespace tessel
