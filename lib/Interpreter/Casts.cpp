//===- Casts.cpp - arith casts between integer and float types -------------===//
//
// Narrowing float casts round to nearest even (f64 -> f16/bf16 correctly, through f32 rounded to
// odd). Float -> integer casts truncate toward zero and saturate to the target range with NaN
// giving 0 (as PTX cvt.rzi.sat does), instead of LLVM's poison. Integer -> float casts round
// once to nearest even, also from 64-bit integers to f16/bf16 (case C11: through a double
// rounded to odd, never through a double rounded to nearest).
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "ProgramBuilder.h"

#include <cmath>

using namespace mlir;
using namespace tessel::interp;
namespace h = tessel::harness;

namespace {

/// f32/f64 value -> the nearest value of float kind `e` held in storage type To.
template <typename From> double toFloatKind(From x, Elem e) {
  switch (e) {
  case Elem::f16:
    return h::halfToFloat(std::is_same_v<From, double> ? h::doubleToHalf(x) : h::floatToHalf(x));
  case Elem::bf16:
    return h::bf16ToFloat(std::is_same_v<From, double> ? h::doubleToBF16(x) : h::floatToBF16(x));
  case Elem::f32:
    return static_cast<float>(x);
  default:
    return static_cast<double>(x);
  }
}

/// Truncates toward zero and saturates to a signed (or unsigned) `w`-bit range; NaN -> 0.
int64_t floatToInt(double x, unsigned w, bool isSigned) {
  if (std::isnan(x))
    return 0;
  x = std::trunc(x);
  if (isSigned) {
    if (w == 1)
      return x <= -1 ? 1 : 0;
    double lo = -std::ldexp(1.0, w - 1), hi = std::ldexp(1.0, w - 1);
    if (x <= lo)
      return static_cast<int64_t>(lo);
    if (x >= hi)
      return w == 64 ? INT64_MAX : static_cast<int64_t>(hi) - 1;
    return static_cast<int64_t>(x);
  }
  double hi = std::ldexp(1.0, w);
  if (x <= 0)
    return 0;
  if (x >= hi)
    return wrapTo(w == 64 ? -1 : static_cast<int64_t>(hi - 1), w);
  return wrapTo(static_cast<int64_t>(static_cast<uint64_t>(x)), w);
}

/// The integer `v` (signed or unsigned 64-bit) as a double rounded to odd: exact when it fits
/// in 53 bits, else the neighbour whose last mantissa bit is 1. Rounding that double to a
/// format of at most 51 bits (f32, f16, bf16) rounds `v` correctly, once.
double intToDoubleRoundedToOdd(int64_t v, bool isSigned) {
  __int128 x = isSigned ? __int128(v) : __int128(static_cast<uint64_t>(v));
  double d = static_cast<double>(x); // nearest even; |d| <= 2^64 converts back exactly
  __int128 back = static_cast<__int128>(d);
  if (back != x && (h::bitsOf(d) & 1) == 0)
    d = std::nextafter(d, back > x ? -INFINITY : INFINITY);
  return d;
}

/// Loop from storage In to storage Out.
template <typename In, typename Out, typename F> Handler cast(int a, int r, int64_t n, F fn) {
  UnaryKernel k = mapUnary<In, Out>(fn);
  return [=](Frame &f) { k(f.slots[a].data(), f.slots[r].data(), n); };
}

} // namespace

Status ProgramBuilder::compileCast(Operation *op, Sequence &out) {
  int a = slot(op->getOperand(0)), r;
  if (Status s = define(op->getResult(0), op, r); !s)
    return s;
  SlotType in = type(a), res = type(r);
  Elem ie = in.elem, oe = res.elem;
  unsigned wi = widthOf(ie), wo = widthOf(oe);
  int64_t n = res.numel;
  Storage is = in.storage(), os = res.storage();

  // Integer -> integer.
  if (isa<arith::ExtSIOp, arith::IndexCastOp>(op)) {
    out.ops.push_back(
        cast<int64_t, int64_t>(a, r, n, [wi, wo](int64_t x) { return wrapTo(sext(x, wi), wo); }));
    return Status::ok();
  }
  if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
    out.ops.push_back(cast<int64_t, int64_t>(
        a, r, n, [wi, wo](int64_t x) { return wrapTo(static_cast<int64_t>(zext(x, wi)), wo); }));
    return Status::ok();
  }
  if (isa<arith::TruncIOp>(op)) {
    out.ops.push_back(cast<int64_t, int64_t>(a, r, n, [wo](int64_t x) { return wrapTo(x, wo); }));
    return Status::ok();
  }

  // Float -> float.
  if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
    if (is == Storage::F32 && os == Storage::F32)
      out.ops.push_back(
          cast<float, float>(a, r, n, [oe](float x) { return float(toFloatKind(x, oe)); }));
    else if (is == Storage::F32)
      out.ops.push_back(cast<float, double>(a, r, n, [](float x) { return double(x); }));
    else if (os == Storage::F32)
      out.ops.push_back(
          cast<double, float>(a, r, n, [oe](double x) { return float(toFloatKind(x, oe)); }));
    else
      out.ops.push_back(cast<double, double>(a, r, n, [](double x) { return x; }));
    return Status::ok();
  }

  // Integer -> float.
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
    bool isSigned = isa<arith::SIToFPOp>(op);
    auto value = [wi, isSigned](int64_t x) {
      return isSigned ? static_cast<double>(sext(x, wi)) : static_cast<double>(zext(x, wi));
    };
    if (os == Storage::F64)
      out.ops.push_back(cast<int64_t, double>(a, r, n, [value](int64_t x) { return value(x); }));
    else if (oe == Elem::f32)
      out.ops.push_back(cast<int64_t, float>(a, r, n, [wi, isSigned](int64_t x) {
        return isSigned ? static_cast<float>(sext(x, wi)) : static_cast<float>(zext(x, wi));
      }));
    else // f16, bf16: through a double rounded to odd, so that 64-bit integers round once
      out.ops.push_back(cast<int64_t, float>(a, r, n, [wi, isSigned, oe](int64_t x) {
        int64_t v = isSigned ? sext(x, wi) : static_cast<int64_t>(zext(x, wi));
        return float(toFloatKind(intToDoubleRoundedToOdd(v, isSigned), oe));
      }));
    return Status::ok();
  }

  // Float -> integer.
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    bool isSigned = isa<arith::FPToSIOp>(op);
    if (is == Storage::F64)
      out.ops.push_back(cast<double, int64_t>(
          a, r, n, [wo, isSigned](double x) { return floatToInt(x, wo, isSigned); }));
    else
      out.ops.push_back(cast<float, int64_t>(
          a, r, n, [wo, isSigned](float x) { return floatToInt(x, wo, isSigned); }));
    return Status::ok();
  }

  // Bitcast between types of one width.
  auto floatBits = [](Elem e, double v) -> int64_t {
    switch (e) {
    case Elem::f16:
      return wrap<16>(h::floatToHalf(float(v)));
    case Elem::bf16:
      return wrap<16>(h::floatToBF16(float(v)));
    case Elem::f32:
      return wrap<32>(h::bitsOf(float(v)));
    default:
      return static_cast<int64_t>(h::bitsOf(v));
    }
  };
  auto bitsFloat = [](Elem e, int64_t b) -> double {
    switch (e) {
    case Elem::f16:
      return h::halfToFloat(static_cast<uint16_t>(b));
    case Elem::bf16:
      return h::bf16ToFloat(static_cast<uint16_t>(b));
    case Elem::f32:
      return h::floatOf(static_cast<uint32_t>(b));
    default:
      return h::doubleOf(static_cast<uint64_t>(b));
    }
  };
  bool fi = isFloatElem(ie), fo = isFloatElem(oe);
  if (!fi && !fo) {
    out.ops.push_back(cast<int64_t, int64_t>(a, r, n, [](int64_t x) { return x; }));
  } else if (fi && !fo) {
    if (is == Storage::F64)
      out.ops.push_back(
          cast<double, int64_t>(a, r, n, [ie, floatBits](double x) { return floatBits(ie, x); }));
    else
      out.ops.push_back(
          cast<float, int64_t>(a, r, n, [ie, floatBits](float x) { return floatBits(ie, x); }));
  } else if (!fi && fo) {
    if (os == Storage::F64)
      out.ops.push_back(
          cast<int64_t, double>(a, r, n, [oe, bitsFloat](int64_t x) { return bitsFloat(oe, x); }));
    else
      out.ops.push_back(cast<int64_t, float>(
          a, r, n, [oe, bitsFloat](int64_t x) { return float(bitsFloat(oe, x)); }));
  } else if (is == Storage::F32 && os == Storage::F32) { // f16 <-> bf16 reinterpretation
    out.ops.push_back(cast<float, float>(a, r, n, [ie, oe, floatBits, bitsFloat](float x) {
      return float(bitsFloat(oe, floatBits(ie, x)));
    }));
  } else {
    out.ops.push_back(cast<double, double>(a, r, n, [](double x) { return x; }));
  }
  return Status::ok();
}
