//===- Printf.cpp - device_print and device_assert through ockl's hostcall printf ===//
//
// ROCm's device printf is ockl's hostcall protocol (rocm-device-libs, ockl/src/cprintf.cl):
// desc = __ockl_printf_begin(0); desc = __ockl_printf_append_string_n(desc, format,
// strlen + 1, is_last); then the arguments as 64-bit words (doubles by their bits, integers
// widened), up to 7 per __ockl_printf_append_args(desc, n, a0..a6, is_last). The calls run in
// an always-inline `if (pred)` helper per argument count (Predicated.h), so masked-off lanes
// make no hostcall. device_assert's trap is llvm.trap in such a helper.
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"
#include "Predicated.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::amd;

namespace {

/// A printf argument as the 64-bit word ockl takes.
Value asWord(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  if (isa<FloatType>(v.getType())) {
    if (!v.getType().isF64())
      v = b.create<LLVM::FPExtOp>(loc, b.getF64Type(), v);
    return b.create<LLVM::BitcastOp>(loc, i64, v);
  }
  if (v.getType().getIntOrFloatBitWidth() < 64)
    return b.create<LLVM::ZExtOp>(loc, i64, v); // printf reads %d as the low 32 bits
  return v;
}

} // namespace

LogicalResult AMDTargetInfo::printf(OpBuilder &b, Location loc, StringRef format, ValueRange args,
                                    Value pred) const {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  unsigned n = args.size();
  SmallVector<Type> params = {ptr, i64};
  params.append(n, i64);
  std::string name = "__tessel_amd_printf_" + std::to_string(n);
  auto helper = getOrCreatePredicated(
      b, loc, name, Type(), params, [&](OpBuilder &hb, Location hl, ValueRange in) -> Value {
        ModuleOp module = moduleOf(hb);
        auto begin = getOrDeclareFunction(hb, module, "__ockl_printf_begin",
                                          LLVM::LLVMFunctionType::get(i64, {i64}));
        auto str = getOrDeclareFunction(hb, module, "__ockl_printf_append_string_n",
                                        LLVM::LLVMFunctionType::get(i64, {i64, ptr, i64, i32}));
        SmallVector<Type> argsParams = {i64, i32};
        argsParams.append(7, i64);
        argsParams.push_back(i32);
        auto append = getOrDeclareFunction(hb, module, "__ockl_printf_append_args",
                                           LLVM::LLVMFunctionType::get(i64, argsParams));
        Value desc =
            hb.create<LLVM::CallOp>(hl, begin, ValueRange{i64Const(hb, hl, 0)}).getResult();
        desc = hb.create<LLVM::CallOp>(hl, str,
                                       ValueRange{desc, in[0], in[1], i32Const(hb, hl, n == 0)})
                   .getResult();
        for (unsigned first = 0; first < n; first += 7) {
          unsigned count = std::min(7u, n - first);
          SmallVector<Value> callArgs = {desc, i32Const(hb, hl, count)};
          for (unsigned k = 0; k < 7; ++k)
            callArgs.push_back(k < count ? in[2 + first + k] : i64Const(hb, hl, 0));
          callArgs.push_back(i32Const(hb, hl, first + 7 >= n));
          desc = hb.create<LLVM::CallOp>(hl, append, callArgs).getResult();
        }
        return Value();
      });
  SmallVector<Value> operands = {pred ? pred : i1Const(b, loc, true),
                                 addressOfString(b, loc, moduleOf(b), format, /*addrSpace=*/4),
                                 i64Const(b, loc, int64_t(format.size()) + 1)};
  for (Value v : args)
    operands.push_back(asWord(b, loc, v));
  b.create<LLVM::CallOp>(loc, helper, operands);
  return success();
}

LogicalResult AMDTargetInfo::abortIf(OpBuilder &b, Location loc, Value failed, StringRef) const {
  auto helper = getOrCreatePredicated(b, loc, "__tessel_amd_trap", Type(), {},
                                      [](OpBuilder &hb, Location hl, ValueRange) -> Value {
                                        hb.create<LLVM::Trap>(hl);
                                        return Value();
                                      });
  b.create<LLVM::CallOp>(loc, helper, ValueRange{failed});
  return success();
}
