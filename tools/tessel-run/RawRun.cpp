//===- RawRun.cpp - tessel-run without a problem spec ---------------------===//
#include "RawRun.h"

#include "tessel/Harness/Poison.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace tessel::harness;

namespace {

struct Parsed {
  std::string name;
  bool isBuffer = false;
  HostBuffer host;
  LaunchArg arg;
};

/// The largest raw-mode buffer, in elements: raw mode prints every element afterwards, and a
/// size past what the host can allocate would abort in the allocator.
constexpr int64_t kMaxRawElements = int64_t(1) << 28;

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

/// One element value for a buffer of `dtype`: integer buffers take integers exactly (case
/// C15: 9007199254740993 is not rounded through a double), else any number.
struct ElementValue {
  bool isInt = false;
  int64_t i = 0;
  double f = 0;
  void storeTo(HostBuffer &b, int64_t k) const { isInt ? b.setInt(k, i) : b.set(k, f); }
};

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

bool parseSpec(const std::string &specIn, size_t index, Parsed &out, std::string &err) {
  std::string spec = specIn;
  size_t at = spec.find('@');
  out.name = "arg" + std::to_string(index);
  if (at != std::string::npos) {
    out.name = spec.substr(0, at);
    spec = spec.substr(at + 1);
  }
  size_t cut = spec.find_first_of(":[=");
  auto dt = parseDType(spec.substr(0, cut));
  if (!dt || cut == std::string::npos) {
    err = "bad --arg '" + specIn + "': expected DTYPE:[v,...], DTYPE[N][=iota|=V] or DTYPE=V";
    return false;
  }
  char kind = spec[cut];
  std::string rest = spec.substr(cut + 1);
  auto notANumber = [&](const std::string &text) {
    err = "bad --arg '" + specIn + "': '" + text + "' is not a number";
    return false;
  };
  if (kind == '=') { // scalar
    double f;
    int64_t i;
    if (isFloat(*dt) ? !parseNumber(rest, f) : !parseInt64(rest, i))
      return notANumber(rest);
    out.arg = isFloat(*dt) ? LaunchArg::float_(f) : LaunchArg::int_(i);
    return true;
  }
  out.isBuffer = true;
  if (kind == ':') { // literal values
    if (rest.size() < 2 || rest.front() != '[' || rest.back() != ']') {
      err = "bad --arg '" + specIn + "': values go in [...]";
      return false;
    }
    std::vector<ElementValue> vals;
    std::string body = rest.substr(1, rest.size() - 2);
    size_t i = 0;
    while (i < body.size()) {
      size_t j = body.find(',', i);
      std::string v = body.substr(i, j == std::string::npos ? std::string::npos : j - i);
      ElementValue x;
      if (!parseElement(v, *dt, x))
        return notANumber(v);
      vals.push_back(x);
      if (j == std::string::npos)
        break;
      i = j + 1;
    }
    out.host = HostBuffer(*dt, {static_cast<int64_t>(vals.size())});
    for (size_t k = 0; k < vals.size(); ++k)
      vals[k].storeTo(out.host, static_cast<int64_t>(k));
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
  out.host = HostBuffer(*dt, {n});
  std::string fill = rest.substr(close + 1);
  if (fill.empty()) {
    out.host.fillPoison();
  } else if (fill == "=iota") {
    for (int64_t k = 0; k < n; ++k)
      out.host.set(k, static_cast<double>(k));
  } else if (fill.size() > 1 && fill[0] == '=') {
    ElementValue v;
    if (!parseElement(fill.substr(1), *dt, v))
      return notANumber(fill.substr(1));
    for (int64_t k = 0; k < n; ++k)
      v.storeTo(out.host, k);
  } else {
    err = "bad --arg '" + specIn + "': after ']' expected =iota or =VALUE";
    return false;
  }
  return true;
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

} // namespace

int tessel::harness::rawRun(Executor &ex, const KernelMetadata &variant,
                            const std::vector<std::string> &specs, const Grid &grid,
                            int64_t firstProgram, int64_t programCount) {
  std::vector<Parsed> parsed(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    std::string err;
    if (!parseSpec(specs[i], i, parsed[i], err)) {
      fmt::print(stderr, "tessel-run: error: {}\n", err);
      return 2;
    }
  }
  // A buffer of another element type would be read as the pointee's bits: refuse it. (The
  // executors check the argument count and the buffer/scalar kinds.)
  for (size_t i = 0; i < parsed.size() && i < variant.args.size(); ++i) {
    const KernelArgInfo &info = variant.args[i];
    std::optional<DType> want = parseDType(info.pointee());
    if (parsed[i].isBuffer && want && *want != parsed[i].host.dtype()) {
      fmt::print(
          stderr, "tessel-run: error: argument #{} '{}' is {} but its --arg holds {} elements\n", i,
          info.name.empty() ? parsed[i].name : info.name, info.type, name(parsed[i].host.dtype()));
      return 2;
    }
  }
  std::vector<LaunchArg> args;
  std::vector<BufferId> ids(parsed.size(), -1);
  for (size_t i = 0; i < parsed.size(); ++i) {
    Parsed &p = parsed[i];
    if (!p.isBuffer) {
      args.push_back(p.arg);
      continue;
    }
    if (Status s = ex.allocate(p.name, p.host.dtype(), p.host.numel(), ids[i]); !s) {
      fmt::print(stderr, "tessel-run: error: {}\n", s.message());
      return 2;
    }
    (void)ex.upload(ids[i], p.host);
    args.push_back(LaunchArg::buffer_(ids[i]));
  }
  LaunchConfig cfg;
  cfg.grid = grid;
  cfg.firstProgram = firstProgram;
  cfg.programCount = programCount;
  Status s = ex.launch(cfg, args);
  if (!s) {
    fmt::print(stderr, "{}\n", s.message());
    return 1;
  }
  for (size_t i = 0; i < parsed.size(); ++i) {
    Parsed &p = parsed[i];
    if (!p.isBuffer)
      continue;
    (void)ex.download(ids[i], p.host);
    std::vector<std::string> values;
    for (int64_t k = 0; k < p.host.numel(); ++k)
      values.push_back(element(p.host, k));
    fmt::print("{} = [{}]\n", p.name, fmt::join(values, ", "));
  }
  ex.releaseAll();
  return 0;
}
