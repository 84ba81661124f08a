//===- Tune.h - a kernel's config space for the autotuner -------*- C++ -*-===//
//
// TESSEL_TUNE declares what `tessel-tune` may try for a kernel (docs/Autotuning.md):
//
//   TESSEL_TUNE(softmax,
//               Space<SoftmaxConfig>()
//                   .field(&SoftmaxConfig::BLOCK, pow2(256, 65536))
//                   .field(&SoftmaxConfig::num_warps, {1, 2, 4, 8, 16, 32})
//                   .where([](const SoftmaxConfig &c) { return c.BLOCK >= 32 * c.num_warps; })
//                   .key("n_cols", Bucket::pow2)
//                   .valid([](const SoftmaxConfig &c, const Keys &k) {
//                     return c.BLOCK >= k["n_cols"]; // the row fits one block
//                   })
//                   .where([](const SoftmaxConfig &c, const Keys &k) {
//                     return c.BLOCK == k["n_cols"]; // a larger block only adds masked lanes
//                   })
//                   .grid("n_rows"))
//
// Fields the space does not list keep the struct's default. A `where` over the config alone is
// a constraint between fields; one that also takes the Keys decides per key bucket which
// configs are worth tuning. `valid` is what a config needs to be correct for the keys: the
// tuner applies it like a where, and the generated launchers pick their fallback (the first
// CONFIGS entry it admits) with it. Keys are integer arguments of the kernel whose values
// select a tuning entry (Triton's key=); Bucket::pow2 rounds a value up to a power of two, so
// one entry serves a range of shapes and a predicate sees the bucket's largest value.
// `grid` is the launch grid as C++ expressions (up to three, comma-separated) over the
// kernel's integer arguments, its config fields and extra sizes (here n_rows), which the
// generated launcher takes as parameters.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_TUNE_H
#define TESSEL_DSL_TUNE_H

#include "tessel/dsl/Config.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace tessel::dsl {

/// How a key's value becomes its tuning bucket.
enum class Bucket : int { exact = 0, pow2 = 1 };

/// The bucketed key values a `where` sees.
class Keys {
public:
  Keys(const char *const *names, const int64_t *values, int n)
      : names(names), values(values), n(n) {}
  int64_t operator[](const char *name) const {
    for (int i = 0; i < n; ++i)
      if (std::strcmp(names[i], name) == 0)
        return values[i];
    std::fprintf(stderr,
                 "error: where(): '%s' is not a key of this space; declare it with "
                 ".key(\"%s\")\n",
                 name, name);
    std::abort();
  }

private:
  const char *const *names;
  const int64_t *values;
  int n;
};

/// lo, 2 lo, 4 lo, ... up to hi (lo a power of two).
inline std::vector<int64_t> pow2(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t x = lo; x <= hi; x *= 2)
    v.push_back(x);
  return v;
}
/// lo, lo + step, ... up to hi.
inline std::vector<int64_t> range(int64_t lo, int64_t hi, int64_t step = 1) {
  std::vector<int64_t> v;
  for (int64_t x = lo; x <= hi; x += step)
    v.push_back(x);
  return v;
}

namespace detail {

/// Everything TESSEL_TUNE registers (type-erased; `space` is the Space object).
struct TuneDef {
  int abiVersion;
  const char *kernel;
  const char *file;
  int line;
  const ConfigSchema *config;
  /// The product of the field lists, then `configs`: those that pass the config-only wheres.
  int64_t declared;
  std::vector<const void *> configs;
  std::vector<std::string> keys;
  std::vector<Bucket> buckets;
  std::string grid;
  /// Whether a config passes the wheres and valids that take the keys (values in `keys`
  /// order, bucketed).
  std::function<bool(const void *config, const int64_t *keyValues)> fitsKeys;
  /// Whether it passes the valids alone (null when there are none).
  std::function<bool(const void *config, const int64_t *keyValues)> validKeys;
};

TESSEL_DSL_EXPORT void registerTuning(const TuneDef &def);

} // namespace detail

/// A config space over config struct C; see the top of this file.
template <class C> class Space {
public:
  template <class F> Space &field(F C::*member, std::vector<int64_t> values) {
    fields.push_back(
        {[member](C &c, int64_t v) { c.*member = static_cast<F>(v); }, std::move(values)});
    return *this;
  }
  template <class F> Space &field(F C::*member, std::initializer_list<int64_t> values) {
    return field(member, std::vector<int64_t>(values));
  }
  /// A constraint: where(bool(const C &)) between fields, or where(bool(const C &, const Keys &))
  /// per key bucket.
  template <class P> Space &where(P p) {
    if constexpr (std::is_invocable_r_v<bool, P, const C &, const Keys &>)
      keyWheres.push_back(std::move(p));
    else
      wheres.push_back(std::move(p));
    return *this;
  }
  /// What a config needs to be correct for the keys' buckets (see the top of this file).
  template <class P> Space &valid(P p) {
    valids.push_back(std::move(p));
    return *this;
  }
  Space &key(const char *arg, Bucket bucket = Bucket::exact) {
    keys.push_back(arg);
    buckets.push_back(bucket);
    return *this;
  }
  Space &grid(const char *expr) {
    gridExpr = expr;
    return *this;
  }

  detail::TuneDef build(const char *kernel, const char *file, int line) const {
    detail::TuneDef d{TESSEL_DSL_ABI_VERSION,
                      kernel,
                      file,
                      line,
                      &detail::configSchema<C>(),
                      1,
                      {},
                      keys,
                      buckets,
                      gridExpr,
                      {}};
    std::vector<C> all{C{}};
    for (const Field &f : fields) {
      std::vector<C> next;
      for (const C &c : all)
        for (int64_t v : f.values) {
          C n = c;
          f.set(n, v);
          next.push_back(n);
        }
      all = std::move(next);
      d.declared *= static_cast<int64_t>(f.values.size());
    }
    for (const C &c : all) {
      bool ok = true;
      for (const auto &w : wheres)
        ok = ok && w(c);
      if (ok)
        d.configs.push_back(new C(c));
    }
    auto check = [names = keys](std::vector<KeyWhere> preds) {
      return [names, preds](const void *config, const int64_t *values) {
        std::vector<const char *> ptrs;
        for (const std::string &n : names)
          ptrs.push_back(n.c_str());
        Keys k(ptrs.data(), values, static_cast<int>(ptrs.size()));
        for (const auto &p : preds)
          if (!p(*static_cast<const C *>(config), k))
            return false;
        return true;
      };
    };
    std::vector<KeyWhere> preds = keyWheres;
    preds.insert(preds.end(), valids.begin(), valids.end());
    d.fitsKeys = check(preds);
    if (!valids.empty())
      d.validKeys = check(valids);
    return d;
  }

private:
  struct Field {
    std::function<void(C &, int64_t)> set;
    std::vector<int64_t> values;
  };
  std::vector<Field> fields;
  std::vector<std::function<bool(const C &)>> wheres;
  using KeyWhere = std::function<bool(const C &, const Keys &)>;
  std::vector<KeyWhere> keyWheres, valids;
  std::vector<std::string> keys;
  std::vector<Bucket> buckets;
  std::string gridExpr;
};

} // namespace tessel::dsl

/// TESSEL_TUNE(kernel, Space<Config>()...): registers the kernel's config space.
#define TESSEL_TUNE(name, ...)                                                                     \
  [[maybe_unused]] static const bool TESSEL_PP_CAT(tessel_tune_registered_, name) = [] {           \
    ::tessel::dsl::detail::registerTuning((__VA_ARGS__).build(#name, __FILE__, __LINE__));         \
    return true;                                                                                   \
  }();

#endif // TESSEL_DSL_TUNE_H
