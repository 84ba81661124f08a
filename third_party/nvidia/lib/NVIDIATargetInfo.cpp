//===- NVIDIATargetInfo.cpp - the NVIDIA adapter's lowering hooks ---------===//
//
// Ids, shuffles and barriers are NVVM ops. Global accesses that carry a predicate or a cache
// hint are inline PTX (`@p ld.global.cg.v4.b32 {...}, [addr]`): LLVM has no predicated vector
// load for NVPTX, and its masked-load intrinsics would be scalarized into branches. Plain
// accesses stay LLVM loads and stores so that LLVM can optimize around them.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "PTXAsm.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"
#include "tessel/NVIDIA/Transforms/Passes.h"
#include "tessel/Target/TargetRegistry.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::nvidia;

namespace {

/// Register words a value of `bytes` bytes travels in through inline PTX.
struct Words {
  unsigned count, bits;
  char constraint;
};
Words wordsFor(unsigned bytes) {
  if (bytes >= 4)
    return {bytes / 4, 32, 'r'};
  return {1, 16, 'h'};
}

/// Whether an access carries an L2 eviction priority (a volatile load has no cache operators).
bool hasL2Policy(const MemoryHints &h) {
  return h.evict != tile::EvictionPolicy::normal && !h.isVolatile;
}

std::string cacheSuffix(const MemoryHints &h, bool isStore) {
  std::string s;
  using tile::CacheModifier;
  switch (h.cache) {
  case CacheModifier::ca:
    s += isStore ? "" : ".ca";
    break;
  case CacheModifier::cg:
    s += ".cg";
    break;
  case CacheModifier::cs:
    s += ".cs";
    break;
  case CacheModifier::cv:
    s += isStore ? "" : ".cv";
    break;
  case CacheModifier::wb:
    s += isStore ? ".wb" : "";
    break;
  case CacheModifier::wt:
    s += isStore ? ".wt" : "";
    break;
  case CacheModifier::none:
    break;
  }
  // PTX allows an L1 eviction priority only without a cache operator (.cg etc. bypass L1).
  if (h.cache == tile::CacheModifier::none) {
    if (h.evict == tile::EvictionPolicy::evict_first)
      s += ".L1::evict_first";
    else if (h.evict == tile::EvictionPolicy::evict_last)
      s += ".L1::evict_last";
  }
  // The L2 priority travels in a cache policy (l2Policy); `.L2::evict_*` alone needs 256-bit
  // accesses (sm_100).
  if (hasL2Policy(h))
    s += ".L2::cache_hint"; // with l2Policy's `pol`
  return s;
}

/// The inline PTX around an access with an L2 eviction priority: `open` makes the cache policy
/// `pol` in a scope that `close` ends (createpolicy needs PTX ISA 7.4 and sm_80, true of every
/// target; tesselc emits 8.0), `operand` passes it to the access. Every line the access touches
/// gets the priority (fraction 1.0). All empty without a priority.
struct L2Policy {
  std::string open, operand, close;
};
L2Policy l2Policy(const MemoryHints &h) {
  if (!hasL2Policy(h))
    return {};
  const char *p = h.evict == tile::EvictionPolicy::evict_last ? "evict_last" : "evict_first";
  return {llvm::formatv("{{ .reg .b64 pol;\n\tcreatepolicy.fractional.L2::{0}.b64 pol, 1.0;\n\t", p)
              .str(),
          ", pol", "\n\t}"};
}

bool hasHints(const MemoryHints &h) {
  return h.cache != tile::CacheModifier::none || h.evict != tile::EvictionPolicy::normal ||
         h.isVolatile;
}

/// `v` (scalar or vector) as `w.count` integer words of `w.bits`.
SmallVector<Value> toWords(OpBuilder &b, Location loc, Value v, Words w) {
  unsigned bytes = byteWidth(v.getType());
  Type wordT = b.getIntegerType(w.bits);
  if (bytes < w.bits / 8) { // one byte: widen to a 16-bit word
    Value x = b.create<LLVM::BitcastOp>(loc, b.getI8Type(), v);
    return {b.create<LLVM::ZExtOp>(loc, wordT, x)};
  }
  Type vecT = VectorType::get({w.count}, wordT);
  Value asVec = b.create<LLVM::BitcastOp>(loc, vecT, v);
  SmallVector<Value> out;
  for (unsigned i = 0; i < w.count; ++i)
    out.push_back(b.create<LLVM::ExtractElementOp>(loc, asVec, i32Const(b, loc, i)));
  return out;
}

/// Word `i` (of `bits` bits) of an access whose every element holds `fill`, as an unsigned
/// value: the elements are laid out little-endian, as the load fills its registers.
uint64_t fillWord(const APInt &fill, unsigned bits, unsigned i) {
  unsigned elemBits = fill.getBitWidth();
  assert(elemBits % 8 == 0 && (elemBits % bits == 0 || bits % elemBits == 0));
  if (elemBits >= bits) // a word inside one element (f64 and i64: two 32-bit words each)
    return fill.extractBitsAsZExtValue(bits, (i * bits) % elemBits);
  uint64_t word = 0;
  for (unsigned at = 0; at < bits; at += elemBits)
    word |= fill.getZExtValue() << at;
  return word;
}

Value fromWords(OpBuilder &b, Location loc, ArrayRef<Value> words, Words w, Type type) {
  unsigned bytes = byteWidth(type);
  if (bytes < w.bits / 8) {
    Value x = b.create<LLVM::TruncOp>(loc, b.getI8Type(), words[0]);
    return b.create<LLVM::BitcastOp>(loc, type, x);
  }
  Type wordT = b.getIntegerType(w.bits);
  Value vec = b.create<LLVM::UndefOp>(loc, VectorType::get({w.count}, wordT));
  for (unsigned i = 0; i < w.count; ++i)
    vec = b.create<LLVM::InsertElementOp>(loc, vec, words[i], i32Const(b, loc, i));
  return b.create<LLVM::BitcastOp>(loc, type, vec);
}

std::string vecSuffix(unsigned n) { return n == 1 ? "" : n == 2 ? ".v2" : ".v4"; }

std::string operandList(unsigned first, unsigned n) {
  if (n == 1)
    return llvm::formatv("${0}", first).str();
  std::string s = "{";
  for (unsigned i = 0; i < n; ++i)
    s += llvm::formatv("{0}${1}", i ? ", " : "", first + i).str();
  return s + "}";
}

} // namespace

NVIDIATargetInfo::NVIDIATargetInfo(StringRef arch)
    : TargetInfo(("cuda:" + arch).str()), arch(arch.str()) {
  limits.warpSize = 32;
  limits.maxThreadsPerProgram = 1024;
  limits.maxRegistersPerThread = 255;
  limits.sharedMemoryWithoutOptIn = 48 * 1024;
  // Opt-in maximum per block (CUDA C++ Programming Guide, "Compute Capabilities"): 163 KB on
  // sm_80 (A100), 99 KB on sm_86 and sm_89 (consumer Ampere, Ada), 227 KB on sm_90 (H100/H200).
  StringRef a(arch);
  limits.sharedMemoryPerProgram = a.starts_with("sm_90")         ? 227 * 1024
                                  : a == "sm_86" || a == "sm_89" ? 99 * 1024
                                                                 : 163 * 1024;
}

Value NVIDIATargetInfo::getThreadId(OpBuilder &b, Location loc) const {
  return b.create<NVVM::ThreadIdXOp>(loc, b.getI32Type());
}

Value NVIDIATargetInfo::getProgramId(OpBuilder &b, Location loc, unsigned axis) const {
  Type t = b.getI32Type();
  if (axis == 0)
    return b.create<NVVM::BlockIdXOp>(loc, t);
  if (axis == 1)
    return b.create<NVVM::BlockIdYOp>(loc, t);
  return b.create<NVVM::BlockIdZOp>(loc, t);
}

Value NVIDIATargetInfo::getNumPrograms(OpBuilder &b, Location loc, unsigned axis) const {
  Type t = b.getI32Type();
  if (axis == 0)
    return b.create<NVVM::GridDimXOp>(loc, t);
  if (axis == 1)
    return b.create<NVVM::GridDimYOp>(loc, t);
  return b.create<NVVM::GridDimZOp>(loc, t);
}

Value NVIDIATargetInfo::shuffleXor(OpBuilder &b, Location loc, Value v, unsigned laneMask) const {
  return b.create<NVVM::ShflOp>(loc, v.getType(), i32Const(b, loc, -1), v,
                                i32Const(b, loc, laneMask), i32Const(b, loc, 0x1f),
                                NVVM::ShflKind::bfly, UnitAttr());
}

unsigned tessel::nvidia::consumerThreads(Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->hasAttr(tile::TileDialect::getProducerWarpsAttrName())) {
      auto warps = op->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName());
      return (warps ? warps.getInt() : 4) * 32;
    }
  return 0;
}

void NVIDIATargetInfo::barrier(OpBuilder &b, Location loc) const {
  // A warp-specialized kernel's producer warps have left by the time anything else needs a
  // barrier (shared-memory round trips of the consumers): __syncthreads would wait for them
  // forever, so the consumers synchronize among themselves on barrier 1.
  if (unsigned threads = nvidia::consumerThreads(b.getInsertionBlock()->getParentOp()))
    return nvidia::namedBarrier(b, loc, 1, threads);
  b.create<NVVM::Barrier0Op>(loc);
}

Value NVIDIATargetInfo::loadGlobal(OpBuilder &b, Location loc, Value ptr, Type type, Value pred,
                                   unsigned alignment, const MemoryHints &hints,
                                   std::optional<APInt> fill) const {
  if (!pred && !hasHints(hints))
    return b.create<LLVM::LoadOp>(loc, type, ptr, alignment);
  Words w = wordsFor(byteWidth(type));
  std::string op =
      hints.isVolatile ? "ld.volatile.global" : "ld.global" + cacheSuffix(hints, false);
  std::string typeSuffix = byteWidth(type) == 1 ? ".u8" : ".b" + std::to_string(w.bits);
  unsigned ptrIdx = w.count;
  // A predicated load's registers are set first: left unwritten when the predicate is off,
  // they would be live from the kernel's entry as far as ptxas can tell, and a row kernel that
  // holds its row (LayerNorm, 16384 columns on 16 warps) then needed 73 registers and spilled
  // at 64; with the moves, 54. They take `fill` (the load's constant `other`, e.g. -inf before a
  // max) where given, which saves the select per element that would otherwise apply it.
  std::string zero;
  if (pred)
    for (unsigned i = 0; i < w.count; ++i)
      zero +=
          llvm::formatv("mov.b{0} ${1}, {2};\n\t", w.bits, i, fill ? fillWord(*fill, w.bits, i) : 0)
              .str();
  L2Policy policy = l2Policy(hints);
  std::string asmStr =
      llvm::formatv("{0}{1}{2}{3}{4}{5} {6}, [ ${7} ]{8};{9}", zero, policy.open,
                    pred ? llvm::formatv("@${0} ", ptrIdx + 1).str() : "", op, vecSuffix(w.count),
                    typeSuffix, operandList(0, w.count), ptrIdx, policy.operand, policy.close)
          .str();
  std::string constraints;
  for (unsigned i = 0; i < w.count; ++i)
    constraints += std::string("=") + w.constraint + ",";
  constraints += "l";
  SmallVector<Value> operands = {ptr};
  if (pred) {
    constraints += ",b";
    operands.push_back(pred);
  }
  Type wordT = b.getIntegerType(w.bits);
  Type resultT = w.count == 1 ? wordT
                              : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                                 SmallVector<Type>(w.count, wordT));
  Value r = ptxAsm(b, loc, resultT, operands, asmStr, constraints);
  SmallVector<Value> words;
  if (w.count == 1)
    words.push_back(r);
  else
    for (unsigned i = 0; i < w.count; ++i)
      words.push_back(b.create<LLVM::ExtractValueOp>(loc, r, ArrayRef<int64_t>{int64_t(i)}));
  return fromWords(b, loc, words, w, type);
}

void NVIDIATargetInfo::storeGlobal(OpBuilder &b, Location loc, Value ptr, Value value, Value pred,
                                   unsigned alignment, const MemoryHints &hints) const {
  if (!pred && !hasHints(hints)) {
    b.create<LLVM::StoreOp>(loc, value, ptr, alignment);
    return;
  }
  Words w = wordsFor(byteWidth(value.getType()));
  std::string typeSuffix = byteWidth(value.getType()) == 1 ? ".u8" : ".b" + std::to_string(w.bits);
  unsigned first = pred ? 2 : 1;
  L2Policy policy = l2Policy(hints);
  std::string asmStr =
      llvm::formatv("{0}{1}st.global{2}{3}{4} [ ${5} ], {6}{7};{8}", policy.open,
                    pred ? "@$0 " : "", cacheSuffix(hints, true), vecSuffix(w.count), typeSuffix,
                    first - 1, operandList(first, w.count), policy.operand, policy.close)
          .str();
  std::string constraints = pred ? "b,l" : "l";
  SmallVector<Value> operands;
  if (pred)
    operands.push_back(pred);
  operands.push_back(ptr);
  for (Value word : toWords(b, loc, value, w)) {
    operands.push_back(word);
    constraints += std::string(",") + w.constraint;
  }
  ptxAsm(b, loc, Type(), operands, asmStr, constraints);
}

static std::string semScope(tile::MemSemantic sem, tile::MemScope scope) {
  return "." + stringifyMemSemantic(sem).str() + "." + stringifyMemScope(scope).str();
}

/// PTX type suffix and register constraint of an atomic on `t`; empty when unsupported.
static std::pair<std::string, std::string> atomicType(tile::RMWKind kind, Type t) {
  unsigned bits = t.getIntOrFloatBitWidth();
  std::string n = std::to_string(bits);
  std::string c = bits == 64 ? (t.isF64() ? "d" : "l") : bits == 32 ? (t.isF32() ? "f" : "r") : "h";
  using tile::RMWKind;
  if (isa<FloatType>(t)) {
    if (kind == RMWKind::add) {
      if (t.isF32() || t.isF64())
        return {".f" + n, c};
      if (t.isF16())
        return {".noftz.f16", c};
      if (t.isBF16())
        return {".noftz.bf16", c};
    }
    if (kind == RMWKind::xchg && bits >= 32)
      return {".b" + n, c};
    return {};
  }
  if (bits != 32 && bits != 64)
    return {};
  switch (kind) {
  case RMWKind::add:
  case RMWKind::umax:
  case RMWKind::umin:
    return {".u" + n, c};
  case RMWKind::max:
  case RMWKind::min:
    return {".s" + n, c};
  default:
    return {".b" + n, c};
  }
}

bool NVIDIATargetInfo::supportsAtomic(tile::RMWKind kind, Type elem) const {
  return !atomicType(kind, elem).first.empty();
}

Value NVIDIATargetInfo::atomicRMW(OpBuilder &b, Location loc, tile::RMWKind kind, Value ptr,
                                  Value value, Value pred, tile::MemSemantic sem,
                                  tile::MemScope scope) const {
  Type t = value.getType();
  auto [suffix, c] = atomicType(kind, t);
  if (suffix.empty()) {
    emitError(loc) << "atomic " << stringifyRMWKind(kind) << " on " << t
                   << " is not supported on NVIDIA GPUs";
    return Value();
  }
  std::string op;
  switch (kind) {
  case tile::RMWKind::umax:
    op = "max";
    break;
  case tile::RMWKind::umin:
    op = "min";
    break;
  case tile::RMWKind::xchg:
    op = "exch";
    break;
  default:
    op = stringifyRMWKind(kind).str();
    break;
  }
  if (!pred)
    pred = b.create<LLVM::ConstantOp>(loc, b.getI1Type(), b.getBoolAttr(true));
  bool half = c == "h";
  Value v = half ? b.create<LLVM::BitcastOp>(loc, b.getI16Type(), value).getResult() : value;
  std::string asmStr =
      llvm::formatv("@$1 atom.global{0}.{1}{2} $0, [ $2 ], $3;", semScope(sem, scope), op, suffix)
          .str();
  Value r = ptxAsm(b, loc, v.getType(), {pred, ptr, v}, asmStr, "=" + c + ",b,l," + c);
  return half ? b.create<LLVM::BitcastOp>(loc, t, r).getResult() : r;
}

Value NVIDIATargetInfo::atomicCAS(OpBuilder &b, Location loc, Value ptr, Value cmp, Value value,
                                  Value pred, tile::MemSemantic sem, tile::MemScope scope) const {
  Type t = value.getType();
  unsigned bits = t.getIntOrFloatBitWidth();
  Type intT = b.getIntegerType(bits);
  auto asInt = [&](Value v) -> Value {
    return v.getType() == intT ? v : b.create<LLVM::BitcastOp>(loc, intT, v).getResult();
  };
  std::string c = bits == 64 ? "l" : bits == 32 ? "r" : "h";
  if (!pred)
    pred = b.create<LLVM::ConstantOp>(loc, b.getI1Type(), b.getBoolAttr(true));
  std::string asmStr =
      llvm::formatv("@$1 atom.global{0}.cas.b{1} $0, [ $2 ], $3, $4;", semScope(sem, scope), bits)
          .str();
  Value r = ptxAsm(b, loc, intT, {pred, ptr, asInt(cmp), asInt(value)}, asmStr,
                   "=" + c + ",b,l," + c + "," + c);
  return t == intT ? r : b.create<LLVM::BitcastOp>(loc, t, r).getResult();
}

void NVIDIATargetInfo::setKernelAttributes(LLVM::LLVMFuncOp func, unsigned numThreads) const {
  MLIRContext *ctx = func.getContext();
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                DenseI32ArrayAttr::get(ctx, {int32_t(numThreads), 1, 1}));
}

Attribute NVIDIATargetInfo::getDotEncoding(RankedTensorType a, RankedTensorType b,
                                           RankedTensorType d, tile::InputPrecision precision,
                                           unsigned numWarps, std::string &reason) const {
  // Ordered candidates: wgmma m64nNk16 (sm_90a), then mma.sync m16n8k16 / m16n8k8.
  std::string why;
  if (arch == "sm_90a")
    if (Attribute enc = getWgmmaDotEncoding(a, b, d, numWarps, why))
      return enc;
  Attribute enc = getMmaDotEncoding(a, b, d, precision, numWarps, reason);
  // A 16-bit dot of at least one warpgroup's 64 rows that could have used wgmma: say what kept
  // it on mma.sync (about half the rate). Smaller tiles are mma.sync's.
  if (enc && !why.empty() && a.getElementTypeBitWidth() == 16 && a.getDimSize(0) >= 64)
    reason = "tile.dot runs on mma.sync, not on " + getName().str() + "'s wgmma: " + why;
  return enc;
}

TargetInfo::OperandStaging NVIDIATargetInfo::getDotOperandStaging(RankedTensorType loaded,
                                                                  RankedTensorType operand,
                                                                  unsigned vectorBytes) const {
  auto enc = dyn_cast_if_present<tile_gpu::DotOperandEncodingAttr>(operand.getEncoding());
  if (loaded.getRank() != 2 || !enc || !isa<tile_gpu::MmaEncodingAttr>(enc.getParent()) ||
      !isa<tile_gpu::BlockedEncodingAttr>(loaded.getEncoding()))
    return OperandStaging::None;
  // cp.async moves 4, 8 or 16 bytes; ldmatrix reads 16-bit mma.sync operands.
  if (vectorBytes >= 4 && enc.getKWidth() == 2 &&
      operand.getElementType().getIntOrFloatBitWidth() == 16)
    return OperandStaging::AsyncCopy;
  // Register staging (AMD's path) was measured on the H200 for the narrower runs (the
  // variants without __div8): 0.52-0.91x the speed of the synchronous loads, as the scalar
  // loads and per-element swizzled stores cost more than the overlap gains
  // (benchmarks/gpu/results/2026-12-01-h200-epilogue/README.md). They stay synchronous.
  return OperandStaging::None;
}

/// Whether `operand` is in the dot_op layout of a wgmma (mma version 3) dot.
static bool isWgmmaOperand(RankedTensorType operand) {
  auto enc = dyn_cast_if_present<tile_gpu::DotOperandEncodingAttr>(operand.getEncoding());
  auto mma = enc ? dyn_cast<tile_gpu::MmaEncodingAttr>(enc.getParent()) : nullptr;
  return mma && mma.getVersionMajor() == 3;
}

Attribute NVIDIATargetInfo::getDotOperandSharedEncoding(RankedTensorType loaded,
                                                        RankedTensorType operand) const {
  // wgmma reads its operands from shared memory in the placement it swizzles itself.
  auto blocked = dyn_cast_if_present<tile_gpu::BlockedEncodingAttr>(loaded.getEncoding());
  if (!isWgmmaOperand(operand) || !blocked || loaded.getRank() != 2)
    return {};
  return tile_gpu::getMmaSwizzledSharedEncoding(
      loaded.getContext(), loaded.getShape(), blocked.getOrder(), loaded.getElementTypeBitWidth());
}

unsigned NVIDIATargetInfo::getDotOperandExtraStages(RankedTensorType operand) const {
  // tile-nv-warpgroup-dot keeps iteration k - 1's wgmma in flight while iteration k issues the
  // copies of k + S - 1: that stage must be neither k's nor k - 1's.
  return isWgmmaOperand(operand) ? 1 : 0;
}

void NVIDIATargetInfo::addLayoutPasses(OpPassManager &pm) const {
  if (arch == "sm_90a") {
    pm.addPass(tile_nv::createTileNVTensorMapLoads());
    pm.addPass(tile_nv::createTileNVTensorMapStores());
    pm.addPass(tile_nv::createTileNVWarpgroupDot());
  }
}

void NVIDIATargetInfo::addLateLayoutPasses(OpPassManager &pm) const {
  // Only sm_90a has TMA, wgmma and setmaxnreg; elsewhere warp_specialize is a no-op.
  if (arch == "sm_90a") {
    pm.addPass(tile_nv::createTileNVWarpSpecialize());
    pm.addPass(tile_nv::createTileNVClusterMulticast());
  }
}

void NVIDIATargetInfo::populateConversionPatterns(LLVMTypeConverter &converter,
                                                  const AxisInfoMap &axis, SharedMemoryPlan &shared,
                                                  RewritePatternSet &patterns) const {
  populateDotOpToMMAPatterns(converter, patterns);
  populateAsyncCopyToLLVMPatterns(converter, *this, axis, patterns);
  populateDotOperandToLdmatrixPatterns(converter, *this, shared, patterns);
  populateWarpgroupDotToLLVMPatterns(converter, *this, patterns);
  populateTensorMapToLLVMPatterns(converter, *this, patterns);
}
void NVIDIATargetInfo::configureConversionTarget(ConversionTarget &target) const {
  target.addLegalDialect<NVVM::NVVMDialect>();
  target.addIllegalDialect<tile_nv::TileNVDialect>();
}

static const StringLiteral kArchs[] = {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"};

std::unique_ptr<TargetInfo> tessel::nvidia::createTargetInfo(StringRef arch) {
  if (!llvm::is_contained(kArchs, arch))
    return nullptr;
  return std::make_unique<NVIDIATargetInfo>(arch);
}

void tessel::nvidia::registerNVIDIATarget() {
  TargetRegistration r;
  r.family = "cuda";
  for (StringRef arch : kArchs)
    r.names.push_back(("cuda:" + arch).str());
  r.create = [](StringRef name) { return createTargetInfo(name.split(':').second); };
  r.insertDialects = [](DialectRegistry &registry) {
    registry.insert<NVVM::NVVMDialect, tile_nv::TileNVDialect>();
  };
  registerTarget(std::move(r));
}
