//===- Utility.cpp - helpers of the TileGPU to LLVM lowering --------------===//
#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::tile_gpu;

namespace tessel {

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return b.create<LLVM::ConstantOp>(loc, b.getI32Type(), b.getI32IntegerAttr(v));
}
Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return b.create<LLVM::ConstantOp>(loc, b.getI64Type(), b.getI64IntegerAttr(v));
}
Value i1Const(OpBuilder &b, Location loc, bool v) {
  return b.create<LLVM::ConstantOp>(loc, b.getI1Type(), b.getBoolAttr(v));
}

SmallVector<Value> unpackStruct(OpBuilder &b, Location loc, Value structValue) {
  auto type = cast<LLVM::LLVMStructType>(structValue.getType());
  SmallVector<Value> elems;
  for (size_t i = 0, e = type.getBody().size(); i < e; ++i)
    elems.push_back(
        b.create<LLVM::ExtractValueOp>(loc, structValue, ArrayRef<int64_t>{int64_t(i)}));
  return elems;
}

Value packStruct(OpBuilder &b, Location loc, Type structType, ValueRange elems) {
  Value s = b.create<LLVM::UndefOp>(loc, structType);
  for (auto [i, e] : llvm::enumerate(elems))
    s = b.create<LLVM::InsertValueOp>(loc, s, e, ArrayRef<int64_t>{int64_t(i)});
  return s;
}

void replaceOpWithStructs(ConversionPatternRewriter &rewriter, Operation *op,
                          const TypeConverter &converter,
                          function_ref<SmallVector<Value>(unsigned)> elemsOf) {
  SmallVector<Value> structs;
  for (auto [i, r] : llvm::enumerate(op->getResults()))
    structs.push_back(
        packStruct(rewriter, op->getLoc(), converter.convertType(r.getType()), elemsOf(i)));
  rewriter.replaceOp(op, structs);
}

Value andPred(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return b.create<LLVM::AndOp>(loc, a, c);
}

ThreadPosition emitThreadPosition(OpBuilder &b, Location loc, const TargetInfo &target,
                                  BlockedEncodingAttr root) {
  ThreadPosition pos;
  std::tie(pos.lane, pos.warp) = emitLaneAndWarp(b, loc, target, &pos.tid);
  for (unsigned k = 0; k < root.getRank(); ++k) {
    auto component = [&](Value id, unsigned stride, unsigned count) -> Value {
      if (count == 1)
        return i32Const(b, loc, 0);
      Value v = b.create<LLVM::LShrOp>(loc, id, i32Const(b, loc, llvm::Log2_32(stride)));
      return b.create<LLVM::AndOp>(loc, v, i32Const(b, loc, count - 1));
    };
    unsigned tpw = root.getThreadsPerWarp()[k], wpc = root.getWarpsPerCTA()[k];
    Value lc = component(pos.lane, laneStride(root, k), tpw);
    Value wc = component(pos.warp, warpStride(root, k), wpc);
    pos.laneComp.push_back(lc);
    pos.warpComp.push_back(wc);
    Value t = b.create<LLVM::AddOp>(loc, lc, b.create<LLVM::MulOp>(loc, wc, i32Const(b, loc, tpw)));
    pos.base.push_back(b.create<LLVM::MulOp>(loc, t, i32Const(b, loc, root.getSizePerThread()[k])));
  }
  return pos;
}

std::pair<Value, Value> emitLaneAndWarp(OpBuilder &b, Location loc, const TargetInfo &target,
                                        Value *threadId) {
  unsigned ws = target.getWarpSize();
  Value tid = target.getThreadId(b, loc);
  if (threadId)
    *threadId = tid;
  Value lane = b.create<LLVM::AndOp>(loc, tid, i32Const(b, loc, ws - 1));
  Value warp = b.create<LLVM::LShrOp>(loc, tid, i32Const(b, loc, llvm::Log2_32(ws)));
  return {lane, warp};
}

SmallVector<Value> emitThreadCoords(OpBuilder &b, Location loc, const LinearLayout &ll, Value lane,
                                    Value warp) {
  SmallVector<Value> coords;
  for (unsigned d = 0; d < ll.shape.size(); ++d) {
    Value acc = i32Const(b, loc, 0);
    for (auto [in, id] : {std::pair{LinearLayout::Lane, lane}, std::pair{LinearLayout::Warp, warp}})
      for (auto [bit, basis] : llvm::enumerate(ll.bases[in])) {
        if (!basis[d])
          continue;
        // ((id >> bit) & 1) * basis
        Value v = b.create<LLVM::LShrOp>(loc, id, i32Const(b, loc, bit));
        v = b.create<LLVM::AndOp>(loc, v, i32Const(b, loc, 1));
        v = b.create<LLVM::MulOp>(loc, v, i32Const(b, loc, basis[d]));
        acc = b.create<LLVM::XOrOp>(loc, acc, v);
      }
    coords.push_back(acc);
  }
  return coords;
}

bool lowersFloatMinMaxThroughIntegers(const TargetInfo &target, tile::RMWKind kind, Type elem) {
  using tile::RMWKind;
  if (!isa<FloatType>(elem) || (kind != RMWKind::max && kind != RMWKind::min) ||
      target.supportsAtomic(kind, elem))
    return false;
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64)
    return false;
  Type i = IntegerType::get(elem.getContext(), bits);
  return kind == RMWKind::max
             ? target.supportsAtomic(RMWKind::max, i) && target.supportsAtomic(RMWKind::umin, i)
             : target.supportsAtomic(RMWKind::min, i) && target.supportsAtomic(RMWKind::umax, i);
}

Value emitFloatMinMaxAtomic(OpBuilder &b, Location loc, const TargetInfo &target,
                            tile::RMWKind kind, Value ptr, Value value, Value pred,
                            tile::MemSemantic sem, tile::MemScope scope) {
  using tile::RMWKind;
  Type ft = value.getType();
  unsigned bits = ft.getIntOrFloatBitWidth();
  Type it = b.getIntegerType(bits);
  bool isMax = kind == RMWKind::max;
  Value isNaN = b.create<LLVM::FCmpOp>(loc, LLVM::FCmpPredicate::uno, value, value);
  Value nan = b.create<LLVM::ConstantOp>(
      loc, it,
      b.getIntegerAttr(it, isMax ? APInt::getSignedMaxValue(bits) : APInt::getAllOnes(bits)));
  Value v = b.create<LLVM::SelectOp>(loc, isNaN, nan, b.create<LLVM::BitcastOp>(loc, it, value));
  Value zero = b.create<LLVM::ConstantOp>(loc, it, b.getIntegerAttr(it, 0));
  Value neg = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, v, zero);
  Value notNeg = b.create<LLVM::XOrOp>(loc, neg, b.create<LLVM::ConstantOp>(loc, b.getI1Type(), 1));
  Value oldPos = target.atomicRMW(b, loc, isMax ? RMWKind::max : RMWKind::min, ptr, v,
                                  andPred(b, loc, pred, notNeg), sem, scope);
  Value oldNeg = target.atomicRMW(b, loc, isMax ? RMWKind::umin : RMWKind::umax, ptr, v,
                                  andPred(b, loc, pred, neg), sem, scope);
  if (!oldPos || !oldNeg)
    return Value();
  Value old = b.create<LLVM::SelectOp>(loc, neg, oldNeg, oldPos);
  return b.create<LLVM::BitcastOp>(loc, ft, old);
}

void storeVector(OpBuilder &b, Location loc, ValueRange elems, Value addr) {
  Type elem = elems.front().getType();
  unsigned n = elems.size(), bytes = byteWidth(elem);
  if (n == 1) {
    b.create<LLVM::StoreOp>(loc, elems.front(), addr, bytes);
    return;
  }
  Value v = b.create<LLVM::UndefOp>(loc, VectorType::get({int64_t(n)}, elem));
  for (auto [j, e] : llvm::enumerate(elems))
    v = b.create<LLVM::InsertElementOp>(loc, v, e, i32Const(b, loc, j));
  b.create<LLVM::StoreOp>(loc, v, addr, bytes * n);
}

void loadVector(OpBuilder &b, Location loc, Type elem, unsigned n, Value addr,
                SmallVectorImpl<Value> &out) {
  unsigned bytes = byteWidth(elem);
  if (n == 1) {
    out.push_back(b.create<LLVM::LoadOp>(loc, elem, addr, bytes));
    return;
  }
  Value v = b.create<LLVM::LoadOp>(loc, VectorType::get({int64_t(n)}, elem), addr, bytes * n);
  for (unsigned j = 0; j < n; ++j)
    out.push_back(b.create<LLVM::ExtractElementOp>(loc, v, i32Const(b, loc, j)));
}

unsigned vectorRun(RankedTensorType type, unsigned bytes, unsigned dim) {
  std::optional<LinearLayout> ll = toLinearLayout(type);
  if (!ll || dim >= type.getRank())
    return 1;
  unsigned run = std::min<unsigned>(ll->contiguousRegisters(dim), std::max(1u, 16 / bytes));
  for (bool aligned = false; run > 1 && !aligned;) {
    aligned = true;
    for (auto [in, bases] : llvm::enumerate(ll->bases))
      for (auto [bit, basis] : llvm::enumerate(bases))
        if (!(in == LinearLayout::Register && (1u << bit) < run) && basis[dim] % run != 0)
          aligned = false;
    if (!aligned)
      run /= 2;
  }
  return run;
}

SmallVector<SmallVector<Value>> emitIndices(OpBuilder &b, Location loc, const TargetInfo &target,
                                            RankedTensorType type) {
  if (std::optional<ThreadElems> te = getThreadElems(type))
    return emitIndices(b, loc, target, *te);
  std::optional<LinearLayout> ll = toLinearLayout(type);
  assert(ll && "emitIndices needs a distributed layout");
  // coord = reg part (constant) ^ lane part ^ warp part.
  auto [lane, warp] = emitLaneAndWarp(b, loc, target);
  unsigned rank = type.getRank();
  SmallVector<Value> runtime = emitThreadCoords(b, loc, *ll, lane, warp);
  SmallVector<SmallVector<Value>> out;
  for (unsigned r = 0; r < ll->numRegisters(); ++r) {
    LinearLayout::Coord c = ll->applyInput(LinearLayout::Register, r);
    SmallVector<Value> idx;
    for (unsigned d = 0; d < rank; ++d)
      idx.push_back(c[d]
                        ? b.create<LLVM::XOrOp>(loc, runtime[d], i32Const(b, loc, c[d])).getResult()
                        : runtime[d]);
    out.push_back(std::move(idx));
  }
  return out;
}

SmallVector<SmallVector<Value>> emitIndices(OpBuilder &b, Location loc, const TargetInfo &target,
                                            const ThreadElems &te) {
  ThreadPosition pos = emitThreadPosition(b, loc, target, te.view.root);
  SmallVector<SmallVector<Value>> out;
  // Index per (dim, local) computed once.
  SmallVector<SmallVector<Value>> perDim(te.perDim.size());
  for (unsigned i = 0; i < te.perDim.size(); ++i) {
    unsigned k = te.view.keptDims[i];
    for (unsigned l = 0; l < te.perDim[i]; ++l) {
      Value v = b.create<LLVM::AddOp>(loc, pos.base[k], i32Const(b, loc, te.offset(i, l)));
      v = b.create<LLVM::AndOp>(loc, v, i32Const(b, loc, te.shape[i] - 1));
      perDim[i].push_back(v);
    }
  }
  for (unsigned e = 0; e < te.total; ++e) {
    SmallVector<unsigned> local = te.delinearize(e);
    SmallVector<Value> idx;
    for (unsigned i = 0; i < local.size(); ++i)
      idx.push_back(perDim[i][local[i]]);
    out.push_back(idx);
  }
  return out;
}

SmallVector<Value> emitOwnership(OpBuilder &b, Location loc, const TargetInfo &target,
                                 const ThreadElems &te) {
  BlockedEncodingAttr root = te.view.root;
  ThreadPosition pos = emitThreadPosition(b, loc, target, root);
  // Sliced dimensions: only lane/warp component 0 owns.
  Value slicePred;
  for (unsigned k : te.view.slicedDims) {
    Value zero = i32Const(b, loc, 0);
    if (root.getThreadsPerWarp()[k] > 1)
      slicePred =
          andPred(b, loc, slicePred,
                  b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, pos.laneComp[k], zero));
    if (root.getWarpsPerCTA()[k] > 1)
      slicePred =
          andPred(b, loc, slicePred,
                  b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, pos.warpComp[k], zero));
  }
  SmallVector<SmallVector<Value>> perDim(te.perDim.size());
  for (unsigned i = 0; i < te.perDim.size(); ++i) {
    unsigned k = te.view.keptDims[i];
    bool covered = te.shape[i] % root.getCTATile(k) == 0;
    for (unsigned l = 0; l < te.perDim[i]; ++l) {
      if (covered) {
        perDim[i].push_back(Value());
        continue;
      }
      Value v = b.create<LLVM::AddOp>(loc, pos.base[k], i32Const(b, loc, te.offset(i, l)));
      perDim[i].push_back(
          b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ult, v, i32Const(b, loc, te.shape[i])));
    }
  }
  SmallVector<Value> out;
  for (unsigned e = 0; e < te.total; ++e) {
    SmallVector<unsigned> local = te.delinearize(e);
    Value p = slicePred;
    for (unsigned i = 0; i < local.size(); ++i)
      p = andPred(b, loc, p, perDim[i][local[i]]);
    out.push_back(p);
  }
  return out;
}

Value sharedMemoryPtr(OpBuilder &b, Location loc, const TargetInfo &target, unsigned offset) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), target.getSharedAddressSpace());
  Value base = b.create<LLVM::AddressOfOp>(loc, ptrType, kSharedMemoryGlobal);
  if (offset == 0)
    return base;
  return b.create<LLVM::GEPOp>(loc, ptrType, b.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)});
}

StringRef enclosingKernelName(Operation *op) {
  if (auto f = op->getParentOfType<func::FuncOp>())
    return f.getSymName();
  if (auto f = op->getParentOfType<LLVM::LLVMFuncOp>())
    return f.getSymName();
  return "";
}

unsigned byteWidth(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * byteWidth(v.getElementType());
  if (isa<LLVM::LLVMPointerType, tile::PtrType>(t))
    return 8;
  return std::max(1u, t.getIntOrFloatBitWidth() / 8);
}

Value shuffleXorAny(OpBuilder &b, Location loc, const TargetInfo &target, Value v,
                    unsigned laneMask) {
  Type t = v.getType();
  Type i32 = b.getI32Type();
  if (t.isInteger(32) || t.isF32())
    return target.shuffleXor(b, loc, v, laneMask);
  if (isa<LLVM::LLVMPointerType>(t)) {
    Value i = b.create<LLVM::PtrToIntOp>(loc, b.getI64Type(), v);
    Value s = shuffleXorAny(b, loc, target, i, laneMask);
    return b.create<LLVM::IntToPtrOp>(loc, t, s);
  }
  unsigned bits = t.getIntOrFloatBitWidth();
  Type intT = b.getIntegerType(bits);
  Value asInt = t.isInteger(bits) ? v : b.create<LLVM::BitcastOp>(loc, intT, v).getResult();
  Value result;
  if (bits < 32) {
    Value w = b.create<LLVM::ZExtOp>(loc, i32, asInt);
    result = b.create<LLVM::TruncOp>(loc, intT, target.shuffleXor(b, loc, w, laneMask));
  } else {
    Value lo = b.create<LLVM::TruncOp>(loc, i32, asInt);
    Value hi = b.create<LLVM::TruncOp>(
        loc, i32,
        b.create<LLVM::LShrOp>(loc, asInt,
                               b.create<LLVM::ConstantOp>(loc, intT, b.getIntegerAttr(intT, 32))));
    lo = b.create<LLVM::ZExtOp>(loc, intT, target.shuffleXor(b, loc, lo, laneMask));
    hi = b.create<LLVM::ZExtOp>(loc, intT, target.shuffleXor(b, loc, hi, laneMask));
    hi = b.create<LLVM::ShlOp>(loc, hi,
                               b.create<LLVM::ConstantOp>(loc, intT, b.getIntegerAttr(intT, 32)));
    result = b.create<LLVM::OrOp>(loc, lo, hi);
  }
  return t.isInteger(bits) ? result : b.create<LLVM::BitcastOp>(loc, t, result).getResult();
}

SmallVector<Value> emitCombine(OpBuilder &b, Location loc, Region &combiner, ValueRange acc,
                               ValueRange cur) {
  Block &block = combiner.front();
  IRMapping map;
  for (auto [i, a] : llvm::enumerate(acc))
    map.map(block.getArgument(i), a);
  for (auto [i, c] : llvm::enumerate(cur))
    map.map(block.getArgument(acc.size() + i), c);
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  SmallVector<Value> out;
  for (Value v : block.getTerminator()->getOperands())
    out.push_back(map.lookupOrDefault(v));
  return out;
}

void SharedMemoryPlan::reserve(StringRef kernelName, unsigned bytes) {
  unsigned &cur = bytesPerKernel[kernelName];
  cur = std::max(cur, (bytes + 15) / 16 * 16);
}

Value sharedElemOffset(OpBuilder &b, Location loc, tile_gpu::SharedEncodingAttr enc,
                       ArrayRef<int64_t> shape, Value row, Value col) {
  auto c = [&](int64_t v) { return i32Const(b, loc, v); };
  int64_t cols = shape[enc.getOrder()[0]];
  int64_t B = enc.getBlockColsFor(cols);
  if (B < cols) {
    // Column blocks of B elements, each a whole (rows x B) tile: the block's start, then the
    // offset inside it.
    int64_t rows = shape[enc.getOrder()[1]];
    Value block = b.create<LLVM::UDivOp>(loc, col, c(B));
    Value start = b.create<LLVM::MulOp>(loc, block, c(rows * B));
    Value inner = b.create<LLVM::URemOp>(loc, col, c(B));
    SmallVector<int64_t> blockShape(shape);
    blockShape[enc.getOrder()[0]] = B;
    return b.create<LLVM::AddOp>(loc, start, sharedElemOffset(b, loc, enc, blockShape, row, inner));
  }
  int64_t C = B + enc.getPad();
  Value rowStart = b.create<LLVM::MulOp>(loc, row, c(C));
  if (enc.getMaxPhase() <= 1)
    return b.create<LLVM::AddOp>(loc, rowStart, col);
  unsigned vec = enc.getVec();
  Value group = b.create<LLVM::UDivOp>(loc, col, c(vec));
  Value phase = b.create<LLVM::UDivOp>(loc, row, c(enc.getPerPhase()));
  phase = b.create<LLVM::URemOp>(loc, phase, c(enc.getMaxPhase()));
  group = b.create<LLVM::XOrOp>(loc, group, phase);
  Value within = b.create<LLVM::URemOp>(loc, col, c(vec));
  Value swizzled = b.create<LLVM::AddOp>(loc, b.create<LLVM::MulOp>(loc, group, c(vec)), within);
  return b.create<LLVM::AddOp>(loc, rowStart, swizzled);
}

LLVM::LLVMFuncOp getOrDeclareFunction(OpBuilder &b, ModuleOp module, StringRef name,
                                      LLVM::LLVMFunctionType type) {
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return b.create<LLVM::LLVMFuncOp>(module.getLoc(), name, type);
}

Value addressOfString(OpBuilder &b, Location loc, ModuleOp module, StringRef text,
                      unsigned addrSpace) {
  std::string name = "__tessel_str_" + llvm::utohexstr(llvm::xxh3_64bits(text));
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    std::string bytes = text.str();
    bytes.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
    global = b.create<LLVM::GlobalOp>(loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, name,
                                      b.getStringAttr(bytes), /*alignment=*/0, addrSpace);
  }
  Value addr = b.create<LLVM::AddressOfOp>(loc, global);
  if (addrSpace == 0)
    return addr;
  return b.create<LLVM::AddrSpaceCastOp>(loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
}

Value callDeviceFunction(OpBuilder &b, Operation *from, StringRef name, Type type,
                         ValueRange args) {
  auto module = from->getParentOfType<ModuleOp>();
  auto callee = getOrDeclareFunction(
      b, module, name, LLVM::LLVMFunctionType::get(type, SmallVector<Type>(args.size(), type)));
  return b.create<LLVM::CallOp>(from->getLoc(), callee, args).getResult();
}

LogicalResult lowerFloatThroughF32(Operation *op, ValueRange operands,
                                   ConversionPatternRewriter &rewriter, StringRef targetName,
                                   function_ref<Value(ArrayRef<Value>, Type)> compute) {
  Type t = op->getResult(0).getType();
  Location loc = op->getLoc();
  SmallVector<Value> args(operands);
  Type f32 = rewriter.getF32Type();
  bool narrow = t.isF16() || t.isBF16();
  if (narrow)
    for (Value &a : args)
      a = rewriter.create<LLVM::FPExtOp>(loc, f32, a);
  Type wide = narrow ? f32 : t;
  Value r = wide.isF32() || wide.isF64() ? compute(args, wide) : Value();
  if (!r)
    return op->emitError() << op->getName() << " on " << t << " is not supported on " << targetName
                           << " GPUs";
  if (narrow)
    r = rewriter.create<LLVM::FPTruncOp>(loc, t, r);
  rewriter.replaceOp(op, r);
  return success();
}

SharedView SharedView::of(Value memdesc) {
  auto type = cast<tile_gpu::MemDescType>(memdesc.getType());
  SharedView v;
  v.offsets.assign(type.getShape().size(), 0);
  while (auto sub = memdesc.getDefiningOp<tile_gpu::MemDescSubviewOp>()) {
    for (auto [o, d] : llvm::zip(v.offsets, sub.getOffsets()))
      o += d;
    memdesc = sub.getSrc();
  }
  auto base = cast<tile_gpu::MemDescType>(memdesc.getType()).getShape();
  v.shape.assign(base.begin(), base.end());
  return v;
}

Value sharedElemOffset(OpBuilder &b, Location loc, tile_gpu::SharedEncodingAttr enc,
                       const SharedView &view, Value row, Value col) {
  unsigned cdim = enc.getOrder()[0];
  auto shift = [&](Value v, int64_t by) -> Value {
    return by ? b.create<LLVM::AddOp>(loc, v, i32Const(b, loc, by)).getResult() : v;
  };
  return sharedElemOffset(b, loc, enc, view.shape, shift(row, view.offsets[1 - cdim]),
                          shift(col, view.offsets[cdim]));
}

unsigned SharedMemoryPlan::reserveScratch(Operation *op, unsigned bytes) {
  unsigned base = 0;
  if (auto attr =
          op->getAttrOfType<IntegerAttr>(tile_gpu::TileGPUDialect::getScratchOffsetAttrName()))
    base = attr.getInt();
  // First fit past the start: clear of each held range (sorted) the scratch would cover.
  if (auto held =
          op->getAttrOfType<DenseI32ArrayAttr>(tile_gpu::TileGPUDialect::getScratchHeldAttrName()))
    for (unsigned i = 0; i + 1 < held.size(); i += 2)
      if (base + bytes > unsigned(held[i]) && base < unsigned(held[i + 1]))
        base = llvm::alignTo(unsigned(held[i + 1]), 16);
  reserve(enclosingKernelName(op), base + bytes);
  return base;
}

} // namespace tessel
