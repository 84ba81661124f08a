//===- ArithOps.cpp - constants, casts, element-wise ops ------------------===//
//
// Element-wise ops promote their operands to a common type (DType.h, `promote`), broadcast them
// numpy-style (casting before broadcasting, so the cast runs on the smaller tile), and emit
// upstream arith / math ops on scalars or ranked tensors.
//
//===----------------------------------------------------------------------===//
#include "TraceState.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;
using dsl::detail::BinaryOp;
using dsl::detail::UnaryOp;

static const char *symbol(BinaryOp op) {
  switch (op) {
  case BinaryOp::add:
    return "'+'";
  case BinaryOp::sub:
    return "'-'";
  case BinaryOp::mul:
    return "'*'";
  case BinaryOp::div:
    return "'/'";
  case BinaryOp::rem:
    return "'%'";
  case BinaryOp::bit_and:
    return "'&'";
  case BinaryOp::bit_or:
    return "'|'";
  case BinaryOp::bit_xor:
    return "'^'";
  case BinaryOp::shl:
    return "'<<'";
  case BinaryOp::shr:
    return "'>>'";
  case BinaryOp::lt:
    return "'<'";
  case BinaryOp::le:
    return "'<='";
  case BinaryOp::gt:
    return "'>'";
  case BinaryOp::ge:
    return "'>='";
  case BinaryOp::eq:
    return "'=='";
  case BinaryOp::ne:
    return "'!='";
  case BinaryOp::maximum:
    return "maximum";
  case BinaryOp::minimum:
    return "minimum";
  case BinaryOp::pow:
    return "pow";
  case BinaryOp::umulhi:
    return "umulhi";
  }
  return "?";
}

static const char *name(UnaryOp op) {
  switch (op) {
  case UnaryOp::neg:
    return "unary '-'";
  case UnaryOp::logical_not:
    return "'!'";
  case UnaryOp::bit_not:
    return "'~'";
  case UnaryOp::exp:
    return "exp";
  case UnaryOp::exp2:
    return "exp2";
  case UnaryOp::log:
    return "log";
  case UnaryOp::log2:
    return "log2";
  case UnaryOp::sqrt:
    return "sqrt";
  case UnaryOp::rsqrt:
    return "rsqrt";
  case UnaryOp::abs:
    return "abs";
  case UnaryOp::sin:
    return "sin";
  case UnaryOp::cos:
    return "cos";
  case UnaryOp::tanh:
    return "tanh";
  case UnaryOp::sigmoid:
    return "sigmoid";
  case UnaryOp::erf:
    return "erf";
  case UnaryOp::floor:
    return "floor";
  case UnaryOp::ceil:
    return "ceil";
  }
  return "?";
}

/// Reports an error unless `v` is a value (not a pointer or block pointer).
static void requireValue(TraceState &s, const RawValue &v, const char *op, dsl::detail::Loc loc) {
  if (v.kind == dsl::detail::ValueKind::tile || v.kind == dsl::detail::ValueKind::none)
    return;
  const char *hint =
      v.kind == dsl::detail::ValueKind::ptr ? "; pointers only advance by offsets (p + offs)" : "";
  s.fail(loc, llvm::Twine(op) + " does not apply to " + describe(v) + hint);
}

//===----------------------------------------------------------------------===//
// Constants and casts
//===----------------------------------------------------------------------===//

RawValue dsl::detail::constInt(int64_t value, DType dtype, Loc loc) {
  TraceState &s = TraceState::current();
  if (isFloat(dtype))
    return constFloat(static_cast<double>(value), dtype, loc);
  int bits = bitWidth(dtype);
  if (bits < 64) {
    // Accept the signed and the unsigned range of the type (0xFFFF is a fine i16).
    int64_t lo = bits == 1 ? 0 : -(int64_t(1) << (bits - 1));
    int64_t hi = (int64_t(1) << bits) - 1;
    if (value < lo || value > hi)
      s.fail(loc, llvm::Twine("integer literal ") + llvm::Twine(value) + " does not fit in " +
                      dtypeName(dtype));
  }
  Type type = toMlirType(s.getContext(), dtype);
  auto attr = s.b().getIntegerAttr(type, APInt(bits, static_cast<uint64_t>(value), bits > 1));
  return s.wrap(s.b().create<arith::ConstantOp>(s.loc(loc), attr));
}

RawValue dsl::detail::constFloat(double value, DType dtype, Loc loc) {
  TraceState &s = TraceState::current();
  if (isInt(dtype))
    s.fail(loc, llvm::Twine("floating-point literal ") + std::to_string(value) + " used as an " +
                    dtypeName(dtype) + " value; write an integer or cast explicitly");
  auto type = cast<FloatType>(toMlirType(s.getContext(), dtype));
  return s.wrap(s.b().create<arith::ConstantOp>(s.loc(loc), s.b().getFloatAttr(type, value)));
}

RawValue dsl::detail::cast(RawValue v, DType to, bool bitcast, Loc loc) {
  TraceState &s = TraceState::current();
  requireValue(s, v, bitcast ? "bitcast" : "cast", loc);
  Value x = s.get(v, loc);
  if (v.dtype == to)
    return v;
  Type toType = toMlirType(s.getContext(), to);
  Location l = s.loc(loc);
  if (bitcast) {
    if (bitWidth(v.dtype) != bitWidth(to))
      s.fail(loc, llvm::Twine("bitcast from ") + dtypeName(v.dtype) + " (" +
                      llvm::Twine(bitWidth(v.dtype)) + " bits) to " + dtypeName(to) + " (" +
                      llvm::Twine(bitWidth(to)) + " bits) changes the width");
    return s.wrap(s.b().create<arith::BitcastOp>(l, shapedType(shapeOf(x), toType), x).getResult());
  }
  return s.wrap(convert(s.b(), l, x, toType));
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

RawValue dsl::detail::unary(UnaryOp op, RawValue v, Loc loc) {
  TraceState &s = TraceState::current();
  requireValue(s, v, name(op), loc);
  Value x = s.get(v, loc);
  OpBuilder &b = s.b();
  // Without a position (operator! cannot take one, Tile.h) the op sits at its operand's.
  Location l = loc.file ? s.loc(loc) : x.getLoc();
  bool isF = isFloat(v.dtype);
  switch (op) {
  case UnaryOp::neg:
    if (v.dtype == DType::i1)
      s.fail(loc, "unary '-' of a mask; use '!' for logical negation");
    if (isF)
      return s.wrap(b.create<arith::NegFOp>(l, x));
    return s.wrap(b.create<arith::SubIOp>(l, constantLike(b, l, x.getType(), 0), x));
  case UnaryOp::logical_not:
    if (v.dtype == DType::i1)
      return s.wrap(b.create<arith::XOrIOp>(l, x, constantLike(b, l, x.getType(), 1)));
    if (isF)
      return s.wrap(b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, x,
                                            constantLike(b, l, x.getType(), 0)));
    return s.wrap(b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, x,
                                          constantLike(b, l, x.getType(), 0)));
  case UnaryOp::bit_not:
    if (isF)
      s.fail(loc, llvm::Twine("'~' needs integer operands, got ") + describe(v));
    return s.wrap(b.create<arith::XOrIOp>(l, x, constantLike(b, l, x.getType(), -1)));
  case UnaryOp::abs:
    if (isF)
      return s.wrap(b.create<math::AbsFOp>(l, x));
    return s.wrap(b.create<math::AbsIOp>(l, x));
  default:
    break;
  }
  if (!isF)
    s.fail(loc, llvm::Twine(name(op)) + " needs a float operand, got " + describe(v) +
                    "; convert it with cast<f32>(...)");
  switch (op) {
  case UnaryOp::exp:
    return s.wrap(b.create<math::ExpOp>(l, x));
  case UnaryOp::exp2:
    return s.wrap(b.create<math::Exp2Op>(l, x));
  case UnaryOp::log:
    return s.wrap(b.create<math::LogOp>(l, x));
  case UnaryOp::log2:
    return s.wrap(b.create<math::Log2Op>(l, x));
  case UnaryOp::sqrt:
    return s.wrap(b.create<math::SqrtOp>(l, x));
  case UnaryOp::rsqrt:
    return s.wrap(b.create<math::RsqrtOp>(l, x));
  case UnaryOp::sin:
    return s.wrap(b.create<math::SinOp>(l, x));
  case UnaryOp::cos:
    return s.wrap(b.create<math::CosOp>(l, x));
  case UnaryOp::tanh:
    return s.wrap(b.create<math::TanhOp>(l, x));
  case UnaryOp::erf:
    return s.wrap(b.create<math::ErfOp>(l, x));
  case UnaryOp::floor:
    return s.wrap(b.create<math::FloorOp>(l, x));
  case UnaryOp::ceil:
    return s.wrap(b.create<math::CeilOp>(l, x));
  case UnaryOp::sigmoid: {
    // 1 / (1 + exp(-x))
    Value one = constantLike(b, l, x.getType(), 1.0);
    Value e = b.create<math::ExpOp>(l, b.create<arith::NegFOp>(l, x));
    return s.wrap(b.create<arith::DivFOp>(l, one, b.create<arith::AddFOp>(l, one, e)));
  }
  default:
    llvm_unreachable("handled above");
  }
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

/// Casts `a` and `b` to `t` and broadcasts them to their common shape; `what` names the op.
static std::pair<Value, Value> unify(TraceState &s, const RawValue &a, const RawValue &b, DType t,
                                     const char *what, dsl::detail::Loc loc) {
  Value x = s.get(a, loc), y = s.get(b, loc);
  auto shape = broadcastShapes(shapeOf(x), shapeOf(y));
  if (!shape)
    s.fail(loc, llvm::Twine("shape mismatch in ") + what + ": " + shapeStr(shapeOf(x)) + " and " +
                    shapeStr(shapeOf(y)) + " do not broadcast");
  Location l = s.loc(loc);
  Type tt = toMlirType(s.getContext(), t);
  x = broadcastValue(s.b(), l, convert(s.b(), l, x, tt), *shape);
  y = broadcastValue(s.b(), l, convert(s.b(), l, y, tt), *shape);
  return {x, y};
}

static Value emitBinary(OpBuilder &b, Location l, BinaryOp op, Value x, Value y, DType t) {
  bool f = isFloat(t);
  bool i1 = t == DType::i1;
  using IP = arith::CmpIPredicate;
  using FP = arith::CmpFPredicate;
  auto cmp = [&](IP sp, IP up, FP fp) -> Value {
    if (f)
      return b.create<arith::CmpFOp>(l, fp, x, y);
    return b.create<arith::CmpIOp>(l, i1 ? up : sp, x, y);
  };
  switch (op) {
  case BinaryOp::add:
    return f ? Value(b.create<arith::AddFOp>(l, x, y)) : b.create<arith::AddIOp>(l, x, y);
  case BinaryOp::sub:
    return f ? Value(b.create<arith::SubFOp>(l, x, y)) : b.create<arith::SubIOp>(l, x, y);
  case BinaryOp::mul:
    return f ? Value(b.create<arith::MulFOp>(l, x, y)) : b.create<arith::MulIOp>(l, x, y);
  case BinaryOp::div:
    return f ? Value(b.create<arith::DivFOp>(l, x, y)) : b.create<arith::DivSIOp>(l, x, y);
  case BinaryOp::rem:
    return f ? Value(b.create<arith::RemFOp>(l, x, y)) : b.create<arith::RemSIOp>(l, x, y);
  case BinaryOp::bit_and:
    return b.create<arith::AndIOp>(l, x, y);
  case BinaryOp::bit_or:
    return b.create<arith::OrIOp>(l, x, y);
  case BinaryOp::bit_xor:
    return b.create<arith::XOrIOp>(l, x, y);
  case BinaryOp::shl:
    return b.create<arith::ShLIOp>(l, x, y);
  case BinaryOp::shr:
    return b.create<arith::ShRSIOp>(l, x, y);
  case BinaryOp::lt:
    return cmp(IP::slt, IP::ult, FP::OLT);
  case BinaryOp::le:
    return cmp(IP::sle, IP::ule, FP::OLE);
  case BinaryOp::gt:
    return cmp(IP::sgt, IP::ugt, FP::OGT);
  case BinaryOp::ge:
    return cmp(IP::sge, IP::uge, FP::OGE);
  case BinaryOp::eq:
    return cmp(IP::eq, IP::eq, FP::OEQ);
  case BinaryOp::ne:
    return cmp(IP::ne, IP::ne, FP::UNE);
  case BinaryOp::maximum:
    if (f)
      return b.create<arith::MaximumFOp>(l, x, y);
    return i1 ? Value(b.create<arith::MaxUIOp>(l, x, y)) : b.create<arith::MaxSIOp>(l, x, y);
  case BinaryOp::minimum:
    if (f)
      return b.create<arith::MinimumFOp>(l, x, y);
    return i1 ? Value(b.create<arith::MinUIOp>(l, x, y)) : b.create<arith::MinSIOp>(l, x, y);
  case BinaryOp::pow:
    return b.create<math::PowFOp>(l, x, y);
  case BinaryOp::umulhi:
    return b.create<arith::MulUIExtendedOp>(l, x, y).getHigh();
  }
  llvm_unreachable("unknown binary op");
}

RawValue dsl::detail::binary(BinaryOp op, RawValue a, RawValue b, Loc loc) {
  TraceState &s = TraceState::current();
  requireValue(s, a, symbol(op), loc);
  requireValue(s, b, symbol(op), loc);
  DType t = promote(a.dtype, b.dtype);
  switch (op) {
  case BinaryOp::bit_and:
  case BinaryOp::bit_or:
  case BinaryOp::bit_xor:
    if (isFloat(t))
      s.fail(loc, llvm::Twine(symbol(op)) + " needs integer or mask operands, got " + describe(a) +
                      " and " + describe(b));
    break;
  case BinaryOp::shl:
  case BinaryOp::shr:
    if (isFloat(t) || t == DType::i1)
      s.fail(loc, llvm::Twine(symbol(op)) + " needs integer operands, got " + describe(a) +
                      " and " + describe(b));
    break;
  case BinaryOp::umulhi:
    if (isFloat(t) || t == DType::i1)
      s.fail(loc, llvm::Twine("umulhi needs integer operands, got ") + describe(a) + " and " +
                      describe(b));
    break;
  case BinaryOp::pow:
    if (!isFloat(t))
      s.fail(loc, llvm::Twine("pow needs float operands (cast<f32>(...) an integer tile), got ") +
                      describe(a) + " and " + describe(b));
    break;
  case BinaryOp::add:
  case BinaryOp::sub:
  case BinaryOp::mul:
  case BinaryOp::div:
  case BinaryOp::rem:
    if (t == DType::i1)
      s.fail(loc, llvm::Twine(symbol(op)) + " of masks; use '&', '|' and '^' on masks, or "
                                            "convert them with cast<i32>(...)");
    break;
  default:
    break;
  }
  auto [x, y] = unify(s, a, b, t, symbol(op), loc);
  return s.wrap(emitBinary(s.b(), s.loc(loc), op, x, y, t));
}

RawValue dsl::detail::compoundAssign(BinaryOp op, const RawValue &a, const RawValue &b, Loc loc) {
  TraceState &s = TraceState::current();
  RawValue r = binary(op, a, b, loc);
  if (r.dtype != a.dtype)
    s.fail(loc, llvm::Twine(symbol(op)) + "= would change the left side from " +
                    dtypeName(a.dtype) + " to " + dtypeName(r.dtype) +
                    "; convert the right side or write x = x op y into a wider variable");
  if (!(r.shape == a.shape))
    s.fail(loc, llvm::Twine(symbol(op)) + "= would change the shape of the left side from " +
                    shapeStr(dims(a.shape)) + " to " + shapeStr(dims(r.shape)));
  return r;
}

RawValue dsl::detail::select(RawValue cond, RawValue a, RawValue b, Loc loc) {
  TraceState &s = TraceState::current();
  requireValue(s, cond, "where", loc);
  requireValue(s, a, "where", loc);
  requireValue(s, b, "where", loc);
  if (cond.dtype != DType::i1)
    s.fail(loc, llvm::Twine("the condition of where must be a mask (i1, e.g. cols < n), got ") +
                    describe(cond));
  DType t = promote(a.dtype, b.dtype);
  auto [x, y] = unify(s, a, b, t, "where", loc);
  Value c = s.get(cond, loc);
  auto shape = broadcastShapes(shapeOf(c), shapeOf(x));
  if (!shape)
    s.fail(loc, llvm::Twine("shape mismatch in where: the condition is ") + shapeStr(shapeOf(c)) +
                    " and the values are " + shapeStr(shapeOf(x)));
  Location l = s.loc(loc);
  c = broadcastValue(s.b(), l, c, *shape);
  x = broadcastValue(s.b(), l, x, *shape);
  y = broadcastValue(s.b(), l, y, *shape);
  return s.wrap(s.b().create<arith::SelectOp>(l, c, x, y));
}

RawValue dsl::detail::fma(RawValue a, RawValue b, RawValue c, Loc loc) {
  TraceState &s = TraceState::current();
  for (const RawValue *v : {&a, &b, &c})
    requireValue(s, *v, "fma", loc);
  DType t = promote(promote(a.dtype, b.dtype), c.dtype);
  if (!isFloat(t))
    s.fail(loc, llvm::Twine("fma needs float operands, got ") + dtypeName(t));
  auto [x, y] = unify(s, a, b, t, "fma", loc);
  RawValue xy = s.wrap(x);
  auto [xb, z] = unify(s, xy, c, t, "fma", loc);
  Location l = s.loc(loc);
  Value yb = broadcastValue(s.b(), l, y, shapeOf(xb));
  return s.wrap(s.b().create<math::FmaOp>(l, xb, yb, z));
}
