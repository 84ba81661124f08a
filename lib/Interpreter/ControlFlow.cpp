//===- ControlFlow.cpp - scf.for / if / while and func.call ----------------===//
//
// Loop-carried values live in the body's block-argument slots. A value yielded from an op of
// the body itself is moved (its buffer swapped with the argument's: the body recomputes it
// before its next use); anything else (a value from outside, another argument) is copied
// through a temporary, so yields that permute arguments are exact.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "ProgramBuilder.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tessel::interp;

namespace {

/// How yielded values reach their destination slots.
struct Transfer {
  struct Item {
    int from, to, tmp; ///< tmp >= 0: copied through it; tmp == -1: swapped; -2: identity
    int64_t words;
  };
  std::vector<Item> items;
  void run(Frame &f) const {
    for (const Item &i : items)
      if (i.tmp >= 0)
        copySlot(f, i.from, i.tmp, i.words);
    for (const Item &i : items)
      if (i.tmp == -1)
        std::swap(f.slots[i.from].words, f.slots[i.to].words);
    for (const Item &i : items)
      if (i.tmp >= 0)
        copySlot(f, i.tmp, i.to, i.words);
  }
};

/// Plans moving `values` (yielded at the end of `block`) into `dests`.
Transfer planTransfer(ProgramBuilder &c, ValueRange values, llvm::ArrayRef<int> dests,
                      mlir::Block *block) {
  Transfer t;
  llvm::DenseSet<int> swapped;
  for (size_t j = 0; j < values.size(); ++j) {
    Value v = values[j];
    int from = c.slot(v), to = dests[j];
    Transfer::Item item{from, to, -2, c.type(to).words()};
    if (from == to) {
      t.items.push_back(item);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == block && swapped.insert(from).second &&
        !llvm::any_of(c.prog.constants, [&](const auto &k) { return k.first == from; })) {
      item.tmp = -1;
    } else {
      item.tmp = c.scratch(c.type(to));
    }
    t.items.push_back(item);
  }
  return t;
}

/// Plain copies (no swaps): for values that must survive, e.g. loop inits.
Transfer planCopies(ProgramBuilder &c, llvm::ArrayRef<int> from, llvm::ArrayRef<int> dests) {
  Transfer t;
  for (size_t j = 0; j < from.size(); ++j)
    t.items.push_back({from[j], dests[j], from[j] == dests[j] ? -2 : c.scratch(c.type(dests[j])),
                       c.type(dests[j]).words()});
  return t;
}

} // namespace

Status ProgramBuilder::compileFor(scf::ForOp fo, Sequence &out) {
  Operation *op = fo;
  int lb = slot(fo.getLowerBound()), ub = slot(fo.getUpperBound()), st = slot(fo.getStep());
  mlir::Block *body = fo.getBody();
  int iv;
  if (Status s = define(fo.getInductionVar(), op, iv); !s)
    return s;
  std::vector<int> args, inits, results;
  for (BlockArgument a : fo.getRegionIterArgs()) {
    int s;
    if (Status e = define(a, op, s); !e)
      return e;
    args.push_back(s);
  }
  for (Value v : fo.getInitArgs())
    inits.push_back(slot(v));
  for (Value v : fo.getResults()) {
    int s;
    if (Status e = define(v, op, s); !e)
      return e;
    results.push_back(s);
  }
  auto blk = std::make_shared<Sequence>();
  if (Status s = compileBlock(*body, *blk); !s)
    return s;
  Transfer init = planCopies(*this, inits, args);
  Transfer next = planTransfer(*this, body->getTerminator()->getOperands(), args, body);
  Transfer fin;
  for (size_t j = 0; j < args.size(); ++j)
    fin.items.push_back({args[j], results[j], -1, type(args[j]).words()});
  unsigned w = widthOf(type(iv).elem);
  out.ops.push_back([=](Frame &f) {
    int64_t lo = f.slots[lb].as<int64_t>()[0], hi = f.slots[ub].as<int64_t>()[0],
            step = f.slots[st].as<int64_t>()[0];
    init.run(f);
    if (step <= 0 && lo < hi) {
      f.fail("scf.for step must be positive, got " + std::to_string(step));
      return;
    }
    for (int64_t i = lo; i < hi; i = wrapTo(i + step, w) <= i ? hi : wrapTo(i + step, w)) {
      f.slots[iv].as<int64_t>()[0] = i;
      blk->run(f);
      if (f.failed)
        return;
      next.run(f);
    }
    fin.run(f);
  });
  return Status::ok();
}

Status ProgramBuilder::compileIf(scf::IfOp ifOp, Sequence &out) {
  Operation *op = ifOp;
  int cond = slot(ifOp.getCondition());
  std::vector<int> results;
  for (Value v : ifOp.getResults()) {
    int s;
    if (Status e = define(v, op, s); !e)
      return e;
    results.push_back(s);
  }
  auto thenBlk = std::make_shared<Sequence>(), elseBlk = std::make_shared<Sequence>();
  Transfer thenT, elseT;
  if (Status s = compileBlock(*ifOp.thenBlock(), *thenBlk); !s)
    return s;
  thenT = planTransfer(*this, ifOp.thenYield().getOperands(), results, ifOp.thenBlock());
  if (ifOp.elseBlock()) {
    if (Status s = compileBlock(*ifOp.elseBlock(), *elseBlk); !s)
      return s;
    elseT = planTransfer(*this, ifOp.elseYield().getOperands(), results, ifOp.elseBlock());
  }
  out.ops.push_back([=](Frame &f) {
    bool c = f.slots[cond].as<int64_t>()[0] & 1;
    (c ? thenBlk : elseBlk)->run(f);
    if (!f.failed)
      (c ? thenT : elseT).run(f);
  });
  return Status::ok();
}

Status ProgramBuilder::compileWhile(scf::WhileOp wh, Sequence &out) {
  Operation *op = wh;
  mlir::Block *before = wh.getBeforeBody(), *after = wh.getAfterBody();
  std::vector<int> inits, bargs, aargs, results;
  for (Value v : wh.getInits())
    inits.push_back(slot(v));
  for (BlockArgument a : before->getArguments()) {
    int s;
    if (Status e = define(a, op, s); !e)
      return e;
    bargs.push_back(s);
  }
  for (BlockArgument a : after->getArguments()) {
    int s;
    if (Status e = define(a, op, s); !e)
      return e;
    aargs.push_back(s);
  }
  for (Value v : wh.getResults()) {
    int s;
    if (Status e = define(v, op, s); !e)
      return e;
    results.push_back(s);
  }
  auto bBlk = std::make_shared<Sequence>(), aBlk = std::make_shared<Sequence>();
  if (Status s = compileBlock(*before, *bBlk); !s)
    return s;
  if (Status s = compileBlock(*after, *aBlk); !s)
    return s;
  scf::ConditionOp cond = wh.getConditionOp();
  int condSlot = slot(cond.getCondition());
  std::vector<int> condArgs;
  for (Value v : cond.getArgs())
    condArgs.push_back(slot(v));
  Transfer init = planCopies(*this, inits, bargs);
  Transfer toAfter = planCopies(*this, condArgs, aargs);
  Transfer toResults = planCopies(*this, condArgs, results);
  std::vector<int> yields;
  for (Value v : wh.getYieldOp().getOperands())
    yields.push_back(slot(v));
  Transfer back = planCopies(*this, yields, bargs);
  out.ops.push_back([=](Frame &f) {
    init.run(f);
    while (true) {
      bBlk->run(f);
      if (f.failed)
        return;
      if (!(f.slots[condSlot].as<int64_t>()[0] & 1)) {
        toResults.run(f);
        return;
      }
      toAfter.run(f);
      aBlk->run(f);
      if (f.failed)
        return;
      back.run(f);
    }
  });
  return Status::ok();
}

/// func.call: the callee is compiled once and its body shared by every call site.
Status ProgramBuilder::compileCall(func::CallOp call, Sequence &out) {
  Operation *op = call;
  StringRef name = call.getCallee();
  if (calling.lookup(name))
    return error(op, "the interpreter does not run recursive calls ('" + name + "')");
  if (!callees.count(name)) {
    auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, call.getCalleeAttr());
    if (!fn || fn.isExternal() || !fn.getBody().hasOneBlock())
      return error(op, "cannot call '" + name +
                           "': the interpreter needs a single-block func.func body");
    calling[name] = true;
    Callee callee;
    mlir::Block &entry = fn.getBody().front();
    for (BlockArgument a : entry.getArguments()) {
      int s;
      if (Status e = define(a, fn, s); !e)
        return e;
      callee.argSlots.push_back(s);
    }
    callee.body = std::make_shared<Sequence>();
    if (Status s = compileBlock(entry, *callee.body); !s)
      return s;
    for (Value v : entry.getTerminator()->getOperands())
      callee.resultSlots.push_back(slot(v));
    calling[name] = false;
    callees[name] = callee;
  }
  const Callee &callee = callees[name];
  std::vector<int> args, results;
  for (Value v : call.getOperands())
    args.push_back(slot(v));
  for (Value v : call.getResults()) {
    int s;
    if (Status e = define(v, op, s); !e)
      return e;
    results.push_back(s);
  }
  Transfer in = planCopies(*this, args, callee.argSlots);
  Transfer outT = planCopies(*this, callee.resultSlots, results);
  std::shared_ptr<Sequence> body = callee.body;
  out.ops.push_back([=](Frame &f) {
    in.run(f);
    body->run(f);
    if (!f.failed)
      outT.run(f);
  });
  return Status::ok();
}
