//===- CApi.cpp - tessel_interp_*: the C API's interpreter half -----------===//
//
// The Python package's CPU path (include/tessel/CApi/Kernels.h): a variant's tile IR compiled
// for the interpreter and run on the caller's arrays in place (no copies), each pointer
// argument confined to the region the caller passes with it.
//
//===----------------------------------------------------------------------===//
#include "tessel/CApi/ErrorBuffer.h"
#include "tessel/CApi/Kernels.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Harness/KernelMetadata.h"
#include "tessel/InitAllDialects.h"
#include "tessel/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>
#include <mutex>

using namespace mlir;
using namespace tessel;
using namespace tessel::interp;

using tessel::capi::fail;

namespace {
struct InterpKernel {
  harness::KernelMetadata meta;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<CompiledKernel> compiled;
};

/// One MLIR context for every kernel of the process (it owns their types and attributes).
struct InterpShared {
  std::mutex mutex;
  std::unique_ptr<MLIRContext> ctx;
  std::vector<std::unique_ptr<InterpKernel>> kernels; // owned until exit
  MLIRContext &context() {
    if (!ctx) {
      DialectRegistry registry;
      registerAllDialects(registry);
      ctx = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
      ctx->loadAllAvailableDialects();
    }
    return *ctx;
  }
};
InterpShared &interpShared() {
  static InterpShared s;
  return s;
}

} // namespace

extern "C" int tessel_interp_load(const char *variantJson, void **kernel, char *err,
                                  size_t errLen) {
  InterpShared &sh = interpShared();
  std::lock_guard<std::mutex> lock(sh.mutex);
  auto k = std::make_unique<InterpKernel>();
  if (harness::Status s = harness::loadKernelMetadata(variantJson, k->meta); !s)
    return fail(s.message(), err, errLen);
  if (k->meta.tileIR.empty())
    return fail(std::string(variantJson) +
                    ": no tile IR for the interpreter; compile it with tesselc --emit=tile",
                err, errLen);
  std::string diag;
  llvm::raw_string_ostream os(diag);
  llvm::SourceMgr sm;
  SourceMgrDiagnosticHandler handler(sm, &sh.context(), os);
  k->module = parseSourceFile<ModuleOp>(k->meta.tileIR, sm, ParserConfig(&sh.context()));
  if (!k->module)
    return fail(diag.empty() ? k->meta.tileIR + ": error: cannot parse" : os.str(), err, errLen);
  func::FuncOp fn;
  k->module->walk([&](func::FuncOp f) {
    if (f.getSymName() == k->meta.function)
      fn = f;
  });
  if (!fn)
    return fail(k->meta.tileIR + ": no function named '" + k->meta.function + "'", err, errLen);
  if (harness::Status s = CompiledKernel::compile(fn, k->compiled); !s)
    return fail(s.message(), err, errLen);
  *kernel = k.get();
  sh.kernels.push_back(std::move(k));
  return 0;
}

extern "C" int tessel_interp_launch(void *kernel, const int64_t grid[3], const TesselArg *args,
                                    int32_t numArgs, char *err, size_t errLen) {
  auto *k = static_cast<InterpKernel *>(kernel);
  const std::vector<ParamInfo> &params = k->compiled->params();
  if (size_t(numArgs) != params.size())
    return fail("tessel: " + k->meta.function + " takes " + std::to_string(params.size()) +
                    " arguments, got " + std::to_string(numArgs),
                err, errLen);
  std::vector<ArgValue> values;
  std::vector<MemoryRegion> memory;
  for (int32_t i = 0; i < numArgs; ++i) {
    const TesselArg &a = args[i];
    const ParamInfo &p = params[size_t(i)];
    ArgValue v;
    if (p.isPointer != (a.kind == TESSEL_ARG_POINTER))
      return fail("tessel: " + k->meta.function + ": argument " + p.name + " is " +
                      (p.isPointer ? "a pointer" : "a scalar (" + p.type + ")"),
                  err, errLen);
    if (a.kind == TESSEL_ARG_POINTER) {
      v.kind = ArgValue::Kind::Pointer, v.address = a.address;
      std::string elt = p.type.substr(p.type.find('<') + 1);
      elt = elt.substr(0, elt.find_first_of(",>"));
      memory.push_back({a.regionBegin, a.regionBytes, p.name,
                        harness::parseDType(elt).value_or(harness::DType::i8)});
    } else if (a.kind == TESSEL_ARG_INT) {
      v.kind = ArgValue::Kind::Int, v.i = a.i;
    } else {
      v.kind = ArgValue::Kind::Float, v.f = a.f;
    }
    values.push_back(v);
  }
  LaunchSpec spec;
  for (int d = 0; d < 3; ++d)
    spec.grid[d] = grid[d];
  if (harness::Status s = k->compiled->run(values, memory, spec); !s)
    return fail(s.message(), err, errLen);
  return 0;
}

extern "C" void tessel_interp_device(char *out, size_t outLen) {
  fail(deviceDescription(), out, outLen);
}
