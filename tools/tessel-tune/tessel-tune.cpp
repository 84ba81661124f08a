//===- tessel-tune.cpp - the autotuner: prune, compile, time, cache --------===//
//
//   tessel-tune kernels.cpp -k softmax --dtype=bf16 --shape 4096x4096 --target=cuda:sm_90a
//               [-o DIR] [-j N] [--compile-only] [--time-on=cuda|hip|interpreter]
//
// For each selected kernel that declares a space (TESSEL_TUNE) and each dtype: resolve the
// space's keys from each shape's problem, look them up in the tuning cache (a hit compiles
// nothing), drop configs that cannot fit the target before compiling (SpacePruning.h), compile
// the survivors in parallel (ParallelCompile.h) into DIR/<kernel>__<dtype>/ with a manifest,
// then time them (TimingSide.h; unless --compile-only, for a GPU machine's tessel-tune-gpu).
// docs/Autotuning.md is the guide.
//
//===----------------------------------------------------------------------===//
#include "Generator.h"
#include "KernelRegistry.h"
#include "ManifestWriter.h"
#include "ParallelCompile.h"
#include "SpacePruning.h"
#include "TimingSide.h"
#include "TuneRegistry.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Driver/GPUStages.h"
#include "tessel/Driver/Targets.h"
#include "tessel/Driver/Version.h"
#include "tessel/Harness/Problem.h"
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllTargets.h"
#include "tessel/Tuning/SpillPruning.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

using namespace mlir;
using namespace tessel;
using namespace tessel::tune;
namespace cl = llvm::cl;

static cl::OptionCategory category("tessel-tune options");
static cl::opt<std::string> input(cl::Positional, cl::Required, cl::cat(category),
                                  cl::desc("<kernel file (.cpp)>"));
static cl::list<std::string> kernelNames("k", cl::CommaSeparated, cl::cat(category),
                                         cl::value_desc("name"),
                                         cl::desc("Tune only these kernels (default: every "
                                                  "kernel with a TESSEL_TUNE space)"));
static cl::list<std::string> dtypes("dtype", cl::CommaSeparated, cl::cat(category),
                                    cl::value_desc("dtype"),
                                    cl::desc("Only these dtypes of dtype-generic kernels"));
static cl::list<std::string> shapes("shape", cl::cat(category), cl::value_desc("AxB"),
                                    cl::desc("A problem shape to tune (repeatable); the "
                                             "problem's arguments give the space's key values"));
static cl::list<std::string> keyValues(
    "key", cl::cat(category), cl::value_desc("NAME=VALUE"),
    cl::desc("A key's value for every --shape (repeatable): with every key given, the compile "
             "side builds no problem (whose inputs and reference a large shape makes costly)"));
static cl::list<std::string> problemOptions(
    "opt", cl::cat(category), cl::value_desc("KEY=VALUE"),
    cl::desc("A problem option for every --shape (repeatable; tessel-run's --opt, e.g. rope's "
             "layout=bshd): kept in the manifest, so the GPU side times the same problem"));
static cl::opt<std::string> problemName("problem", cl::cat(category), cl::value_desc("name"),
                                        cl::desc("The harness problem (default: the kernel's, "
                                                 "as tessel-run picks it)"));
static cl::opt<std::string> target("target", cl::init(driver::kDefaultTarget.str()),
                                   cl::cat(category), cl::value_desc("target"),
                                   cl::desc("Compile target; its limits prune the space"));
static cl::list<std::string> emit("emit", cl::CommaSeparated, cl::cat(category),
                                  cl::value_desc("stage,..."),
                                  cl::desc("Stages to write (default: tile, plus cubin for "
                                           "cuda targets and hsaco for hip targets)"));
static cl::opt<std::string> outputDir("o", cl::init("tune"), cl::cat(category),
                                      cl::value_desc("dir"),
                                      cl::desc("Tuning directory: DIR/<kernel>__<dtype>/"));
static cl::opt<unsigned> jobs("j", cl::init(0), cl::cat(category), cl::value_desc("N"),
                              cl::desc("Compile threads (default: one per core)"));
static cl::opt<std::string>
    twin("twin", cl::cat(category), cl::value_desc("SUFFIX:ARG=1,ARG=0,ARG%N,..."),
         cl::desc("Each variant's twin is this one (tesselc's --twin) instead of __div8: "
                  "e.g. the TMA GEMM's nn:stride_ak=1,stride_bn=1,..."));
static cl::opt<bool> compileOnly("compile-only", cl::cat(category),
                                 cl::desc("Prune and compile, write the manifests, time nothing "
                                          "(for tessel-tune-gpu on a GPU machine)"));
static cl::opt<std::string> timeOn("time-on", cl::cat(category), cl::value_desc("executor"),
                                   cl::desc("cuda, hip or interpreter (default: the GPU if one "
                                            "is found, else the interpreter)"));
static cl::opt<std::string> cachePath("cache", cl::cat(category), cl::value_desc("file"),
                                      cl::desc("Tuning cache (default: $TESSEL_TUNING_CACHE, "
                                               "else <cache dir>/tuning.json)"));
static cl::opt<int> reps("reps", cl::init(100), cl::cat(category),
                         cl::desc("Timed launches per variant (the median counts)"));
static cl::opt<int> warmup("warmup", cl::init(10), cl::cat(category),
                           cl::desc("Untimed launches first"));
static cl::opt<double> warmMs("warm-ms", cl::init(0), cl::cat(category),
                              cl::desc("Untimed launches of each variant for at least this many "
                                       "ms first (the GPU's clock under sustained load)"));
static cl::opt<bool> force("force", cl::cat(category),
                           cl::desc("Compile and time even when the cache has the key"));
static cl::opt<bool> keepSpilling(
    "keep-spilling", cl::cat(category),
    cl::desc("Time variants whose binaries spill registers too (by default a shape times them "
             "only when every variant it admits spills)"));
static cl::opt<bool> verbose("v", cl::cat(category),
                             cl::desc("List every dropped config with its estimate"));

static constexpr int kFailed = 1, kUsageError = 2;

static int usageError(const llvm::Twine &message) {
  llvm::errs() << "tessel-tune: error: " << message << "\n";
  return kUsageError;
}

static std::string lower(StringRef s) { return s.lower(); }

/// --opt's KEY=VALUE pairs; false after a usage error.
static bool parseProblemOptions(std::map<std::string, std::string> &out) {
  for (StringRef kv : problemOptions) {
    auto [key, value] = kv.split('=');
    if (key.empty() || !kv.contains('=')) {
      usageError("--opt " + kv + ": expected KEY=VALUE");
      return false;
    }
    out[key.str()] = value.str();
  }
  return true;
}

/// The key values of one shape, from the problem's arguments (names and aliases).
static bool resolveKeys(const dsl::KernelInfo &k, const dsl::TuneInfo &space,
                        const dsl::ConfigValue &defaults, dsl::DType dtype,
                        const std::string &shape, ShapeKeys &out) {
  harness::ProblemOptions po;
  po.name = problemName.empty() ? std::string(k.def.name) : problemName.getValue();
  po.shape = harness::parseShape(shape);
  if (po.shape.empty()) {
    usageError("bad --shape '" + shape + "' (expected e.g. 4096x4096)");
    return false;
  }
  out.shape = po.shape;
  if (!parseProblemOptions(po.options))
    return false;
  std::map<std::string, int64_t> given;
  for (StringRef kv : keyValues) {
    auto [name, text] = kv.split('=');
    int64_t v = 0;
    if (text.getAsInteger(10, v)) {
      usageError("--key " + kv + ": expected NAME=INTEGER");
      return false;
    }
    if (!llvm::is_contained(space.def.keys, name.str())) {
      usageError("--key " + kv + ": " + k.def.name + "'s keys are " +
                 llvm::join(space.def.keys, ", "));
      return false;
    }
    given[name.str()] = v;
  }
  if (llvm::all_of(space.def.keys, [&](const std::string &k) { return given.count(k); })) {
    for (size_t i = 0; i < space.def.keys.size(); ++i) {
      out.values.push_back(given[space.def.keys[i]]);
      out.buckets.push_back(dsl::bucketOf(out.values.back(), space.def.buckets[i]));
    }
    return true;
  }
  auto dt = harness::parseDType(dsl::dtypeName(dtype));
  po.dtype = dt ? *dt : harness::DType::f32;
  llvm::json::Object config = defaults.toJSON();
  for (auto &[key, value] : config)
    if (std::optional<int64_t> i = value.getAsInteger())
      po.config[key.str()] = *i;
  // The arguments alone: no random inputs, no reference (a 16x57344x8192 GEMM's would take
  // minutes here).
  po.draw = false;
  po.reference = false;
  harness::Problem p;
  if (harness::Status s = harness::makeProblem(po, p); !s) {
    usageError(s.message());
    return false;
  }
  for (size_t i = 0; i < space.def.keys.size(); ++i) {
    const std::string &key = space.def.keys[i];
    const harness::ProblemArg *found = nullptr;
    for (const harness::ProblemArg &a : p.args) {
      bool match = lower(a.name) == lower(key);
      for (const std::string &alias : a.aliases)
        match |= lower(alias) == lower(key);
      if (match && a.kind == harness::LaunchArg::Kind::Int)
        found = &a;
    }
    if (!found) {
      std::vector<std::string> names;
      for (const harness::ProblemArg &a : p.args)
        if (a.kind == harness::LaunchArg::Kind::Int)
          names.push_back(a.name);
      usageError(llvm::Twine("key '") + key + "' of " + k.def.name + ": problem " + po.name +
                 " has no integer argument of that name (its integer arguments: " +
                 llvm::join(names, ", ") + "); rename the key or pass --problem");
      return false;
    }
    out.values.push_back(found->i);
    out.buckets.push_back(dsl::bucketOf(found->i, space.def.buckets[i]));
  }
  return true;
}

static std::string keyText(const dsl::TuneInfo &space, const ShapeKeys &s) {
  std::string t;
  for (size_t i = 0; i < space.def.keys.size(); ++i)
    t += llvm::formatv(" {0}={1}", space.def.keys[i], s.values[i]).str() +
         (s.buckets[i] != s.values[i] ? llvm::formatv(" (bucket {0})", s.buckets[i]).str() : "");
  return t;
}

namespace {
/// Everything one run shares.
struct Tuner {
  MLIRContext &context;
  driver::CompileOptions compile;
  std::unique_ptr<harness::Executor> executor; // null with --compile-only
  tuning::TuningCache cache;
  tuning::TuneOptions timing;
  bool failed = false;

  void tuneVariant(const dsl::KernelInfo &k, const dsl::detail::VariantDef &variant,
                   const dsl::TuneInfo &space);
};
} // namespace

void Tuner::tuneVariant(const dsl::KernelInfo &k, const dsl::detail::VariantDef &variant,
                        const dsl::TuneInfo &space) {
  dsl::ConfigValue defaults(*k.def.config, k.def.configs[0]);
  std::string dtype = variant.generic ? dsl::dtypeName(variant.dtype) : "";
  std::string title = std::string(k.def.name) + (dtype.empty() ? "" : " " + dtype);

  // The shapes' keys; those the cache already has need no compile.
  std::vector<ShapeKeys> keys;
  for (const std::string &shape : shapes) {
    ShapeKeys s;
    if (!resolveKeys(k, space, defaults, variant.dtype, shape, s)) {
      failed = true;
      return;
    }
    if (executor && !force) {
      tuning::TuningKey key{k.def.name,
                            dtype,
                            {},
                            executor->describe(),
                            executor->driverVersion(),
                            driver::kCompilerVersion,
                            // A --twin's suffix: the layout the timing will launch first.
                            twin.substr(0, twin.find(':'))};
      for (size_t i = 0; i < space.def.keys.size(); ++i)
        key.keys[space.def.keys[i]] = s.buckets[i];
      if (const tuning::TuningEntry *e = cache.find(key)) {
        llvm::outs() << llvm::formatv("{0} [{1}]{2}: cache hit: {3} ({4:F4} ms); nothing to "
                                      "compile\n",
                                      title, shape, keyText(space, s), e->variant, e->ms);
        continue;
      }
    }
    keys.push_back(std::move(s));
  }
  if (keys.empty() && !shapes.empty())
    return;

  // Prune, then compile the survivors.
  std::vector<Survivor> survivors;
  PruneReport report;
  if (!pruneSpace(context, k, variant, space, keys, target, survivors, report)) {
    failed = true;
    return;
  }
  std::string limits;
  for (const char *l : {"threads per program", "shared memory", "registers per thread"})
    limits += llvm::formatv(", {0} by {1}", report.byLimit[l], l).str();
  llvm::outs() << llvm::formatv("{0}: space of {1} configs; dropped before compiling: {2} by "
                                "where (between fields), {3} by where with keys{4}; compiling "
                                "{5}\n",
                                title, report.declared, report.byWhere, report.byKeys, limits,
                                survivors.size());
  if (verbose)
    for (const std::string &d : report.dropped)
      llvm::outs() << "  dropped " << d << "\n";
  llvm::SmallString<256> dir(outputDir);
  llvm::sys::path::append(dir, std::string(k.def.name) + (dtype.empty() ? "" : "__" + dtype));
  driver::CompileOptions options = compile;
  options.outputDir = dir.str().str();
  std::vector<CompileJob> jobs;
  for (Survivor &s : survivors)
    jobs.push_back({&k, &variant, s.config.get(), s.name});
  auto start = std::chrono::steady_clock::now();
  compileInParallel(jobs, options, target, ::jobs, /*quiet=*/false, twin);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int ok = 0, bad = 0, binaries = 0;
  for (const CompileJob &j : jobs) {
    (j.ok ? ok : bad)++;
    binaries += j.ok && j.binaryOf.empty();
  }
  llvm::outs() << llvm::formatv("{0}: compiled {1} variants ({2} binaries, {3} failed) in {4:F2} "
                                "s, {5:F1} variants/s on {6} threads\n",
                                title, ok, binaries, bad, seconds, seconds > 0 ? ok / seconds : 0.0,
                                llvm::hardware_concurrency(::jobs).compute_thread_count());
  if (bad)
    failed = true;

  // The manifest.
  tuning::Manifest m;
  m.dir = options.outputDir;
  m.kernel = k.def.name;
  m.problem = problemName.empty() ? std::string(k.def.name) : problemName.getValue();
  m.dtype = dtype;
  m.target = target;
  m.compiler = driver::kCompilerVersion;
  m.source = k.def.file;
  m.defaultVariant = dsl::variantName(k, variant, defaults);
  m.keyNames = space.def.keys;
  parseProblemOptions(m.options); // checked by resolveKeys
  for (dsl::Bucket b : space.def.buckets)
    m.keyBuckets.push_back(b == dsl::Bucket::pow2 ? "pow2" : "exact");
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!jobs[i].ok)
      continue;
    tuning::ManifestVariant v;
    v.name = jobs[i].name;
    v.json = v.name + ".json";
    v.twin = jobs[i].twin.empty() ? "" : jobs[i].twin + ".json";
    v.spillBytes = jobs[i].spillBytes;
    for (auto &[key, value] : jobs[i].config->toJSON())
      if (std::optional<int64_t> n = value.getAsInteger())
        v.config[key.str()] = *n;
      else if (std::optional<bool> b = value.getAsBoolean())
        v.config[key.str()] = *b;
    m.variants.push_back(std::move(v));
  }
  for (size_t s = 0; s < keys.size(); ++s) {
    tuning::ManifestShape ms{keys[s].shape, keys[s].values, keys[s].buckets, {}};
    for (size_t i = 0; i < jobs.size(); ++i)
      if (jobs[i].ok && llvm::is_contained(survivors[i].shapes, s))
        ms.variants.push_back(jobs[i].name);
    m.shapes.push_back(std::move(ms));
  }
  tuning::SpillPruneReport spills;
  if (!keepSpilling)
    spills = tuning::dropSpillingVariants(m);
  if (!spills.removed.empty()) {
    llvm::outs() << llvm::formatv("{0}: not timed: {1} variants that spill registers (the "
                                  "assembler's count; --keep-spilling times them)\n",
                                  title, spills.removed.size());
    if (verbose)
      for (const std::string &r : spills.removed)
        llvm::outs() << "  not timed " << r << "\n";
  }
  if (spills.shapesAllSpilling)
    llvm::outs() << llvm::formatv("{0}: warning: every variant spills at {1} shape(s); timing "
                                  "them anyway\n",
                                  title, spills.shapesAllSpilling);
  if (llvm::Error err = writeManifest(m, report, ok, bad, seconds, spills.removed.size())) {
    llvm::errs() << "tessel-tune: error: " << llvm::toString(std::move(err)) << "\n";
    failed = true;
    return;
  }
  llvm::outs() << "  wrote " << m.dir << "/manifest.json\n";
  llvm::outs().flush();
  if (executor && !tuneDirectory(*executor, m.dir, cache, timing, /*printSpace=*/false))
    failed = true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllTargets();
  driver::registerGPUStages();
  registerTimingExecutors();
  // compileVariant applies MLIR's pass-manager options (--mlir-print-ir-after-all, ...).
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "tessel-tune: prune, compile in parallel, time and cache a "
                                   "kernel's config space (docs/Autotuning.md)\n",
                                   &llvm::errs()))
    return kUsageError;
  if (llvm::Error err = driver::checkTarget(target))
    return usageError(llvm::toString(std::move(err)));
  if (!StringRef(input).ends_with(".cpp"))
    return usageError("'" + input +
                      "' is not a kernel file (.cpp); tessel-tune tunes the "
                      "spaces that TESSEL_TUNE declares");
  if (shapes.empty() && !compileOnly)
    return usageError("no --shape to tune (e.g. --shape 4096x4096); --compile-only compiles "
                      "the whole space without one");

  driver::CompileOptions compile;
  std::vector<std::string> requested(emit.begin(), emit.end());
  if (requested.empty()) {
    requested.push_back("tile");
    if (StringRef(target).starts_with("cuda"))
      requested.push_back("cubin");
    if (StringRef(target).starts_with("hip"))
      requested.push_back("hsaco");
  }
  for (const std::string &name : requested) {
    const driver::Stage *stage = driver::findStage(name);
    if (!stage || !stage->available())
      return usageError("--emit: no stage '" + name +
                        "' in this build (tesselc --help lists "
                        "them)");
  }
  for (const driver::Stage &s : driver::getStages())
    if (llvm::is_contained(requested, s.name))
      compile.stages.push_back(&s);

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  loadKernelDialects(context);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  Tuner tuner{context, compile, nullptr, {}, {}};
  tuner.timing.reps = reps;
  tuner.timing.warmup = warmup;
  tuner.timing.warmMs = warmMs;
  tuner.timing.force = force;
  if (!compileOnly) {
    std::string error;
    tuner.executor = createTimingExecutor(timeOn, error);
    if (!tuner.executor)
      return usageError(error);
    std::string path = cachePath.empty() ? tuning::TuningCache::defaultPath() : cachePath;
    if (harness::Status s = tuning::TuningCache::load(path, tuner.cache); !s)
      return usageError(s.message());
  }

  dsl::GeneratorOptions options = dsl::defaultGeneratorOptions();
  llvm::Expected<std::vector<size_t>> loaded = dsl::loadKernelFile(input, options);
  if (!loaded)
    return usageError(llvm::toString(loaded.takeError())), kFailed;
  for (const dsl::TuneInfo &t : dsl::getTuneRegistry())
    if (!t.error.empty())
      return usageError(t.error);
  std::vector<std::pair<const dsl::KernelInfo *, const dsl::TuneInfo *>> selected;
  for (size_t i : *loaded) {
    const dsl::KernelInfo &k = dsl::getKernelRegistry()[i];
    if (!kernelNames.empty() && !llvm::is_contained(kernelNames, k.def.name))
      continue;
    const dsl::TuneInfo *space = dsl::findTuning(k.def.name, k.def.file);
    if (!space) {
      if (!kernelNames.empty())
        return usageError(llvm::Twine("kernel '") + k.def.name +
                          "' declares no config space: add TESSEL_TUNE(" + k.def.name +
                          ", Space<Config>()...) after its TESSEL_KERNEL (docs/Autotuning.md)");
      continue;
    }
    for (const std::string &key : space->def.keys)
      if (!llvm::is_contained(k.argNames, key))
        return usageError(llvm::Twine("TESSEL_TUNE(") + k.def.name + "): key '" + key +
                          "' is not an argument of the kernel (" + llvm::join(k.argNames, ", ") +
                          ")");
    selected.push_back({&k, space});
  }
  for (const std::string &name : kernelNames)
    if (llvm::none_of(selected, [&](auto &s) { return name == s.first->def.name; }))
      return usageError("no kernel '" + name + "' in " + input);
  if (selected.empty())
    return usageError(input + " declares no config space (TESSEL_TUNE)");

  for (auto [k, space] : selected)
    for (int v = 0; v < k->def.numVariants; ++v) {
      const dsl::detail::VariantDef &variant = k->def.variants[v];
      if (variant.generic && !dtypes.empty() &&
          !llvm::is_contained(dtypes, dsl::dtypeName(variant.dtype)))
        continue;
      tuner.tuneVariant(*k, variant, *space);
    }
  return tuner.failed ? kFailed : 0;
}
