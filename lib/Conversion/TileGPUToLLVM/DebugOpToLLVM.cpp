//===- DebugOpToLLVM.cpp - tile.print and tile.assert ---------------------===//
//
// Both go through the adapter's printf (TargetInfo::printf, the device's formatted output).
// tile.print: one printf per element the thread owns (a replicated element prints once), with the
// program id and the element's index, as the interpreter prints them; a print of scalars only runs
// in thread 0. tile.assert: per element, a printf of the message, source line, program id and index
// where the condition is false (once per replicated element), then one TargetInfo::abortIf on any
// of them.
//
//===----------------------------------------------------------------------===//
#include "tessel/Conversion/TileGPUToLLVM/TileGPUToLLVM.h"
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"
#include "tessel/Dialect/TileGPU/IR/Layout.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace {

/// The program id's three components (i32) and "pid (%d, %d, %d)".
SmallVector<Value> programIds(OpBuilder &b, Location loc, const TargetInfo &target) {
  return {target.getProgramId(b, loc, 0), target.getProgramId(b, loc, 1),
          target.getProgramId(b, loc, 2)};
}

/// `text` with every '%' doubled: the user's prefix, message and file name go into a printf
/// format, where "100%" or "%s" would read arguments that are not there.
std::string escapeFormat(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

/// "idx (%d, %d)" for a tile of `rank`.
std::string indexFormat(unsigned rank) {
  std::string s = " idx (";
  for (unsigned d = 0; d < rank; ++d)
    s += d ? ", %d" : "%d";
  return s + ")";
}

/// The printf conversion of `v` and `v` as C varargs pass it (floats as f64, narrow integers
/// as i32).
std::pair<std::string, Value> vararg(OpBuilder &b, Location loc, Value v, bool hex) {
  Type t = v.getType();
  if (isa<FloatType>(t))
    return {"%f", t.isF64() ? v : b.create<LLVM::FPExtOp>(loc, b.getF64Type(), v).getResult()};
  unsigned w = t.getIntOrFloatBitWidth();
  if (w == 64)
    return {hex ? "0x%llx" : "%lld", v};
  if (w < 32)
    v = w == 1 || hex ? b.create<LLVM::ZExtOp>(loc, b.getI32Type(), v).getResult()
                      : b.create<LLVM::SExtOp>(loc, b.getI32Type(), v).getResult();
  return {hex ? "0x%x" : "%d", v};
}

/// Per element of `type` the thread holds: whether it prints it (null: always).
SmallVector<Value> owners(OpBuilder &b, Location loc, const TargetInfo &target,
                          RankedTensorType type, unsigned n) {
  if (std::optional<ThreadElems> te = getThreadElems(type))
    return emitOwnership(b, loc, target, *te);
  return SmallVector<Value>(n, Value());
}

template <class Op> struct DebugPattern : public ConvertOpToLLVMPattern<Op> {
  DebugPattern(LLVMTypeConverter &c, const TargetInfo &target)
      : ConvertOpToLLVMPattern<Op>(c), target(target) {}
  const TargetInfo &target;
};

struct PrintOpConversion : DebugPattern<tile::PrintOp> {
  using DebugPattern::DebugPattern;
  LogicalResult matchAndRewrite(tile::PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType shaped;
    for (Value v : op.getArgs())
      if (auto t = dyn_cast<RankedTensorType>(v.getType()))
        shaped = t;
    SmallVector<SmallVector<Value>> elems; // per operand, per thread element
    unsigned n = 1;
    for (auto [orig, conv] : llvm::zip(op.getArgs(), adaptor.getArgs())) {
      if (isa<RankedTensorType>(orig.getType())) {
        elems.push_back(unpackStruct(rewriter, loc, conv));
        n = elems.back().size();
      } else {
        elems.push_back({conv});
      }
    }
    SmallVector<Value> pid = programIds(rewriter, loc, target);
    std::string head = "pid (%d, %d, %d)" + indexFormat(shaped ? shaped.getRank() : 0) + " " +
                       escapeFormat(op.getPrefix());
    SmallVector<SmallVector<Value>> indices;
    SmallVector<Value> own;
    Value first;
    if (shaped) {
      indices = emitIndices(rewriter, loc, target, shaped);
      own = owners(rewriter, loc, target, shaped, n);
    } else {
      first = rewriter.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq,
                                            target.getThreadId(rewriter, loc),
                                            i32Const(rewriter, loc, 0));
    }
    for (unsigned e = 0; e < n; ++e) {
      std::string format = head;
      SmallVector<Value> args(pid);
      if (shaped)
        args.append(indices[e]);
      for (SmallVector<Value> &values : elems) {
        auto [conv, v] =
            vararg(rewriter, loc, values.size() == 1 ? values[0] : values[e], op.getHex());
        format += (format.back() == ' ' ? "" : " ") + conv;
        args.push_back(v);
      }
      if (failed(target.printf(rewriter, loc, format + "\n", args, shaped ? own[e] : first)))
        return failure();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpConversion : DebugPattern<tile::AssertOp> {
  using DebugPattern::DebugPattern;
  LogicalResult matchAndRewrite(tile::AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = dyn_cast<RankedTensorType>(op.getCondition().getType());
    SmallVector<Value> conds = type ? unpackStruct(rewriter, loc, adaptor.getCondition())
                                    : SmallVector<Value>{adaptor.getCondition()};
    SmallVector<Value> pid = programIds(rewriter, loc, target);
    SmallVector<SmallVector<Value>> indices;
    SmallVector<Value> own(conds.size(), Value());
    if (type) {
      indices = emitIndices(rewriter, loc, target, type);
      own = owners(rewriter, loc, target, type, conds.size());
    }
    std::string where;
    if (auto fl = dyn_cast<FileLineColLoc>(loc))
      where = escapeFormat((fl.getFilename().getValue() + ":" + Twine(fl.getLine()) + ":" +
                            Twine(fl.getColumn()) + ": ")
                               .str());
    // The interpreter's words: "<file:line:col>: error: device_assert failed: <message> (...)".
    std::string message = escapeFormat(op.getMessage());
    std::string format = where + "error: device_assert failed: " + message +
                         (message.empty() ? "" : " ") + "(pid (%d, %d, %d)" +
                         (type ? ", element" + indexFormat(type.getRank()).substr(4) : "") + ")\n";
    Value any;
    Value one =
        rewriter.create<LLVM::ConstantOp>(loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    for (auto [e, c] : llvm::enumerate(conds)) {
      Value bad = rewriter.create<LLVM::XOrOp>(loc, c, one);
      SmallVector<Value> args(pid);
      if (type)
        args.append(indices[e]);
      // A replicated element's message prints once; every replica traps.
      Value report = own[e] ? rewriter.create<LLVM::AndOp>(loc, bad, own[e]).getResult() : bad;
      if (failed(target.printf(rewriter, loc, format, args, report)))
        return failure();
      any = any ? rewriter.create<LLVM::OrOp>(loc, any, bad).getResult() : bad;
    }
    if (failed(target.abortIf(rewriter, loc, any, op.getMessage())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

namespace tessel {
void populateDebugOpToLLVMPatterns(LLVMTypeConverter &converter, const TargetInfo &target,
                                   RewritePatternSet &patterns) {
  patterns.add<PrintOpConversion, AssertOpConversion>(converter, target);
}
} // namespace tessel
