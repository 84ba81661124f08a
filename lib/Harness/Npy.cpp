//===- Npy.cpp - NumPy .npy files for host buffers ------------------------===//
//
// The format and what is supported: include/tessel/Harness/Npy.h. Elements are copied with
// memcpy in the host's byte order, which must be little-endian like the files.
//
//===----------------------------------------------------------------------===//
#include "tessel/Harness/Npy.h"
#include "tessel/Harness/FloatFormats.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

using namespace tessel::harness;

static_assert(std::endian::native == std::endian::little,
              "Npy.cpp copies little-endian .npy data in the host's byte order");

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

struct DescrEntry {
  const char *descr;
  NpyType type;
  size_t size;
};
constexpr DescrEntry kDescrs[] = {
    {"<f2", NpyType::f2, 2}, {"<f4", NpyType::f4, 4}, {"<f8", NpyType::f8, 8},
    {"|i1", NpyType::i1, 1}, {"<i2", NpyType::i2, 2}, {"<i4", NpyType::i4, 4},
    {"<i8", NpyType::i8, 8}, {"|u1", NpyType::u1, 1}, {"<u2", NpyType::u2, 2},
    {"<u4", NpyType::u4, 4}, {"<u8", NpyType::u8, 8}, {"|b1", NpyType::b1, 1}};

std::string supportedList() {
  std::string s;
  for (const DescrEntry &d : kDescrs) {
    if (!s.empty())
      s += ' ';
    s += d.descr;
  }
  return s;
}

/// A tiny reader of the header's Python dict literal.
class DictParser {
public:
  explicit DictParser(std::string_view text) : s_(text) {}

  /// One value of the dict: a string, True/False, a tuple of integers, or anything else
  /// (a list: a structured dtype) kept as text.
  struct Value {
    enum Kind { Str, Bool, Tuple, Other } kind = Other;
    std::string str;
    bool b = false;
    std::vector<int64_t> ints;
  };

  Status parse(std::vector<std::pair<std::string, Value>> &items) {
    skipSpace();
    if (!eat('{'))
      return error("the header is not a Python dict");
    while (true) {
      skipSpace();
      if (eat('}'))
        break;
      std::string key;
      if (!parseString(key))
        return error("expected a quoted key");
      skipSpace();
      if (!eat(':'))
        return error("expected ':' after '" + key + "'");
      Value v;
      if (Status s = parseValue(v); !s)
        return s;
      items.emplace_back(key, std::move(v));
      skipSpace();
      if (eat(','))
        continue;
      if (eat('}'))
        break;
      return error("expected ',' or '}' after the value of '" + key + "'");
    }
    for (; pos_ < s_.size(); ++pos_)
      if (!std::isspace(static_cast<unsigned char>(s_[pos_])) && s_[pos_] != '\0')
        return error("text after the dict");
    return Status::ok();
  }

private:
  Status error(const std::string &what) const {
    return Status::error(
        fmt::format("has a malformed header ({} at offset {} of '{}')", what, pos_, s_));
  }
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool parseString(std::string &out) {
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"'))
      return false;
    char q = s_[pos_++];
    size_t end = s_.find(q, pos_);
    if (end == std::string_view::npos)
      return false;
    out = std::string(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return true;
  }
  bool parseWord(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w)
      return false;
    pos_ += w.size();
    return true;
  }
  Status parseValue(Value &v) {
    skipSpace();
    if (parseString(v.str)) {
      v.kind = Value::Str;
      return Status::ok();
    }
    if (parseWord("True") || parseWord("False")) {
      v.kind = Value::Bool;
      v.b = s_[pos_ - 2] == 'u'; // Tr(u)e, Fal(s)e
      return Status::ok();
    }
    if (eat('(')) {
      v.kind = Value::Tuple;
      while (true) {
        skipSpace();
        if (eat(')'))
          return Status::ok();
        size_t start = pos_;
        int64_t n = 0;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
          int digit = s_[pos_++] - '0';
          if (n > (INT64_MAX - digit) / 10)
            return error("a dimension past 2^63");
          n = n * 10 + digit;
        }
        if (pos_ == start)
          return error("expected a non-negative integer in the shape");
        eat('L'); // Python 2's long literals: (3L, 4L)
        v.ints.push_back(n);
        skipSpace();
        if (eat(','))
          continue;
        if (eat(')'))
          return Status::ok();
        return error("expected ',' or ')' in the shape");
      }
    }
    // Anything else (a list of fields, a nested dict): skip to the next top-level ',' or '}'.
    v.kind = Value::Other;
    size_t start = pos_;
    int depth = 0;
    for (; pos_ < s_.size(); ++pos_) {
      char c = s_[pos_];
      if (c == '\'' || c == '"') {
        size_t end = s_.find(c, pos_ + 1);
        if (end == std::string_view::npos)
          break;
        pos_ = end;
      } else if (c == '[' || c == '(' || c == '{') {
        ++depth;
      } else if (c == ']' || c == ')' || c == '}') {
        if (depth == 0)
          break;
        --depth;
      } else if (c == ',' && depth == 0) {
        break;
      }
    }
    v.str = std::string(s_.substr(start, pos_ - start));
    if (v.str.empty())
      return error("expected a value");
    return Status::ok();
  }

  std::string_view s_;
  size_t pos_ = 0;
};

/// Closes a FILE* when it goes out of scope.
struct FileCloser {
  void operator()(FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

/// Element `i` of `data` as a signed (for u8: the bits of the unsigned) 64-bit integer, or as a
/// double for float types; `isFloat` says which.
struct Element {
  bool isFloat = false, isUnsigned = false;
  int64_t i = 0;
  double f = 0;
};

Element element(const uint8_t *data, NpyType t, int64_t i) {
  Element e;
  auto load = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, data + i * sizeof(v), sizeof(v));
    return v;
  };
  switch (t) {
  case NpyType::f2:
    e.isFloat = true, e.f = halfToFloat(load(uint16_t()));
    break;
  case NpyType::f4:
    e.isFloat = true, e.f = load(float());
    break;
  case NpyType::f8:
    e.isFloat = true, e.f = load(double());
    break;
  case NpyType::i1:
    e.i = load(int8_t());
    break;
  case NpyType::i2:
    e.i = load(int16_t());
    break;
  case NpyType::i4:
    e.i = load(int32_t());
    break;
  case NpyType::i8:
    e.i = load(int64_t());
    break;
  case NpyType::u1:
    e.isUnsigned = true, e.i = load(uint8_t());
    break;
  case NpyType::u2:
    e.isUnsigned = true, e.i = load(uint16_t());
    break;
  case NpyType::u4:
    e.isUnsigned = true, e.i = load(uint32_t());
    break;
  case NpyType::u8:
    e.isUnsigned = true, e.i = static_cast<int64_t>(load(uint64_t()));
    break;
  case NpyType::b1:
    e.i = data[i] ? 1 : 0;
    break;
  }
  return e;
}

/// Whether the file's elements are the buffer's bytes as they are.
bool sameLayout(NpyType t, DType d) {
  switch (t) {
  case NpyType::f2:
    return d == DType::f16;
  case NpyType::f4:
    return d == DType::f32;
  case NpyType::f8:
    return d == DType::f64;
  case NpyType::i1:
  case NpyType::u1:
    return d == DType::i8;
  case NpyType::i2:
  case NpyType::u2:
    return d == DType::i16;
  case NpyType::i4:
  case NpyType::u4:
    return d == DType::i32;
  case NpyType::i8:
  case NpyType::u8:
    return d == DType::i64;
  case NpyType::b1:
    return false; // normalized to 0/1
  }
  return false;
}

/// Stores `e` into integer buffer element `k`, or says why it cannot.
bool storeInt(HostBuffer &out, int64_t k, const Element &e, std::string &why) {
  DType d = out.dtype();
  unsigned bits = bitWidth(d);
  if (e.isFloat) {
    double v = e.f;
    double lo = d == DType::i1 ? 0 : -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits);
    if (!std::isfinite(v) || std::trunc(v) != v) {
      why = fmt::format("{:.9g}, not an integer (an {} buffer takes integral values)", v, name(d));
      return false;
    }
    if (v < lo || v >= hi || (d == DType::i1 && v > 1)) {
      why = fmt::format("{:.9g}, which does not fit {} ({})", v, name(d),
                        d == DType::i1 ? "0 or 1" : "its signed or unsigned range");
      return false;
    }
    out.setInt(k, v < 0 ? static_cast<int64_t>(v) : static_cast<int64_t>(static_cast<uint64_t>(v)));
    return true;
  }
  bool fits;
  if (d == DType::i1)
    fits = e.i == 0 || e.i == 1;
  else if (bits == 64)
    fits = true;
  else if (e.isUnsigned)
    fits = static_cast<uint64_t>(e.i) < (uint64_t(1) << bits);
  else
    fits = e.i >= -(int64_t(1) << (bits - 1)) && e.i < (int64_t(1) << bits);
  if (!fits) {
    why =
        fmt::format("{}, which does not fit {} ({})",
                    e.isUnsigned ? std::to_string(static_cast<uint64_t>(e.i)) : std::to_string(e.i),
                    name(d), d == DType::i1 ? "0 or 1" : "its signed or unsigned range");
    return false;
  }
  out.setInt(k, e.i);
  return true;
}

std::string shapeTuple(const std::vector<int64_t> &shape) {
  if (shape.size() == 1)
    return fmt::format("({},)", shape[0]);
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + ")";
}

} // namespace

size_t NpyHeader::itemSize() const {
  for (const DescrEntry &d : kDescrs)
    if (d.type == type)
      return d.size;
  return 0;
}

const char *tessel::harness::npyDescr(NpyType t) {
  for (const DescrEntry &d : kDescrs)
    if (d.type == t)
      return d.descr;
  return "?";
}

Status tessel::harness::parseNpyHeader(std::string_view bytes, NpyHeader &out) {
  out = NpyHeader();
  if (bytes.size() < kMagicSize || bytes.substr(0, kMagicSize) != std::string_view(kMagic))
    return Status::error("is not a .npy file (it does not start with the \\x93NUMPY magic; "
                         "write it with numpy.save)");
  if (bytes.size() < kMagicSize + 2)
    return Status::error("is truncated (it ends inside the .npy preamble)");
  out.major = static_cast<uint8_t>(bytes[6]);
  out.minor = static_cast<uint8_t>(bytes[7]);
  if (out.major < 1 || out.major > 3 || out.minor != 0)
    return Status::error(fmt::format("is .npy format version {}.{}, which is not supported "
                                     "(1.0, 2.0 and 3.0 are; numpy.save writes 1.0)",
                                     out.major, out.minor));
  size_t lenBytes = out.major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lenBytes)
    return Status::error("is truncated (it ends inside the .npy preamble)");
  size_t headerLen = 0;
  for (size_t i = 0; i < lenBytes; ++i)
    headerLen |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
  out.dataOffset = 8 + lenBytes + headerLen;
  if (bytes.size() < out.dataOffset)
    return Status::error(fmt::format("is truncated (its header is {} bytes, the file has {})",
                                     headerLen, bytes.size() - 8 - lenBytes));
  std::vector<std::pair<std::string, DictParser::Value>> items;
  if (Status s = DictParser(bytes.substr(8 + lenBytes, headerLen)).parse(items); !s)
    return s;
  bool haveDescr = false, haveOrder = false, haveShape = false;
  for (auto &[key, v] : items) {
    if (key == "descr") {
      if (v.kind == DictParser::Value::Other)
        return Status::error(fmt::format(
            "holds the structured dtype {}, which is not supported (supported: {}); save one "
            "field, e.g. arr['x'], or arr.astype(numpy.float32)",
            v.str, supportedList()));
      if (v.kind != DictParser::Value::Str)
        return Status::error("has a malformed header ('descr' is not a string)");
      out.descr = v.str;
      haveDescr = true;
    } else if (key == "fortran_order") {
      if (v.kind != DictParser::Value::Bool)
        return Status::error("has a malformed header ('fortran_order' is not True or False)");
      out.fortranOrder = v.b;
      haveOrder = true;
    } else if (key == "shape") {
      if (v.kind != DictParser::Value::Tuple)
        return Status::error("has a malformed header ('shape' is not a tuple of integers)");
      out.shape = v.ints;
      haveShape = true;
    } else {
      return Status::error("has a malformed header (unknown key '" + key + "')");
    }
  }
  const char *missing = !haveDescr ? "descr" : !haveOrder ? "fortran_order" : "shape";
  if (!haveDescr || !haveOrder || !haveShape)
    return Status::error(fmt::format("has a malformed header (no '{}')", missing));
  bool found = false;
  for (const DescrEntry &d : kDescrs)
    if (out.descr == d.descr)
      out.type = d.type, found = true;
  if (!found) {
    if (out.descr.size() > 1 && out.descr[0] == '>') {
      std::string kind = out.descr.substr(1);
      bool oneByte = kind == "i1" || kind == "u1" || kind == "b1";
      return Status::error(fmt::format("is big-endian (dtype '{}'); save arr.astype('{}{}') "
                                       "instead",
                                       out.descr, oneByte ? '|' : '<', kind));
    }
    return Status::error(fmt::format("holds dtype '{}', which is not supported (supported: {}); "
                                     "save arr.astype(numpy.float32) or another of those",
                                     out.descr, supportedList()));
  }
  if (out.fortranOrder)
    return Status::error("is in Fortran order (fortran_order: True); save "
                         "numpy.ascontiguousarray(arr) instead");
  out.numel = 1;
  for (int64_t d : out.shape) {
    if (d != 0 && out.numel > INT64_MAX / d)
      return Status::error("has a shape of more than 2^63 elements");
    out.numel *= d;
  }
  return Status::ok();
}

Status tessel::harness::readNpy(const std::string &path, DType dtype, HostBuffer &out,
                                NpyHeader *headerOut) {
  auto fail = [&](const std::string &what) { return Status::error("'" + path + "' " + what); };
  File f(std::fopen(path.c_str(), "rb"));
  if (!f)
    return Status::error(fmt::format("cannot open '{}': {} (give a .npy file written by "
                                     "numpy.save)",
                                     path, std::strerror(errno)));
  if (std::fseek(f.get(), 0, SEEK_END) != 0)
    return fail("cannot be read (not a regular file?)");
  long fileSize = std::ftell(f.get());
  std::rewind(f.get());
  if (fileSize < 0)
    return fail("cannot be read (not a regular file?)");
  // The preamble (at most 12 bytes) says how long the header is.
  std::string head(std::min<long>(fileSize, 12), '\0');
  if (std::fread(head.data(), 1, head.size(), f.get()) != head.size())
    return fail("cannot be read");
  NpyHeader h;
  Status s = parseNpyHeader(head, h);
  if (!s && h.dataOffset > head.size() && static_cast<long>(h.dataOffset) <= fileSize) {
    head.resize(h.dataOffset);
    if (std::fread(head.data() + 12, 1, h.dataOffset - 12, f.get()) != h.dataOffset - 12)
      return fail("cannot be read");
    s = parseNpyHeader(head, h);
  }
  if (!s)
    return fail(s.message());
  size_t item = h.itemSize();
  uint64_t dataBytes = static_cast<uint64_t>(h.numel) * item;
  if (h.numel != 0 && dataBytes / item != static_cast<uint64_t>(h.numel))
    return fail("has a shape too large to hold");
  uint64_t have = static_cast<uint64_t>(fileSize) - h.dataOffset;
  if (have < dataBytes)
    return fail(fmt::format("is truncated: shape {} of '{}' needs {} bytes of data, the file "
                            "has {}",
                            shapeTuple(h.shape), h.descr, dataBytes, have));
  if (have > dataBytes)
    return fail(fmt::format("has {} bytes after the data of shape {} of '{}' (not a file "
                            "written by numpy.save?)",
                            have - dataBytes, shapeTuple(h.shape), h.descr));
  out = HostBuffer(dtype, h.shape);
  if (sameLayout(h.type, dtype)) {
    if (std::fread(out.data(), 1, dataBytes, f.get()) != dataBytes)
      return fail("cannot be read");
  } else {
    std::vector<uint8_t> data(dataBytes);
    if (std::fread(data.data(), 1, dataBytes, f.get()) != dataBytes)
      return fail("cannot be read");
    for (int64_t k = 0; k < h.numel; ++k) {
      Element e = element(data.data(), h.type, k);
      if (isFloat(dtype)) {
        double v = e.isFloat      ? e.f
                   : e.isUnsigned ? static_cast<double>(static_cast<uint64_t>(e.i))
                                  : static_cast<double>(e.i);
        out.set(k, v);
        continue;
      }
      std::string why;
      if (!storeInt(out, k, e, why))
        return fail(fmt::format("('{}'): element {} is {}", h.descr, k, why));
    }
  }
  if (headerOut)
    *headerOut = h;
  return Status::ok();
}

std::string tessel::harness::npyHeaderBytes(const std::string &descr,
                                            const std::vector<int64_t> &shape) {
  std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeTuple(shape) + ", }";
  bool v2 = dict.size() + 1 + 10 > 65535;
  size_t pre = v2 ? 12 : 10;
  size_t total = pre + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicSize);
  out += static_cast<char>(v2 ? 2 : 1);
  out += '\0';
  size_t len = dict.size();
  for (size_t i = 0; i < (v2 ? 4u : 2u); ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  return out + dict;
}

Status tessel::harness::writeNpy(const std::string &path, const HostBuffer &buf) {
  // The descr each dtype is written as (bf16 widened to float32: NumPy has no bf16).
  static constexpr std::pair<DType, NpyType> kWritten[] = {
      {DType::i1, NpyType::b1},   {DType::i8, NpyType::i1},  {DType::i16, NpyType::i2},
      {DType::i32, NpyType::i4},  {DType::i64, NpyType::i8}, {DType::f16, NpyType::f2},
      {DType::bf16, NpyType::f4}, {DType::f32, NpyType::f4}, {DType::f64, NpyType::f8}};
  const char *descr = "<f4";
  for (const auto &[dtype, type] : kWritten)
    if (dtype == buf.dtype())
      descr = npyDescr(type);
  File f(std::fopen(path.c_str(), "wb"));
  if (!f)
    return Status::error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  std::string header = npyHeaderBytes(descr, buf.shape());
  bool ok = std::fwrite(header.data(), 1, header.size(), f.get()) == header.size();
  if (buf.dtype() == DType::bf16 || buf.dtype() == DType::i1) {
    // Converted in chunks: bf16 widened to float32, i1 bytes normalized to 0 and 1.
    constexpr int64_t kChunk = 1 << 16;
    std::vector<uint8_t> tmp;
    for (int64_t k0 = 0; ok && k0 < buf.numel(); k0 += kChunk) {
      int64_t n = std::min(kChunk, buf.numel() - k0);
      if (buf.dtype() == DType::bf16) {
        tmp.resize(n * 4);
        for (int64_t k = 0; k < n; ++k) {
          float v = bf16ToFloat(buf.as<uint16_t>()[k0 + k]);
          std::memcpy(tmp.data() + 4 * k, &v, 4);
        }
      } else {
        tmp.resize(n);
        for (int64_t k = 0; k < n; ++k)
          tmp[k] = buf.as<uint8_t>()[k0 + k] ? 1 : 0;
      }
      ok = std::fwrite(tmp.data(), 1, tmp.size(), f.get()) == tmp.size();
    }
  } else if (buf.bytes()) {
    ok = ok && std::fwrite(buf.data(), 1, buf.bytes(), f.get()) == buf.bytes();
  }
  FILE *raw = f.release();
  if (std::fclose(raw) != 0)
    ok = false;
  if (!ok)
    return Status::error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  return Status::ok();
}
