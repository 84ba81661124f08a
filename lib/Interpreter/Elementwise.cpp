//===- Elementwise.cpp - arith and math ops on tiles and scalars -----------===//
//
// Integer results wrap to their width; divisions by zero and shifts by at least the width are
// defined (docs/Interpreter.md) instead of trapping: x / 0 and x % 0 give the integer poison
// marker, x << w and x >>u w give 0, x >>s w gives the sign. f16/bf16 results are computed in
// f32 and rounded once to nearest even (exact for + - * / sqrt, as f32 has > 2p + 2 bits).
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "ProgramBuilder.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tessel::interp;
using tessel::harness::roundToBF16;
using tessel::harness::roundToHalf;

namespace {

template <typename T> T maximumF(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<T>::quiet_NaN();
  if (x == y)
    return std::signbit(x) ? y : x;
  return x > y ? x : y;
}
template <typename T> T minimumF(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<T>::quiet_NaN();
  if (x == y)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
template <typename T> T maxNumF(T x, T y) {
  if (std::isnan(x))
    return y;
  if (std::isnan(y))
    return x;
  return maximumF(x, y);
}
template <typename T> T minNumF(T x, T y) {
  if (std::isnan(x))
    return y;
  if (std::isnan(y))
    return x;
  return minimumF(x, y);
}

int64_t addW(int64_t x, int64_t y) { return static_cast<int64_t>(uint64_t(x) + uint64_t(y)); }
int64_t subW(int64_t x, int64_t y) { return static_cast<int64_t>(uint64_t(x) - uint64_t(y)); }
int64_t mulW(int64_t x, int64_t y) { return static_cast<int64_t>(uint64_t(x) * uint64_t(y)); }

/// Signed division of canonical values, defined on every input.
int64_t divS(int64_t x, int64_t y, unsigned w) {
  if (y == 0)
    return intPoison(w);
  if (y == -1)
    return subW(0, x);
  return x / y;
}
int64_t remS(int64_t x, int64_t y, unsigned w) {
  if (y == 0)
    return intPoison(w);
  if (y == -1)
    return 0;
  return x % y;
}

} // namespace

BinaryKernel ProgramBuilder::binaryKernel(StringRef name, const SlotType &t) {
  Elem e = t.elem;
  unsigned w = widthOf(e);
  if (isFloatElem(e)) {
    if (name == "arith.addf")
      return floatBinary(e, [](auto x, auto y) { return x + y; });
    if (name == "arith.subf")
      return floatBinary(e, [](auto x, auto y) { return x - y; });
    if (name == "arith.mulf")
      return floatBinary(e, [](auto x, auto y) { return x * y; });
    if (name == "arith.divf")
      return floatBinary(e, [](auto x, auto y) { return x / y; });
    if (name == "arith.remf")
      return floatBinary(e, [](auto x, auto y) { return std::fmod(x, y); });
    if (name == "arith.maximumf")
      return floatBinary(e, [](auto x, auto y) { return maximumF(x, y); });
    if (name == "arith.minimumf")
      return floatBinary(e, [](auto x, auto y) { return minimumF(x, y); });
    if (name == "arith.maxnumf")
      return floatBinary(e, [](auto x, auto y) { return maxNumF(x, y); });
    if (name == "arith.minnumf")
      return floatBinary(e, [](auto x, auto y) { return minNumF(x, y); });
    if (name == "math.powf")
      return floatBinary(e, [](auto x, auto y) { return std::pow(x, y); });
    if (name == "math.atan2")
      return floatBinary(e, [](auto x, auto y) { return std::atan2(x, y); });
    if (name == "math.copysign")
      return floatBinary(e, [](auto x, auto y) { return std::copysign(x, y); });
    return nullptr;
  }
  if (e == Elem::blockptr)
    return nullptr;
  if (name == "arith.addi")
    return intBinary(w, addW);
  if (name == "arith.subi")
    return intBinary(w, subW);
  if (name == "arith.muli")
    return intBinary(w, mulW);
  if (name == "arith.divsi")
    return intBinary(w, [w](int64_t x, int64_t y) { return divS(sext(x, w), sext(y, w), w); });
  if (name == "arith.remsi")
    return intBinary(w, [w](int64_t x, int64_t y) { return remS(sext(x, w), sext(y, w), w); });
  if (name == "arith.divui")
    return intBinary(w, [w](int64_t x, int64_t y) {
      uint64_t ux = zext(x, w), uy = zext(y, w);
      return uy ? static_cast<int64_t>(ux / uy) : intPoison(w);
    });
  if (name == "arith.remui")
    return intBinary(w, [w](int64_t x, int64_t y) {
      uint64_t ux = zext(x, w), uy = zext(y, w);
      return uy ? static_cast<int64_t>(ux % uy) : intPoison(w);
    });
  if (name == "arith.ceildivsi")
    return intBinary(w, [w](int64_t x, int64_t y) {
      x = sext(x, w), y = sext(y, w);
      if (y == 0)
        return intPoison(w);
      int64_t q = divS(x, y, w), r = remS(x, y, w);
      return (r != 0 && ((r > 0) == (y > 0))) ? addW(q, 1) : q;
    });
  if (name == "arith.floordivsi")
    return intBinary(w, [w](int64_t x, int64_t y) {
      x = sext(x, w), y = sext(y, w);
      if (y == 0)
        return intPoison(w);
      int64_t q = divS(x, y, w), r = remS(x, y, w);
      return (r != 0 && ((r < 0) != (y < 0))) ? subW(q, 1) : q;
    });
  if (name == "arith.andi")
    return intBinary(w, [](int64_t x, int64_t y) { return x & y; });
  if (name == "arith.ori")
    return intBinary(w, [](int64_t x, int64_t y) { return x | y; });
  if (name == "arith.xori")
    return intBinary(w, [](int64_t x, int64_t y) { return x ^ y; });
  if (name == "arith.shli")
    return intBinary(w, [w](int64_t x, int64_t y) {
      uint64_t s = zext(y, w);
      return s >= w ? int64_t(0) : static_cast<int64_t>(uint64_t(x) << s);
    });
  if (name == "arith.shrsi")
    return intBinary(w, [w](int64_t x, int64_t y) {
      uint64_t s = zext(y, w);
      x = sext(x, w);
      return s >= w ? (x < 0 ? int64_t(-1) : int64_t(0)) : (x >> s);
    });
  if (name == "arith.shrui")
    return intBinary(w, [w](int64_t x, int64_t y) {
      uint64_t s = zext(y, w);
      return s >= w ? int64_t(0) : static_cast<int64_t>(zext(x, w) >> s);
    });
  if (name == "arith.maxsi")
    return intBinary(w, [w](int64_t x, int64_t y) { return sext(x, w) >= sext(y, w) ? x : y; });
  if (name == "arith.minsi")
    return intBinary(w, [w](int64_t x, int64_t y) { return sext(x, w) <= sext(y, w) ? x : y; });
  if (name == "arith.maxui")
    return intBinary(w, [w](int64_t x, int64_t y) { return zext(x, w) >= zext(y, w) ? x : y; });
  if (name == "arith.minui")
    return intBinary(w, [w](int64_t x, int64_t y) { return zext(x, w) <= zext(y, w) ? x : y; });
  return nullptr;
}

/// cmpi: i1 results (0/1) from canonical integers.
static BinaryKernel cmpiKernel(arith::CmpIPredicate p, unsigned w) {
  using P = arith::CmpIPredicate;
  auto mk = [](auto fn) { return mapBinary<int64_t, int64_t>(fn); };
  switch (p) {
  case P::eq:
    return mk([](int64_t x, int64_t y) -> int64_t { return x == y; });
  case P::ne:
    return mk([](int64_t x, int64_t y) -> int64_t { return x != y; });
  case P::slt:
    return mk([w](int64_t x, int64_t y) -> int64_t { return sext(x, w) < sext(y, w); });
  case P::sle:
    return mk([w](int64_t x, int64_t y) -> int64_t { return sext(x, w) <= sext(y, w); });
  case P::sgt:
    return mk([w](int64_t x, int64_t y) -> int64_t { return sext(x, w) > sext(y, w); });
  case P::sge:
    return mk([w](int64_t x, int64_t y) -> int64_t { return sext(x, w) >= sext(y, w); });
  case P::ult:
    return mk([w](int64_t x, int64_t y) -> int64_t { return zext(x, w) < zext(y, w); });
  case P::ule:
    return mk([w](int64_t x, int64_t y) -> int64_t { return zext(x, w) <= zext(y, w); });
  case P::ugt:
    return mk([w](int64_t x, int64_t y) -> int64_t { return zext(x, w) > zext(y, w); });
  case P::uge:
    return mk([w](int64_t x, int64_t y) -> int64_t { return zext(x, w) >= zext(y, w); });
  }
  return nullptr;
}

/// cmpf on T (float or double): ordered predicates are false on NaN, unordered true.
template <typename T> static BinaryKernel cmpfKernel(arith::CmpFPredicate p) {
  using P = arith::CmpFPredicate;
  auto mk = [](auto fn) { return mapBinary<T, int64_t>(fn); };
  auto uno = [](T x, T y) { return std::isnan(x) || std::isnan(y); };
  switch (p) {
  case P::AlwaysFalse:
    return mk([](T, T) -> int64_t { return 0; });
  case P::AlwaysTrue:
    return mk([](T, T) -> int64_t { return 1; });
  case P::OEQ:
    return mk([](T x, T y) -> int64_t { return x == y; });
  case P::OGT:
    return mk([](T x, T y) -> int64_t { return x > y; });
  case P::OGE:
    return mk([](T x, T y) -> int64_t { return x >= y; });
  case P::OLT:
    return mk([](T x, T y) -> int64_t { return x < y; });
  case P::OLE:
    return mk([](T x, T y) -> int64_t { return x <= y; });
  case P::ONE:
    return mk([uno](T x, T y) -> int64_t { return !uno(x, y) && x != y; });
  case P::ORD:
    return mk([uno](T x, T y) -> int64_t { return !uno(x, y); });
  case P::UEQ:
    return mk([uno](T x, T y) -> int64_t { return uno(x, y) || x == y; });
  case P::UGT:
    return mk([uno](T x, T y) -> int64_t { return uno(x, y) || x > y; });
  case P::UGE:
    return mk([uno](T x, T y) -> int64_t { return uno(x, y) || x >= y; });
  case P::ULT:
    return mk([uno](T x, T y) -> int64_t { return uno(x, y) || x < y; });
  case P::ULE:
    return mk([uno](T x, T y) -> int64_t { return uno(x, y) || x <= y; });
  case P::UNE:
    return mk([](T x, T y) -> int64_t { return !(x == y); });
  case P::UNO:
    return mk([uno](T x, T y) -> int64_t { return uno(x, y); });
  }
  return nullptr;
}

/// Float unary math ops by name; null when not one.
static UnaryKernel floatUnaryKernel(StringRef name, Elem e) {
  auto k = [e](auto fn) { return floatUnary(e, fn); };
  if (name == "arith.negf")
    return k([](auto x) { return -x; });
  if (name == "math.absf")
    return k([](auto x) { return std::fabs(x); });
  if (name == "math.exp")
    return k([](auto x) { return std::exp(x); });
  if (name == "math.exp2")
    return k([](auto x) { return std::exp2(x); });
  if (name == "math.expm1")
    return k([](auto x) { return std::expm1(x); });
  if (name == "math.log")
    return k([](auto x) { return std::log(x); });
  if (name == "math.log2")
    return k([](auto x) { return std::log2(x); });
  if (name == "math.log10")
    return k([](auto x) { return std::log10(x); });
  if (name == "math.log1p")
    return k([](auto x) { return std::log1p(x); });
  if (name == "math.sqrt")
    return k([](auto x) { return std::sqrt(x); });
  if (name == "math.rsqrt")
    return k([](auto x) { return decltype(x)(1) / std::sqrt(x); });
  if (name == "math.sin")
    return k([](auto x) { return std::sin(x); });
  if (name == "math.cos")
    return k([](auto x) { return std::cos(x); });
  if (name == "math.tan")
    return k([](auto x) { return std::tan(x); });
  if (name == "math.tanh")
    return k([](auto x) { return std::tanh(x); });
  if (name == "math.atan")
    return k([](auto x) { return std::atan(x); });
  if (name == "math.erf")
    return k([](auto x) { return std::erf(x); });
  if (name == "math.floor")
    return k([](auto x) { return std::floor(x); });
  if (name == "math.ceil")
    return k([](auto x) { return std::ceil(x); });
  if (name == "math.trunc")
    return k([](auto x) { return std::trunc(x); });
  if (name == "math.round")
    return k([](auto x) { return std::round(x); });
  if (name == "math.roundeven")
    return k([](auto x) { return std::nearbyint(x); });
  return nullptr;
}

/// Fills a constant buffer from an attribute (splat or dense) for slot type `t`.
static bool fillConstant(Attribute attr, const SlotType &t, Buffer &out) {
  out.words.assign(t.words() + 1, 0);
  auto put = [&](int64_t i, Attribute a) -> bool {
    if (auto ia = dyn_cast<IntegerAttr>(a)) {
      int64_t v = ia.getType().isInteger(1) ? int64_t(ia.getValue().getZExtValue() & 1)
                                            : ia.getValue().getSExtValue();
      if (t.storage() == Storage::I64)
        out.as<int64_t>()[i] = v;
      else
        return false;
      return true;
    }
    if (auto fa = dyn_cast<FloatAttr>(a)) {
      double d = fa.getValueAsDouble();
      if (t.storage() == Storage::F32)
        out.as<float>()[i] = static_cast<float>(d);
      else if (t.storage() == Storage::F64)
        out.as<double>()[i] = d;
      else
        return false;
      return true;
    }
    if (auto ba = dyn_cast<BoolAttr>(a)) {
      out.as<int64_t>()[i] = ba.getValue();
      return true;
    }
    return false;
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat()) {
      Attribute v = dense.getSplatValue<Attribute>();
      for (int64_t i = 0; i < t.numel; ++i)
        if (!put(i, v))
          return false;
      return true;
    }
    int64_t i = 0;
    for (Attribute v : dense.getValues<Attribute>())
      if (!put(i++, v))
        return false;
    return i == t.numel;
  }
  for (int64_t i = 0; i < t.numel; ++i)
    if (!put(i, attr))
      return false;
  return true;
}

/// arith.constant: a constant slot, no handler.
Status ProgramBuilder::compileConstant(arith::ConstantOp c, Sequence &out) {
  Operation *op = c;
  SlotType t;
  if (Status s = slotTypeOf(c.getType(), op, t); !s)
    return s;
  Buffer data;
  if (!fillConstant(c.getValue(), t, data))
    return error(op, "the interpreter cannot materialize constant " + debugString(c.getValue()));
  slotOf[c.getResult()] = constant(t, std::move(data));
  return Status::ok();
}

/// arith.cmpi: i1 results.
Status ProgramBuilder::compileCmpI(arith::CmpIOp cmp, Sequence &out) {
  Operation *op = cmp;
  int a = slot(cmp.getLhs()), b = slot(cmp.getRhs()), r;
  unsigned w = widthOf(type(a).elem);
  if (Status s = define(cmp.getResult(), op, r); !s)
    return s;
  BinaryKernel k = cmpiKernel(cmp.getPredicate(), w);
  int64_t n = type(r).numel;
  out.ops.push_back(
      [=](Frame &f) { k(f.slots[a].data(), f.slots[b].data(), f.slots[r].data(), n); });
  return Status::ok();
}

/// arith.cmpf: i1 results.
Status ProgramBuilder::compileCmpF(arith::CmpFOp cmp, Sequence &out) {
  Operation *op = cmp;
  int a = slot(cmp.getLhs()), b = slot(cmp.getRhs()), r;
  if (Status s = define(cmp.getResult(), op, r); !s)
    return s;
  BinaryKernel k = type(a).storage() == Storage::F64 ? cmpfKernel<double>(cmp.getPredicate())
                                                     : cmpfKernel<float>(cmp.getPredicate());
  int64_t n = type(r).numel;
  out.ops.push_back(
      [=](Frame &f) { k(f.slots[a].data(), f.slots[b].data(), f.slots[r].data(), n); });
  return Status::ok();
}

/// arith.select with a scalar or an elementwise condition.
Status ProgramBuilder::compileSelect(arith::SelectOp sel, Sequence &out) {
  Operation *op = sel;
  int c = slot(sel.getCondition()), a = slot(sel.getTrueValue()), b = slot(sel.getFalseValue());
  int r;
  if (Status s = define(sel.getResult(), op, r); !s)
    return s;
  int64_t n = type(r).numel;
  bool scalarCond = type(c).numel == 1 && n != 1;
  bool wide = type(r).storage() != Storage::F32 || type(r).elem == Elem::blockptr;
  int64_t words = type(r).words();
  out.ops.push_back([=](Frame &f) {
    const int64_t *cv = f.slots[c].as<int64_t>();
    if (scalarCond) {
      copySlot(f, cv[0] ? a : b, r, words);
      return;
    }
    if (wide) {
      const int64_t *x = f.slots[a].as<int64_t>(), *y = f.slots[b].as<int64_t>();
      int64_t *o = f.slots[r].as<int64_t>();
      for (int64_t i = 0; i < n; ++i)
        o[i] = cv[i] ? x[i] : y[i];
    } else {
      const float *x = f.slots[a].as<float>(), *y = f.slots[b].as<float>();
      float *o = f.slots[r].as<float>();
      for (int64_t i = 0; i < n; ++i)
        o[i] = cv[i] ? x[i] : y[i];
    }
  });
  return Status::ok();
}

/// math.fma, rounded once to the result type.
Status ProgramBuilder::compileFma(math::FmaOp fma, Sequence &out) {
  Operation *op = fma;
  int a = slot(fma.getA()), b = slot(fma.getB()), c = slot(fma.getC()), r;
  if (Status s = define(fma.getResult(), op, r); !s)
    return s;
  Elem e = type(r).elem;
  int64_t n = type(r).numel;
  out.ops.push_back([=](Frame &f) {
    if (e == Elem::f64) {
      const double *x = f.slots[a].as<double>(), *y = f.slots[b].as<double>(),
                   *z = f.slots[c].as<double>();
      double *o = f.slots[r].as<double>();
      for (int64_t i = 0; i < n; ++i)
        o[i] = std::fma(x[i], y[i], z[i]);
      return;
    }
    const float *x = f.slots[a].as<float>(), *y = f.slots[b].as<float>(),
                *z = f.slots[c].as<float>();
    float *o = f.slots[r].as<float>();
    for (int64_t i = 0; i < n; ++i) {
      float v = std::fma(x[i], y[i], z[i]);
      o[i] = e == Elem::f16 ? roundToHalf(v) : e == Elem::bf16 ? roundToBF16(v) : v;
    }
  });
  return Status::ok();
}

/// arith.mulsi_extended / mului_extended (case C20): low and high halves of the 2w-bit product.
Status ProgramBuilder::compileMulExtended(Operation *op, Sequence &out) {
  bool isSigned = isa<arith::MulSIExtendedOp>(op);
  int a = slot(op->getOperand(0)), b = slot(op->getOperand(1)), lo, hi;
  if (Status s = define(op->getResult(0), op, lo); !s)
    return s;
  if (Status s = define(op->getResult(1), op, hi); !s)
    return s;
  unsigned w = widthOf(type(a).elem);
  int64_t n = type(lo).numel;
  out.ops.push_back([=](Frame &f) {
    const int64_t *x = f.slots[a].as<int64_t>(), *y = f.slots[b].as<int64_t>();
    int64_t *l = f.slots[lo].as<int64_t>(), *h = f.slots[hi].as<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      unsigned __int128 p =
          isSigned ? static_cast<unsigned __int128>(__int128(sext(x[i], w)) * sext(y[i], w))
                   : static_cast<unsigned __int128>(zext(x[i], w)) * zext(y[i], w);
      l[i] = wrapTo(static_cast<int64_t>(static_cast<uint64_t>(p)), w);
      h[i] = wrapTo(static_cast<int64_t>(static_cast<uint64_t>(p >> w)), w);
    }
  });
  return Status::ok();
}

/// The binary and unary arith/math ops without a case of their own, by name
/// (binaryKernel, floatUnaryKernel); any other op is unsupported.
Status ProgramBuilder::compileArithByName(Operation *op, Sequence &out) {
  StringRef name = op->getName().getStringRef();
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (op->getNumResults() != 1 || (dialect != "arith" && dialect != "math"))
    return unsupported(op);
  if (op->getNumOperands() == 2) {
    int a = slot(op->getOperand(0)), b = slot(op->getOperand(1));
    if (BinaryKernel k = binaryKernel(name, type(a))) {
      int r;
      if (Status s = define(op->getResult(0), op, r); !s)
        return s;
      int64_t n = type(r).numel;
      out.ops.push_back(
          [=](Frame &f) { k(f.slots[a].data(), f.slots[b].data(), f.slots[r].data(), n); });
      return Status::ok();
    }
  }
  if (op->getNumOperands() == 1) {
    int a = slot(op->getOperand(0));
    UnaryKernel k;
    if (isFloatElem(type(a).elem))
      k = floatUnaryKernel(name, type(a).elem);
    else if (name == "math.absi") {
      unsigned w = widthOf(type(a).elem);
      k = mapUnary<int64_t, int64_t>(
          [w](int64_t x) { return wrapTo(x < 0 ? static_cast<int64_t>(0 - uint64_t(x)) : x, w); });
    }
    if (k) {
      int r;
      if (Status s = define(op->getResult(0), op, r); !s)
        return s;
      int64_t n = type(r).numel;
      out.ops.push_back([=](Frame &f) { k(f.slots[a].data(), f.slots[r].data(), n); });
      return Status::ok();
    }
  }
  return unsupported(op);
}
