//===- Printf.cpp - device_print and device_assert through vprintf --------===//
//
// CUDA's device printf is `int vprintf(const char *format, void *args)`, args a buffer laid
// out as C varargs (the CUDA Programming Guide, "Formatted Output"): one alloca'd struct of the
// arguments, in the kernel's entry block so a loop does not grow the stack. A predicated print
// passes an empty format where the predicate is false instead of branching (the conversion
// keeps scf bodies single blocks). device_assert fails through CUDA's __assertfail.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
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

LogicalResult NVIDIATargetInfo::abortIf(OpBuilder &b, Location loc, Value failed,
                                        StringRef message) const {
  // CUDA's assert(): void __assertfail(const char *message, const char *file, unsigned line,
  // const char *function, size_t charSize), resolved by ptxas as vprintf is. The launch then
  // fails with CUDA_ERROR_ASSERT ("device-side assert triggered") where a trap gives the
  // unspecific CUDA_ERROR_LAUNCH_FAILED. A branch (scf.if, still legal in this conversion)
  // rather than a predicate: a call cannot be predicated.
  Operation *here = b.getInsertionBlock()->getParentOp();
  auto module = here->getParentOfType<ModuleOp>();
  auto func = isa<FunctionOpInterface>(here) ? here : here->getParentOfType<FunctionOpInterface>();
  std::string file = "<unknown>";
  unsigned line = 0;
  if (auto fl = dyn_cast<FileLineColLoc>(loc)) {
    file = fl.getFilename().str();
    line = fl.getLine();
  }
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto voidType = LLVM::LLVMVoidType::get(b.getContext());
  auto assertFail = getOrDeclareFunction(
      b, module, "__assertfail",
      LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, b.getI32Type(), ptr, b.getI64Type()}));
  auto ifOp = b.create<scf::IfOp>(loc, failed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  StringRef funcName = func ? cast<SymbolOpInterface>(func).getName() : StringRef("kernel");
  Value args[] = {addressOfString(b, loc, module, message.empty() ? "device_assert" : message),
                  addressOfString(b, loc, module, file), i32Const(b, loc, line),
                  addressOfString(b, loc, module, funcName),
                  b.create<LLVM::ConstantOp>(loc, b.getI64Type(), b.getI64IntegerAttr(1))};
  b.create<LLVM::CallOp>(loc, assertFail, args);
  return success();
}
