//===- Printf.cpp - device_print and device_assert through vprintf --------===//
//
// CUDA's device printf is `int vprintf(const char *format, void *args)`, args a buffer laid
// out as C varargs (the CUDA Programming Guide, "Formatted Output"): one alloca'd struct of the
// arguments, in the kernel's entry block so a loop does not grow the stack. A predicated print
// passes an empty format where the predicate is false instead of branching (the conversion
// keeps scf bodies single blocks). device_assert traps with a predicated PTX `trap`.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "PTXAsm.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::nvidia;

LogicalResult NVIDIATargetInfo::printf(OpBuilder &b, Location loc, StringRef format,
                                       ValueRange args, Value pred) const {
  Operation *here = b.getInsertionBlock()->getParentOp();
  auto module = here->getParentOfType<ModuleOp>();
  auto func = isa<FunctionOpInterface>(here) ? here : here->getParentOfType<FunctionOpInterface>();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value fmt = addressOfString(b, loc, module, format);
  if (pred)
    fmt = b.create<LLVM::SelectOp>(loc, pred, fmt, addressOfString(b, loc, module, ""));
  Value buffer;
  if (args.empty()) {
    buffer = b.create<LLVM::ZeroOp>(loc, ptr);
  } else {
    SmallVector<Type> types;
    for (Value v : args)
      types.push_back(v.getType());
    auto record = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&func->getRegion(0).front());
      buffer = b.create<LLVM::AllocaOp>(loc, ptr, record, i32Const(b, loc, 1), /*alignment=*/8);
    }
    for (auto [i, v] : llvm::enumerate(args)) {
      Value field =
          b.create<LLVM::GEPOp>(loc, ptr, record, buffer, ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
      b.create<LLVM::StoreOp>(loc, v, field);
    }
  }
  auto vprintf = getOrDeclareFunction(b, module, "vprintf",
                                      LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr, ptr}));
  b.create<LLVM::CallOp>(loc, vprintf, ValueRange{fmt, buffer});
  return success();
}

LogicalResult NVIDIATargetInfo::trapIf(OpBuilder &b, Location loc, Value failed) const {
  Value flag = b.create<LLVM::ZExtOp>(loc, b.getI32Type(), failed);
  ptxAsm(b, loc, Type(), {flag}, "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p trap; }", "r");
  return success();
}
