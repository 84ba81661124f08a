//===- ParallelCompile.cpp - compiling a space's survivors in parallel ----===//
#include "ParallelCompile.h"

#include "KernelTracer.h"
#include "TuneRegistry.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Driver/Specialize.h"
#include "tessel/InitAllDialects.h"

#include "tessel/Driver/ContentCache.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <mutex>

using namespace mlir;
using namespace tessel;
using namespace tessel::tune;

static std::mutex outputMutex; // progress lines and diagnostics, one at a time
static std::mutex traceMutex;  // the tracer's state is process-global

/// This thread's context (a worker's, or the calling thread's for the fingerprints), with the
/// dialects a trace and the pipelines need. `registry` is filled once on the calling thread:
/// filling it registers the targets, which is not thread-safe.
static MLIRContext &threadContext(const DialectRegistry &registry) {
  thread_local std::unique_ptr<MLIRContext> context;
  if (!context) {
    context = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
    loadKernelDialects(*context);
    context->printOpOnDiagnostic(false);
    context->getDiagEngine().registerHandler([](Diagnostic &d) {
      std::lock_guard<std::mutex> lock(outputMutex);
      const char *kind = d.getSeverity() == DiagnosticSeverity::Error     ? "error"
                         : d.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                         : d.getSeverity() == DiagnosticSeverity::Remark  ? "remark"
                                                                          : "note";
      llvm::errs() << d.getLocation() << ": " << kind << ": " << d.str() << "\n";
      return success();
    });
  }
  return *context;
}

/// Traces, compiles and specializes one job (as tesselc's compileUnit does).
static void runJob(CompileJob &job, const driver::CompileOptions &options,
                   const std::string &target, const DialectRegistry &registry,
                   const std::string &twinRequest) {
  MLIRContext &ctx = threadContext(registry);
  OwningOpRef<ModuleOp> module;
  {
    std::lock_guard<std::mutex> lock(traceMutex);
    module = dsl::traceVariant(ctx, *job.kernel, *job.variant, *job.config, job.name, target);
  }
  if (!module)
    return;
  driver::VariantMetadata meta;
  meta.kernel = job.kernel->def.name;
  meta.variant = job.name;
  meta.source = job.kernel->def.file;
  if (job.variant->generic)
    meta.dtype = dsl::dtypeName(job.variant->dtype);
  meta.target = target;
  meta.config = job.config->toJSON();
  meta.tuningKeys = dsl::tuningKeys(dsl::findTuning(job.kernel->def.name, job.kernel->def.file));
  for (auto f : module->getOps<func::FuncOp>())
    if (f.getSymName() == job.name)
      driver::fillFromKernel(f, meta, job.kernel->argNames);

  // The twin, built before the base consumes its module.
  OwningOpRef<ModuleOp> twinModule;
  driver::VariantMetadata twinMeta;
  if (!StringRef(target).starts_with("interpreter")) {
    twinModule = module->clone();
    for (auto f : twinModule->getOps<func::FuncOp>()) {
      if (f.getSymName() != job.name)
        continue;
      if (!twinRequest.empty()) {
        std::string error;
        std::optional<driver::TwinRequest> request =
            driver::parseTwinRequest(twinRequest, meta.args, error);
        static std::atomic<bool> reported{false}; // the same request fails every job alike
        if (!request) {
          std::lock_guard<std::mutex> lock(outputMutex);
          if (!reported.exchange(true))
            llvm::errs() << "tessel-tune: error: --twin=" << twinRequest << ": " << error << " of "
                         << job.name << "\n";
          return;
        }
        twinMeta = meta;
        twinMeta.variant = job.name + "__" + request->suffix;
        twinMeta.specializes = job.name;
        f.setSymName(twinMeta.variant);
        driver::applyTwinRequest(f, *request, twinMeta.args);
        break;
      }
      driver::Specialization spec =
          driver::findSpecialization(f, driver::kSpecializationDivisibility);
      if (spec.empty())
        break;
      twinMeta = meta;
      twinMeta.variant = job.name + "__div" + std::to_string(driver::kSpecializationDivisibility);
      twinMeta.specializes = job.name;
      f.setSymName(twinMeta.variant);
      driver::applySpecialization(f, spec, driver::kSpecializationDivisibility);
      for (unsigned i : spec.multiples)
        twinMeta.args[i].divisibility = driver::kSpecializationDivisibility;
      for (unsigned i : spec.ones)
        twinMeta.args[i].equalTo = 1;
    }
  }
  TimingScope none;
  driver::VariantMetadata launched; // as written: the twin's when there is one
  if (failed(driver::compileVariant(*module, meta, options, none, &launched)))
    return;
  if (!twinMeta.variant.empty()) {
    if (failed(driver::compileVariant(*twinModule, twinMeta, options, none, &launched)))
      return;
    job.twin = twinMeta.variant;
  }
  if (launched.resources)
    job.spillBytes = launched.resources->spillBytes;
  job.ok = true;
}

/// What decides a job's binary: its traced tile IR with the variant's name taken out (the
/// symbol is the only place a config's name appears), without locations. Empty when the trace
/// fails (the job then compiles alone and reports it).
static std::string traceFingerprint(MLIRContext &ctx, const CompileJob &job,
                                    const std::string &target) {
  OwningOpRef<ModuleOp> module;
  {
    std::lock_guard<std::mutex> lock(traceMutex);
    module = dsl::traceVariant(ctx, *job.kernel, *job.variant, *job.config, job.name, target);
  }
  if (!module)
    return "";
  for (auto f : module->getOps<func::FuncOp>())
    if (f.getSymName() == job.name)
      f.setSymName("variant");
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(false));
  return text;
}

/// The metadata file `from` (in `dir`) rewritten for `to`: the same binary and `function`, the
/// alias's own name, config and (for a twin) the variant it specializes.
static bool writeAliasMetadata(StringRef dir, const std::string &from, const std::string &to,
                               const llvm::json::Object &config,
                               const std::optional<std::string> &specializes) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, from + ".json");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return false;
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse((*buffer)->getBuffer());
  if (!doc) {
    llvm::consumeError(doc.takeError());
    return false;
  }
  llvm::json::Object &o = *doc->getAsObject();
  o["variant"] = to;
  o["config"] = llvm::json::Object(config);
  o.erase("config_index");
  if (specializes)
    o["specializes"] = *specializes;
  std::string json;
  llvm::raw_string_ostream os(json);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(o))) << "\n";
  llvm::SmallString<256> out(dir);
  llvm::sys::path::append(out, to + ".json");
  if (llvm::Error err = driver::writeFileAtomically(out, json)) {
    llvm::errs() << "tessel-tune: error: " << llvm::toString(std::move(err)) << "\n";
    return false;
  }
  return true;
}

void tune::compileInParallel(std::vector<CompileJob> &jobs, const driver::CompileOptions &options,
                             const std::string &target, unsigned threads, bool quiet,
                             const std::string &twinRequest) {
  DialectRegistry registry;
  registerAllDialects(registry);

  // Configs that differ only in what the launch reads (gemm_split_k's SPLIT_K sets the grid)
  // trace to the same tile IR: the first of each such group is compiled, the others share its
  // binary through their metadata's `function` and `artifacts` (docs/Artifacts.md).
  std::vector<int> aliasOf(jobs.size(), -1);
  if (options.outputDir != "-" && options.dumpDir.empty()) {
    MLIRContext &ctx = threadContext(registry);
    llvm::StringMap<int> first;
    for (size_t i = 0; i < jobs.size(); ++i) {
      std::string print = traceFingerprint(ctx, jobs[i], target);
      if (print.empty())
        continue;
      auto [it, inserted] = first.try_emplace(driver::CacheKey().add("tile", print).hex(), i);
      if (!inserted)
        aliasOf[i] = it->second;
    }
  }

  llvm::DefaultThreadPool pool(llvm::hardware_concurrency(threads));
  std::atomic<int> done{0};
  int total = static_cast<int>(llvm::count(aliasOf, -1));
  for (auto [i, job] : llvm::enumerate(jobs))
    if (aliasOf[i] < 0)
      pool.async([&, jobPtr = &job] {
        auto start = std::chrono::steady_clock::now();
        runJob(*jobPtr, options, target, registry, twinRequest);
        jobPtr->ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        int n = ++done;
        if (quiet)
          return;
        std::lock_guard<std::mutex> lock(outputMutex);
        llvm::outs() << llvm::formatv(
            "  compiled [{0}/{1}] {2}{3} ({4:F0} ms){5}\n", n, total, jobPtr->name,
            jobPtr->twin.empty() ? std::string()
                                 : " + __" + jobPtr->twin.substr(jobPtr->name.size() + 2),
            jobPtr->ms, jobPtr->ok ? "" : ": FAILED");
        llvm::outs().flush();
      });
  pool.wait();

  int shared = 0;
  for (auto [i, job] : llvm::enumerate(jobs)) {
    if (aliasOf[i] < 0)
      continue;
    const CompileJob &base = jobs[aliasOf[i]];
    if (!base.ok) {
      if (!quiet)
        llvm::outs() << "  " << job.name << ": FAILED (shares " << base.name << "'s binary)\n";
      continue;
    }
    llvm::json::Object config = job.config->toJSON();
    job.binaryOf = base.name;
    job.spillBytes = base.spillBytes;
    job.ok = writeAliasMetadata(options.outputDir, base.name, job.name, config, std::nullopt);
    if (job.ok && !base.twin.empty()) {
      job.twin = job.name + base.twin.substr(base.name.size());
      job.ok = writeAliasMetadata(options.outputDir, base.twin, job.twin, config, job.name);
    }
    shared += job.ok;
  }
  if (shared && !quiet)
    llvm::outs() << llvm::formatv("  {0} configs share another's binary (the same tile IR: they "
                                  "differ only in what the launch reads); compiled once\n",
                                  shared);
}
