//===- MemoryOps.cpp - pointers, loads, stores, atomics, block pointers ----===//
//
// Memory safety: before an op touches memory, every enabled lane's element must lie inside one
// registered region (checked with one range test for the common case of a tile within one
// buffer, lane by lane otherwise). The first lane that does not stops the program instance
// with a located error; no lane of that op reads or writes anything.
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"
#include "Kernels.h"

#include <algorithm>
#include <cinttypes>

using namespace mlir;
using namespace tessel::interp;
namespace tile = tessel::tile;
namespace h = tessel::harness;
using h::DType;

namespace {

/// What an access report needs to know about the op.
struct AccessInfo {
  std::string loc;
  std::string opName;
  DType dtype = DType::f32;
  size_t size = 4;
  llvm::SmallVector<int64_t, 4> shape;
};

const MemoryRegion *regionOf(const std::vector<MemoryRegion> &mem, uint64_t addr) {
  auto it = std::upper_bound(mem.begin(), mem.end(), addr,
                             [](uint64_t a, const MemoryRegion &r) { return a < r.begin; });
  if (it == mem.begin())
    return nullptr;
  --it;
  return addr - it->begin < it->bytes ? &*it : nullptr;
}

bool inside(const std::vector<MemoryRegion> &mem, uint64_t addr, size_t size) {
  const MemoryRegion *r = regionOf(mem, addr);
  return r && addr + size - r->begin <= r->bytes && addr + size > addr;
}

std::string laneString(const AccessInfo &info, int64_t lane) {
  std::string s = "lane " + std::to_string(lane);
  if (info.shape.size() >= 2) {
    llvm::SmallVector<int64_t, 4> idx(info.shape.size());
    int64_t rest = lane;
    for (int d = static_cast<int>(info.shape.size()) - 1; d >= 0; --d) {
      idx[d] = rest % info.shape[d];
      rest /= info.shape[d];
    }
    s += " [";
    for (size_t d = 0; d < idx.size(); ++d)
      s += (d ? ", " : "") + std::to_string(idx[d]);
    s += "]";
  }
  int64_t n = 1;
  for (int64_t d : info.shape)
    n *= d;
  return s + " of " + std::to_string(n);
}

/// The out-of-bounds report: op, location, program id, lane, and the element offset relative
/// to the nearest buffer.
std::string outOfBounds(const Frame &f, const AccessInfo &info, int64_t lane, uint64_t addr) {
  const std::vector<MemoryRegion> &mem = *f.launch->memory;
  const MemoryRegion *nearest = nullptr;
  uint64_t best = UINT64_MAX;
  for (const MemoryRegion &r : mem) {
    uint64_t d = addr < r.begin              ? r.begin - addr
                 : addr >= r.begin + r.bytes ? addr - (r.begin + r.bytes) + 1
                                             : 0;
    if (d < best)
      best = d, nearest = &r;
  }
  char pid[96];
  std::snprintf(pid, sizeof pid, "program_id (%" PRId64 ", %" PRId64 ", %" PRId64 ")", f.pid[0],
                f.pid[1], f.pid[2]);
  std::string msg = info.loc + ": error: out-of-bounds " + info.opName + " of " +
                    h::name(info.dtype) + " in " + pid + ", " + laneString(info, lane) + ": ";
  if (!nearest)
    return msg + "no buffer is registered (address " + std::to_string(addr) + ")";
  int64_t offset = static_cast<int64_t>(addr - nearest->begin) / static_cast<int64_t>(info.size);
  int64_t count = static_cast<int64_t>(nearest->bytes / info.size);
  return msg + "element offset " + std::to_string(offset) + " from the start of buffer '" +
         nearest->name + "', which holds " + std::to_string(count) +
         " elements (valid offsets 0.." + std::to_string(count - 1) + "); nothing was accessed";
}

/// Checks every enabled lane; reports and returns false on the first bad one.
bool checkAccess(Frame &f, const AccessInfo &info, const int64_t *ptr, const int64_t *mask,
                 int64_t n) {
  const std::vector<MemoryRegion> &mem = *f.launch->memory;
  // Branch-free min/max over the enabled lanes (vectorizes).
  uint64_t lo = UINT64_MAX, hi = 0;
  if (!mask) {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t a = static_cast<uint64_t>(ptr[i]);
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t a = static_cast<uint64_t>(ptr[i]);
      bool on = mask[i] != 0;
      lo = on && a < lo ? a : lo;
      hi = on && a > hi ? a : hi;
    }
  }
  if (lo == UINT64_MAX && hi == 0) // no enabled lane (any enabled lane moves lo or hi)
    return true;
  if (const MemoryRegion *r = regionOf(mem, lo))
    if (hi + info.size - r->begin <= r->bytes && hi + info.size > hi)
      return true;
  for (int64_t i = 0; i < n; ++i) {
    if (mask && !mask[i])
      continue;
    uint64_t a = static_cast<uint64_t>(ptr[i]);
    if (!inside(mem, a, info.size)) {
      f.fail(outOfBounds(f, info, i, a));
      return false;
    }
  }
  return true;
}

template <typename T> T readMem(uint64_t addr) {
  T v;
  std::memcpy(&v, reinterpret_cast<const void *>(addr), sizeof(T));
  return v;
}
template <typename T> void writeMem(uint64_t addr, T v) {
  std::memcpy(reinterpret_cast<void *>(addr), &v, sizeof(T));
}

/// Value of a masked-off lane without `other`: 0 = poison, 1 = zero, 2 = NaN (block padding).
enum class Fill { Poison, Zero, NaN };

template <typename S, typename Rd>
void loadLoop(const int64_t *ptr, const int64_t *mask, const S *other, S fill, S *out, int64_t n,
              Rd rd) {
  if (!mask) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = rd(static_cast<uint64_t>(ptr[i]));
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    out[i] = mask[i] ? rd(static_cast<uint64_t>(ptr[i])) : (other ? other[i] : fill);
}

void doLoad(const AccessInfo &info, const int64_t *ptr, const int64_t *mask, const void *other,
            Fill fill, void *out, int64_t n) {
  auto floatFill = [&](float poison) {
    return fill == Fill::Zero ? 0.0f : fill == Fill::NaN ? NAN : poison;
  };
  auto intFill = [&](unsigned w) -> int64_t { return fill == Fill::Poison ? intPoison(w) : 0; };
  const float *of = static_cast<const float *>(other);
  const int64_t *oi = static_cast<const int64_t *>(other);
  switch (info.dtype) {
  case DType::f32:
    return loadLoop<float>(ptr, mask, of, floatFill(f32Poison()), static_cast<float *>(out), n,
                           [](uint64_t a) { return readMem<float>(a); });
  case DType::f16:
    return loadLoop<float>(ptr, mask, of, floatFill(h::halfToFloat(h::kPoisonF16)),
                           static_cast<float *>(out), n,
                           [](uint64_t a) { return h::halfToFloat(readMem<uint16_t>(a)); });
  case DType::bf16:
    return loadLoop<float>(ptr, mask, of, floatFill(h::bf16ToFloat(h::kPoisonBF16)),
                           static_cast<float *>(out), n,
                           [](uint64_t a) { return h::bf16ToFloat(readMem<uint16_t>(a)); });
  case DType::f64:
    return loadLoop<double>(ptr, mask, static_cast<const double *>(other),
                            fill == Fill::Zero  ? 0.0
                            : fill == Fill::NaN ? double(NAN)
                                                : f64Poison(),
                            static_cast<double *>(out), n,
                            [](uint64_t a) { return readMem<double>(a); });
  case DType::i1:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(1), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<uint8_t>(a) != 0; });
  case DType::i8:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(8), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int8_t>(a); });
  case DType::i16:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(16), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int16_t>(a); });
  case DType::i32:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(32), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int32_t>(a); });
  case DType::i64:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(64), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int64_t>(a); });
  }
}

template <typename S, typename Wr>
void storeLoop(const int64_t *ptr, const int64_t *mask, const S *v, int64_t n, Wr wr) {
  for (int64_t i = 0; i < n; ++i)
    if (!mask || mask[i])
      wr(static_cast<uint64_t>(ptr[i]), v[i]);
}

void doStore(const AccessInfo &info, const int64_t *ptr, const int64_t *mask, const void *value,
             int64_t n) {
  const float *vf = static_cast<const float *>(value);
  const int64_t *vi = static_cast<const int64_t *>(value);
  switch (info.dtype) {
  case DType::f32: return storeLoop(ptr, mask, vf, n, [](uint64_t a, float v) { writeMem(a, v); });
  case DType::f16:
    return storeLoop(ptr, mask, vf, n, [](uint64_t a, float v) { writeMem(a, h::floatToHalf(v)); });
  case DType::bf16:
    return storeLoop(ptr, mask, vf, n, [](uint64_t a, float v) { writeMem(a, h::floatToBF16(v)); });
  case DType::f64:
    return storeLoop(ptr, mask, static_cast<const double *>(value), n,
                     [](uint64_t a, double v) { writeMem(a, v); });
  case DType::i1:
    return storeLoop(ptr, mask, vi, n, [](uint64_t a, int64_t v) { writeMem<uint8_t>(a, v & 1); });
  case DType::i8:
    return storeLoop(ptr, mask, vi, n,
                     [](uint64_t a, int64_t v) { writeMem<int8_t>(a, int8_t(v)); });
  case DType::i16:
    return storeLoop(ptr, mask, vi, n,
                     [](uint64_t a, int64_t v) { writeMem<int16_t>(a, int16_t(v)); });
  case DType::i32:
    return storeLoop(ptr, mask, vi, n,
                     [](uint64_t a, int64_t v) { writeMem<int32_t>(a, int32_t(v)); });
  case DType::i64:
    return storeLoop(ptr, mask, vi, n, [](uint64_t a, int64_t v) { writeMem<int64_t>(a, v); });
  }
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// CAS loop: *p = combine(*p) atomically; returns the old bits.
template <typename B, typename F> B casLoop(B *p, F combine) {
  B old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (true) {
    B desired = combine(old);
    if (__atomic_compare_exchange_n(p, &old, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      return old;
  }
}

template <typename T> int64_t intRMW(uint64_t addr, tile::RMWKind k, int64_t v64) {
  using U = std::make_unsigned_t<T>;
  T *p = reinterpret_cast<T *>(addr);
  T v = static_cast<T>(v64);
  switch (k) {
  case tile::RMWKind::add: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::And: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::Or: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::Xor: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::xchg: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::max: return casLoop(p, [v](T o) { return std::max(o, v); });
  case tile::RMWKind::min: return casLoop(p, [v](T o) { return std::min(o, v); });
  case tile::RMWKind::umax: return casLoop(p, [v](T o) { return T(std::max(U(o), U(v))); });
  case tile::RMWKind::umin: return casLoop(p, [v](T o) { return T(std::min(U(o), U(v))); });
  }
  return 0;
}

/// Float atomics through the bit pattern B with decode/encode; max/min propagate NaN and order
/// -0 < +0 as arith.maximumf/minimumf do (case C12: max(-0, +0) = +0, min(+0, -0) = -0 in
/// either order; std::max/min would keep the stored zero).
template <typename B, typename Dec, typename Enc>
double floatRMW(uint64_t addr, tile::RMWKind k, double v, Dec dec, Enc enc) {
  B *p = reinterpret_cast<B *>(addr);
  auto op = [&](double o) -> double {
    bool eq = o == v, oNeg = std::signbit(o);
    switch (k) {
    case tile::RMWKind::add: return o + v;
    case tile::RMWKind::max:
      return std::isnan(o) || std::isnan(v) ? NAN : eq ? (oNeg ? v : o) : std::max(o, v);
    case tile::RMWKind::min:
      return std::isnan(o) || std::isnan(v) ? NAN : eq ? (oNeg ? o : v) : std::min(o, v);
    default: return v; // xchg
    }
  };
  B old = casLoop(p, [&](B o) { return enc(op(dec(o))); });
  return dec(old);
}

void doAtomicRMW(const AccessInfo &info, tile::RMWKind k, const int64_t *ptr, const int64_t *mask,
                 const void *value, void *out, int64_t n, Elem e) {
  const float *vf = static_cast<const float *>(value);
  const int64_t *vi = static_cast<const int64_t *>(value);
  const double *vd = static_cast<const double *>(value);
  float *of = static_cast<float *>(out);
  int64_t *oi = static_cast<int64_t *>(out);
  double *od = static_cast<double *>(out);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t a = static_cast<uint64_t>(ptr[i]);
    bool on = !mask || mask[i];
    switch (info.dtype) {
    case DType::f32:
      of[i] = on ? float(floatRMW<uint32_t>(
                       a, k, vf[i], [](uint32_t b) { return double(h::floatOf(b)); },
                       [](double d) { return h::bitsOf(float(d)); }))
                 : f32Poison();
      break;
    case DType::f16:
      of[i] = on ? float(floatRMW<uint16_t>(
                       a, k, vf[i], [](uint16_t b) { return double(h::halfToFloat(b)); },
                       [](double d) { return h::doubleToHalf(d); }))
                 : h::halfToFloat(h::kPoisonF16);
      break;
    case DType::bf16:
      of[i] = on ? float(floatRMW<uint16_t>(
                       a, k, vf[i], [](uint16_t b) { return double(h::bf16ToFloat(b)); },
                       [](double d) { return h::doubleToBF16(d); }))
                 : h::bf16ToFloat(h::kPoisonBF16);
      break;
    case DType::f64:
      od[i] = on ? floatRMW<uint64_t>(
                       a, k, vd[i], [](uint64_t b) { return h::doubleOf(b); },
                       [](double d) { return h::bitsOf(d); })
                 : f64Poison();
      break;
    case DType::i1: oi[i] = on ? intRMW<uint8_t>(a, k, vi[i] & 1) & 1 : 1; break;
    case DType::i8: oi[i] = on ? int8_t(intRMW<int8_t>(a, k, vi[i])) : intPoison(8); break;
    case DType::i16: oi[i] = on ? int16_t(intRMW<int16_t>(a, k, vi[i])) : intPoison(16); break;
    case DType::i32: oi[i] = on ? int32_t(intRMW<int32_t>(a, k, vi[i])) : intPoison(32); break;
    case DType::i64: oi[i] = on ? intRMW<int64_t>(a, k, vi[i]) : intPoison(64); break;
    }
  }
}

template <typename B> B casBits(uint64_t addr, B cmp, B val) {
  __atomic_compare_exchange_n(reinterpret_cast<B *>(addr), &cmp, val, false, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  return cmp; // the old value
}

void doAtomicCAS(const AccessInfo &info, const int64_t *ptr, const void *cmp, const void *val,
                 void *out, int64_t n) {
  const float *cf = static_cast<const float *>(cmp), *vf = static_cast<const float *>(val);
  const int64_t *ci = static_cast<const int64_t *>(cmp), *vi = static_cast<const int64_t *>(val);
  const double *cd = static_cast<const double *>(cmp), *vd = static_cast<const double *>(val);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t a = static_cast<uint64_t>(ptr[i]);
    switch (info.dtype) {
    case DType::f32:
      static_cast<float *>(out)[i] = h::floatOf(casBits(a, h::bitsOf(cf[i]), h::bitsOf(vf[i])));
      break;
    case DType::f16:
      static_cast<float *>(out)[i] =
          h::halfToFloat(casBits(a, h::floatToHalf(cf[i]), h::floatToHalf(vf[i])));
      break;
    case DType::bf16:
      static_cast<float *>(out)[i] =
          h::bf16ToFloat(casBits(a, h::floatToBF16(cf[i]), h::floatToBF16(vf[i])));
      break;
    case DType::f64:
      static_cast<double *>(out)[i] = h::doubleOf(casBits(a, h::bitsOf(cd[i]), h::bitsOf(vd[i])));
      break;
    case DType::i16:
      static_cast<int64_t *>(out)[i] =
          int16_t(casBits<uint16_t>(a, uint16_t(ci[i]), uint16_t(vi[i])));
      break;
    case DType::i32:
      static_cast<int64_t *>(out)[i] =
          int32_t(casBits<uint32_t>(a, uint32_t(ci[i]), uint32_t(vi[i])));
      break;
    default:
      static_cast<int64_t *>(out)[i] =
          int64_t(casBits<uint64_t>(a, uint64_t(ci[i]), uint64_t(vi[i])));
      break;
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Sequence pointers: [base, shape[r], strides[r], offsets[r]] in I64 words.
//===----------------------------------------------------------------------===//

/// Addresses and (for `checked` dimensions) the in-bounds mask of every element of the block.
static void blockAddresses(const int64_t *bp, int rank, llvm::ArrayRef<int64_t> blockShape,
                           size_t elemSize, llvm::ArrayRef<int32_t> checked, int64_t *ptr,
                           int64_t *mask) {
  const int64_t *shape = bp + 1, *strides = bp + 1 + rank, *offsets = bp + 1 + 2 * rank;
  int64_t n = 1;
  for (int64_t d : blockShape)
    n *= d;
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t addr = static_cast<uint64_t>(bp[0]);
    bool ok = true;
    for (int d = 0; d < rank; ++d) {
      int64_t pos = offsets[d] + idx[d];
      addr += static_cast<uint64_t>(pos) * static_cast<uint64_t>(strides[d]) * elemSize;
      (void)ok;
    }
    for (int32_t d : checked) {
      int64_t pos = offsets[d] + idx[d];
      ok = ok && pos >= 0 && pos < shape[d];
    }
    ptr[i] = static_cast<int64_t>(addr);
    if (mask)
      mask[i] = ok;
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < blockShape[d])
        break;
      idx[d] = 0;
    }
  }
}

Status ProgramBuilder::compileMemoryOp(Operation *op, Sequence &out, bool &handled) {
  handled = true;
  auto info = [&](Type ptrType, const char *opName) {
    AccessInfo i;
    i.loc = locationString(op->getLoc());
    i.opName = opName;
    SlotType t;
    (void)slotTypeOf(ptrType, op, t);
    i.dtype = t.pointee;
    i.size = h::sizeOf(t.pointee);
    i.shape.assign(t.shape.begin(), t.shape.end());
    return i;
  };

  if (auto ap = dyn_cast<tile::AddPtrOp>(op)) {
    int p = slot(ap.getPtr()), o = slot(ap.getOffset()), r;
    if (Status s = define(ap.getResult(), op, r); !s)
      return s;
    int64_t n = type(r).numel;
    uint64_t size = h::sizeOf(type(r).pointee);
    out.ops.push_back([=](Frame &f) {
      const int64_t *pp = f.slots[p].as<int64_t>(), *oo = f.slots[o].as<int64_t>();
      int64_t *rr = f.slots[r].as<int64_t>();
      for (int64_t i = 0; i < n; ++i)
        rr[i] = static_cast<int64_t>(uint64_t(pp[i]) + uint64_t(oo[i]) * size);
    });
    return Status::ok();
  }

  if (auto mk = dyn_cast<tile::MakeBlockPtrOp>(op)) {
    int r;
    if (Status s = define(mk.getResult(), op, r); !s)
      return s;
    int base = slot(mk.getBase());
    std::vector<int> parts;
    for (Value v : mk.getShape())
      parts.push_back(slot(v));
    for (Value v : mk.getStrides())
      parts.push_back(slot(v));
    for (Value v : mk.getOffsets())
      parts.push_back(slot(v));
    out.ops.push_back([=](Frame &f) {
      int64_t *bp = f.slots[r].as<int64_t>();
      bp[0] = f.slots[base].as<int64_t>()[0];
      for (size_t i = 0; i < parts.size(); ++i)
        bp[1 + i] = f.slots[parts[i]].as<int64_t>()[0];
    });
    return Status::ok();
  }
  if (auto adv = dyn_cast<tile::AdvanceOp>(op)) {
    int p = slot(adv.getPtr()), r;
    if (Status s = define(adv.getResult(), op, r); !s)
      return s;
    int rank = type(r).rank;
    std::vector<int> offs;
    for (Value v : adv.getOffsets())
      offs.push_back(slot(v));
    int64_t words = type(r).words();
    out.ops.push_back([=](Frame &f) {
      copySlot(f, p, r, words);
      int64_t *bp = f.slots[r].as<int64_t>();
      for (int d = 0; d < rank; ++d)
        bp[1 + 2 * rank + d] += f.slots[offs[d]].as<int64_t>()[0];
    });
    return Status::ok();
  }

  if (auto ld = dyn_cast<tile::LoadOp>(op)) {
    int p = slot(ld.getPtr()), r;
    int m = ld.getMask() ? slot(ld.getMask()) : -1;
    int o = ld.getOther() ? slot(ld.getOther()) : -1;
    if (Status s = define(ld.getResult(), op, r); !s)
      return s;
    int64_t n = type(r).numel;
    if (auto bpt = dyn_cast<tile::BlockPtrType>(ld.getPtr().getType())) {
      AccessInfo ai = info(ld.getPtr().getType(), "tile.load");
      ai.shape.assign(bpt.getBlockType().getShape().begin(), bpt.getBlockType().getShape().end());
      SlotType addrT;
      addrT.elem = Elem::i64;
      addrT.numel = n;
      int ptrS = scratch(addrT), maskS = scratch(addrT);
      std::vector<int32_t> checked;
      if (auto bc = ld.getBoundaryCheck())
        checked.assign(bc->begin(), bc->end());
      Fill fill = Fill::Poison;
      if (auto pad = ld.getPadding())
        fill = *pad == tile::PaddingOption::zero ? Fill::Zero : Fill::NaN;
      int rank = type(p).rank;
      llvm::SmallVector<int64_t, 4> shape(ai.shape);
      bool useMask = !checked.empty();
      out.ops.push_back([=](Frame &f) {
        int64_t *ptr = f.slots[ptrS].as<int64_t>();
        int64_t *mask = useMask ? f.slots[maskS].as<int64_t>() : nullptr;
        blockAddresses(f.slots[p].as<int64_t>(), rank, shape, ai.size, checked, ptr, mask);
        if (!checkAccess(f, ai, ptr, mask, n))
          return;
        doLoad(ai, ptr, mask, nullptr, fill, f.slots[r].data(), n);
      });
      return Status::ok();
    }
    AccessInfo ai = info(ld.getPtr().getType(), "tile.load");
    out.ops.push_back([=](Frame &f) {
      const int64_t *ptr = f.slots[p].as<int64_t>();
      const int64_t *mask = m >= 0 ? f.slots[m].as<int64_t>() : nullptr;
      if (!checkAccess(f, ai, ptr, mask, n))
        return;
      doLoad(ai, ptr, mask, o >= 0 ? f.slots[o].data() : nullptr, Fill::Poison, f.slots[r].data(),
             n);
    });
    return Status::ok();
  }

  if (auto st = dyn_cast<tile::StoreOp>(op)) {
    int p = slot(st.getPtr()), v = slot(st.getValue());
    int m = st.getMask() ? slot(st.getMask()) : -1;
    int64_t n = type(v).numel;
    AccessInfo ai = info(st.getPtr().getType(), "tile.store");
    if (auto bpt = dyn_cast<tile::BlockPtrType>(st.getPtr().getType())) {
      ai.shape.assign(bpt.getBlockType().getShape().begin(), bpt.getBlockType().getShape().end());
      SlotType addrT;
      addrT.elem = Elem::i64;
      addrT.numel = n;
      int ptrS = scratch(addrT), maskS = scratch(addrT);
      std::vector<int32_t> checked;
      if (auto bc = st.getBoundaryCheck())
        checked.assign(bc->begin(), bc->end());
      int rank = type(p).rank;
      llvm::SmallVector<int64_t, 4> shape(ai.shape);
      bool useMask = !checked.empty();
      out.ops.push_back([=](Frame &f) {
        int64_t *ptr = f.slots[ptrS].as<int64_t>();
        int64_t *mask = useMask ? f.slots[maskS].as<int64_t>() : nullptr;
        blockAddresses(f.slots[p].as<int64_t>(), rank, shape, ai.size, checked, ptr, mask);
        if (!checkAccess(f, ai, ptr, mask, n))
          return;
        doStore(ai, ptr, mask, f.slots[v].data(), n);
      });
      return Status::ok();
    }
    out.ops.push_back([=](Frame &f) {
      const int64_t *ptr = f.slots[p].as<int64_t>();
      const int64_t *mask = m >= 0 ? f.slots[m].as<int64_t>() : nullptr;
      if (!checkAccess(f, ai, ptr, mask, n))
        return;
      doStore(ai, ptr, mask, f.slots[v].data(), n);
    });
    return Status::ok();
  }

  if (auto at = dyn_cast<tile::AtomicRMWOp>(op)) {
    int p = slot(at.getPtr()), v = slot(at.getVal()), r;
    int m = at.getMask() ? slot(at.getMask()) : -1;
    if (Status s = define(at.getResult(), op, r); !s)
      return s;
    int64_t n = type(r).numel;
    AccessInfo ai = info(at.getPtr().getType(), "tile.atomic_rmw");
    tile::RMWKind kind = at.getKind();
    Elem e = type(r).elem;
    out.ops.push_back([=](Frame &f) {
      const int64_t *ptr = f.slots[p].as<int64_t>();
      const int64_t *mask = m >= 0 ? f.slots[m].as<int64_t>() : nullptr;
      if (!checkAccess(f, ai, ptr, mask, n))
        return;
      doAtomicRMW(ai, kind, ptr, mask, f.slots[v].data(), f.slots[r].data(), n, e);
    });
    return Status::ok();
  }
  if (auto cas = dyn_cast<tile::AtomicCASOp>(op)) {
    int p = slot(cas.getPtr()), c = slot(cas.getCmp()), v = slot(cas.getVal()), r;
    if (Status s = define(cas.getResult(), op, r); !s)
      return s;
    int64_t n = type(r).numel;
    AccessInfo ai = info(cas.getPtr().getType(), "tile.atomic_cas");
    out.ops.push_back([=](Frame &f) {
      const int64_t *ptr = f.slots[p].as<int64_t>();
      if (!checkAccess(f, ai, ptr, nullptr, n))
        return;
      doAtomicCAS(ai, ptr, f.slots[c].data(), f.slots[v].data(), f.slots[r].data(), n);
    });
    return Status::ok();
  }
  handled = false;
  return Status::ok();
}
