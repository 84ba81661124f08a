//===- ControlOps.cpp - scf.for and scf.if from for_range / if_then_else --===//
//
// The header runs the user's body between begin and end calls. scf.if result types are only
// known once both branches are traced, so the branches are traced into a result-less scf.if
// and moved into a new one with results at the end.
//
//===----------------------------------------------------------------------===//
#include "TraceState.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;

static Value loopBound(TraceState &s, const RawValue &v, const char *what, dsl::detail::Loc loc) {
  if (v.kind != dsl::detail::ValueKind::tile || !isInt(v.dtype) || v.dtype == DType::i1 ||
      v.shape.rank() != 0)
    s.fail(loc,
           llvm::Twine("for_range ") + what + " must be an integer scalar, got " + describe(v));
  return convert(s.b(), s.loc(loc), s.get(v, loc), s.b().getI64Type());
}

/// Positions the builder in `blk`: before its terminator if it has one, else at its end.
static void enter(OpBuilder &b, Block *blk) {
  if (!blk->empty() && blk->back().hasTrait<OpTrait::IsTerminator>())
    b.setInsertionPoint(&blk->back());
  else
    b.setInsertionPointToEnd(blk);
}

void dsl::detail::beginFor(RawValue lb, RawValue ub, RawValue step, const RawValue *inits, int n,
                           RawValue *bodyArgs, Loc loc) {
  TraceState &s = TraceState::current();
  Value lo = loopBound(s, lb, "start", loc), hi = loopBound(s, ub, "end", loc),
        st = loopBound(s, step, "step", loc);
  SmallVector<Value> initValues;
  for (int i = 0; i < n; ++i)
    initValues.push_back(s.get(inits[i], loc));
  OpBuilder &b = s.b();
  auto op = b.create<scf::ForOp>(s.loc(loc), lo, hi, st, initValues);
  s.regions.push_back({OpenRegion::Kind::forBody, op, b.saveInsertionPoint(), {}, 0});
  enter(b, op.getBody());
  bodyArgs[0] = s.wrap(op.getInductionVar());
  for (int i = 0; i < n; ++i)
    bodyArgs[i + 1] = s.wrap(op.getRegionIterArg(i));
}

void dsl::detail::endFor(const RawValue *yields, int n, RawValue *results, Loc loc) {
  TraceState &s = TraceState::current();
  if (s.regions.empty() || s.regions.back().kind != OpenRegion::Kind::forBody)
    s.fail(loc, "internal error: no open for_range");
  OpenRegion region = s.regions.back();
  auto op = cast<scf::ForOp>(region.op);
  if (n) {
    SmallVector<Value> values;
    for (int i = 0; i < n; ++i) {
      Value v = s.get(yields[i], loc);
      Type expected = op.getRegionIterArg(i).getType();
      if (v.getType() != expected)
        s.fail(loc, llvm::Twine("for_range: the body returns carried value #") + llvm::Twine(i) +
                        " as " + describe(yields[i]) + " but it entered the loop as " +
                        describe(s.wrap(op.getInitArgs()[i])));
      values.push_back(v);
    }
    s.b().create<scf::YieldOp>(s.loc(loc), values);
  }
  s.regions.pop_back();
  s.b().restoreInsertionPoint(region.after);
  for (int i = 0; i < n; ++i)
    results[i] = s.wrap(op.getResult(i));
}

void dsl::detail::beginIf(RawValue cond, Loc loc) {
  TraceState &s = TraceState::current();
  if (cond.kind != dsl::detail::ValueKind::tile || cond.dtype != DType::i1 ||
      cond.shape.rank() != 0)
    s.fail(loc, llvm::Twine("the condition of if_then_else / when must be an i1 scalar (a "
                            "comparison of scalars), got ") +
                    describe(cond));
  Value c = s.get(cond, loc);
  OpBuilder &b = s.b();
  auto op = b.create<scf::IfOp>(s.loc(loc), TypeRange{}, c, /*withElseRegion=*/true);
  s.regions.push_back({OpenRegion::Kind::ifThen, op, b.saveInsertionPoint(), {}, 0});
  enter(b, op.thenBlock());
}

void dsl::detail::beginElse(const RawValue *yields, int n, Loc loc) {
  TraceState &s = TraceState::current();
  if (s.regions.empty() || s.regions.back().kind != OpenRegion::Kind::ifThen)
    s.fail(loc, "internal error: no open if_then_else");
  OpenRegion &region = s.regions.back();
  for (int i = 0; i < n; ++i)
    region.thenValues.push_back(s.get(yields[i], loc));
  region.kind = OpenRegion::Kind::ifElse;
  enter(s.b(), cast<scf::IfOp>(region.op).elseBlock());
}

void dsl::detail::endIf(const RawValue *yields, int n, RawValue *results, Loc loc) {
  TraceState &s = TraceState::current();
  if (s.regions.empty() || s.regions.back().kind != OpenRegion::Kind::ifElse)
    s.fail(loc, "internal error: no open else branch");
  OpenRegion region = s.regions.back();
  auto op = cast<scf::IfOp>(region.op);
  OpBuilder &b = s.b();
  Location l = s.loc(loc);
  if (static_cast<size_t>(n) != region.thenValues.size())
    s.fail(loc, "if_then_else: the branches return different numbers of values");
  SmallVector<Value> elseValues;
  SmallVector<Type> types;
  for (int i = 0; i < n; ++i) {
    Value v = s.get(yields[i], loc);
    Value t = region.thenValues[i];
    if (v.getType() != t.getType())
      s.fail(loc, llvm::Twine("if_then_else: value #") + llvm::Twine(i) + " is " +
                      describe(s.wrap(t)) + " in the then-branch but " + describe(yields[i]) +
                      " in the else-branch");
    elseValues.push_back(v);
    types.push_back(v.getType());
  }
  s.regions.pop_back();
  if (n == 0) {
    // No results: drop an empty else branch.
    if (op.elseBlock()->getOperations().size() == 1)
      op.getElseRegion().front().erase();
    b.restoreInsertionPoint(region.after);
    return;
  }
  b.setInsertionPoint(op);
  auto withResults = b.create<scf::IfOp>(op.getLoc(), types, op.getCondition(),
                                         /*addThenBlock=*/false, /*addElseBlock=*/false);
  withResults.getThenRegion().takeBody(op.getThenRegion());
  withResults.getElseRegion().takeBody(op.getElseRegion());
  auto terminate = [&](Block *blk, ValueRange values) {
    blk->getTerminator()->erase();
    OpBuilder::atBlockEnd(blk).create<scf::YieldOp>(l, values);
  };
  terminate(withResults.thenBlock(), region.thenValues);
  terminate(withResults.elseBlock(), elseValues);
  op.erase();
  b.restoreInsertionPoint(region.after);
  for (int i = 0; i < n; ++i)
    results[i] = s.wrap(withResults.getResult(i));
}
