//===- BlockPointerOrders.cpp - the order each block pointer has ----------===//
#include "BlockPointerOrders.h"

#include "tessel/Dialect/Tile/IR/Tile.h"

using namespace mlir;
using namespace tessel;

static bool isBlockPtr(Type t) { return isa<tile::BlockPtrType>(t); }

bool BlockPointerOrders::join(Value dst, Value src) {
  auto it = orders.find(src);
  if (it == orders.end())
    return false;
  OrderState s = it->second;
  OrderState &d = orders[dst];
  if (d.conflict)
    return false;
  if (s.conflict || (d.order && d.order != s.order)) {
    d.conflict = true;
    return true;
  }
  if (d.order)
    return false;
  d.order = s.order;
  return true;
}

BlockPointerOrders::BlockPointerOrders(ModuleOp module) {
  bool changed = true;
  while (changed) {
    changed = false;
    module.walk([&](Operation *op) {
      if (auto mk = dyn_cast<tile::MakeBlockPtrOp>(op)) {
        if (!orders.count(mk.getResult())) {
          orders[mk.getResult()].order = mk.getOrderAttr();
          changed = true;
        }
      } else if (auto adv = dyn_cast<tile::AdvanceOp>(op)) {
        changed |= join(adv.getResult(), adv.getPtr());
      } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
        for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
          if (!isBlockPtr(arg.getType()))
            continue;
          changed |= join(arg, loop.getInitArgs()[i]);
          changed |= join(arg, yield.getOperand(i));
          changed |= join(loop.getResult(i), arg);
        }
      } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
          if (!isBlockPtr(result.getType()))
            continue;
          changed |= join(result, ifOp.thenYield().getOperand(i));
          changed |= join(result, ifOp.elseYield().getOperand(i));
        }
      } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        scf::ConditionOp cond = loop.getConditionOp();
        for (auto [i, arg] : llvm::enumerate(loop.getBeforeArguments())) {
          if (!isBlockPtr(arg.getType()))
            continue;
          changed |= join(arg, loop.getInits()[i]);
          changed |= join(arg, loop.getYieldOp().getOperand(i));
        }
        for (auto [i, arg] : llvm::enumerate(loop.getAfterArguments())) {
          if (!isBlockPtr(arg.getType()))
            continue;
          changed |= join(arg, cond.getArgs()[i]);
          changed |= join(loop.getResult(i), cond.getArgs()[i]);
        }
      }
    });
  }
}

DenseI32ArrayAttr BlockPointerOrders::orderOf(Value bp) const {
  auto it = orders.find(bp);
  if (it == orders.end() || it->second.conflict)
    return {};
  return it->second.order;
}
