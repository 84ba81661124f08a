//===- tesselc.cpp - the Tessel compiler driver ---------------------------===//
//
//   tesselc kernels.cpp [-k NAME] [-D FIELD=VALUE ...] [--target=T] [--emit=tile] -o OUT/
//   tesselc kernels.mlir ...
//
// A kernel file is built into a shared object against the DSL (cached by content), loaded,
// and every selected kernel is traced once per (dtype, config) variant into tile IR; each
// variant then runs through the tile pipeline and the requested stages, and lands in OUT/ as
// `<variant>.tile.mlir` plus `<variant>.json` (docs/Artifacts.md). Errors name the user's
// source line; the exit status is 1 after any error.
//
//===----------------------------------------------------------------------===//
#include "Generator.h"
#include "KernelRegistry.h"
#include "KernelTracer.h"
#include "LauncherHeader.h"
#include "TuneRegistry.h"
#include "Twins.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Driver/Compiler.h"
#include "tessel/Driver/ContentCache.h"
#include "tessel/Driver/GPUStages.h"
#include "tessel/Driver/Specialize.h"
#include "tessel/Driver/Stages.h"
#include "tessel/Driver/Targets.h"
#include "tessel/Driver/Version.h"
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllTargets.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::dsl;
using namespace tessel::driver;
namespace cl = llvm::cl;

static cl::OptionCategory tesselCategory("tesselc options");
static cl::OptionCategory mlirCategory("MLIR options (pass manager, printing, timing)");

static cl::list<std::string> inputs(cl::Positional, cl::OneOrMore, cl::cat(tesselCategory),
                                    cl::desc("<kernel file (.cpp) or tile IR (.mlir)>..."));
static cl::opt<std::string> outputDir("o", cl::init("."), cl::cat(tesselCategory),
                                      cl::value_desc("dir"),
                                      cl::desc("Output directory (created); '-' prints the IR "
                                               "to stdout and writes no metadata"));
// main() adds the registered targets to the description.
static cl::opt<std::string> target("target", cl::init(kDefaultTarget.str()),
                                   cl::cat(tesselCategory), cl::value_desc("target"),
                                   cl::desc("Target of the module (tile.target)"));
static cl::opt<bool> specialize(
    "specialize", cl::init(true), cl::cat(tesselCategory),
    cl::desc("For GPU targets, also emit <variant>__div8: the integer arguments that widen a "
             "load or store assumed multiples of 8 (checked at launch; default on)"));
static cl::list<std::string> twins(
    "twin", cl::cat(tesselCategory), cl::value_desc("SUFFIX:ARG=1,ARG=0,ARG%N,..."),
    cl::desc("For GPU targets, also emit <variant>__SUFFIX with these assumptions on integer "
             "arguments (ARG=1: equal to 1, e.g. a unit stride; ARG%N: a multiple of N), checked "
             "at launch; repeatable. E.g. nt:stride_ak=1,stride_bk=1,K%8,stride_am%8,stride_bn%8 "
             "for A and B both contiguous along K"));
static cl::list<std::string> emit("emit", cl::CommaSeparated, cl::cat(tesselCategory),
                                  cl::value_desc("stage,..."));
static cl::list<std::string> kernelNames("k", cl::CommaSeparated, cl::cat(tesselCategory),
                                         cl::value_desc("name"),
                                         cl::desc("Compile only these kernels (repeatable or "
                                                  "comma-separated); default: all"));
static cl::list<std::string> defines("D", cl::Prefix, cl::cat(tesselCategory),
                                     cl::value_desc("FIELD=VALUE"),
                                     cl::desc("Override a config field in every config of the "
                                              "selected kernels that has it (ints, bools, "
                                              "floats, enum names)"));
static cl::list<std::string> dtypes("dtype", cl::CommaSeparated, cl::cat(tesselCategory),
                                    cl::value_desc("dtype"),
                                    cl::desc("Only these dtypes of dtype-generic kernels "
                                             "(f32, f16, bf16, ...)"));
static cl::opt<bool> listKernels("list", cl::cat(tesselCategory),
                                 cl::desc("Print the kernels, their arguments, configs and "
                                          "variant names, and exit"));
static cl::opt<std::string> dumpIR("dump-ir", cl::cat(tesselCategory), cl::value_desc("dir"),
                                   cl::desc("Write the IR after every pass to "
                                            "dir/<variant>/NN-<pass>.mlir (00-trace.mlir: the "
                                            "traced or parsed input)"));
static cl::list<std::string> werror("Werror", cl::CommaSeparated, cl::cat(tesselCategory),
                                    cl::value_desc("perf-fallback"),
                                    cl::desc("Turn these warnings into errors: perf-fallback (a "
                                             "tile.dot that no matrix unit takes runs on FMA "
                                             "units; a remark otherwise), for CI; checked when a "
                                             "GPU stage (--emit=layout or later) runs"));
static cl::opt<bool> debugChecks("debug", cl::cat(tesselCategory),
                                 cl::desc("Keep device_assert checks (tile.assert), as Triton's "
                                          "TRITON_DEBUG; without it they are removed. "
                                          "device_print is always kept"));
static cl::opt<bool> fpFusion("fp-fusion", cl::cat(tesselCategory), cl::init(true),
                              cl::desc("Let the GPU code contract a * b + c into fma, as "
                                       "Triton's enable_fp_fusion (default true; "
                                       "--fp-fusion=false rounds every multiply and add)"));
static cl::opt<bool> verifyEach(
    "verify-each", cl::cat(tesselCategory), cl::init(tessel::driver::verifyEachByDefault()),
    cl::desc("Verify the IR after every pass, not once per pipeline: finds the pass that "
             "produced invalid IR (default off, or TESSEL_VERIFY_EACH=1)"));
static cl::opt<bool> verbose("v", cl::cat(tesselCategory),
                             cl::desc("Print the kernel file's compile command and generator "
                                      "cache hits on stderr"));

/// Exit codes: 0 success, 1 a kernel failed to compile, 2 a usage error (the command line).
static constexpr int kCompileError = 1, kUsageError = 2;

static int usageError(const llvm::Twine &message) {
  llvm::errs() << "tesselc: error: " << message << "\n";
  return kUsageError;
}

/// --emit's description, built from the stage registry.
static std::string emitDescription() {
  std::string d = "Stages to emit (comma-separated; default: tile):";
  for (const Stage &s : getStages())
    d += "\n  " + s.name + ": " + s.description + (s.available() ? "" : " (not yet available)");
  return d;
}

/// Shows tesselc's options and MLIR's (under their own heading) in --help, not LLVM's.
static void organizeHelp() {
  for (auto &entry : cl::getRegisteredOptions())
    if (entry.getKey().starts_with("mlir-"))
      entry.getValue()->addCategory(mlirCategory);
  cl::HideUnrelatedOptions({&tesselCategory, &mlirCategory});
}

namespace {
struct Driver {
  MLIRContext &context;
  CompileOptions compile;
  TimingScope &timing;
  bool emitHeader = false; // --emit=header: <kernel>.h after the kernel's variants
  bool failed = false;
  /// Which kernel produced each variant name (across all input files).
  llvm::StringMap<const KernelInfo *> variantOwners;

  /// Compiles `unit` and its GPU twins (the __div8 one, then --twin's), built first:
  /// compiling consumes the unit.
  void compileUnit(Unit &unit) {
    std::vector<Unit> units;
    if (!StringRef(unit.meta.target).starts_with("interpreter") &&
        !appendTwins(unit, specialize, twins, units))
      failed = true;
    units.insert(units.begin(), std::move(unit));
    for (Unit &u : units) {
      TimingScope scope = timing.nest(u.meta.variant);
      if (mlir::failed(compileVariant(*u.module, std::move(u.meta), compile, scope)))
        failed = true;
    }
  }

  void writeHeader(const KernelInfo &k, const std::vector<ConfigValue> &configs);
  void runMLIRFile(StringRef path, llvm::SourceMgr &sourceMgr);
  void runKernelFile(StringRef path);
};
} // namespace

void Driver::runMLIRFile(StringRef path, llvm::SourceMgr &sourceMgr) {
  std::string error;
  auto buffer = openInputFile(path, &error);
  if (!buffer) {
    llvm::errs() << "tesselc: error: " << error << "\n";
    failed = true;
    return;
  }
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module) { // the parser verifies what it parsed
    failed = true;
    return;
  }
  if (target.getNumOccurrences() || !(*module)->hasAttr(tile::TileDialect::getTargetAttrName()))
    (*module)->setAttr(tile::TileDialect::getTargetAttrName(), StringAttr::get(&context, target));
  std::string moduleTarget =
      (*module)->getAttrOfType<StringAttr>(tile::TileDialect::getTargetAttrName()).str();
  if (llvm::Error err = checkTarget(moduleTarget)) {
    llvm::errs() << "tesselc: error: " << path << ": " << llvm::toString(std::move(err)) << "\n";
    failed = true;
    return;
  }
  for (const std::string &name : kernelNames) {
    auto f = module->lookupSymbol<func::FuncOp>(name);
    if (!f || !tile::isKernel(f)) {
      llvm::errs() << "tesselc: error: no kernel '" << name << "' in " << path << "\n";
      failed = true;
    }
  }
  if (failed)
    return;
  // A file without kernels would "succeed" having written nothing.
  if (llvm::none_of(module->getOps<func::FuncOp>(),
                    [](func::FuncOp f) { return tile::isKernel(f); })) {
    llvm::errs() << "tesselc: error: " << path
                 << ": no kernel (a func.func with the tile.kernel attribute) to compile\n";
    failed = true;
    return;
  }
  llvm::SmallString<256> source(path);
  llvm::sys::fs::make_absolute(source);
  for (OwningOpRef<ModuleOp> &m : splitKernels(*module)) {
    func::FuncOp kernel;
    for (auto f : m->getOps<func::FuncOp>())
      if (tile::isKernel(f))
        kernel = f;
    if (!kernelNames.empty() && !llvm::is_contained(kernelNames, kernel.getSymName()))
      continue;
    if (listKernels) {
      llvm::outs() << kernel.getSymName() << "\n";
      continue;
    }
    Unit unit{std::move(m), {}};
    unit.meta.kernel = unit.meta.variant = kernel.getSymName().str();
    unit.meta.source = source.str().str();
    unit.meta.target = moduleTarget;
    // Hand-written IR's config fields (what the interpreter reads from the module), so that a
    // runner of the variant JSON sees the same ACT, HAS_BIAS, ... as the interpreter.
    if (auto cfg = kernel->getAttrOfType<DictionaryAttr>("tessel.config"))
      for (NamedAttribute a : cfg) {
        if (auto i = dyn_cast<IntegerAttr>(a.getValue()))
          unit.meta.config[a.getName().strref()] = i.getInt();
        else if (auto t = dyn_cast<StringAttr>(a.getValue()))
          unit.meta.config[a.getName().strref()] = t.str();
      }
    fillFromKernel(kernel, unit.meta);
    compileUnit(unit);
  }
}

/// "out: ptr<bf16> (divisibility 16)"; "T" for a type that varies with the kernel's dtype.
static std::string describeArg(const KernelInfo &k, size_t i) {
  const dsl::detail::ArgSpec &a = k.def.variants[0].args[i];
  bool varies = false;
  for (int v = 1; v < k.def.numVariants; ++v)
    varies |= k.def.variants[v].args[i].dtype != a.dtype;
  std::string type = varies ? "T" : dtypeName(a.dtype);
  bool isPtr = a.kind == dsl::detail::ArgKind::ptr;
  std::string s = k.argNames[i] + ": " + (isPtr ? "ptr<" + type + ">" : type);
  if (a.divisibility > 1)
    s += " (divisibility " + std::to_string(a.divisibility) + ")";
  return s;
}

void Driver::runKernelFile(StringRef path) {
  GeneratorOptions options = defaultGeneratorOptions();
  options.verbose = verbose;
  llvm::Expected<std::vector<size_t>> loaded = loadKernelFile(path, options);
  if (!loaded) {
    llvm::errs() << "tesselc: error: " << llvm::toString(loaded.takeError()) << "\n";
    failed = true;
    return;
  }
  std::vector<KernelInfo> &registry = getKernelRegistry();
  std::vector<const KernelInfo *> kernels;
  for (size_t i : *loaded) {
    const KernelInfo &k = registry[i];
    if (!k.error.empty()) {
      emitError(FileLineColLoc::get(&context, k.def.file, k.def.line, 1)) << k.error;
      failed = true;
      continue;
    }
    if (kernelNames.empty() || llvm::is_contained(kernelNames, k.def.name))
      kernels.push_back(&k);
  }
  if (failed)
    return;
  for (const std::string &name : kernelNames)
    if (llvm::none_of(kernels, [&](const KernelInfo *k) { return name == k->def.name; })) {
      std::vector<std::string> names;
      for (size_t i : *loaded)
        names.push_back(registry[i].def.name);
      llvm::errs() << "tesselc: error: no kernel '" << name << "' in " << path
                   << " (kernels: " << llvm::join(names, ", ") << ")\n";
      failed = true;
    }
  if (kernels.empty() && kernelNames.empty()) {
    llvm::errs() << "tesselc: error: " << path << " registers no kernel (TESSEL_KERNEL)\n";
    failed = true;
  }

  // Configs with the -D overrides applied; every -D field must exist in some selected kernel.
  llvm::StringSet<> usedFields;
  llvm::StringSet<> reported; // a bad -D value is reported once, not once per config
  std::vector<std::vector<ConfigValue>> configs;
  for (const KernelInfo *k : kernels) {
    configs.emplace_back();
    for (int c = 0; c < k->def.numConfigs; ++c) {
      ConfigValue value(*k->def.config, k->def.configs[c]);
      for (const std::string &d : defines) {
        if (!StringRef(d).contains('='))
          continue; // reported below
        auto [field, text] = StringRef(d).split('=');
        bool has = false;
        for (int f = 0; f < k->def.config->numFields; ++f)
          has |= field == k->def.config->fields[f].name;
        if (!has)
          continue;
        usedFields.insert(field);
        if (llvm::Error err = value.set(field, text)) {
          std::string message = "-D" + d + ": " + llvm::toString(std::move(err));
          if (reported.insert(message).second)
            llvm::errs() << "tesselc: error: " << message << "\n";
          failed = true;
        }
      }
      configs.back().push_back(std::move(value));
    }
  }
  for (const std::string &d : defines) {
    auto [field, text] = StringRef(d).split('=');
    if (!StringRef(d).contains('=')) {
      llvm::errs() << "tesselc: error: -D" << d << ": expected FIELD=VALUE\n";
      failed = true;
    } else if (!usedFields.contains(field)) {
      std::string fields;
      for (const KernelInfo *k : kernels) {
        std::vector<std::string> names;
        for (int f = 0; f < k->def.config->numFields; ++f)
          names.push_back(k->def.config->fields[f].name);
        fields += (fields.empty() ? "" : "; ") + std::string(k->def.name) + ": " +
                  llvm::join(names, ", ");
      }
      llvm::errs() << "tesselc: error: -D" << d << ": unknown config field '" << field << "' ("
                   << fields << ")\n";
      failed = true;
    }
  }
  for (const std::string &t : dtypes) {
    bool known = false;
    for (int i = 0; i <= static_cast<int>(DType::f8e5m2); ++i)
      known |= t == dtypeName(static_cast<DType>(i));
    if (!known) {
      llvm::errs() << "tesselc: error: --dtype=" << t << ": unknown dtype\n";
      failed = true;
      continue;
    }
    // Like -D: a dtype that no selected kernel has would silently compile nothing of it.
    std::string have;
    bool found = false;
    for (const KernelInfo *k : kernels) {
      std::vector<std::string> types;
      for (int v = 0; v < k->def.numVariants; ++v)
        if (k->def.variants[v].generic)
          types.push_back(dtypeName(k->def.variants[v].dtype));
      found |= llvm::is_contained(types, t);
      have += (have.empty() ? "" : "; ") + std::string(k->def.name) + ": " +
              (types.empty() ? "not dtype-generic" : llvm::join(types, ", "));
    }
    if (!found) {
      llvm::errs() << "tesselc: error: --dtype=" << t << ": no selected kernel has this dtype ("
                   << have << ")\n";
      failed = true;
    }
  }
  if (failed)
    return;

  for (auto [k, kernelConfigs] : llvm::zip(kernels, configs)) {
    const dsl::detail::KernelDef &def = k->def;
    if (listKernels) {
      llvm::outs() << "kernel " << def.name << " (" << def.file << ":" << def.line << ")\n";
      std::vector<std::string> args, types;
      for (size_t i = 0; i < k->argNames.size(); ++i)
        args.push_back(describeArg(*k, i));
      llvm::outs() << "  args: " << llvm::join(args, ", ") << "\n";
      for (int v = 0; v < def.numVariants; ++v)
        if (def.variants[v].generic)
          types.push_back(dtypeName(def.variants[v].dtype));
      if (!types.empty())
        llvm::outs() << "  dtypes: " << llvm::join(types, ", ") << "\n";
      llvm::outs() << "  configs (" << def.config->typeName << "):\n";
      for (const ConfigValue &c : kernelConfigs) {
        std::vector<std::string> fields;
        for (int f = 0; f < def.config->numFields; ++f)
          fields.push_back(std::string(def.config->fields[f].name) + "=" +
                           c.format(def.config->fields[f]));
        llvm::outs() << "    " << llvm::join(fields, " ") << "\n";
      }
      llvm::outs() << "  variants:\n";
    }
    for (int v = 0; v < def.numVariants; ++v) {
      const dsl::detail::VariantDef &variant = def.variants[v];
      if (variant.generic && !dtypes.empty() &&
          !llvm::is_contained(dtypes, dtypeName(variant.dtype)))
        continue;
      bool kernelFailed = false;
      for (size_t ci = 0; ci < kernelConfigs.size(); ++ci) {
        const ConfigValue &config = kernelConfigs[ci];
        std::string name = variantName(*k, variant, config);
        auto [it, inserted] = variantOwners.try_emplace(name, k);
        if (!inserted && it->second == k)
          continue; // -D made two configs equal
        if (!inserted) {
          llvm::errs() << "tesselc: error: two kernels named '" << def.name
                       << "' produce the variant " << name << "\n";
          failed = kernelFailed = true;
          break;
        }
        if (listKernels) {
          llvm::outs() << "    " << name << "\n";
          continue;
        }
        TimingScope traceTiming = timing.nest("trace");
        OwningOpRef<ModuleOp> module = traceVariant(context, *k, variant, config, name, target);
        traceTiming.stop();
        if (!module) {
          failed = kernelFailed = true;
          break; // the other configs of this kernel would repeat the error
        }
        Unit unit{std::move(module), {}};
        VariantMetadata &meta = unit.meta;
        meta.kernel = def.name;
        meta.variant = name;
        meta.source = def.file;
        if (variant.generic)
          meta.dtype = dtypeName(variant.dtype);
        meta.target = target;
        meta.config = config.toJSON();
        if (ci < size_t(def.numConfigs) &&
            ConfigValue(*def.config, def.configs[ci]).toJSON() == meta.config)
          meta.configIndex = int(ci);
        meta.tuningKeys = tuningKeys(findTuning(def.name, def.file));
        for (auto f : unit.module->getOps<func::FuncOp>())
          if (f.getSymName() == name)
            fillFromKernel(f, meta, k->argNames);
        compileUnit(unit);
      }
      if (kernelFailed)
        break;
    }
    if (emitHeader && !listKernels)
      writeHeader(*k, kernelConfigs);
  }
}

/// OUT/<kernel>.h: the typed launch functions of every selected dtype (LauncherHeader.h).
void Driver::writeHeader(const KernelInfo &k, const std::vector<ConfigValue> &configs) {
  std::vector<HeaderVariant> variants;
  for (int v = 0; v < k.def.numVariants; ++v) {
    const dsl::detail::VariantDef &variant = k.def.variants[v];
    if (variant.generic && !dtypes.empty() && !llvm::is_contained(dtypes, dtypeName(variant.dtype)))
      continue;
    HeaderVariant hv{&variant, variantName(k, variant, configs[0]), {}, {}};
    for (const ConfigValue &c : configs) {
      hv.configNames.push_back(variantName(k, variant, c));
      hv.configs.push_back(c.get());
    }
    variants.push_back(std::move(hv));
  }
  std::string text, error;
  if (!generateLauncherHeader(k, findTuning(k.def.name, k.def.file), variants, text, error)) {
    llvm::errs() << k.def.file << ":" << k.def.line << ": error: " << error << "\n";
    failed = true;
    return;
  }
  if (compile.outputDir == "-") {
    llvm::outs() << text;
    return;
  }
  llvm::SmallString<256> path(compile.outputDir);
  llvm::sys::path::append(path, std::string(k.def.name) + ".h");
  if (std::error_code ec = llvm::sys::fs::create_directories(compile.outputDir)) {
    llvm::errs() << "tesselc: error: cannot create '" << compile.outputDir << "': " << ec.message()
                 << "\n";
    failed = true;
    return;
  }
  if (llvm::Error err = writeFileAtomically(path, text)) {
    llvm::errs() << "tesselc: error: " << llvm::toString(std::move(err)) << "\n";
    failed = true;
  }
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllTargets();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerGPUStages();
  // The header is written per kernel after its variants (writeHeader), not per variant: the
  // stage is listed for --emit and --help and never runs.
  registerStage({"header", "C++ launch functions per kernel: <kernel>.h (docs/Autotuning.md)", ".h",
                 [](ModuleOp, const StageContext &, std::string &) { return failure(); }});
  std::string emitHelp = emitDescription();
  emit.setDescription(emitHelp);
  std::string targetHelp =
      "Target of the module (tile.target): " + llvm::join(getTargetNames(), ", ") +
      " (default: " + kDefaultTarget.str() + ")";
  target.setDescription(targetHelp);
  organizeHelp();
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "tesselc " << kCompilerVersion << " (Tessel; DSL " << TESSEL_DSL_VERSION << ")\n";
  });
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "tesselc: compile Tessel kernels (C++ kernel files or tile "
                                   "IR)\n\n"
                                   "  tesselc kernels.cpp [-k NAME] [-D FIELD=VALUE] [--target=T] "
                                   "[--emit=tile] -o OUT/\n",
                                   &llvm::errs()))
    return kUsageError;

  if (llvm::Error err = checkTarget(target))
    return usageError(llvm::toString(std::move(err)));
  CompileOptions compile;
  compile.outputDir = outputDir;
  compile.dumpDir = dumpIR;
  compile.debug = debugChecks;
  compile.fpFusion = fpFusion;
  compile.verifyEach = verifyEach;
  for (const std::string &w : werror) {
    if (w != "perf-fallback")
      return usageError("unknown --Werror value '" + w + "'; known: perf-fallback");
    compile.perfFallbackError = true;
  }
  std::vector<std::string> requested(emit.begin(), emit.end());
  // The header is written per kernel, after its variants, not per variant like the stages.
  bool emitHeader = llvm::is_contained(requested, "header");
  llvm::erase(requested, "header");
  if (requested.empty() && !emitHeader)
    requested.push_back("tile");
  for (const std::string &name : requested) {
    const Stage *stage = findStage(name);
    if (!stage) {
      std::vector<std::string> names;
      for (const Stage &s : getStages())
        names.push_back(s.name);
      return usageError("unknown --emit stage '" + name + "'; stages: " + llvm::join(names, ", "));
    }
    if (!stage->available()) {
      std::vector<std::string> names;
      for (const Stage &s : getStages())
        if (s.available())
          names.push_back(s.name);
      return usageError("stage '" + name + "' is not yet available in this build (available: " +
                        llvm::join(names, ", ") + ")");
    }
  }
  for (const Stage &s : getStages())
    if (llvm::is_contained(requested, s.name))
      compile.stages.push_back(&s);

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  loadKernelDialects(context);
  // Errors name the user's C++ line; the IR of the whole kernel under them (MLIR's default) buries
  // the message, so tesselc prints it only when asked (--mlir-print-op-on-diagnostic).
  if (auto *opt = cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic");
      !opt || opt->getNumOccurrences() == 0)
    context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // The variants of one kernel (configs, dtypes, __div8 twins) share its source lines: a
  // diagnostic they repeat word for word at the same line is printed once. Handlers run
  // newest first; this one swallows a repeat and passes anything new on to the printer.
  llvm::StringSet<> printed;
  context.getDiagEngine().registerHandler([&](Diagnostic &diag) {
    std::string key;
    llvm::raw_string_ostream os(key);
    os << int(diag.getSeverity()) << ' ' << diag.getLocation() << ' ' << diag.str();
    return success(!printed.insert(os.str()).second);
  });

  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  Driver driver{context, compile, timing, emitHeader};
  for (const std::string &input : inputs) {
    if (!llvm::sys::fs::exists(input))
      return usageError("cannot open '" + input + "': no such file");
    if (!defines.empty() && StringRef(input).ends_with(".mlir"))
      return usageError("-D applies to kernel files, not to " + input);
    if (emitHeader && StringRef(input).ends_with(".mlir"))
      return usageError("--emit=header needs a kernel file (its arguments and grid), not " + input);
  }
  for (const std::string &input : inputs) {
    if (StringRef(input).ends_with(".mlir"))
      driver.runMLIRFile(input, sourceMgr);
    else
      driver.runKernelFile(input);
  }
  return driver.failed ? kCompileError : 0;
}
