//===- RawRun.cpp - tessel-run without a problem spec ---------------------===//
#include "RawRun.h"

#include "tessel/Harness/Poison.h"

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
  if (kind == '=') { // scalar
    if (isFloat(*dt))
      out.arg = LaunchArg::float_(std::strtod(rest.c_str(), nullptr));
    else
      out.arg = LaunchArg::int_(std::strtoll(rest.c_str(), nullptr, 0));
    return true;
  }
  out.isBuffer = true;
  if (kind == ':') { // literal values
    if (rest.size() < 2 || rest.front() != '[' || rest.back() != ']') {
      err = "bad --arg '" + specIn + "': values go in [...]";
      return false;
    }
    std::vector<double> vals;
    std::string body = rest.substr(1, rest.size() - 2);
    size_t i = 0;
    while (i < body.size()) {
      size_t j = body.find(',', i);
      std::string v = body.substr(i, j == std::string::npos ? std::string::npos : j - i);
      vals.push_back(v == "nan"    ? NAN
                     : v == "inf"  ? INFINITY
                     : v == "-inf" ? -INFINITY
                                   : std::strtod(v.c_str(), nullptr));
      if (j == std::string::npos)
        break;
      i = j + 1;
    }
    out.host = HostBuffer(*dt, {static_cast<int64_t>(vals.size())});
    for (size_t k = 0; k < vals.size(); ++k)
      out.host.set(static_cast<int64_t>(k), vals[k]);
    return true;
  }
  size_t close = rest.find(']');
  if (close == std::string::npos) {
    err = "bad --arg '" + specIn + "': missing ']'";
    return false;
  }
  int64_t n = std::strtoll(rest.substr(0, close).c_str(), nullptr, 10);
  out.host = HostBuffer(*dt, {n});
  std::string fill = rest.substr(close + 1);
  if (fill.empty()) {
    out.host.fillPoison();
  } else if (fill == "=iota") {
    for (int64_t k = 0; k < n; ++k)
      out.host.set(k, static_cast<double>(k));
  } else if (fill.size() > 1 && fill[0] == '=') {
    double v = std::strtod(fill.c_str() + 1, nullptr);
    for (int64_t k = 0; k < n; ++k)
      out.host.set(k, v);
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
  char s[40];
  std::snprintf(s, sizeof s, "%.9g", v);
  return s;
}

} // namespace

int tessel::harness::rawRun(Executor &ex, const KernelMetadata &variant,
                            const std::vector<std::string> &specs, const Grid &grid,
                            int64_t firstProgram, int64_t programCount) {
  std::vector<Parsed> parsed(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    std::string err;
    if (!parseSpec(specs[i], i, parsed[i], err)) {
      std::fprintf(stderr, "tessel-run: error: %s\n", err.c_str());
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
      std::fprintf(stderr, "tessel-run: error: %s\n", s.message().c_str());
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
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  for (size_t i = 0; i < parsed.size(); ++i) {
    Parsed &p = parsed[i];
    if (!p.isBuffer)
      continue;
    (void)ex.download(ids[i], p.host);
    std::string line = p.name + " = [";
    for (int64_t k = 0; k < p.host.numel(); ++k)
      line += (k ? ", " : "") + element(p.host, k);
    std::printf("%s]\n", line.c_str());
  }
  ex.releaseAll();
  return 0;
}
