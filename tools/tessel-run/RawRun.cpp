//===- RawRun.cpp - tessel-run without a problem spec ---------------------===//
#include "RawRun.h"

#include "tessel/Harness/Compare.h"
#include "tessel/Harness/Npy.h"
#include "tessel/Harness/Poison.h"
#include "tessel/Harness/Random.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace tessel::harness;

namespace {

/// A buffer's contents as its --arg describes them; filled after the signature checks.
enum class Source { Values, Poison, Iota, Fill, Rand, Npy };

/// One element value for a buffer of `dtype`: integer buffers take integers exactly (case
/// C15: 9007199254740993 is not rounded through a double), else any number.
struct ElementValue {
  bool isInt = false;
  int64_t i = 0;
  double f = 0;
  void storeTo(HostBuffer &b, int64_t k) const { isInt ? b.setInt(k, i) : b.set(k, f); }
};

struct Parsed {
  std::string spec;  ///< as given
  std::string label; ///< NAME@, or empty
  std::string name;  ///< the label, else the kernel's parameter name, else argN
  DType dtype = DType::f32;
  bool isBuffer = false;
  LaunchArg arg; ///< a scalar
  // A buffer:
  Source source = Source::Poison;
  int64_t size = 0;                 ///< Poison, Iota, Fill, Rand
  std::vector<ElementValue> values; ///< Values
  ElementValue fill;                ///< Fill
  double lo = -1, hi = 1;           ///< Rand over a float dtype: [lo, hi)
  int64_t ilo = -8, ihi = 8;        ///< Rand over an integer dtype: [ilo, ihi)
  std::string path;                 ///< Npy
  HostBuffer host;                  ///< the initial contents
  BufferId id = -1;
};

/// The largest buffer given by its size, in elements: a size past what the host can allocate
/// would abort in the allocator.
constexpr int64_t kMaxRawElements = int64_t(1) << 28;

/// Buffers of up to this many elements are printed whole after the run.
constexpr int64_t kMaxPrintedElements = 1024;

/// The whole of `text` as an integer (decimal, 0x hex or 0 octal), or false.
bool parseInt(const std::string &text, int64_t &v) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long long x = std::strtoll(text.c_str(), &end, 0);
  if (errno || *end)
    return false;
  v = x;
  return true;
}

/// The whole of `text` as a 64-bit integer: parseInt, or a decimal in [2^63, 2^64) taken as
/// its two's complement (an unsigned 64-bit value), or false.
bool parseInt64(const std::string &text, int64_t &v) {
  if (parseInt(text, v))
    return true;
  if (text.empty() || text[0] == '-' || text[0] == '+')
    return false;
  char *end = nullptr;
  errno = 0;
  unsigned long long x = std::strtoull(text.c_str(), &end, 0);
  if (errno || *end)
    return false;
  v = static_cast<int64_t>(x);
  return true;
}

/// The whole of `text` as a number (strtod: also nan, inf, -inf), or false.
bool parseNumber(const std::string &text, double &v) {
  if (text.empty())
    return false;
  char *end = nullptr;
  v = std::strtod(text.c_str(), &end);
  return !*end;
}

/// `text` as an element of a buffer of `dtype` (integer text into integer buffers exactly).
bool parseElement(const std::string &text, DType dtype, ElementValue &out) {
  out = ElementValue();
  if (isInt(dtype) && parseInt64(text, out.i)) {
    out.isInt = true;
    return true;
  }
  return parseNumber(text, out.f);
}

/// Parses `=rand` or `=rand(LO,HI)` (the text after ']') into out.lo/hi or out.ilo/ihi.
bool parseRand(const std::string &fill, Parsed &out, std::string &err) {
  const std::string &specIn = out.spec;
  DType dt = out.dtype;
  if (dt == DType::i1)
    out.ilo = 0, out.ihi = 2;
  if (fill == "=rand")
    return true;
  if (fill.size() < 7 || fill.back() != ')' || fill.find(',') == std::string::npos) {
    err = "bad --arg '" + specIn + "': expected =rand or =rand(LO,HI)";
    return false;
  }
  std::string body = fill.substr(6, fill.size() - 7);
  size_t comma = body.find(',');
  std::string loText = body.substr(0, comma), hiText = body.substr(comma + 1);
  if (isInt(dt)) {
    if (!parseInt(loText, out.ilo) || !parseInt(hiText, out.ihi)) {
      err = "bad --arg '" + specIn + "': rand(LO,HI) of " + name(dt) + " takes integers";
      return false;
    }
    unsigned bits = bitWidth(dt);
    int64_t min = dt == DType::i1 ? 0 : bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
    int64_t max = dt == DType::i1 ? 2 : bits == 64 ? INT64_MAX : int64_t(1) << (bits - 1);
    if (out.ilo >= out.ihi || out.ilo < min || out.ihi > max) {
      err = fmt::format("bad --arg '{}': rand(LO,HI) of {} needs {} <= LO < HI <= {}", specIn,
                        name(dt), min, max);
      return false;
    }
    return true;
  }
  if (!parseNumber(loText, out.lo) || !parseNumber(hiText, out.hi)) {
    err = "bad --arg '" + specIn + "': rand(LO,HI) takes numbers";
    return false;
  }
  // Both ends finite in the dtype (HI: the largest value below it).
  HostBuffer ends(dt, {2});
  ends.set(0, out.lo);
  ends.set(1, std::nextafter(out.hi, -INFINITY));
  if (!(out.lo < out.hi) || !std::isfinite(out.hi - out.lo) || !std::isfinite(ends.get(0)) ||
      !std::isfinite(ends.get(1))) {
    err = fmt::format("bad --arg '{}': rand(LO,HI) needs finite LO < HI within {}'s range", specIn,
                      name(dt));
    return false;
  }
  return true;
}

/// Whether `v` is a value of the integer dtype `t`, signed or unsigned (i1: 0 or 1; i64: all).
bool fitsInteger(DType t, int64_t v) {
  if (t == DType::i1)
    return v == 0 || v == 1;
  unsigned bits = 8 * unsigned(sizeOf(t));
  return bits >= 64 || (v >= -(int64_t(1) << (bits - 1)) && v <= (int64_t(1) << bits) - 1);
}
/// Reads the syntax of one --arg; files and random values are read and drawn later.
bool parseSpec(const std::string &specIn, Parsed &out, std::string &err) {
  out.spec = specIn;
  std::string spec = specIn;
  // NAME@ before the dtype (an '@' after it belongs to a file name).
  size_t at = spec.find('@'), first = spec.find_first_of(":[=");
  if (at != std::string::npos && (first == std::string::npos || at < first)) {
    out.label = spec.substr(0, at);
    spec = spec.substr(at + 1);
  }
  size_t cut = spec.find_first_of(":[=");
  auto dt = parseDType(spec.substr(0, cut));
  if (!dt || cut == std::string::npos) {
    // Say which part is wrong: the dtype (with the valid ones) or what follows it.
    std::string what = !dt ? "'" + spec.substr(0, cut) +
                                 "' is not a dtype (i1, i8, i16, i32, "
                                 "i64, f16, bf16, f32, f64); "
                           : "";
    err = "bad --arg '" + specIn + "': " + what +
          "expected [NAME@]DTYPE:[v,...], DTYPE:FILE.npy, DTYPE[N][=iota|=V|=rand|=rand(LO,HI)] "
          "or DTYPE=V";
    return false;
  }
  out.dtype = *dt;
  char kind = spec[cut];
  std::string rest = spec.substr(cut + 1);
  auto notANumber = [&](const std::string &text) {
    err = "bad --arg '" + specIn + "': '" + text + "' is not " +
          (isFloat(*dt) ? std::string("a number") : "an integer (" + std::string(name(*dt)) + ")");
    return false;
  };
  if (kind == '=') { // scalar
    double f;
    int64_t i;
    if (isFloat(*dt) ? !parseNumber(rest, f) : !parseInt64(rest, i))
      return notANumber(rest);
    // The value must fit the dtype written (it is then widened to the parameter's, if wider).
    if (!isFloat(*dt) && !fitsInteger(*dt, i)) {
      err = "bad --arg '" + specIn + "': " + rest + " does not fit " + name(*dt);
      return false;
    }
    out.arg = isFloat(*dt) ? LaunchArg::float_(f) : LaunchArg::int_(i);
    return true;
  }
  out.isBuffer = true;
  if (kind == ':' && (rest.empty() || rest.front() != '[')) { // a .npy file
    if (rest.empty()) {
      err = "bad --arg '" + specIn + "': expected [v,...] or a .npy file after ':'";
      return false;
    }
    out.source = Source::Npy;
    out.path = rest;
    return true;
  }
  if (kind == ':') { // literal values
    if (rest.size() < 2 || rest.back() != ']') {
      err = "bad --arg '" + specIn + "': values go in [...]";
      return false;
    }
    out.source = Source::Values;
    std::string body = rest.substr(1, rest.size() - 2);
    size_t i = 0;
    while (i < body.size()) {
      size_t j = body.find(',', i);
      std::string v = body.substr(i, j == std::string::npos ? std::string::npos : j - i);
      ElementValue x;
      if (!parseElement(v, *dt, x))
        return notANumber(v);
      out.values.push_back(x);
      if (j == std::string::npos)
        break;
      i = j + 1;
    }
    return true;
  }
  size_t close = rest.find(']');
  if (close == std::string::npos) {
    err = "bad --arg '" + specIn + "': missing ']'";
    return false;
  }
  int64_t n;
  if (!parseInt(rest.substr(0, close), n) || n < 0 || n > kMaxRawElements) {
    err = "bad --arg '" + specIn + "': the size must be an integer from 0 to " +
          std::to_string(kMaxRawElements);
    return false;
  }
  out.size = n;
  std::string fill = rest.substr(close + 1);
  if (fill.empty()) {
    out.source = Source::Poison;
  } else if (fill == "=iota") {
    out.source = Source::Iota;
  } else if (fill.rfind("=rand", 0) == 0) {
    out.source = Source::Rand;
    return parseRand(fill, out, err);
  } else if (fill.size() > 1 && fill[0] == '=') {
    out.source = Source::Fill;
    if (!parseElement(fill.substr(1), *dt, out.fill))
      return notANumber(fill.substr(1));
  } else {
    err = "bad --arg '" + specIn + "': after ']' expected =iota, =rand or =VALUE";
    return false;
  }
  return true;
}

/// Fills a Rand buffer from `rng`: the problems' generator and their rule (never 0 after
/// rounding, unless the range holds nothing else; i1 takes 0 and 1).
void fillRand(Parsed &p, Random &rng) {
  HostBuffer &b = p.host;
  int64_t n = b.numel();
  if (isInt(p.dtype)) {
    bool onlyZero = p.ilo == 0 && p.ihi == 1;
    for (int64_t k = 0; k < n; ++k) {
      int64_t v = rng.integer(p.ilo, p.ihi - 1);
      while (v == 0 && !onlyZero && p.dtype != DType::i1)
        v = rng.integer(p.ilo, p.ihi - 1);
      b.setInt(k, v);
    }
    return;
  }
  // Rounding is monotonic: when both ends round to 0, so does everything between.
  HostBuffer ends(p.dtype, {2});
  ends.set(0, p.lo);
  ends.set(1, std::nextafter(p.hi, -INFINITY));
  if (ends.get(0) == 0 && ends.get(1) == 0) {
    for (int64_t k = 0; k < n; ++k)
      b.set(k, 0.0);
    return;
  }
  fillUniform(b, rng, p.lo, p.hi);
}

/// Gives a parsed buffer its initial contents.
bool materialize(Parsed &p, Random &rng, std::string &err) {
  switch (p.source) {
  case Source::Values:
    p.host = HostBuffer(p.dtype, {static_cast<int64_t>(p.values.size())});
    for (size_t k = 0; k < p.values.size(); ++k)
      p.values[k].storeTo(p.host, static_cast<int64_t>(k));
    return true;
  case Source::Poison:
    p.host = HostBuffer(p.dtype, {p.size});
    p.host.fillPoison();
    return true;
  case Source::Iota:
    p.host = HostBuffer(p.dtype, {p.size});
    for (int64_t k = 0; k < p.size; ++k)
      p.host.set(k, static_cast<double>(k));
    return true;
  case Source::Fill:
    p.host = HostBuffer(p.dtype, {p.size});
    for (int64_t k = 0; k < p.size; ++k)
      p.fill.storeTo(p.host, k);
    return true;
  case Source::Rand:
    p.host = HostBuffer(p.dtype, {p.size});
    fillRand(p, rng);
    return true;
  case Source::Npy: {
    HostBuffer file;
    if (Status s = readNpy(p.path, p.dtype, file); !s) {
      err = "--arg '" + p.spec + "': " + s.message();
      return false;
    }
    if (file.shape().size() == 1) {
      p.host = std::move(file);
    } else { // flattened
      p.host = HostBuffer(p.dtype, {file.numel()});
      std::memcpy(p.host.data(), file.data(), file.bytes());
    }
    return true;
  }
  }
  return true;
}

/// Whether the variant gave parameter #i a name of its own (not a generated argN).
bool hasRealName(const KernelArgInfo &info, size_t i) {
  return !info.name.empty() && info.name != "arg" + std::to_string(i);
}

/// "x: !tile.ptr<f32>, n: i64" (positions for unnamed parameters).
std::string signature(const KernelMetadata &variant) {
  std::vector<std::string> params;
  for (size_t i = 0; i < variant.args.size(); ++i) {
    const KernelArgInfo &a = variant.args[i];
    params.push_back(fmt::format("{}: {}", hasRealName(a, i) ? a.name : fmt::format("#{}", i),
                                 a.type.empty() ? "?" : a.type));
  }
  return fmt::format("{}", fmt::join(params, ", "));
}

/// Checks the --arg list against the variant's parameters; names unlabeled arguments.
bool checkSignature(const KernelMetadata &variant, std::vector<Parsed> &parsed, std::string &err) {
  for (size_t i = 0; i < parsed.size(); ++i) {
    Parsed &p = parsed[i];
    p.name = p.label.empty() ? "arg" + std::to_string(i) : p.label;
    if (p.label.empty() && i < variant.args.size() && hasRealName(variant.args[i], i))
      p.name = variant.args[i].name;
  }
  if (variant.args.empty()) // an executor that does not know the signature
    return true;
  const std::string &fn = variant.function;
  if (parsed.size() != variant.args.size()) {
    err = fmt::format("kernel '{}' takes {} argument{} ({}) but {} --arg {} given", fn,
                      variant.args.size(), variant.args.size() == 1 ? "" : "s", signature(variant),
                      parsed.size(), parsed.size() == 1 ? "was" : "were");
    // Labeled --args show which parameters have none.
    std::vector<std::string> missing;
    for (size_t i = 0; i < variant.args.size(); ++i)
      if (hasRealName(variant.args[i], i) &&
          std::none_of(parsed.begin(), parsed.end(),
                       [&](const Parsed &p) { return p.label == variant.args[i].name; }))
        missing.push_back(variant.args[i].name);
    if (parsed.size() < variant.args.size() &&
        std::all_of(parsed.begin(), parsed.end(), [](const Parsed &p) { return !p.label.empty(); }))
      err += fmt::format(" (none for {})", fmt::join(missing, ", "));
    return false;
  }
  for (size_t i = 0; i < parsed.size(); ++i) {
    const KernelArgInfo &info = variant.args[i];
    const Parsed &p = parsed[i];
    bool named = hasRealName(info, i);
    std::string what =
        fmt::format("argument #{}{} of '{}'", i, named ? " '" + info.name + "'" : "", fn);
    if (named && !p.label.empty() && p.label != info.name) {
      err = fmt::format("argument #{} of '{}' is named '{}' but its --arg '{}' is labeled '{}' "
                        "(write {}@... or leave the label out)",
                        i, fn, info.name, p.spec, p.label, info.name);
      return false;
    }
    if (info.type.empty())
      continue;
    if (info.isPointer() && !p.isBuffer) {
      err = fmt::format("{} is {} but its --arg '{}' is a scalar (give a buffer: {}[N]...)", what,
                        info.type, p.spec, info.pointee());
      return false;
    }
    if (!info.isPointer() && p.isBuffer) {
      err = fmt::format("{} is the scalar {} but its --arg '{}' is a buffer (write {}=VALUE)", what,
                        info.type, p.spec, info.type);
      return false;
    }
    if (!p.isBuffer && info.isFloat() != isFloat(p.dtype)) {
      err = fmt::format("{} is {} but its --arg '{}' is {} scalar (write {}=VALUE)", what,
                        info.type, p.spec, isFloat(p.dtype) ? "a float" : "an integer", info.type);
      return false;
    }
    // An integer scalar is converted to the parameter's type: it must fit.
    if (std::optional<DType> want = parseDType(info.type);
        !p.isBuffer && want && !isFloat(*want) && !fitsInteger(*want, p.arg.i)) {
      err = fmt::format("{} is {} but its --arg '{}' does not fit it", what, info.type, p.spec);
      return false;
    }
    // A buffer of another element type would be read as the pointee's bits.
    std::optional<DType> want = parseDType(info.pointee());
    if (p.isBuffer && want && *want != p.dtype) {
      err = fmt::format("argument #{} '{}' is {} but its --arg holds {} elements (write {}{}...)",
                        i, info.name.empty() ? p.name : info.name, info.type, name(p.dtype),
                        p.label.empty() ? "" : p.label + "@", name(*want));
      return false;
    }
  }
  return true;
}

/// The buffer --save/--expect name, or -1 with `err` set.
int findBuffer(const std::vector<Parsed> &parsed, const std::string &option,
               const std::string &name, std::string &err) {
  int found = -1;
  std::vector<std::string> names;
  for (size_t i = 0; i < parsed.size(); ++i) {
    if (parsed[i].isBuffer)
      names.push_back(parsed[i].name);
    if (parsed[i].name != name)
      continue;
    if (!parsed[i].isBuffer) {
      err = fmt::format("{} {}: '{}' is a scalar, not a buffer", option, name, name);
      return -1;
    }
    if (found >= 0) {
      err = fmt::format("{} {}: two buffers are named '{}' (label them NAME@...)", option, name,
                        name);
      return -1;
    }
    found = static_cast<int>(i);
  }
  if (found < 0)
    err = fmt::format("{} {}: no buffer is named '{}' (the buffers: {})", option, name, name,
                      names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", ")));
  return found;
}

std::string element(const HostBuffer &b, int64_t i) {
  if (b.bits(i) == poisonBits(b.dtype()))
    return "poison";
  double v = b.get(i);
  if (std::isnan(v))
    return "nan";
  if (isInt(b.dtype()))
    return std::to_string(b.getInt(i));
  return fmt::format("{:.9g}", v);
}

int error(const std::string &message) {
  fmt::print(stderr, "tessel-run: error: {}\n", message);
  return 2;
}

} // namespace

void tessel::harness::printBench(Executor &ex, std::vector<double> &ms, int reps, double elements,
                                 double bytes) {
  std::sort(ms.begin(), ms.end());
  double med = ms[ms.size() / 2];
  double gbps = bytes / (med * 1e-3) / 1e9, copy = 0;
  // Whole GB/s on a GPU; the interpreter's fractions keep two decimals rather than print 0.
  fmt::print("bench: median {:.4f} ms over {} launches, {:.3g} elements/s, {:.{}f} GB/s", med, reps,
             elements / (med * 1e-3), gbps, gbps < 10 ? 2 : 0);
  if (ex.copyBandwidth(copy))
    fmt::print(" ({:.1f}% of the {:.0f} GB/s device copy)", 100 * gbps / copy, copy);
  fmt::print("\n");
}

int tessel::harness::rawRun(Executor &ex, const KernelMetadata &variant, const RunOptions &o,
                            const Grid &grid) {
  // The syntax of every --arg, then the signature, then the names --save/--expect use: all
  // before a file is read or a buffer allocated.
  std::vector<Parsed> parsed(o.rawArgs.size());
  std::string err;
  for (size_t i = 0; i < o.rawArgs.size(); ++i)
    if (!parseSpec(o.rawArgs[i], parsed[i], err))
      return error(err);
  if (!checkSignature(variant, parsed, err))
    return error(err);
  std::vector<int> saveIdx, expectIdx;
  for (const auto &[name, path] : o.saves) {
    saveIdx.push_back(findBuffer(parsed, "--save", name, err));
    if (saveIdx.back() < 0)
      return error(err);
  }
  for (const auto &[name, path] : o.expects) {
    expectIdx.push_back(findBuffer(parsed, "--expect", name, err));
    if (expectIdx.back() < 0)
      return error(err);
  }
  if (o.bench && !ex.canTime())
    return error(ex.target() + " cannot time launches (--bench)");

  // The initial contents (rand buffers draw from one stream in --arg order) and the references.
  Random rng(o.seed);
  for (Parsed &p : parsed)
    if (p.isBuffer && !materialize(p, rng, err))
      return error(err);
  std::vector<std::vector<double>> refs;
  for (size_t e = 0; e < o.expects.size(); ++e) {
    const Parsed &p = parsed[expectIdx[e]];
    HostBuffer ref;
    if (Status s = readNpy(o.expects[e].second, DType::f64, ref); !s)
      return error("--expect " + p.name + ": " + s.message());
    if (ref.numel() != p.host.numel())
      return error(fmt::format("--expect {}: '{}' holds {} elements but buffer {} has {}", p.name,
                               o.expects[e].second, ref.numel(), p.name, p.host.numel()));
    refs.emplace_back(ref.as<double>(), ref.as<double>() + ref.numel());
  }

  // The run.
  std::vector<LaunchArg> args;
  for (Parsed &p : parsed) {
    if (!p.isBuffer) {
      args.push_back(p.arg);
      continue;
    }
    if (Status s = ex.allocate(p.name, p.host.dtype(), p.host.numel(), p.id); !s)
      return error(s.message());
    if (Status s = ex.upload(p.id, p.host); !s)
      return error(s.message());
    args.push_back(LaunchArg::buffer_(p.id));
  }
  LaunchConfig cfg;
  cfg.grid = grid;
  cfg.firstProgram = o.firstProgram;
  cfg.programCount = o.programCount;
  if (Status s = ex.launch(cfg, args); !s) {
    fmt::print(stderr, "{}\n", s.message());
    return 1;
  }
  std::vector<HostBuffer> results(parsed.size());
  for (size_t i = 0; i < parsed.size(); ++i) {
    Parsed &p = parsed[i];
    if (!p.isBuffer)
      continue;
    // --bench uploads the initial contents again; without it their memory takes the results.
    results[i] = o.bench ? HostBuffer(p.dtype, {p.host.numel()}) : std::move(p.host);
    if (Status s = ex.download(p.id, results[i]); !s)
      return error(s.message());
  }

  // Print, save, check.
  bool whole = !o.quiet && o.saves.empty() && o.expects.empty();
  for (size_t i = 0; i < parsed.size() && !o.quiet; ++i) {
    const HostBuffer &b = results[i];
    if (!parsed[i].isBuffer)
      continue;
    if (!whole || b.numel() > kMaxPrintedElements) {
      fmt::print("{}: {} elements ({})\n", parsed[i].name, b.numel(), name(b.dtype()));
      continue;
    }
    std::vector<std::string> values;
    for (int64_t k = 0; k < b.numel(); ++k)
      values.push_back(element(b, k));
    fmt::print("{} = [{}]\n", parsed[i].name, fmt::join(values, ", "));
  }
  for (size_t s = 0; s < o.saves.size(); ++s)
    if (Status st = writeNpy(o.saves[s].second, results[saveIdx[s]]); !st)
      return error("--save " + parsed[saveIdx[s]].name + ": " + st.message());
  bool pass = true;
  for (size_t e = 0; e < o.expects.size(); ++e) {
    const HostBuffer &out = results[expectIdx[e]];
    Tolerance tol = defaultTolerance(out.dtype());
    if (o.tol)
      tol.rel = tol.abs = *o.tol;
    if (o.atol || o.rtol) {
      tol.elementwise = true;
      tol.atol = o.atol.value_or(0);
      tol.rtol = o.rtol.value_or(0);
    }
    Comparison c = compare(out, refs[e], tol);
    fmt::print("{}: {} {}\n", parsed[expectIdx[e]].name, c.summary, c.pass ? "PASS" : "FAIL");
    pass &= c.pass;
  }
  if (!pass) {
    ex.releaseAll();
    return 1;
  }

  // Timing, on the initial contents again.
  if (o.bench) {
    double elements = 0, bytes = 0;
    for (Parsed &p : parsed) {
      if (!p.isBuffer)
        continue;
      if (Status s = ex.upload(p.id, p.host); !s)
        return error(s.message());
      elements = std::max(elements, static_cast<double>(p.host.numel()));
      bytes += static_cast<double>(p.host.bytes());
    }
    std::vector<double> ms;
    if (Status s = ex.time(cfg, args, 1, o.reps, ms); !s) {
      fmt::print(stderr, "{}\n", s.message());
      return 1;
    }
    printBench(ex, ms, o.reps, elements, bytes);
  }
  ex.releaseAll();
  return 0;
}
