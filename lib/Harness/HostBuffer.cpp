//===- HostBuffer.cpp - typed host buffers ---------------------------------===//
#include "tessel/Harness/HostBuffer.h"
#include "tessel/Harness/FloatFormats.h"
#include "tessel/Harness/Parallel.h"
#include "tessel/Harness/Poison.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tessel::harness;

HostBuffer::HostBuffer(DType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)) {
  numel_ = 1;
  for (int64_t d : shape_)
    numel_ *= d;
  storage_.assign((bytes() + 7) / 8 + 1, 0);
}

HostBuffer::HostBuffer(const HostBuffer &o) = default;
HostBuffer &HostBuffer::operator=(const HostBuffer &o) = default;

double HostBuffer::get(int64_t i) const {
  const uint8_t *p = reinterpret_cast<const uint8_t *>(storage_.data());
  switch (dtype_) {
  case DType::i1:
    return p[i] ? 1.0 : 0.0;
  case DType::i8:
    return static_cast<int8_t>(p[i]);
  case DType::i16:
    return as<int16_t>()[i];
  case DType::i32:
    return as<int32_t>()[i];
  case DType::i64:
    return static_cast<double>(as<int64_t>()[i]);
  case DType::f16:
    return halfToFloat(as<uint16_t>()[i]);
  case DType::bf16:
    return bf16ToFloat(as<uint16_t>()[i]);
  case DType::f32:
    return as<float>()[i];
  case DType::f64:
    return as<double>()[i];
  }
  return 0;
}

int64_t HostBuffer::getInt(int64_t i) const {
  switch (dtype_) {
  case DType::i1:
    return reinterpret_cast<const uint8_t *>(storage_.data())[i] ? 1 : 0;
  case DType::i8:
    return reinterpret_cast<const int8_t *>(storage_.data())[i];
  case DType::i16:
    return as<int16_t>()[i];
  case DType::i32:
    return as<int32_t>()[i];
  case DType::i64:
    return as<int64_t>()[i];
  default:
    return static_cast<int64_t>(get(i));
  }
}

void HostBuffer::setInt(int64_t i, int64_t v) {
  switch (dtype_) {
  case DType::i1:
    reinterpret_cast<uint8_t *>(storage_.data())[i] = v & 1;
    return;
  case DType::i8:
    reinterpret_cast<int8_t *>(storage_.data())[i] = static_cast<int8_t>(v);
    return;
  case DType::i16:
    as<int16_t>()[i] = static_cast<int16_t>(v);
    return;
  case DType::i32:
    as<int32_t>()[i] = static_cast<int32_t>(v);
    return;
  case DType::i64:
    as<int64_t>()[i] = v;
    return;
  default:
    set(i, static_cast<double>(v));
  }
}

void HostBuffer::set(int64_t i, double v) {
  switch (dtype_) {
  case DType::f16:
    as<uint16_t>()[i] = doubleToHalf(v);
    return;
  case DType::bf16:
    as<uint16_t>()[i] = doubleToBF16(v);
    return;
  case DType::f32:
    as<float>()[i] = static_cast<float>(v);
    return;
  case DType::f64:
    as<double>()[i] = v;
    return;
  default:
    // A double at or past 2^63 does not convert to int64_t (undefined behaviour).
    setInt(i, std::isnan(v) ? 0
              : v >= 0x1p63 ? std::numeric_limits<int64_t>::max()
              : v < -0x1p63 ? std::numeric_limits<int64_t>::min()
                            : static_cast<int64_t>(v));
  }
}

uint64_t HostBuffer::bits(int64_t i) const {
  uint64_t b = 0;
  std::memcpy(&b, reinterpret_cast<const uint8_t *>(storage_.data()) + i * sizeOf(dtype_),
              sizeOf(dtype_));
  return b;
}

void HostBuffer::fillPoison() {
  uint64_t p = poisonBits(dtype_);
  size_t sz = sizeOf(dtype_);
  uint8_t *base = reinterpret_cast<uint8_t *>(storage_.data());
  for (int64_t i = 0; i < numel_; ++i)
    std::memcpy(base + i * sz, &p, sz);
}

// The element loops below switch on the dtype once per range: get() per element was a third
// of a large benchmark row's host time.
template <class S, class F>
static void convert(const void *data, int64_t begin, int64_t end, double *out, F f) {
  const S *p = static_cast<const S *>(data);
  for (int64_t i = begin; i < end; ++i)
    out[i - begin] = f(p[i]);
}

void HostBuffer::toDoubles(int64_t begin, int64_t end, double *out) const {
  const void *d = storage_.data();
  switch (dtype_) {
  case DType::i1:
    return convert<uint8_t>(d, begin, end, out, [](uint8_t v) { return v ? 1.0 : 0.0; });
  case DType::i8:
    return convert<int8_t>(d, begin, end, out, [](int8_t v) { return double(v); });
  case DType::i16:
    return convert<int16_t>(d, begin, end, out, [](int16_t v) { return double(v); });
  case DType::i32:
    return convert<int32_t>(d, begin, end, out, [](int32_t v) { return double(v); });
  case DType::i64:
    return convert<int64_t>(d, begin, end, out, [](int64_t v) { return double(v); });
  case DType::f16:
    return convert<uint16_t>(d, begin, end, out, [](uint16_t v) { return double(halfToFloat(v)); });
  case DType::bf16:
    return convert<uint16_t>(d, begin, end, out, [](uint16_t v) { return double(bf16ToFloat(v)); });
  case DType::f32:
    return convert<float>(d, begin, end, out, [](float v) { return double(v); });
  case DType::f64:
    return convert<double>(d, begin, end, out, [](double v) { return v; });
  }
}

std::vector<double> HostBuffer::toDoubles() const {
  std::vector<double> out(numel_);
  forChunks(numel_, kChunkElements, [&](int64_t, int64_t begin, int64_t end) {
    toDoubles(begin, end, out.data() + begin);
  });
  return out;
}

template <class S>
static int64_t count(const void *data, S pattern, int64_t begin, int64_t end, int64_t &first) {
  const S *p = static_cast<const S *>(data);
  int64_t n = 0;
  first = -1;
  for (int64_t i = begin; i < end; ++i)
    if (p[i] == pattern && n++ == 0)
      first = i;
  return n;
}

int64_t HostBuffer::countBits(uint64_t pattern, int64_t begin, int64_t end, int64_t &first) const {
  const void *d = storage_.data();
  switch (sizeOf(dtype_)) {
  case 1:
    return count<uint8_t>(d, static_cast<uint8_t>(pattern), begin, end, first);
  case 2:
    return count<uint16_t>(d, static_cast<uint16_t>(pattern), begin, end, first);
  case 4:
    return count<uint32_t>(d, static_cast<uint32_t>(pattern), begin, end, first);
  default:
    return count<uint64_t>(d, pattern, begin, end, first);
  }
}

std::string tessel::harness::shapeString(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

std::string HostBuffer::describe() const {
  return std::string(name(dtype_)) + "[" + shapeString(shape_) + "]";
}
