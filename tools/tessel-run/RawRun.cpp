//===- RawRun.cpp - tessel-run without a problem spec ---------------------===//
#include "RawRun.h"
#include "RawArgs.h"

#include "tessel/Harness/Compare.h"
#include "tessel/Harness/Npy.h"
#include "tessel/Harness/Poison.h"
#include "tessel/Harness/Random.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace tessel::harness;

namespace {

/// Buffers of up to this many elements are printed whole after the run.
constexpr int64_t kMaxPrintedElements = 1024;

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
bool checkSignature(const KernelMetadata &variant, std::vector<RawArg> &parsed, std::string &err) {
  for (size_t i = 0; i < parsed.size(); ++i) {
    RawArg &p = parsed[i];
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
                       [&](const RawArg &p) { return p.label == variant.args[i].name; }))
        missing.push_back(variant.args[i].name);
    if (parsed.size() < variant.args.size() &&
        std::all_of(parsed.begin(), parsed.end(), [](const RawArg &p) { return !p.label.empty(); }))
      err += fmt::format(" (none for {})", fmt::join(missing, ", "));
    return false;
  }
  for (size_t i = 0; i < parsed.size(); ++i) {
    const KernelArgInfo &info = variant.args[i];
    const RawArg &p = parsed[i];
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
int findBuffer(const std::vector<RawArg> &parsed, const std::string &option,
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
  std::vector<RawArg> parsed(o.rawArgs.size());
  std::string err;
  for (size_t i = 0; i < o.rawArgs.size(); ++i)
    if (!parseRawArg(o.rawArgs[i], parsed[i], err))
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
  for (RawArg &p : parsed)
    if (p.isBuffer && !materialize(p, rng, err))
      return error(err);
  std::vector<std::vector<double>> refs;
  for (size_t e = 0; e < o.expects.size(); ++e) {
    const RawArg &p = parsed[expectIdx[e]];
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
  for (RawArg &p : parsed) {
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
    RawArg &p = parsed[i];
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
    for (RawArg &p : parsed) {
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
