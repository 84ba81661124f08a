//===- Predicated.cpp - `if (pred)` helpers for the AMD lowering ----------===//
#include "Predicated.h"

using namespace mlir;

ModuleOp tessel::amd::moduleOf(OpBuilder &b) {
  Operation *op = b.getInsertionBlock()->getParentOp();
  return isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
}

LLVM::LLVMFuncOp tessel::amd::getOrCreatePredicated(
    OpBuilder &b, Location loc, StringRef name, Type result, TypeRange args,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  ModuleOp module = moduleOf(b);
  if (auto f = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  MLIRContext *ctx = b.getContext();
  Type voidT = LLVM::LLVMVoidType::get(ctx);
  SmallVector<Type> params = {b.getI1Type()};
  params.append(args.begin(), args.end());
  auto fnType = LLVM::LLVMFunctionType::get(result ? result : voidT, params);
  auto f = b.create<LLVM::LLVMFuncOp>(loc, name, fnType, LLVM::Linkage::Internal);
  f.setAlwaysInline(true);
  f.setNoUnwind(true);
  SmallVector<Location> locs(params.size(), loc);
  Block *entry = b.createBlock(&f.getBody(), {}, params, locs);
  Block *access = b.createBlock(&f.getBody());
  Block *exit =
      result ? b.createBlock(&f.getBody(), {}, {result}, {loc}) : b.createBlock(&f.getBody());
  b.setInsertionPointToEnd(entry);
  if (result) {
    Value poison = b.create<LLVM::PoisonOp>(loc, result);
    b.create<LLVM::CondBrOp>(loc, entry->getArgument(0), access, ValueRange{}, exit,
                             ValueRange{poison});
  } else {
    b.create<LLVM::CondBrOp>(loc, entry->getArgument(0), access, exit);
  }
  b.setInsertionPointToEnd(access);
  Value r = body(b, loc, entry->getArguments().drop_front());
  b.create<LLVM::BrOp>(loc, result ? ValueRange{r} : ValueRange{}, exit);
  b.setInsertionPointToEnd(exit);
  b.create<LLVM::ReturnOp>(loc, result ? ValueRange{exit->getArgument(0)} : ValueRange{});
  return f;
}
