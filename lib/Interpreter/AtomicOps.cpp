//===- AtomicOps.cpp - tile.atomic_rmw and tile.atomic_cas ----------------===//
//
// Lanes run in order, each one atomic on the host (GCC __atomic builtins, sequentially
// consistent), so concurrent program instances on other threads see whole updates. Float kinds
// go through a compare-and-swap loop on the bit pattern; float max and min propagate NaN.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "MemoryAccess.h"

#include <algorithm>

using namespace mlir;
using namespace tessel::interp;
namespace tile = tessel::tile;
namespace h = tessel::harness;
using h::DType;

namespace {

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
  case tile::RMWKind::add:
    return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::And:
    return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::Or:
    return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::Xor:
    return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::xchg:
    return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
  case tile::RMWKind::max:
    return casLoop(p, [v](T o) { return std::max(o, v); });
  case tile::RMWKind::min:
    return casLoop(p, [v](T o) { return std::min(o, v); });
  case tile::RMWKind::umax:
    return casLoop(p, [v](T o) { return T(std::max(U(o), U(v))); });
  case tile::RMWKind::umin:
    return casLoop(p, [v](T o) { return T(std::min(U(o), U(v))); });
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
    case tile::RMWKind::add:
      return o + v;
    case tile::RMWKind::max:
      return std::isnan(o) || std::isnan(v) ? NAN : eq ? (oNeg ? v : o) : std::max(o, v);
    case tile::RMWKind::min:
      return std::isnan(o) || std::isnan(v) ? NAN : eq ? (oNeg ? o : v) : std::min(o, v);
    default:
      return v; // xchg
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
    case DType::i1:
      oi[i] = on ? intRMW<uint8_t>(a, k, vi[i] & 1) & 1 : 1;
      break;
    case DType::i8:
      oi[i] = on ? int8_t(intRMW<int8_t>(a, k, vi[i])) : intPoison(8);
      break;
    case DType::i16:
      oi[i] = on ? int16_t(intRMW<int16_t>(a, k, vi[i])) : intPoison(16);
      break;
    case DType::i32:
      oi[i] = on ? int32_t(intRMW<int32_t>(a, k, vi[i])) : intPoison(32);
      break;
    case DType::i64:
      oi[i] = on ? intRMW<int64_t>(a, k, vi[i]) : intPoison(64);
      break;
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

/// tile.atomic_rmw: one sequentially consistent read-modify-write per enabled lane.
Status ProgramBuilder::compileAtomicRMW(tile::AtomicRMWOp at, Sequence &out) {
  Operation *op = at;
  int p = slot(at.getPtr()), v = slot(at.getVal()), r;
  int m = at.getMask() ? slot(at.getMask()) : -1;
  if (Status s = define(at.getResult(), op, r); !s)
    return s;
  int64_t n = type(r).numel;
  AccessInfo ai = accessInfo(*this, op, at.getPtr().getType(), "tile.atomic_rmw");
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

/// tile.atomic_cas: one compare-and-swap per lane.
Status ProgramBuilder::compileAtomicCAS(tile::AtomicCASOp cas, Sequence &out) {
  Operation *op = cas;
  int p = slot(cas.getPtr()), c = slot(cas.getCmp()), v = slot(cas.getVal()), r;
  if (Status s = define(cas.getResult(), op, r); !s)
    return s;
  int64_t n = type(r).numel;
  AccessInfo ai = accessInfo(*this, op, cas.getPtr().getType(), "tile.atomic_cas");
  out.ops.push_back([=](Frame &f) {
    const int64_t *ptr = f.slots[p].as<int64_t>();
    if (!checkAccess(f, ai, ptr, nullptr, n))
      return;
    doAtomicCAS(ai, ptr, f.slots[c].data(), f.slots[v].data(), f.slots[r].data(), n);
  });
  return Status::ok();
}
