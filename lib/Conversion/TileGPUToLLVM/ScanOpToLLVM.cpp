//===- ScanOpToLLVM.cpp - inclusive scans along one axis ------------------===//
//
// Two lowerings. Blocked and slice layouts scan in registers (Triton's ScanOpToLLVM follows
// the same three levels; the lane step here is a butterfly of xor shuffles):
//
// Along the axis (root dimension k: s = sizePerThread, t = threadsPerWarp, w = warpsPerCTA)
// a thread's local element l sits at position
//   chunk * (s t w) + s t b + s a + r,     r = l mod s, chunk = l / s,
// a and b its lane and warp components along k, taken modulo the lanes t' and warps w' that
// hold distinct data (the others hold replicas). Scan order is therefore (chunk, b, a, r):
//   1. each run of min(s, N) elements is scanned inside the thread;
//   2. the run totals of the t' lanes go through a butterfly of log2(t') xor shuffles: after
//      it every lane holds the exclusive prefix of the lanes before it and its warp segment's
//      total (two combines per step keep the order for non-commutative combiners);
//   3. the segment totals, one per (chunk, b), are combined in scan order: in registers when
//      one warp spans the axis, else through shared memory (one barrier pair), every thread
//      walking the totals of its own lines;
//   4. each element combines (segment prefix, lane prefix, its in-thread value).
// No identity is needed: prefixes that do not exist yet are tracked by predicates.
//
// Any other layout (mma, dot operands), and lines split into more warp segments than a thread
// should walk (kMaxSegmentsPerLine), go through shared memory: the classic three-phase
// blocked scan (Blelloch, "Prefix sums and their applications", 1990, section 1.4):
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
// Both only ever call the combiner as (earlier, later) in scan order, so non-commutative
// combiners (the linear recurrence h = a h' + b) are right; float sums associate differently
// from the interpreter's sequential order, as reductions do. A reverse scan runs the same on
// the reversed positions. In the shared-memory scan, threads beyond lines x T (a small tile)
// compute the same as a twin and store to a slot of their own, so no in-place update races
// with a duplicate.
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
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
    if (std::optional<ThreadElems> te = getThreadElems(type))
      if (segmentsPerLine(*te, op.getAxis()) <= kMaxSegmentsPerLine)
        return lowerInRegisters(op, adaptor, rewriter, *te);
    return lowerThroughSharedMemory(op, adaptor, rewriter);
  }

  /// Warp segments along a line ((runs per thread) x (warps along the axis)) when several
  /// warps share it: each thread loads and combines that many totals in step 3. Past the
  /// bound (e.g. 16 warps along a slice of 256, one element per warp and repetition: 256
  /// segments) the shared-memory scan is cheaper and does not run out of registers.
  static constexpr int64_t kMaxSegmentsPerLine = 32;
  static int64_t segmentsPerLine(const ThreadElems &te, unsigned axis) {
    unsigned warps = te.distinctWarps(axis);
    if (warps == 1)
      return 1;
    return int64_t(te.perDim[axis] / te.view.root.getSizePerThread()[te.view.keptDims[axis]]) *
           warps;
  }

  /// A prefix that may not exist yet: `valid` null means it does, `exists` false that it
  /// never does here.
  struct Prefix {
    SmallVector<Value> vals;
    bool exists = false;
    Value valid;
  };

  LogicalResult lowerInRegisters(tile::ScanOp op, OpAdaptor adaptor,
                                 ConversionPatternRewriter &rewriter, const ThreadElems &te) const {
    Location loc = op.getLoc();
    Region &combiner = op.getCombineOp();
    unsigned axis = op.getAxis(), n = op.getSrcs().size();
    bool reverse = op.getReverse();
    BlockedEncodingAttr root = te.view.root;
    unsigned k = te.view.keptDims[axis];
    int64_t N = te.shape[axis];
    unsigned s = root.getSizePerThread()[k];
    unsigned run = unsigned(std::min<int64_t>(s, N)); // distinct elements of a run
    unsigned chunks = te.perDim[axis] / s;            // runs per line in the thread
    unsigned lanes = te.distinctLanes(axis), warps = te.distinctWarps(axis);
    auto c32 = [&](int64_t v) { return i32Const(rewriter, loc, v); };
    auto combine = [&](ValueRange earlier, ValueRange later) {
      return emitCombine(rewriter, loc, combiner, earlier, later);
    };
    auto select = [&](Value pred, ArrayRef<Value> a, ArrayRef<Value> b) {
      SmallVector<Value> out;
      for (auto [x, y] : llvm::zip(a, b))
        out.push_back(rewriter.create<LLVM::SelectOp>(loc, pred, x, y));
      return out;
    };
    auto orPred = [&](Value a, Value b) -> Value { return rewriter.create<LLVM::OrOp>(loc, a, b); };

    SmallVector<SmallVector<Value>> vals;
    for (Value src : adaptor.getSrcs())
      vals.push_back(unpackStruct(rewriter, loc, src));
    auto valuesOf = [&](unsigned e) {
      SmallVector<Value> v;
      for (unsigned j = 0; j < n; ++j)
        v.push_back(vals[j][e]);
      return v;
    };

    // Lines: the thread's elements that share every local index but the axis's.
    // elemOf[line][chunk * s + r] is the element at local axis index chunk * s + r.
    SmallVector<SmallVector<unsigned>> elemOf;
    DenseMap<unsigned, unsigned> lineOf;
    for (unsigned e = 0; e < te.total; ++e) {
      SmallVector<unsigned> local = te.delinearize(e);
      unsigned l = local[axis];
      local[axis] = 0;
      auto [it, fresh] = lineOf.try_emplace(te.linearize(local), unsigned(elemOf.size()));
      if (fresh)
        elemOf.emplace_back(te.perDim[axis], 0);
      elemOf[it->second][l] = e;
    }
    unsigned numLines = elemOf.size();

    // Positions in scan order: reversed scans complement every component.
    ThreadPosition pos = emitThreadPosition(rewriter, loc, target, root);
    auto distinct = [&](Value comp, unsigned count) -> Value {
      return rewriter.create<LLVM::AndOp>(loc, comp, c32(count - 1));
    };
    auto ordered = [&](Value v, unsigned count) -> Value {
      return reverse ? rewriter.create<LLVM::XOrOp>(loc, v, c32(count - 1)).getResult() : v;
    };
    auto chunkAt = [&](unsigned q) { return reverse ? chunks - 1 - q : q; };
    auto runAt = [&](unsigned q) { return reverse ? run - 1 - q : q; };

    // 1. Runs inside the thread: inclusive values and run totals.
    SmallVector<SmallVector<Value>> inclusive(numLines * te.perDim[axis]);
    auto incl = [&](unsigned line, unsigned c, unsigned r) -> SmallVector<Value> & {
      return inclusive[line * te.perDim[axis] + c * s + r];
    };
    SmallVector<SmallVector<Value>> total(numLines * chunks);
    for (unsigned line = 0; line < numLines; ++line)
      for (unsigned c = 0; c < chunks; ++c) {
        SmallVector<Value> acc;
        for (unsigned q = 0; q < run; ++q) {
          unsigned r = runAt(q);
          SmallVector<Value> cur = valuesOf(elemOf[line][c * s + r]);
          acc = q == 0 ? cur : combine(acc, cur);
          incl(line, c, r) = acc;
        }
        total[line * chunks + c] = acc;
      }

    // 2. Butterfly over the lanes along the axis: lane prefix and warp-segment total.
    SmallVector<Prefix> lanePrefix(numLines * chunks);
    if (lanes > 1) {
      Value a = ordered(distinct(pos.laneComp[k], lanes), lanes);
      unsigned stride = laneStride(root, k);
      for (unsigned d = 1; d < lanes; d *= 2) {
        Value later = rewriter.create<LLVM::ICmpOp>(
            loc, LLVM::ICmpPredicate::ne, rewriter.create<LLVM::AndOp>(loc, a, c32(d)), c32(0));
        for (unsigned i = 0; i < numLines * chunks; ++i) {
          SmallVector<Value> mine = total[i], other;
          for (Value v : mine)
            other.push_back(shuffleXorAny(rewriter, loc, target, v, d * stride));
          Prefix &p = lanePrefix[i];
          if (!p.exists) {
            p = Prefix{other, true, later};
          } else {
            SmallVector<Value> both = combine(other, p.vals);
            p.vals = select(later, select(p.valid, both, other), p.vals);
            p.valid = orPred(p.valid, later);
          }
          total[i] = select(later, combine(other, mine), combine(mine, other));
        }
      }
    }

    // 3. Warp segments in (chunk, warp) order.
    SmallVector<Prefix> segPrefix(numLines * chunks);
    if (warps == 1) {
      for (unsigned line = 0; line < numLines; ++line) {
        SmallVector<Value> acc;
        for (unsigned q = 0; q < chunks; ++q) {
          unsigned c = chunkAt(q), i = line * chunks + c;
          if (q > 0)
            segPrefix[i] = Prefix{acc, true, Value()};
          acc = q == 0 ? total[i] : combine(acc, total[i]);
        }
      }
    } else {
      // Scratch: per operand, per line of the tile and chunk, the totals of the warps.
      SmallVector<Type> elems;
      SmallVector<int64_t> offsets;
      int64_t tileLines = 1, bytes = 0;
      for (unsigned d = 0; d < te.shape.size(); ++d)
        if (d != axis)
          tileLines *= te.shape[d];
      for (unsigned j = 0; j < n; ++j) {
        elems.push_back(total[0][j].getType());
        offsets.push_back(bytes);
        bytes += (tileLines * chunks * warps * byteWidth(elems[j]) + 15) / 16 * 16;
      }
      unsigned scratch = shared.reserveScratch(op, unsigned(bytes));
      auto slotPtr = [&](unsigned j, Value slot) -> Value {
        Value base = sharedMemoryPtr(rewriter, loc, target, scratch + unsigned(offsets[j]));
        return rewriter.create<LLVM::GEPOp>(loc, base.getType(), elems[j], base, ValueRange{slot});
      };
      // Row-major index of each line over the dimensions but the axis.
      auto indices = emitIndices(rewriter, loc, target, te);
      SmallVector<Value> lineIndex;
      for (unsigned line = 0; line < numLines; ++line) {
        auto &idx = indices[elemOf[line][0]];
        Value lin = c32(0);
        for (unsigned d = 0; d < te.shape.size(); ++d)
          if (d != axis)
            lin = rewriter.create<LLVM::AddOp>(
                loc, rewriter.create<LLVM::MulOp>(loc, lin, c32(te.shape[d])), idx[d]);
        lineIndex.push_back(lin);
      }
      Value b = distinct(pos.warpComp[k], warps);
      Value bOrdered = ordered(b, warps);
      auto slot = [&](unsigned line, unsigned c, Value warp) -> Value {
        Value v = rewriter.create<LLVM::MulOp>(
            loc,
            rewriter.create<LLVM::AddOp>(
                loc, rewriter.create<LLVM::MulOp>(loc, lineIndex[line], c32(chunks)), c32(c)),
            c32(warps));
        return rewriter.create<LLVM::AddOp>(loc, v, warp);
      };
      target.barrier(rewriter, loc);
      for (unsigned line = 0; line < numLines; ++line)
        for (unsigned c = 0; c < chunks; ++c) {
          Value at = slot(line, c, b);
          for (unsigned j = 0; j < n; ++j)
            rewriter.create<LLVM::StoreOp>(loc, total[line * chunks + c][j], slotPtr(j, at));
        }
      target.barrier(rewriter, loc);
      // Every thread walks its lines' segments in scan order; the running combination just
      // before its own segment (chunk c, ordered warp b) is that chunk's prefix.
      for (unsigned line = 0; line < numLines; ++line) {
        SmallVector<Value> acc;
        for (unsigned q = 0; q < chunks; ++q) {
          unsigned c = chunkAt(q), i = line * chunks + c;
          for (unsigned bq = 0; bq < warps; ++bq) {
            Value at = slot(line, c, c32(reverse ? warps - 1 - bq : bq));
            SmallVector<Value> seg;
            for (unsigned j = 0; j < n; ++j)
              seg.push_back(rewriter.create<LLVM::LoadOp>(loc, elems[j], slotPtr(j, at)));
            if (q == 0 && bq == 0) {
              // No segment comes before; the value is a placeholder until warp 1's.
              segPrefix[i] = Prefix{
                  seg, true,
                  rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ne, bOrdered, c32(0))};
            } else if (bq == 0) {
              segPrefix[i] = Prefix{acc, true, Value()};
            } else {
              Value mine =
                  rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, bOrdered, c32(bq));
              segPrefix[i].vals = select(mine, acc, segPrefix[i].vals);
            }
            acc = q == 0 && bq == 0 ? seg : combine(acc, seg);
          }
        }
      }
    }

    // 4. Every element: (segment prefix, lane prefix) combined into its in-thread value.
    SmallVector<SmallVector<Value>> result(te.total);
    for (unsigned line = 0; line < numLines; ++line)
      for (unsigned c = 0; c < chunks; ++c) {
        Prefix &sp = segPrefix[line * chunks + c], &lp = lanePrefix[line * chunks + c];
        Prefix pre;
        if (sp.exists && lp.exists) {
          SmallVector<Value> both = combine(sp.vals, lp.vals);
          if (!sp.valid) { // the segment prefix exists
            pre = Prefix{select(lp.valid, both, sp.vals), true, Value()};
          } else {
            pre = Prefix{select(sp.valid, select(lp.valid, both, sp.vals), lp.vals), true,
                         orPred(sp.valid, lp.valid)};
          }
        } else {
          pre = sp.exists ? sp : lp;
        }
        for (unsigned r = 0; r < s; ++r) {
          unsigned e = elemOf[line][c * s + r];
          SmallVector<Value> v = incl(line, c, r % run);
          if (pre.exists) {
            SmallVector<Value> withPrefix = combine(pre.vals, v);
            v = pre.valid ? select(pre.valid, withPrefix, v) : withPrefix;
          }
          result[e] = v;
        }
      }
    replaceOpWithStructs(rewriter, op, *getTypeConverter(), [&](unsigned j) {
      SmallVector<Value> out;
      for (auto &v : result)
        out.push_back(v[j]);
      return out;
    });
    return success();
  }

  LogicalResult lowerThroughSharedMemory(tile::ScanOp op, OpAdaptor adaptor,
                                         ConversionPatternRewriter &rewriter) const {
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
