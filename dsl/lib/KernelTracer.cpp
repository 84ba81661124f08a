//===- KernelTracer.cpp - tracing a kernel variant into tile IR -----------===//
#include "KernelTracer.h"

#include "TraceState.h"

#include "mlir/IR/Verifier.h"

#include <exception>

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::dsl::tracer;

OwningOpRef<ModuleOp> tessel::dsl::traceVariant(MLIRContext &ctx, const KernelInfo &kernel,
                                                const dsl::detail::VariantDef &variant,
                                                const ConfigValue &config, llvm::StringRef funcName,
                                                llvm::StringRef target) {
  const dsl::detail::KernelDef &def = kernel.def;
  Location kernelLoc = FileLineColLoc::get(&ctx, def.file, def.line, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernelLoc);
  OpBuilder b(&ctx);
  (*module)->setAttr(tile::TileDialect::getTargetAttrName(), b.getStringAttr(target));

  SmallVector<Type> argTypes;
  for (int i = 0; i < variant.numArgs; ++i) {
    const dsl::detail::ArgSpec &a = variant.args[i];
    Type elem = toMlirType(&ctx, a.dtype);
    argTypes.push_back(a.kind == dsl::detail::ArgKind::ptr ? tile::PtrType::get(elem) : elem);
  }
  b.setInsertionPointToEnd(module->getBody());
  auto func = b.create<func::FuncOp>(kernelLoc, funcName, b.getFunctionType(argTypes, {}));
  func->setAttr(tile::TileDialect::getKernelAttrName(), b.getUnitAttr());
  func->setAttr(tile::TileDialect::getNumWarpsAttrName(), b.getI32IntegerAttr(config.numWarps()));
  func->setAttr(tile::TileDialect::getNumStagesAttrName(), b.getI32IntegerAttr(config.numStages()));
  if (int ws = config.warpSpecialize())
    func->setAttr(tile::TileDialect::getWarpSpecializeAttrName(), b.getI32IntegerAttr(ws));
  if (int tma = config.tmaStore())
    func->setAttr(tile::TileDialect::getTmaStoreAttrName(), b.getI32IntegerAttr(tma));
  if (int cluster = config.clusterSize(); cluster != 1)
    func->setAttr(tile::TileDialect::getClusterSizeAttrName(), b.getI32IntegerAttr(cluster));
  for (int i = 0; i < variant.numArgs; ++i)
    if (variant.args[i].divisibility > 1)
      func.setArgAttr(i, tile::TileDialect::getDivisibilityAttrName(),
                      b.getI32IntegerAttr(variant.args[i].divisibility));
  SmallVector<Location> argLocs;
  for (int i = 0; i < variant.numArgs; ++i)
    argLocs.push_back(NameLoc::get(b.getStringAttr(kernel.argNames[i]), kernelLoc));
  Block *entry = b.createBlock(&func.getBody(), {}, argTypes, argLocs);
  b.create<func::ReturnOp>(kernelLoc);
  b.setInsertionPoint(entry->getTerminator());

  bool ok = true;
  {
    TraceState state(func, b);
    try {
      variant.trace(config.get());
      if (!state.regions.empty()) {
        emitError(kernelLoc) << "internal error: a region of the kernel was left open";
        ok = false;
      }
    } catch (const TraceAbort &) {
      ok = false;
    } catch (const std::exception &e) {
      emitError(kernelLoc) << "kernel '" << def.name << "' threw an exception: " << e.what();
      ok = false;
    } catch (...) {
      emitError(kernelLoc) << "kernel '" << def.name << "' threw an exception";
      ok = false;
    }
  }
  if (!ok || failed(verify(*module)))
    return nullptr;
  return module;
}
