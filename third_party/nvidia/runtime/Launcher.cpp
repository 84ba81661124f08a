//===- Launcher.cpp - the runtime of tesselc's generated launchers --------===//
#include "tessel/Runtime/Launcher.h"

#include "tessel/Harness/KernelMetadata.h"
#include "tessel/NVIDIA/Runtime/CudaContext.h"
#include "tessel/NVIDIA/Runtime/CudaTensorMaps.h"
#include "tessel/Runtime/GpuLaunch.h"
#include "tessel/Runtime/Twins.h"
#include "tessel/Tuning/TuningCache.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>

using namespace tessel;
using namespace tessel::rt;
using harness::KernelMetadata;
using harness::LaunchArg;
namespace fs = std::filesystem;

namespace {
/// What every launcher of the process shares: the context, the search path, the cache.
struct Shared {
  std::mutex mutex;
  std::unique_ptr<CudaContext> context;
  std::string contextError;
  bool triedContext = false;
  std::vector<std::string> dirs;
  std::string cachePath;
  std::unique_ptr<tuning::TuningCache> cache;
  std::string cacheError;
  std::string lastVariant;
  bool lastFromCache = false;

  CudaContext *ctx(std::string &error) {
    if (!triedContext) {
      triedContext = true;
      context = CudaContext::create(contextError);
    }
    error = contextError;
    return context.get();
  }
  std::vector<std::string> searchPath() {
    std::vector<std::string> all;
    if (const char *env = std::getenv("TESSEL_KERNEL_PATH")) {
      std::string s = env;
      for (size_t start = 0; start <= s.size();) {
        size_t end = s.find(':', start);
        end = end == std::string::npos ? s.size() : end;
        if (end > start)
          all.push_back(s.substr(start, end - start));
        start = end + 1;
      }
    }
    all.insert(all.end(), dirs.begin(), dirs.end());
    return all;
  }
  const tuning::TuningCache *tuningCache() {
    if (!cache) {
      cache = std::make_unique<tuning::TuningCache>();
      std::string path = cachePath.empty() ? tuning::TuningCache::defaultPath() : cachePath;
      if (harness::Status s = tuning::TuningCache::load(path, *cache); !s)
        cacheError = s.message();
    }
    return cacheError.empty() ? cache.get() : nullptr;
  }
};
Shared &shared() {
  static Shared s;
  return s;
}

/// A loaded variant.
struct Loaded {
  KernelMetadata meta;
  CudaKernel kernel;
};
} // namespace

void rt::addKernelDirectory(const std::string &dir) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  shared().dirs.push_back(dir);
}

void rt::setTuningCachePath(const std::string &path) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  shared().cachePath = path;
  shared().cache.reset();
  shared().cacheError.clear();
}

struct Launcher::Impl {
  std::string kernel, dtype, defaultVariant, compiler;
  std::vector<std::string> keyNames;
  std::vector<int> keyBuckets;
  std::map<int64_t, std::string> fallbacks;
  std::map<std::string, std::unique_ptr<Loaded>> loaded; // by variant name; null: not found
  /// A loaded variant file and its name.
  struct Named {
    Loaded *variant;
    std::string name;
  };
  /// What runs for one tuple of key buckets, resolved on its first launch: the first of
  /// `tunedTwins` whose promises the arguments keep, else the first of `twins`, else `base`.
  struct Choice {
    Loaded *base = nullptr;
    std::string baseName;
    std::vector<Named> twins; ///< base's twins that load (Twins.h), the most promises first
    /// Twins that tuning entries of these buckets were timed through (a GEMM's layout: the
    /// entry's key `twin`), in the cache's order.
    std::vector<Named> tunedTwins;
    bool fromCache = false;
  };
  std::map<std::vector<int64_t>, Choice> chosen;

  Status choose(const std::vector<int64_t> &buckets, int64_t firstKey, CudaContext &ctx,
                Choice &out);

  /// Loads `<variant>.json` from the search path (cached; null when it is nowhere).
  Loaded *load(const std::string &variant, CudaContext &ctx, std::string &error) {
    auto it = loaded.find(variant);
    if (it != loaded.end())
      return it->second.get();
    std::unique_ptr<Loaded> l;
    for (const std::string &dir : shared().searchPath()) {
      fs::path p = fs::path(dir) / (variant + ".json");
      if (!fs::exists(p))
        continue;
      l = std::make_unique<Loaded>();
      if (harness::Status s = harness::loadKernelMetadata(p.string(), l->meta); !s) {
        error = s.message();
        return nullptr;
      }
      std::string kind = l->meta.files.count("cubin") ? "cubin" : "ptx", image;
      if (harness::Status s = readArtifact(l->meta, kind, "--emit=cubin", image); !s) {
        error = s.message();
        return nullptr;
      }
      unsigned threads = unsigned(l->meta.numWarps * l->meta.threadsPerWarp);
      if (!ctx.load(image, l->meta.function, threads, unsigned(l->meta.sharedMemory), l->kernel,
                    error))
        return nullptr;
      break;
    }
    return (loaded[variant] = std::move(l)).get();
  }
};

Launcher::Launcher(std::string kernel, std::string dtype, std::string defaultVariant,
                   std::vector<std::string> keyNames, std::vector<int> keyBuckets,
                   std::string compiler, std::map<int64_t, std::string> fallbacks)
    : impl_(new Impl{std::move(kernel),
                     std::move(dtype),
                     std::move(defaultVariant),
                     std::move(compiler),
                     std::move(keyNames),
                     std::move(keyBuckets),
                     std::move(fallbacks),
                     {},
                     {}}) {}

Launcher::~Launcher() = default;

static int64_t bucketOf(int64_t v, int pow2) {
  if (!pow2)
    return v;
  int64_t b = 1;
  while (b < v)
    b *= 2;
  return b;
}

/// When this thread's last launch reached CudaContext::launch (lastLaunchIssuedAt).
static thread_local std::chrono::steady_clock::time_point lastIssued;

/// The checked bits of `args` for `meta`, or an error (a twin's promise not kept).
static Status checkedArgs(const KernelMetadata &meta, const std::vector<LaunchValue> &args,
                          std::vector<CheckedArg> &out) {
  thread_local std::vector<LaunchArg> launchArgs; // reused: no allocation per call
  launchArgs.clear();
  for (size_t i = 0; i < args.size(); ++i) {
    const LaunchValue &a = args[i];
    if (a.kind == LaunchValue::Kind::Pointer)
      launchArgs.push_back(LaunchArg::buffer_(int64_t(i)));
    else if (a.kind == LaunchValue::Kind::Int)
      launchArgs.push_back(LaunchArg::int_(a.i));
    else
      launchArgs.push_back(LaunchArg::float_(a.f));
  }
  return checkLaunchArgs(
      meta, launchArgs,
      [&](const LaunchArg &a, int, uint64_t &bits) {
        bits = reinterpret_cast<uint64_t>(args[size_t(a.buffer)].ptr);
        return true;
      },
      "tessel launcher: ", out);
}

Status Launcher::launch(const std::vector<int64_t> &keyValues, const GridFunction &gridFn,
                        const std::vector<LaunchValue> &args, void *stream) {
  Shared &sh = shared();
  std::lock_guard<std::mutex> lock(sh.mutex);
  std::string error;
  CudaContext *ctx = sh.ctx(error);
  if (!ctx)
    return Status::error("tessel launcher: " + error);

  // What runs for these buckets, resolved once per bucket tuple.
  thread_local std::vector<int64_t> buckets; // reused: no allocation per call
  buckets.clear();
  for (size_t i = 0; i < keyValues.size(); ++i)
    buckets.push_back(
        bucketOf(keyValues[i], i < impl_->keyBuckets.size() ? impl_->keyBuckets[i] : 0));
  auto found = impl_->chosen.find(buckets);
  if (found == impl_->chosen.end()) {
    Impl::Choice c;
    if (Status s = impl_->choose(buckets, keyValues.empty() ? 0 : keyValues[0], *ctx, c); !s)
      return s;
    found = impl_->chosen.emplace(buckets, std::move(c)).first;
  }
  const Impl::Choice &choice = found->second;
  // A twin tuned in the arguments' layout, else the chosen variant's twin whose promises the
  // arguments keep, else the variant itself.
  thread_local std::vector<CheckedArg> bits; // reused: no allocation per call
  const Impl::Named *pick = nullptr;
  bool fromCache = true;
  for (const Impl::Named &t : choice.tunedTwins)
    if (checkedArgs(t.variant->meta, args, bits)) {
      pick = &t;
      break;
    }
  if (!pick) {
    fromCache = choice.fromCache;
    for (const Impl::Named &t : choice.twins)
      if (checkedArgs(t.variant->meta, args, bits)) {
        pick = &t;
        break;
      }
  }
  Loaded *chosen = pick ? pick->variant : choice.base;
  const std::string *name = pick ? &pick->name : &choice.baseName;
  if (!pick) {
    if (Status s = checkedArgs(chosen->meta, args, bits); !s)
      return s;
  }
  sh.lastVariant = *name;
  sh.lastFromCache = fromCache;
  int64_t g[3] = {1, 1, 1};
  gridFn(chosen->meta.config, g);
  unsigned grid[3];
  for (int d = 0; d < 3; ++d) {
    if (g[d] < 0 || g[d] > (d == 0 ? 2147483647 : 65535))
      return Status::error("tessel launcher: " + *name + ": grid dimension " + std::to_string(d) +
                           " = " + std::to_string(g[d]) + " is out of the device's range");
    grid[d] = unsigned(g[d]);
  }
  thread_local std::vector<void *> params;
  thread_local std::vector<uint8_t> maps; // a TMA variant's trailing by-value parameter
  params.clear();
  for (CheckedArg &c : bits)
    params.push_back(&c.bits);
  if (!chosen->meta.tensorMaps.empty()) {
    if (!encodeTensorMaps(ctx->getDriver(), chosen->meta, bits, maps, error))
      return Status::error("tessel launcher: " + *name + ": " + error);
    params.push_back(maps.data());
  }
  lastIssued = std::chrono::steady_clock::now();
  if (!ctx->launch(chosen->kernel, grid, params, error, /*synchronize=*/false,
                   static_cast<CUstream>(stream)))
    return Status::error("tessel launcher: " + error);
  return Status::ok();
}

std::string rt::lastLaunchedVariant() {
  std::lock_guard<std::mutex> lock(shared().mutex);
  return shared().lastVariant;
}

bool rt::lastLaunchFromCache() {
  std::lock_guard<std::mutex> lock(shared().mutex);
  return shared().lastFromCache;
}

std::chrono::steady_clock::time_point rt::lastLaunchIssuedAt() { return lastIssued; }

/// The tuning cache's variant for `buckets` on this device when it is in a kernel directory,
/// else the first CONFIGS entry valid for them (the header's fallbacks) or the default; the
/// chosen variant's twins in the kernel directories; and the twins that the cache's entries
/// for these buckets were timed through (tessel-tune --twin: a GEMM's layouts).
Status Launcher::Impl::choose(const std::vector<int64_t> &buckets, int64_t firstKey,
                              CudaContext &ctx, Choice &out) {
  Shared &sh = shared();
  std::string error;
  if (const tuning::TuningCache *cache = sh.tuningCache()) {
    tuning::TuningKey key{kernel, dtype, {}, ctx.describe(), ctx.driverVersion(), compiler};
    for (size_t i = 0; i < keyNames.size() && i < buckets.size(); ++i)
      key.keys[keyNames[i]] = buckets[i];
    for (const tuning::TuningEntry *e : cache->findEachTwin(key)) {
      if (e->key.twin.empty())
        continue;
      std::string name = e->variant + "__" + e->key.twin;
      if (Loaded *t = load(name, ctx, error))
        out.tunedTwins.push_back({t, name});
      else if (!error.empty())
        return Status::error(error);
    }
    if (const tuning::TuningEntry *e = cache->find(key)) {
      out.base = load(e->variant, ctx, error);
      if (!error.empty())
        return Status::error(error);
      out.baseName = e->variant;
      out.fromCache = out.base != nullptr;
    }
  }
  if (!out.base) {
    out.baseName = defaultVariant;
    if (buckets.size() == 1)
      if (auto f = fallbacks.upper_bound(buckets[0]); f != fallbacks.begin())
        out.baseName = std::prev(f)->second;
    if (out.baseName.empty())
      return Status::error("tessel launcher: " + kernel + ": no compiled config is valid for " +
                           keyNames[0] + " = " + std::to_string(firstKey) +
                           " and the tuning cache has no entry for it on this device; tune it "
                           "(tessel-tune) or use a kernel for larger shapes");
    out.base = load(out.baseName, ctx, error);
    if (!out.base)
      return Status::error(error.empty() ? "tessel launcher: no " + out.baseName +
                                               ".json in the kernel directories (compile it "
                                               "with tesselc -o DIR, then addKernelDirectory(DIR) "
                                               "or TESSEL_KERNEL_PATH=DIR)"
                                         : error);
  }
  for (std::string &name : findTwins(sh.searchPath(), out.baseName)) {
    error.clear();
    if (Loaded *t = load(name, ctx, error)) // a twin that does not load is not used
      out.twins.push_back({t, std::move(name)});
  }
  return Status::ok();
}

Status rt::deviceAlloc(size_t bytes, void *&ptr) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  std::string error;
  CudaContext *ctx = shared().ctx(error);
  CUdeviceptr p = 0;
  if (!ctx || !ctx->alloc(bytes, p, "a launcher buffer", error))
    return Status::error("tessel: " + error);
  ptr = reinterpret_cast<void *>(p);
  return Status::ok();
}

void rt::deviceFree(void *ptr) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  std::string error;
  if (CudaContext *ctx = shared().ctx(error))
    ctx->free(reinterpret_cast<CUdeviceptr>(ptr));
}

Status rt::copyToDevice(void *dst, const void *src, size_t bytes) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  std::string error;
  CudaContext *ctx = shared().ctx(error);
  if (!ctx || !ctx->upload(reinterpret_cast<CUdeviceptr>(dst), src, bytes, error))
    return Status::error("tessel: " + error);
  return Status::ok();
}

Status rt::copyToHost(void *dst, const void *src, size_t bytes) {
  std::lock_guard<std::mutex> lock(shared().mutex);
  std::string error;
  CudaContext *ctx = shared().ctx(error);
  if (!ctx || !ctx->download(dst, reinterpret_cast<CUdeviceptr>(src), bytes, error))
    return Status::error("tessel: " + error);
  return Status::ok();
}

Status rt::synchronize() {
  std::lock_guard<std::mutex> lock(shared().mutex);
  std::string error;
  CudaContext *ctx = shared().ctx(error);
  if (!ctx || !ctx->synchronize(error))
    return Status::error("tessel: " + error);
  return Status::ok();
}

std::string rt::deviceDescription() {
  std::lock_guard<std::mutex> lock(shared().mutex);
  std::string error;
  CudaContext *ctx = shared().ctx(error);
  return ctx ? ctx->describe() : "no CUDA device: " + error;
}
