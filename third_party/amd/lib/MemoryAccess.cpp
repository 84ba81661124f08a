//===- MemoryAccess.cpp - global loads, stores and atomics ----------------===//
//
// Predication. The shared lowering must stay single-block (scf bodies are converted as they
// are), and LLVM 19's AMDGPU backend scalarizes llvm.masked.load/store into one branch and one
// dword access per element (no global_load_dwordx4), so neither branches nor masked intrinsics
// are emitted at the access:
//  - a predicated load reads through `pred ? ptr : @__tessel_amd_zero`, a 16-byte zero global
//    of the code object, so a disabled lane reads valid memory (two v_cndmask_b32 on the
//    address) and keeps the full-width global_load_dwordx4; the shared lowering then selects
//    `other` into the disabled lanes;
//  - a predicated store or atomic calls a small internal always-inline helper,
//    `if (pred) access`, that the O3 inliner dissolves into the kernel; the AMDGPU backend
//    turns the branch into an exec-masked region (s_and_saveexec_b64 / s_cbranch_execz), the
//    hardware's own predication. A store to a dummy address would do for stores, but atomics
//    from the disabled lanes of every wave would then contend on that one address.
//
// Cache hints. AMDGPU encodes them per instruction (gfx90a: glc/slc; gfx942: sc0/sc1/nt);
// LLVM 19 reaches them through !nontemporal and volatile only:
//  - cs and evict_first (read or written once) -> !nontemporal (nt / slc);
//  - cv and volatile (fetch again) -> volatile, which makes the access coherent at system
//    scope (glc, or sc0 sc1 on gfx942), as PTX's ld.volatile/ld.cv does;
//  - ca, cg, wb, wt, evict_last have no LLVM 19 spelling for global memory and are dropped:
//    they are performance hints only (cg's "bypass L1" is the default for data read once).
// Atomics are LLVM atomicrmw / cmpxchg with syncscope "workgroup" (cta), "agent" (gpu) or the
// default system scope (sys); LLVM picks the instruction or a compare-and-swap loop.
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"
#include "Predicated.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::amd;

namespace {

constexpr llvm::StringLiteral kZeroGlobal = "__tessel_amd_zero";
constexpr unsigned kZeroBytes = 16;

struct AccessFlags {
  bool isVolatile = false, nontemporal = false;
};

AccessFlags flagsOf(const MemoryHints &h) {
  AccessFlags f;
  f.isVolatile = h.isVolatile || h.cache == tile::CacheModifier::cv;
  f.nontemporal =
      h.cache == tile::CacheModifier::cs || h.evict == tile::EvictionPolicy::evict_first;
  return f;
}

/// The symbol-safe spelling of an LLVM type: vector<4xf32> -> v4f32, !llvm.ptr<1> -> p1.
std::string mangle(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return "v" + std::to_string(v.getNumElements()) + mangle(v.getElementType());
  if (auto p = dyn_cast<LLVM::LLVMPointerType>(t))
    return "p" + std::to_string(p.getAddressSpace());
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// An address a disabled lane may read: the zero global for global and flat pointers; address
/// 0 of LDS for LDS pointers (DS reads outside the workgroup's allocation return 0 and never
/// fault: CDNA3 ISA guide, "Data Share Operations").
Value zeroAddress(OpBuilder &b, Location loc, Type ptrType) {
  unsigned as = cast<LLVM::LLVMPointerType>(ptrType).getAddressSpace();
  if (as == 3)
    return b.create<LLVM::ZeroOp>(loc, ptrType);
  ModuleOp module = moduleOf(b);
  auto globalPtr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  if (!module.lookupSymbol(kZeroGlobal)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), kZeroBytes);
    b.create<LLVM::GlobalOp>(loc, type, /*isConstant=*/true, LLVM::Linkage::Internal, kZeroGlobal,
                             b.getZeroAttr(RankedTensorType::get({kZeroBytes}, b.getI8Type())),
                             /*alignment=*/kZeroBytes, /*addrSpace=*/1);
  }
  Value addr = b.create<LLVM::AddressOfOp>(loc, globalPtr, kZeroGlobal);
  if (ptrType != globalPtr)
    addr = b.create<LLVM::AddrSpaceCastOp>(loc, ptrType, addr);
  return addr;
}

LLVM::AtomicOrdering ordering(tile::MemSemantic sem) {
  switch (sem) {
  case tile::MemSemantic::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case tile::MemSemantic::acquire:
    return LLVM::AtomicOrdering::acquire;
  case tile::MemSemantic::release:
    return LLVM::AtomicOrdering::release;
  case tile::MemSemantic::acq_rel:
    return LLVM::AtomicOrdering::acq_rel;
  }
  llvm_unreachable("unknown memory semantic");
}

/// cmpxchg's failure ordering may not release.
LLVM::AtomicOrdering failureOrdering(tile::MemSemantic sem) {
  if (sem == tile::MemSemantic::release)
    return LLVM::AtomicOrdering::monotonic;
  if (sem == tile::MemSemantic::acq_rel)
    return LLVM::AtomicOrdering::acquire;
  return ordering(sem);
}

/// AMDGPU synchronization scopes (AMDGPUUsage, "Memory Scopes"); "" is system scope.
StringRef syncScope(tile::MemScope scope) {
  switch (scope) {
  case tile::MemScope::cta:
    return "workgroup";
  case tile::MemScope::gpu:
    return "agent";
  case tile::MemScope::sys:
    return "";
  }
  llvm_unreachable("unknown memory scope");
}

/// The atomicrmw operation of `kind` on `t`; nullopt when Tessel does not offer it (the same
/// set as the NVIDIA adapter: float max/min would need NaN semantics LLVM's fmax lacks).
std::optional<LLVM::AtomicBinOp> binOp(tile::RMWKind kind, Type t) {
  using tile::RMWKind;
  if (isa<FloatType>(t)) {
    unsigned bits = t.getIntOrFloatBitWidth();
    if (kind == RMWKind::add)
      return LLVM::AtomicBinOp::fadd;
    if (kind == RMWKind::xchg && bits >= 32)
      return LLVM::AtomicBinOp::xchg;
    return std::nullopt;
  }
  if (!t.isInteger(32) && !t.isInteger(64))
    return std::nullopt;
  switch (kind) {
  case RMWKind::add:
    return LLVM::AtomicBinOp::add;
  case RMWKind::max:
    return LLVM::AtomicBinOp::max;
  case RMWKind::min:
    return LLVM::AtomicBinOp::min;
  case RMWKind::umax:
    return LLVM::AtomicBinOp::umax;
  case RMWKind::umin:
    return LLVM::AtomicBinOp::umin;
  case RMWKind::And:
    return LLVM::AtomicBinOp::_and;
  case RMWKind::Or:
    return LLVM::AtomicBinOp::_or;
  case RMWKind::Xor:
    return LLVM::AtomicBinOp::_xor;
  case RMWKind::xchg:
    return LLVM::AtomicBinOp::xchg;
  }
  return std::nullopt;
}

} // namespace

Value AMDTargetInfo::loadGlobal(
    OpBuilder &b, Location loc, Value ptr, Type type, Value pred, unsigned alignment,
    const MemoryHints &hints,
    std::optional<APInt> /*fill: a disabled lane reads the zero page*/) const {
  assert(byteWidth(type) <= kZeroBytes && "global accesses are at most 16 bytes");
  AccessFlags f = flagsOf(hints);
  Value addr = ptr;
  if (pred)
    addr = b.create<LLVM::SelectOp>(loc, pred, ptr, zeroAddress(b, loc, ptr.getType()));
  return b.create<LLVM::LoadOp>(loc, type, addr, alignment, f.isVolatile, f.nontemporal);
}

void AMDTargetInfo::storeGlobal(OpBuilder &b, Location loc, Value ptr, Value value, Value pred,
                                unsigned alignment, const MemoryHints &hints) const {
  AccessFlags f = flagsOf(hints);
  if (!pred) {
    b.create<LLVM::StoreOp>(loc, value, ptr, alignment, f.isVolatile, f.nontemporal);
    return;
  }
  std::string name = "__tessel_amd_store_" + mangle(value.getType()) + "_" + mangle(ptr.getType()) +
                     "_a" + std::to_string(alignment) + (f.nontemporal ? "_nt" : "") +
                     (f.isVolatile ? "_volatile" : "");
  auto helper = getOrCreatePredicated(b, loc, name, Type(), {ptr.getType(), value.getType()},
                                      [&](OpBuilder &hb, Location l, ValueRange args) -> Value {
                                        hb.create<LLVM::StoreOp>(l, args[1], args[0], alignment,
                                                                 f.isVolatile, f.nontemporal);
                                        return Value();
                                      });
  b.create<LLVM::CallOp>(loc, helper, ValueRange{pred, ptr, value});
}

bool AMDTargetInfo::supportsAtomic(tile::RMWKind kind, Type elem) const {
  return binOp(kind, elem).has_value();
}

Value AMDTargetInfo::atomicRMW(OpBuilder &b, Location loc, tile::RMWKind kind, Value ptr,
                               Value value, Value pred, tile::MemSemantic sem,
                               tile::MemScope scope) const {
  Type t = value.getType();
  std::optional<LLVM::AtomicBinOp> op = binOp(kind, t);
  if (!op) {
    emitError(loc) << "atomic " << stringifyRMWKind(kind) << " on " << t
                   << " is not supported on AMD GPUs";
    return Value();
  }
  auto emit = [&, op = *op](OpBuilder &eb, Location l, Value p, Value v) -> Value {
    return eb.create<LLVM::AtomicRMWOp>(l, op, p, v, ordering(sem), syncScope(scope));
  };
  if (!pred)
    return emit(b, loc, ptr, value);
  std::string name =
      ("__tessel_amd_atomic_" + LLVM::stringifyAtomicBinOp(*op) + "_" + mangle(t) + "_" +
       mangle(ptr.getType()) + "_" + LLVM::stringifyAtomicOrdering(ordering(sem)) + "_" +
       (scope == tile::MemScope::sys ? "system" : syncScope(scope)))
          .str();
  auto helper = getOrCreatePredicated(
      b, loc, name, t, {ptr.getType(), t},
      [&](OpBuilder &hb, Location l, ValueRange args) { return emit(hb, l, args[0], args[1]); });
  return b.create<LLVM::CallOp>(loc, helper, ValueRange{pred, ptr, value}).getResult();
}

Value AMDTargetInfo::atomicCAS(OpBuilder &b, Location loc, Value ptr, Value cmp, Value value,
                               Value pred, tile::MemSemantic sem, tile::MemScope scope) const {
  Type t = value.getType();
  unsigned bits = t.getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64) {
    emitError(loc) << "atomic_cas on " << t << " is not supported on AMD GPUs";
    return Value();
  }
  // cmpxchg takes integers: floats travel as their bits.
  Type intT = b.getIntegerType(bits);
  auto emit = [&](OpBuilder &eb, Location l, Value p, Value c, Value v) -> Value {
    auto asInt = [&](Value x) -> Value {
      return x.getType() == intT ? x : eb.create<LLVM::BitcastOp>(l, intT, x).getResult();
    };
    Value ci = asInt(c);
    Value vi = asInt(v);
    Value pair = eb.create<LLVM::AtomicCmpXchgOp>(l, p, ci, vi, ordering(sem), failureOrdering(sem),
                                                  syncScope(scope));
    Value old = eb.create<LLVM::ExtractValueOp>(l, pair, ArrayRef<int64_t>{0});
    return t == intT ? old : eb.create<LLVM::BitcastOp>(l, t, old).getResult();
  };
  if (!pred)
    return emit(b, loc, ptr, cmp, value);
  std::string name = ("__tessel_amd_cas_" + mangle(t) + "_" + mangle(ptr.getType()) + "_" +
                      LLVM::stringifyAtomicOrdering(ordering(sem)) + "_" +
                      (scope == tile::MemScope::sys ? "system" : syncScope(scope)))
                         .str();
  auto helper = getOrCreatePredicated(b, loc, name, t, {ptr.getType(), t, t},
                                      [&](OpBuilder &hb, Location l, ValueRange args) {
                                        return emit(hb, l, args[0], args[1], args[2]);
                                      });
  return b.create<LLVM::CallOp>(loc, helper, ValueRange{pred, ptr, cmp, value}).getResult();
}
