//===- RawArgs.cpp - the --arg specs of tessel-run's raw mode -------------===//
#include "RawArgs.h"

#include "tessel/Harness/Npy.h"
#include "tessel/Harness/Poison.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace tessel::harness;

namespace {

/// The largest buffer given by its size, in elements: a size past what the host can allocate
/// would abort in the allocator.
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

/// The whole of `text` as a number (strtod: also nan, inf, -inf), or false.
bool parseNumber(const std::string &text, double &v) {
  if (text.empty())
    return false;
  char *end = nullptr;
  v = std::strtod(text.c_str(), &end);
  return !*end;
}

/// `text` as an element of a buffer of `dtype`: integer text into integer buffers exactly;
/// other number text (1e3) only where it is an integer that fits, so no conversion of an
/// out-of-range double to an integer (undefined behaviour; found by tessel-fuzz-runargs).
bool parseElement(const std::string &text, DType dtype, ElementValue &out) {
  out = ElementValue();
  if (!isInt(dtype))
    return parseNumber(text, out.f);
  out.isInt = true;
  if (parseInt64(text, out.i))
    return fitsInteger(dtype, out.i);
  double f;
  // 2^63 is the first double past int64_t; -2^63 itself converts.
  if (!parseNumber(text, f) || !std::isfinite(f) || f != std::trunc(f) || f >= 0x1p63 ||
      f < -0x1p63)
    return false;
  out.i = static_cast<int64_t>(f);
  return fitsInteger(dtype, out.i);
}

/// Parses `=rand` or `=rand(LO,HI)` (the text after ']') into out.lo/hi or out.ilo/ihi.
bool parseRand(const std::string &fill, RawArg &out, std::string &err) {
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

/// Fills a Rand buffer from `rng`: the problems' generator and their rule (never 0 after
/// rounding, unless the range holds nothing else; i1 takes 0 and 1).
void fillRand(RawArg &p, Random &rng) {
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

} // namespace

bool tessel::harness::fitsInteger(DType t, int64_t v) {
  if (t == DType::i1)
    return v == 0 || v == 1;
  unsigned bits = 8 * unsigned(sizeOf(t));
  return bits >= 64 || (v >= -(int64_t(1) << (bits - 1)) && v <= (int64_t(1) << bits) - 1);
}

bool tessel::harness::parseRawArg(const std::string &specIn, RawArg &out, std::string &err) {
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
    err =
        "bad --arg '" + specIn + "': '" + text + "' is not " +
        (isFloat(*dt) ? std::string("a number") : "an integer that fits " + std::string(name(*dt)));
    return false;
  };
  if (kind == '=') { // scalar
    double f = 0;
    int64_t i = 0;
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
    out.source = ArgSource::Npy;
    out.path = rest;
    return true;
  }
  if (kind == ':') { // literal values
    if (rest.size() < 2 || rest.back() != ']') {
      err = "bad --arg '" + specIn + "': values go in [...]";
      return false;
    }
    out.source = ArgSource::Values;
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
    out.source = ArgSource::Poison;
  } else if (fill == "=iota") {
    out.source = ArgSource::Iota;
  } else if (fill.rfind("=rand", 0) == 0) {
    out.source = ArgSource::Rand;
    return parseRand(fill, out, err);
  } else if (fill.size() > 1 && fill[0] == '=') {
    out.source = ArgSource::Fill;
    if (!parseElement(fill.substr(1), *dt, out.fill))
      return notANumber(fill.substr(1));
  } else {
    err = "bad --arg '" + specIn + "': after ']' expected =iota, =rand or =VALUE";
    return false;
  }
  return true;
}

bool tessel::harness::materialize(RawArg &p, Random &rng, std::string &err) {
  switch (p.source) {
  case ArgSource::Values:
    p.host = HostBuffer(p.dtype, {static_cast<int64_t>(p.values.size())});
    for (size_t k = 0; k < p.values.size(); ++k)
      p.values[k].storeTo(p.host, static_cast<int64_t>(k));
    return true;
  case ArgSource::Poison:
    p.host = HostBuffer(p.dtype, {p.size});
    p.host.fillPoison();
    return true;
  case ArgSource::Iota:
    p.host = HostBuffer(p.dtype, {p.size});
    for (int64_t k = 0; k < p.size; ++k)
      p.host.set(k, static_cast<double>(k));
    return true;
  case ArgSource::Fill:
    p.host = HostBuffer(p.dtype, {p.size});
    for (int64_t k = 0; k < p.size; ++k)
      p.fill.storeTo(p.host, k);
    return true;
  case ArgSource::Rand:
    p.host = HostBuffer(p.dtype, {p.size});
    fillRand(p, rng);
    return true;
  case ArgSource::Npy: {
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
