//===- GPUStages.cpp - the layout, llvm, ptx and cubin stages -------------===//
//
// Each stage brings the module as far as it needs: `layout` runs the layout passes, the later
// stages the LLVM lowering and one code-generation run (LLVM IR, assembly and binary together,
// kept in StageContext::products for the stages after it). Targets are checked first: a stage
// of another chip family, or a config that does not fit the chip, is an error.
//
//===----------------------------------------------------------------------===//
#include "tessel/Driver/GPUStages.h"

#include "tessel/Dialect/TileGPU/IR/TileGPU.h"
#include "tessel/Driver/GPUPipeline.h"
#include "tessel/Driver/Metadata.h"
#include "tessel/Driver/Stages.h"
#include "tessel/Driver/TilePipeline.h"
#include "tessel/Target/TargetRegistry.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::driver;

namespace {

/// Marks how far a module was lowered so that stages run in sequence without repeating work.
constexpr llvm::StringLiteral kStageAttr = "tessel.stage";

std::unique_ptr<TargetInfo> targetFor(ModuleOp module, const StageContext &context, StringRef stage,
                                      StringRef family) {
  if (!StringRef(context.target).starts_with(family.str() + ":")) {
    emitError(module.getLoc()) << "stage '" << stage << "' needs a " << family << " target, not '"
                               << context.target << "'";
    return nullptr;
  }
  std::string error;
  std::unique_ptr<TargetInfo> target = createTargetInfo(context.target, error);
  if (!target)
    emitError(module.getLoc()) << error;
  return target;
}

LogicalResult runPasses(ModuleOp module, const StageContext &context, const TargetInfo &target,
                        GPUStage from, GPUStage until, StringRef timingName) {
  PassManager pm(module->getContext());
  buildGPUPipeline(pm, target, from, until, context.perfFallbackError);
  TimingScope timing = context.timing->nest(timingName);
  pm.enableTiming(timing);
  if (context.dumper)
    context.dumper->attach(pm);
  return runPipeline(pm, module, context.verifyEach);
}

/// Brings `module` to `stage` (layout IR or the LLVM dialect).
LogicalResult lowerTo(ModuleOp module, const StageContext &context, const TargetInfo &target,
                      GPUStage stage) {
  auto current = module->getAttrOfType<StringAttr>(kStageAttr);
  bool atLayout = current && current.getValue() == "layout";
  bool atLLVM = current && current.getValue() == "llvm";
  if (atLLVM || (atLayout && stage == GPUStage::Layout))
    return success();
  if (!atLayout) {
    if (failed(checkTargetLimits(module, target)))
      return failure();
    if (failed(runPasses(module, context, target, GPUStage::Tile, GPUStage::Layout, "layout")))
      return failure();
    module->setAttr(kStageAttr, StringAttr::get(module->getContext(), "layout"));
    if (stage == GPUStage::Layout)
      return success();
  }
  if (failed(runPasses(module, context, target, GPUStage::Layout, GPUStage::LLVMDialect,
                       "llvm lowering")) ||
      failed(checkSharedMemory(module, target)))
    return failure();
  module->setAttr(kStageAttr, StringAttr::get(module->getContext(), "llvm"));
  return success();
}

/// kTensorMapsAttrName's dictionaries as JSON objects (integers, strings, arrays of them).
llvm::json::Value tensorMapsJSON(ArrayAttr maps) {
  std::function<llvm::json::Value(Attribute)> convert = [&](Attribute a) -> llvm::json::Value {
    if (auto i = dyn_cast<IntegerAttr>(a))
      return i.getInt();
    if (auto s = dyn_cast<StringAttr>(a))
      return s.str();
    if (auto d = dyn_cast<DictionaryAttr>(a)) {
      llvm::json::Object o;
      for (NamedAttribute n : d)
        o[n.getName().strref()] = convert(n.getValue());
      return o;
    }
    llvm::json::Array list;
    if (auto arr = dyn_cast<ArrayAttr>(a))
      for (Attribute e : arr)
        list.push_back(convert(e));
    return list;
  };
  return convert(maps);
}

/// LLVM IR, assembly and binary of the module's kernel, computed once per variant.
LogicalResult codegen(ModuleOp module, const StageContext &context, const TargetInfo &target) {
  if (context.products->count("assembly"))
    return success();
  if (failed(lowerTo(module, context, target, GPUStage::LLVMDialect)))
    return failure();
  LLVM::LLVMFuncOp kernel;
  for (auto f : module.getOps<LLVM::LLVMFuncOp>())
    if (f->hasAttr(tile::TileDialect::getKernelAttrName()))
      kernel = f;
  if (!kernel)
    return emitError(module.getLoc()) << "no kernel left to compile";
  TimingScope timing = context.timing->nest("codegen");
  CompiledKernel out;
  std::string error;
  if (failed(compileKernel(module, kernel.getSymName(), target, out, error)))
    return emitError(kernel.getLoc()) << error;
  (*context.products)["llvm"] = out.llvmIR;
  (*context.products)["assembly"] = out.assembly;
  (*context.products)["binary"] = out.binary;
  (*context.products)["binary_note"] = out.binaryNote;
  if (VariantMetadata *meta = context.meta) {
    meta->threadsPerWarp = target.getWarpSize();
    // num_warps is the launch's: a warp-specialized kernel's producer warps come on top of the
    // config's (the config object keeps the config's value).
    if (auto p = kernel->getAttrOfType<IntegerAttr>(tile::TileDialect::getProducerWarpsAttrName()))
      if (auto w = kernel->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName()))
        meta->numWarps = w.getInt() + p.getInt();
    if (auto smem =
            kernel->getAttrOfType<IntegerAttr>(tile_gpu::TileGPUDialect::getSharedMemoryAttrName()))
      meta->sharedMemory = smem.getInt();
    meta->resources = out.usage;
    if (auto maps = module->getAttrOfType<ArrayAttr>(kTensorMapsAttrName))
      meta->tensorMaps = tensorMapsJSON(maps);
    if (!out.binaryMetadata.empty()) {
      llvm::Expected<llvm::json::Value> md = llvm::json::parse(out.binaryMetadata);
      if (!md)
        return emitError(kernel.getLoc())
               << "the backend's binary metadata is not JSON: " << llvm::toString(md.takeError());
      meta->binaryMetadata = std::move(*md);
    }
  }
  return success();
}

/// The chip family of a GPU target ("cuda" or "hip"), for the stages that take either; an
/// error naming `stage` for any other target.
FailureOr<StringRef> gpuFamily(ModuleOp module, const StageContext &context, StringRef stage) {
  StringRef family = StringRef(context.target).split(':').first;
  if (family != "cuda" && family != "hip") {
    emitError(module.getLoc()) << "stage '" << stage
                               << "' needs a GPU target (cuda:... or hip:...), not '"
                               << context.target << "'";
    return failure();
  }
  return family;
}

LogicalResult layoutStage(ModuleOp module, const StageContext &context, std::string &artifact) {
  FailureOr<StringRef> family = gpuFamily(module, context, "layout");
  if (failed(family))
    return failure();
  std::unique_ptr<TargetInfo> target = targetFor(module, context, "layout", *family);
  if (!target || failed(lowerTo(module, context, *target, GPUStage::Layout)))
    return failure();
  artifact = printWithLocations(module);
  return success();
}

LogicalResult llvmStage(ModuleOp module, const StageContext &context, std::string &artifact) {
  FailureOr<StringRef> family = gpuFamily(module, context, "llvm");
  if (failed(family))
    return failure();
  std::unique_ptr<TargetInfo> target = targetFor(module, context, "llvm", *family);
  if (!target || failed(codegen(module, context, *target)))
    return failure();
  artifact = (*context.products)["llvm"];
  return success();
}

/// ptx / amdgcn: the assembly; cubin / hsaco: the binary.
std::function<LogicalResult(ModuleOp, const StageContext &, std::string &)>
assemblyOrBinary(StringRef stage, StringRef family, bool binary) {
  return [stage = stage.str(), family = family.str(), binary](
             ModuleOp module, const StageContext &context, std::string &artifact) -> LogicalResult {
    std::unique_ptr<TargetInfo> target = targetFor(module, context, stage, family);
    if (!target || failed(codegen(module, context, *target)))
      return failure();
    if (!binary) {
      artifact = (*context.products)["assembly"];
      return success();
    }
    artifact = (*context.products)["binary"];
    if (artifact.empty())
      return emitError(module.getLoc())
             << "cannot produce the " << stage << ": " << (*context.products)["binary_note"];
    return success();
  };
}

} // namespace

void tessel::driver::registerGPUStages() {
  auto replace = [](StringRef name, auto run) {
    Stage stage = *findStage(name);
    stage.run = run;
    registerStage(std::move(stage));
  };
  replace("layout", layoutStage);
  replace("llvm", llvmStage);
  replace("ptx", assemblyOrBinary("ptx", "cuda", /*binary=*/false));
  replace("cubin", assemblyOrBinary("cubin", "cuda", /*binary=*/true));
  replace("amdgcn", assemblyOrBinary("amdgcn", "hip", /*binary=*/false));
  replace("hsaco", assemblyOrBinary("hsaco", "hip", /*binary=*/true));
}
