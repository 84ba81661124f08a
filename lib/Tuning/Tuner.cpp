//===- Tuner.cpp - timing a tuning directory's variants -------------------===//
#include "tessel/Tuning/Tuner.h"

#include "tessel/Harness/Runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>

using namespace tessel;
using namespace tessel::harness;
using namespace tessel::tuning;
namespace fs = std::filesystem;

static std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

static std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

static std::string configText(const std::map<std::string, int64_t> &config) {
  std::string s;
  for (const auto &[k, v] : config)
    s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

static std::string nowUTC() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

TuningKey tuning::tuningKey(const Executor &ex, const Manifest &m, const ManifestShape &shape) {
  TuningKey k;
  k.kernel = m.kernel;
  k.dtype = m.dtype;
  for (size_t i = 0; i < m.keyNames.size() && i < shape.buckets.size(); ++i)
    k.keys[m.keyNames[i]] = shape.buckets[i];
  k.device = ex.describe();
  k.driver = ex.driverVersion();
  k.compiler = m.compiler;
  // The twin a timing launches first (tessel-tune --twin's layout); tuneManifest keys the entry
  // by the file that did launch.
  if (!shape.variants.empty())
    if (const ManifestVariant *v = m.find(shape.variants.front()); v && !v->twin.empty())
      k.twin = twinOf(v->name, fs::path(v->twin).stem().string());
  return k;
}

Status tuning::problemOptions(const Executor &ex, const Manifest &m, const ManifestShape &shape,
                              uint64_t seed, bool reference, ProblemOptions &out) {
  auto dt = parseDType(m.dtype.empty() ? "f32" : m.dtype);
  if (!dt)
    return Status::error("manifest dtype '" + m.dtype + "' is unknown");
  out = ProblemOptions();
  out.name = m.problem;
  out.shape = shape.shape;
  out.dtype = *dt;
  out.seed = seed;
  out.reference = reference;
  out.multiprocessors = ex.multiprocessorCount();
  out.options = m.options;
  return Status::ok();
}

namespace {
/// The problem of one shape, rebuilt only for a variant whose config differs in a field the
/// problem reads (a grid of cdiv(n, BLOCK)); row kernels build it once. `base.reference` false: a
/// problem to time, whose spec may skip its reference (GEMM's costs more than the timing).
struct ProblemSource {
  ProblemOptions base; ///< tuning::problemOptions: all but the variant's config
  Problem problem;
  std::map<std::string, int64_t> builtWith;
  bool built = false;

  static std::optional<int64_t> field(const std::map<std::string, int64_t> &c,
                                      const std::string &name) {
    for (const auto &[k, v] : c)
      if (lower(k) == lower(name))
        return v;
    return std::nullopt;
  }
  Status get(const std::map<std::string, int64_t> &config, Problem *&out) {
    bool same = built;
    for (const std::string &f : built ? problem.configRead : std::set<std::string>{})
      same = same && field(config, f) == field(builtWith, f);
    if (!same) {
      ProblemOptions po = base;
      po.config = config;
      // Another config of the same problem: its inputs are moved over, not drawn again.
      Problem previous = std::move(problem);
      if (built)
        po.inputsFrom = &previous;
      problem = Problem();
      if (Status s = makeProblem(po, problem); !s)
        return s;
      builtWith = config;
      built = true;
    }
    out = &problem;
    return Status::ok();
  }
};
} // namespace

/// Launches the variant until its launches have kept the device busy for `warmMs`
/// (TuneOptions::warmMs), in batches of 1, 2, 4, ... up to 1024 launches (the first launches
/// may be slow: module loading, cold instruction caches), at most 64 batches.
static Status warmUp(Executor &ex, const LaunchConfig &launch, const std::vector<LaunchArg> &args,
                     double warmMs) {
  double busy = 0;
  for (int batch = 0, n = 1; busy < warmMs && batch < 64; ++batch, n = std::min(2 * n, 1024)) {
    std::vector<double> ms;
    if (Status s = ex.time(launch, args, 0, n, ms); !s)
      return s;
    for (double m : ms)
      busy += m;
  }
  return Status::ok();
}

/// Times one variant file: the median of `reps` launches, or an error.
static Status timeVariant(Executor &ex, const std::string &path, ProblemSource &problems,
                          const std::map<std::string, int64_t> &config, const TuneOptions &o,
                          double &median) {
  KernelMetadata meta;
  if (Status s = loadKernelMetadata(path, meta); !s)
    return s;
  if (Status s = ex.load(meta); !s)
    return s;
  Problem *p = nullptr;
  if (Status s = problems.get(config, p); !s)
    return s;
  std::vector<BufferId> ids;
  std::vector<LaunchArg> args;
  Status s = uploadArguments(ex, meta, *p, ids, args);
  std::vector<double> ms;
  if (s && o.warmMs > 0)
    s = warmUp(ex, p->launch, args, o.warmMs);
  if (s)
    s = ex.time(p->launch, args, o.warmup, o.reps, ms);
  ex.releaseAll();
  if (!s)
    return s;
  if (ms.empty())
    return Status::error("no timings");
  std::sort(ms.begin(), ms.end());
  median = ms[ms.size() / 2];
  return Status::ok();
}

/// A verified run of the variant file against the problem's reference.
static Status verifyVariant(Executor &ex, const Manifest &m, const std::string &path,
                            const ManifestShape &shape, const std::map<std::string, int64_t> &c,
                            uint64_t seed, bool &pass) {
  KernelMetadata meta;
  if (Status s = loadKernelMetadata(path, meta); !s)
    return s;
  if (Status s = ex.load(meta); !s)
    return s;
  ProblemSource fresh; // fresh inputs
  if (Status s = problemOptions(ex, m, shape, seed + 1, /*reference=*/true, fresh.base); !s)
    return s;
  Problem *p = nullptr;
  if (Status s = fresh.get(c, p); !s)
    return s;
  RunReport report;
  if (Status s = runProblem(ex, meta, *p, report); !s)
    return s;
  ex.releaseAll();
  pass = report.pass;
  if (!pass)
    fmt::print("  verify: {}", report.error.empty() ? formatReport(*p, report) : report.error);
  return Status::ok();
}

Status tuning::tuneManifest(Executor &ex, const Manifest &m, TuningCache &cache,
                            const TuneOptions &o, std::vector<ShapeResult> &results) {
  for (const ManifestShape &shape : m.shapes) {
    auto start = std::chrono::steady_clock::now();
    ShapeResult r;
    r.shape = shape.shape;
    TuningKey key = tuningKey(ex, m, shape);
    std::string keyText;
    for (size_t i = 0; i < m.keyNames.size() && i < shape.keyValues.size(); ++i)
      keyText +=
          fmt::format(" {}={}", m.keyNames[i], shape.keyValues[i]) +
          (shape.buckets[i] != shape.keyValues[i] ? fmt::format(" (bucket {})", shape.buckets[i])
                                                  : "");
    std::string title =
        fmt::format("{} {} [{}]{}", m.kernel, m.dtype, shapeText(shape.shape), keyText);
    if (const TuningEntry *e = cache.find(key); e && !o.force) {
      r.cacheHit = true;
      r.winner = e->variant;
      r.ms = e->ms;
      fmt::print("{}: cache hit: {} ({:.4f} ms, {} timed on {})\n", title, e->variant, e->ms,
                 e->timed, e->when);
      results.push_back(r);
      continue;
    }
    fmt::print("{}: timing {} variants on {}\n", title, shape.variants.size(), ex.describe());
    ProblemSource problems;
    if (Status s = problemOptions(ex, m, shape, o.seed, /*reference=*/false, problems.base); !s)
      return s;
    struct Timed {
      double ms;
      std::string path;
      const ManifestVariant *v;
    };
    std::vector<Timed> timed;
    double best = std::numeric_limits<double>::infinity();
    std::string bestText;
    for (size_t i = 0; i < shape.variants.size(); ++i) {
      const ManifestVariant *v = m.find(shape.variants[i]);
      // The __div8 twin is what a launcher runs when the arguments allow; its base otherwise.
      std::vector<std::string> files;
      if (!v->twin.empty())
        files.push_back(v->twin);
      files.push_back(v->json);
      double ms = 0;
      Status s = Status::error("no variant file");
      std::string used;
      for (const std::string &f : files) {
        used = (fs::path(m.dir) / f).string();
        s = timeVariant(ex, used, problems, v->config, o, ms);
        if (s)
          break;
      }
      if (!s) {
        ++r.failed;
        fmt::print("  [{}/{}] {}: failed: {}\n", i + 1, shape.variants.size(),
                   configText(v->config), s.message());
        continue;
      }
      timed.push_back({ms, used, v});
      if (ms < best) {
        best = ms;
        bestText = configText(v->config);
      }
      if (!o.quiet)
        fmt::print("  [{}/{}] {}{}: {:.4f} ms   best {:.4f} ms ({})\n", i + 1,
                   shape.variants.size(), configText(v->config),
                   used.find("__div") != std::string::npos ? " (div8)" : "", ms, best, bestText);
    }
    r.timed = static_cast<int>(timed.size());
    // Verification builds its own problem: free this one first (a large shape's inputs and
    // reference are tens of GB of host memory).
    problems.problem = Problem();
    problems.built = false;
    std::stable_sort(timed.begin(), timed.end(),
                     [](const Timed &a, const Timed &b) { return a.ms < b.ms; });
    for (const Timed &t : timed) {
      bool pass = false;
      if (Status s = verifyVariant(ex, m, t.path, shape, t.v->config, o.seed, pass); !s)
        return s;
      if (!pass) {
        fmt::print("  {}: FAILED verification; trying the next fastest\n", t.v->name);
        continue;
      }
      r.winner = t.v->name;
      r.ms = t.ms;
      r.verified = true;
      TuningEntry e;
      e.key = key;
      e.target = m.target;
      e.variant = t.v->name;
      e.launched = fs::path(t.path).stem().string();
      e.key.twin = twinOf(e.variant, e.launched);
      e.config = t.v->config;
      e.ms = t.ms;
      e.timed = r.timed;
      e.warmMs = o.warmMs;
      e.when = nowUTC();
      cache.put(e);
      if (Status s = cache.save(); !s)
        return s;
      break;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r.verified)
      fmt::print("{}: best {} ({:.4f} ms), verified; {} timed, {} failed, {:.1f} s; cached in "
                 "{}\n",
                 title, r.winner, r.ms, r.timed, r.failed, r.seconds, cache.path());
    else
      fmt::print("{}: no variant ran and verified ({} timed, {} failed)\n", title, r.timed,
                 r.failed);
    results.push_back(r);
  }
  return Status::ok();
}
