//===- TensorMapToLLVM.cpp - mbarriers and TMA copies to PTX --------------===//
//
// The tile_nv barrier and bulk-copy ops become inline PTX (PTX ISA 8.0, "Parallel
// Synchronization and Communication Instructions: mbarrier" and "cp.async.bulk.tensor"):
//   init_barrier     thread 0: mbarrier.init.shared::cta.b64, fence.mbarrier_init (the copies
//                    arrive through the asynchronous proxy);
//   barrier_expect   thread 0, when pred: mbarrier.arrive.expect_tx.shared::cta.b64;
//   async_tma_copy_global_to_local
//                    thread 0, when pred: one cp.async.bulk.tensor.Nd.shared::cluster.global.
//                    mbarrier::complete_tx::bytes per column block of the swizzled placement;
//                    block j is a (rows x blockCols) box at coordinate c0 + j blockCols written
//                    j rows blockCols elements after the stage's start;
//                    with `multicast` where it holds: the half box of rows from rank x R/2,
//                    written there in both CTAs (.multicast::cluster, CTA mask 0b11);
//   async_tma_copy_local_to_global
//                    thread 0: one cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group per
//                    column block, cp.async.bulk.commit_group, then
//                    cp.async.bulk.wait_group.read 0 (the buffer has been read);
//   wait_barrier     every thread: mbarrier.try_wait.parity in a loop;
//   inval_barrier    thread 0: mbarrier.inval.shared::cta.b64;
//   arrive_barrier   every thread, when pred: mbarrier.arrive.shared::cta.b64; with `cta`,
//                    mapa to that CTA's barrier and mbarrier.arrive.shared::cluster on it (the
//                    default .release.cta, as CUTLASS's ClusterBarrier::arrive(cta_id): at
//                    .release.cluster it cost 0.55 us per K step on the H200);
//   named_barrier    bar.sync id, threads;
//   set_max_nreg     setmaxnreg.{inc,dec}.sync.aligned.u32;
//   cluster_barrier  barrier.cluster.arrive.release, barrier.cluster.wait.acquire;
//   cluster_cta_rank %cluster_ctarank.
// A warp-specialized kernel's copies are issued by its producer's first thread (`leader`).
// Shared addresses are 32-bit (the shared window); a shared::cta address is a valid
// shared::cluster address of the CTA itself.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "PTXAsm.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"
#include "tessel/NVIDIA/Dialect/TileNV.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

Value sharedAddress(OpBuilder &b, Location loc, Value ptr) {
  return b.create<LLVM::PtrToIntOp>(loc, b.getI32Type(), ptr);
}

/// The generic address (i64) of map `index` in the kernel's tensor-map array: 128 bytes each.
Value mapAddress(OpBuilder &b, Location loc, Value maps, unsigned index) {
  Value map = b.create<LLVM::GEPOp>(loc, maps.getType(), b.getI8Type(), maps,
                                    ArrayRef<LLVM::GEPArg>{int32_t(index * 128)});
  return b.create<LLVM::PtrToIntOp>(loc, b.getI64Type(), map);
}

/// %cluster_ctarank as i32.
Value clusterCtaRank(OpBuilder &b, Location loc) {
  return nvidia::ptxAsm(b, loc, b.getI32Type(), {}, "mov.u32 $0, %cluster_ctarank;", "=r",
                        /*sideEffects=*/false);
}

/// i32, nonzero in thread `leaderThread` when `pred` (i1, optional) holds: inline asm takes no
/// i1 operand, so the predicate travels as an i32 to leaderPtx.
Value leaderFlag(OpBuilder &b, Location loc, const TargetInfo &target, Value pred = {},
                 std::optional<uint32_t> leaderThread = std::nullopt) {
  Value tid = target.getThreadId(b, loc);
  Value leader = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, tid,
                                        i32Const(b, loc, leaderThread.value_or(0)));
  if (pred)
    leader = b.create<LLVM::AndOp>(loc, leader, pred);
  return b.create<LLVM::ZExtOp>(loc, b.getI32Type(), leader);
}

/// The PTX statements `stmts` (operands $1 ..., each statement after the first predicated with
/// `@p` by the caller) where `flag` (leaderFlag) is nonzero.
void leaderPtx(OpBuilder &b, Location loc, Value flag, ArrayRef<Value> operands, StringRef stmts,
               StringRef constraints) {
  SmallVector<Value> all = {flag};
  all.append(operands.begin(), operands.end());
  nvidia::ptxAsm(b, loc, Type(), all,
                 ("{ .reg .pred p; setp.ne.b32 p, $0, 0; @p " + stmts + " }").str(),
                 ("r," + constraints).str());
}

template <class Op> struct TensorMapPattern : public ConvertOpToLLVMPattern<Op> {
  TensorMapPattern(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<Op>(c), target(target) {}
  const TargetInfo &target;
};

struct InitBarrierConversion : TensorMapPattern<tile_nv::InitBarrierOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::InitBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value leader = leaderFlag(rewriter, loc, target);
    leaderPtx(rewriter, loc, leader,
              {sharedAddress(rewriter, loc, adaptor.getBarrier()),
               i32Const(rewriter, loc, op.getCount())},
              "mbarrier.init.shared::cta.b64 [$1], $2; @p fence.mbarrier_init.release.cluster;",
              "r,r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarrierConversion : TensorMapPattern<tile_nv::InvalBarrierOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::InvalBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value leader = leaderFlag(rewriter, loc, target);
    leaderPtx(rewriter, loc, leader, {sharedAddress(rewriter, loc, adaptor.getBarrier())},
              "mbarrier.inval.shared::cta.b64 [$1];", "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierExpectConversion : TensorMapPattern<tile_nv::BarrierExpectOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::BarrierExpectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = leaderFlag(rewriter, loc, target, adaptor.getPred(), op.getLeader());
    leaderPtx(rewriter, loc, pred,
              {sharedAddress(rewriter, loc, adaptor.getBarrier()),
               i32Const(rewriter, loc, op.getBytes())},
              "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2;", "r,r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitBarrierConversion : TensorMapPattern<tile_nv::WaitBarrierOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::WaitBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value parity =
        rewriter.create<LLVM::AndOp>(loc, adaptor.getPhase(), i32Const(rewriter, loc, 1));
    // Labels are local to the braces, so every wait can reuse them.
    nvidia::ptxAsm(rewriter, loc, Type(),
                   {sharedAddress(rewriter, loc, adaptor.getBarrier()), parity},
                   "{ .reg .pred done; wait_barrier_loop: "
                   "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1; "
                   "@!done bra.uni wait_barrier_loop; }",
                   "r,r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMACopyConversion : TensorMapPattern<tile_nv::AsyncTMACopyGlobalToLocalOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::AsyncTMACopyGlobalToLocalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType dst = op.getDst().getType();
    auto enc = cast<SharedEncodingAttr>(dst.getEncoding());
    unsigned cdim = enc.getOrder()[0];
    int64_t cols = dst.getShape()[cdim], rows = dst.getShape()[1 - cdim];
    int64_t blockCols = enc.getBlockColsFor(cols);
    int64_t elemBytes = std::max(1u, dst.getElementType().getIntOrFloatBitWidth() / 8);
    unsigned rank = adaptor.getCoords().size();

    Value maps = adaptor.getMaps();
    Value mapAddr = mapAddress(rewriter, loc, maps, op.getMap());
    Value pred = leaderFlag(rewriter, loc, target, adaptor.getPred(), op.getLeader());
    Value dstBase = sharedAddress(rewriter, loc, adaptor.getDst());
    Value bar = sharedAddress(rewriter, loc, adaptor.getBarrier());

    std::string coords;
    for (unsigned d = 0; d < rank; ++d)
      coords += (d ? ", $" : "$") + std::to_string(3 + d);
    std::string stmt = "cp.async.bulk.tensor." + std::to_string(rank) +
                       "d.shared::cluster.global.mbarrier::complete_tx::bytes";
    std::string args = " [$1], [$2, {" + coords + "}], [$" + std::to_string(3 + rank) + "]";
    std::string constraints = "r,l";
    for (unsigned d = 0; d < rank; ++d)
      constraints += ",r";
    constraints += ",r";
    // One copy per column block where `flag`, through `mapPtr`, of the rows from `rowOffset`
    // (null: the whole box) into the same rows of the destination; `mask` multicasts it.
    auto issue = [&](Value flag, Value mapPtr, Value rowOffset, Value mask) {
      for (int64_t j = 0; j < cols / blockCols; ++j) {
        Value dst = rewriter.create<LLVM::AddOp>(
            loc, dstBase, i32Const(rewriter, loc, j * rows * blockCols * elemBytes));
        if (rowOffset)
          dst = rewriter.create<LLVM::AddOp>(
              loc, dst,
              rewriter.create<LLVM::MulOp>(loc, rowOffset,
                                           i32Const(rewriter, loc, blockCols * elemBytes)));
        SmallVector<Value> operands = {dst, mapPtr};
        for (auto [d, c] : llvm::enumerate(adaptor.getCoords())) {
          Value coord = c;
          if (d == 0 && j)
            coord = rewriter.create<LLVM::AddOp>(loc, c, i32Const(rewriter, loc, j * blockCols));
          if (d == 1 && rowOffset)
            coord = rewriter.create<LLVM::AddOp>(loc, c, rowOffset);
          operands.push_back(coord);
        }
        operands.push_back(bar);
        if (!mask) {
          leaderPtx(rewriter, loc, flag, operands, stmt + args + ";", constraints);
          continue;
        }
        operands.push_back(mask);
        leaderPtx(rewriter, loc, flag, operands,
                  stmt + ".multicast::cluster" + args + ", $" + std::to_string(4 + rank) + ";",
                  constraints + ",h");
      }
    };
    if (!adaptor.getMulticast()) {
      issue(pred, mapAddr, Value(), Value());
      rewriter.eraseOp(op);
      return success();
    }
    // Where `same`: this CTA's half of the rows, through the half box's map, into both CTAs of
    // the cluster; elsewhere the plain copy.
    Value same = rewriter.create<LLVM::ZExtOp>(loc, rewriter.getI32Type(), adaptor.getMulticast());
    Value other = rewriter.create<LLVM::XOrOp>(loc, same, i32Const(rewriter, loc, 1));
    issue(rewriter.create<LLVM::AndOp>(loc, pred, other), mapAddr, Value(), Value());
    Value halfMapAddr = mapAddress(rewriter, loc, maps, *op.getMulticastMap());
    Value rowOffset = rewriter.create<LLVM::MulOp>(loc, clusterCtaRank(rewriter, loc),
                                                   i32Const(rewriter, loc, rows / 2));
    Value mask = rewriter.create<LLVM::ConstantOp>(loc, rewriter.getI16Type(),
                                                   rewriter.getI16IntegerAttr(0b11));
    issue(rewriter.create<LLVM::AndOp>(loc, pred, same), halfMapAddr, rowOffset, mask);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMAStoreConversion : TensorMapPattern<tile_nv::AsyncTMACopyLocalToGlobalOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::AsyncTMACopyLocalToGlobalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType src = op.getSrc().getType();
    auto enc = cast<SharedEncodingAttr>(src.getEncoding());
    unsigned cdim = enc.getOrder()[0];
    int64_t cols = src.getShape()[cdim], rows = src.getShape()[1 - cdim];
    int64_t blockCols = enc.getBlockColsFor(cols);
    int64_t elemBytes = std::max(1u, src.getElementType().getIntOrFloatBitWidth() / 8);
    unsigned rank = adaptor.getCoords().size();
    SmallVector<Value> operands = {mapAddress(rewriter, loc, adaptor.getMaps(), op.getMap())};
    Value srcBase = sharedAddress(rewriter, loc, adaptor.getSrc());
    std::string constraints = "l", stmts;
    // Operands: $1 the map, then per column block j its source address and coordinates.
    for (int64_t j = 0; j < cols / blockCols; ++j) {
      unsigned first = operands.size() + 1;
      operands.push_back(rewriter.create<LLVM::AddOp>(
          loc, srcBase, i32Const(rewriter, loc, j * rows * blockCols * elemBytes)));
      constraints += ",r";
      std::string coords;
      for (auto [d, c] : llvm::enumerate(adaptor.getCoords())) {
        Value coord = c;
        if (d == 0 && j)
          coord = rewriter.create<LLVM::AddOp>(loc, c, i32Const(rewriter, loc, j * blockCols));
        operands.push_back(coord);
        constraints += ",r";
        coords += (d ? ", $" : "$") + std::to_string(first + 1 + d);
      }
      stmts += (j ? " @p " : "") + ("cp.async.bulk.tensor." + std::to_string(rank) +
                                    "d.global.shared::cta.bulk_group [$1, {" + coords + "}], [$" +
                                    std::to_string(first) + "];");
    }
    // One bulk group; the buffer may be written again (or the program exit) once it is read.
    stmts += " @p cp.async.bulk.commit_group; @p cp.async.bulk.wait_group.read 0;";
    leaderPtx(rewriter, loc, leaderFlag(rewriter, loc, target), operands, stmts, constraints);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ArriveBarrierConversion : TensorMapPattern<tile_nv::ArriveBarrierOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::ArriveBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = rewriter.create<LLVM::ZExtOp>(loc, rewriter.getI32Type(), adaptor.getPred());
    Value bar = sharedAddress(rewriter, loc, adaptor.getBarrier());
    if (Value cta = adaptor.getCta())
      nvidia::ptxAsm(rewriter, loc, Type(), {pred, bar, cta},
                     "{ .reg .pred p; .reg .b32 remote; setp.ne.b32 p, $0, 0; "
                     "mapa.shared::cluster.u32 remote, $1, $2; "
                     "@p mbarrier.arrive.shared::cluster.b64 _, [remote]; }",
                     "r,r,r");
    else
      leaderPtx(rewriter, loc, pred, {bar}, "mbarrier.arrive.shared::cta.b64 _, [$1];", "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClusterBarrierConversion : TensorMapPattern<tile_nv::ClusterBarrierOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::ClusterBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    nvidia::ptxAsm(rewriter, op.getLoc(), Type(), {},
                   "barrier.cluster.arrive.release; barrier.cluster.wait.acquire;", "");
    rewriter.eraseOp(op);
    return success();
  }
};

struct ClusterCTARankConversion : TensorMapPattern<tile_nv::ClusterCTARankOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::ClusterCTARankOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, clusterCtaRank(rewriter, op.getLoc()));
    return success();
  }
};

struct NamedBarrierConversion : TensorMapPattern<tile_nv::NamedBarrierOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::NamedBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    nvidia::namedBarrier(rewriter, op.getLoc(), op.getId(), op.getThreads());
    rewriter.eraseOp(op);
    return success();
  }
};

struct SetMaxNRegConversion : TensorMapPattern<tile_nv::SetMaxNRegOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::SetMaxNRegOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::string stmt = std::string("setmaxnreg.") + (op.getInc() ? "inc" : "dec") +
                       ".sync.aligned.u32 " + std::to_string(op.getRegs()) + ";";
    nvidia::ptxAsm(rewriter, op.getLoc(), Type(), {}, stmt, "");
    rewriter.eraseOp(op);
    return success();
  }
};

struct ThreadIdConversion : TensorMapPattern<tile_nv::ThreadIdOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::ThreadIdOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, target.getThreadId(rewriter, op.getLoc()));
    return success();
  }
};

struct WarpIdConversion : TensorMapPattern<tile_nv::WarpIdOp> {
  using TensorMapPattern::TensorMapPattern;
  LogicalResult matchAndRewrite(tile_nv::WarpIdOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tid = target.getThreadId(rewriter, loc);
    Value warp = rewriter.create<LLVM::LShrOp>(
        loc, tid, rewriter.create<LLVM::ConstantOp>(loc, rewriter.getI32Type(), 5));
    rewriter.replaceOp(op, nvidia::ptxAsm(rewriter, loc, rewriter.getI32Type(), {warp},
                                          "shfl.sync.idx.b32 $0, $1, 0, 31, -1;", "=r,r",
                                          /*sideEffects=*/false));
    return success();
  }
};

} // namespace

void tessel::nvidia::namedBarrier(OpBuilder &b, Location loc, unsigned id, unsigned threads) {
  nvidia::ptxAsm(b, loc, Type(), {},
                 "bar.sync " + std::to_string(id) + ", " + std::to_string(threads) + ";", "");
}

namespace tessel::nvidia {
void populateTensorMapToLLVMPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                     RewritePatternSet &patterns) {
  patterns.add<InitBarrierConversion, InvalBarrierConversion, BarrierExpectConversion,
               WaitBarrierConversion, AsyncTMACopyConversion, AsyncTMAStoreConversion,
               ArriveBarrierConversion, NamedBarrierConversion, SetMaxNRegConversion,
               ThreadIdConversion, WarpIdConversion, ClusterBarrierConversion,
               ClusterCTARankConversion>(converter, target);
}
} // namespace tessel::nvidia
