//===- ScanOpToLLVM.cpp - inclusive scans along one axis ------------------===//
//
// A scan through shared memory, the same for every layout (the classic three-phase blocked
// scan; Blelloch, "Prefix sums and their applications", 1990, section 1.4):
//
//   0. every thread stores its elements row-major into scratch;
//   1. each line along the axis is cut into T chunks of C = N / T elements, one per thread (T =
//      the threads per line, at most N): the thread scans its chunk sequentially in place and
//      writes the chunk's total;
//   2. the T totals of a line become inclusive prefixes in log2(T) Hillis-Steele rounds
//      (read, barrier, write, barrier);
//   3. each chunk but the first combines the previous chunk's prefix into its elements;
//   4. every thread reads its elements back in its own layout.
//
// The combiner only ever sees (earlier, later) in scan order, so non-commutative combiners
// (the linear recurrence h = a h' + b) are right; float sums associate differently from the
// interpreter's sequential order, as reductions do. A reverse scan runs the same on the
// reversed positions. Threads beyond lines x T (a small tile) compute the same as a twin and
// store to a slot of their own, so no in-place update races with a duplicate.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

struct ScanOpConversion : ScratchPattern<tile::ScanOp> {
  using ScratchPattern::ScratchPattern;

  LogicalResult matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    std::optional<LinearLayout> ll = toLinearLayout(type);
    if (!ll)
      return rewriter.notifyMatchFailure(op, "no linear layout");
    ArrayRef<int64_t> shape = type.getShape();
    unsigned rank = shape.size(), axis = op.getAxis(), n = op.getSrcs().size();
    int64_t N = shape[axis], numel = type.getNumElements(), L = numel / N;
    int64_t P = int64_t(ll->numLanes()) * ll->numWarps();
    int64_t T = std::min<int64_t>(N, std::max<int64_t>(1, P / L)), C = N / T;
    int64_t active = std::min<int64_t>(P, L * T), groups = active / T, perThread = L / groups;
    SmallVector<int64_t> strides(rank, 1);
    for (int d = int(rank) - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * shape[d + 1];

    // Scratch: per operand its elements and its line totals, then one 8-byte slot per thread.
    SmallVector<Type> elems;
    SmallVector<int64_t> dataOff, totalOff;
    int64_t bytes = 0;
    auto align = [](int64_t v) { return (v + 15) / 16 * 16; };
    for (Value s : op.getSrcs()) {
      Type e =
          getTypeConverter()->convertType(cast<RankedTensorType>(s.getType()).getElementType());
      elems.push_back(e);
      unsigned w = std::max(1u, byteWidth(e));
      dataOff.push_back(bytes);
      bytes = align(bytes + numel * w);
      totalOff.push_back(bytes);
      bytes = align(bytes + L * T * w);
    }
    int64_t ownOff = bytes;
    bytes += P * 8;
    unsigned scratch = shared.reserveScratch(op, unsigned(bytes));
    Value base = sharedMemoryPtr(rewriter, loc, target, scratch);
    Type ptrType = base.getType(), i8 = rewriter.getI8Type();
    auto c32 = [&](int64_t v) { return i32Const(rewriter, loc, v); };
    auto add = [&](Value a, Value b) {
      return rewriter.create<LLVM::AddOp>(loc, a, b).getResult();
    };
    auto mul = [&](Value a, int64_t k) {
      return k == 1 ? a : rewriter.create<LLVM::MulOp>(loc, a, c32(k)).getResult();
    };
    auto at = [&](int64_t byteOff, Type e, Value idx) -> Value {
      Value region = rewriter.create<LLVM::GEPOp>(loc, ptrType, i8, base,
                                                  ArrayRef<LLVM::GEPArg>{int32_t(byteOff)});
      return rewriter.create<LLVM::GEPOp>(loc, ptrType, e, region, ValueRange{idx});
    };
    auto load = [&](unsigned j, int64_t off, Value idx) -> Value {
      return rewriter.create<LLVM::LoadOp>(loc, elems[j], at(off, elems[j], idx));
    };

    // 0. Registers -> scratch, row-major.
    SmallVector<SmallVector<Value>> vals;
    for (Value s : adaptor.getSrcs())
      vals.push_back(unpackStruct(rewriter, loc, s));
    auto indices = emitIndices(rewriter, loc, target, type);
    SmallVector<Value> linear;
    for (auto &idx : indices) {
      Value lin = mul(idx[0], strides[0]);
      for (unsigned d = 1; d < rank; ++d)
        lin = add(lin, mul(idx[d], strides[d]));
      linear.push_back(lin);
    }
    target.barrier(rewriter, loc);
    for (auto [e, lin] : llvm::enumerate(linear))
      for (unsigned j = 0; j < n; ++j)
        rewriter.create<LLVM::StoreOp>(loc, vals[j][e], at(dataOff[j], elems[j], lin));
    target.barrier(rewriter, loc);

    // This thread's chunk and lines. Line l is the row-major index over the other dimensions.
    Value tid = target.getThreadId(rewriter, loc);
    Value te = rewriter.create<LLVM::AndOp>(loc, tid, c32(active - 1));
    Value isActive = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, tid, c32(active));
    Value chunk = rewriter.create<LLVM::AndOp>(loc, te, c32(T - 1));
    Value group = rewriter.create<LLVM::LShrOp>(loc, te, c32(llvm::Log2_64(T)));
    Value own = rewriter.create<LLVM::MulOp>(loc, tid, c32(8));
    // A store of this thread in phases 1-3: its own slot unless it is active.
    auto store = [&](unsigned j, int64_t off, Value idx, Value v) {
      Value real = at(off, elems[j], idx);
      Value spare = at(ownOff, i8, own);
      rewriter.create<LLVM::StoreOp>(
          loc, v, rewriter.create<LLVM::SelectOp>(loc, isActive, real, spare).getResult());
    };
    SmallVector<Value> lines, lineBase;
    for (int64_t k = 0; k < perThread; ++k) {
      Value line = add(group, c32(k * groups));
      lines.push_back(line);
      Value rest = line, off = c32(0);
      for (int d = int(rank) - 1; d >= 0; --d) {
        if (unsigned(d) == axis)
          continue;
        Value i = rewriter.create<LLVM::AndOp>(loc, rest, c32(shape[d] - 1));
        rest = rewriter.create<LLVM::LShrOp>(loc, rest, c32(llvm::Log2_64(shape[d])));
        off = add(off, mul(i, strides[d]));
      }
      lineBase.push_back(off);
    }
    // Element q (in scan order) of this thread's chunk of line k.
    Value chunkStart = mul(chunk, C);
    auto position = [&](int64_t k, int64_t q) -> Value {
      Value p = add(chunkStart, c32(q));
      if (op.getReverse())
        p = rewriter.create<LLVM::SubOp>(loc, c32(N - 1), p);
      return add(lineBase[k], mul(p, strides[axis]));
    };
    auto totalIndex = [&](int64_t k, Value c) { return add(mul(lines[k], T), c); };

    // 1. Each chunk scanned in place; its total kept.
    for (int64_t k = 0; k < perThread; ++k) {
      SmallVector<Value> acc;
      for (int64_t q = 0; q < C; ++q) {
        Value pos = position(k, q);
        SmallVector<Value> cur;
        for (unsigned j = 0; j < n; ++j)
          cur.push_back(load(j, dataOff[j], pos));
        acc = q == 0 ? cur : emitCombine(rewriter, loc, op.getCombineOp(), acc, cur);
        if (q > 0)
          for (unsigned j = 0; j < n; ++j)
            store(j, dataOff[j], pos, acc[j]);
      }
      for (unsigned j = 0; j < n; ++j)
        store(j, totalOff[j], totalIndex(k, chunk), acc[j]);
    }
    if (T > 1) {
      target.barrier(rewriter, loc);
      // 2. Hillis-Steele over the chunk totals of each line.
      for (int64_t d = 1; d < T; d <<= 1) {
        Value has = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::uge, chunk, c32(d));
        Value from = rewriter.create<LLVM::SelectOp>(
            loc, has, rewriter.create<LLVM::SubOp>(loc, chunk, c32(d)), chunk);
        SmallVector<SmallVector<Value>> next;
        for (int64_t k = 0; k < perThread; ++k) {
          SmallVector<Value> mine, other;
          for (unsigned j = 0; j < n; ++j) {
            mine.push_back(load(j, totalOff[j], totalIndex(k, chunk)));
            other.push_back(load(j, totalOff[j], totalIndex(k, from)));
          }
          SmallVector<Value> both = emitCombine(rewriter, loc, op.getCombineOp(), other, mine);
          for (unsigned j = 0; j < n; ++j)
            both[j] = rewriter.create<LLVM::SelectOp>(loc, has, both[j], mine[j]);
          next.push_back(both);
        }
        target.barrier(rewriter, loc);
        for (int64_t k = 0; k < perThread; ++k)
          for (unsigned j = 0; j < n; ++j)
            store(j, totalOff[j], totalIndex(k, chunk), next[k][j]);
        target.barrier(rewriter, loc);
      }
      // 3. The previous chunks' prefix into every chunk but the first.
      Value later = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ugt, chunk, c32(0));
      Value prev = rewriter.create<LLVM::SelectOp>(
          loc, later, rewriter.create<LLVM::SubOp>(loc, chunk, c32(1)), chunk);
      for (int64_t k = 0; k < perThread; ++k) {
        SmallVector<Value> prefix;
        for (unsigned j = 0; j < n; ++j)
          prefix.push_back(load(j, totalOff[j], totalIndex(k, prev)));
        for (int64_t q = 0; q < C; ++q) {
          Value pos = position(k, q);
          SmallVector<Value> cur;
          for (unsigned j = 0; j < n; ++j)
            cur.push_back(load(j, dataOff[j], pos));
          SmallVector<Value> r = emitCombine(rewriter, loc, op.getCombineOp(), prefix, cur);
          for (unsigned j = 0; j < n; ++j)
            store(j, dataOff[j], pos, rewriter.create<LLVM::SelectOp>(loc, later, r[j], cur[j]));
        }
      }
    }
    target.barrier(rewriter, loc);

    // 4. Scratch -> registers, in the operands' layout.
    replaceOpWithStructs(rewriter, op, *getTypeConverter(), [&](unsigned j) {
      SmallVector<Value> out;
      for (Value lin : linear)
        out.push_back(load(j, dataOff[j], lin));
      return out;
    });
    return success();
  }
};

} // namespace

namespace tessel {
void populateScanOpToLLVMPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                  SharedMemoryPlan &shared, RewritePatternSet &patterns) {
  patterns.add<ScanOpConversion>(converter, target, shared);
}
} // namespace tessel
