//===- HostBuffer.h - typed host buffers --------------------------*- C++ -*-===//
#ifndef TESSEL_HARNESS_HOSTBUFFER_H
#define TESSEL_HARNESS_HOSTBUFFER_H

#include "tessel/Harness/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::harness {

/// A dense row-major buffer of `numel()` elements of one dtype in host memory, 64-byte
/// aligned. Element access converts through double: get() is exact for every dtype but
/// i64 beyond 2^53; set() rounds to nearest even (f16, bf16, f32) or truncates toward zero
/// and wraps (integers).
class HostBuffer {
public:
  HostBuffer() = default;
  HostBuffer(DType dtype, std::vector<int64_t> shape);
  HostBuffer(const HostBuffer &other);
  HostBuffer &operator=(const HostBuffer &other);
  HostBuffer(HostBuffer &&) noexcept = default;
  HostBuffer &operator=(HostBuffer &&) noexcept = default;

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t numel() const { return numel_; }
  size_t bytes() const { return static_cast<size_t>(numel_) * sizeOf(dtype_); }
  void *data() { return storage_.data(); }
  const void *data() const { return storage_.data(); }
  template <typename T> T *as() { return reinterpret_cast<T *>(storage_.data()); }
  template <typename T> const T *as() const { return reinterpret_cast<const T *>(storage_.data()); }

  /// Element `i` as a double (integers as their signed value; i1 as 0 or 1).
  double get(int64_t i) const;
  /// Element `i` as a signed 64-bit integer (integer dtypes; floats truncate).
  int64_t getInt(int64_t i) const;
  /// Stores `v` rounded to the dtype; into an integer dtype truncated toward zero, NaN as 0
  /// and values past int64's range saturated (then wrapped to the dtype's width by setInt).
  void set(int64_t i, double v);
  void setInt(int64_t i, int64_t v);
  /// The raw bits of element `i`, zero-extended.
  uint64_t bits(int64_t i) const;
  /// Fills every element with the dtype's poison pattern (Poison.h).
  void fillPoison();
  /// All elements as doubles (large buffers on every core: Parallel.h).
  std::vector<double> toDoubles() const;
  /// Elements [begin, end) as doubles, into out[0, end - begin).
  void toDoubles(int64_t begin, int64_t end, double *out) const;
  /// How many of elements [begin, end) hold exactly `pattern` (bits(i) == pattern); the first
  /// such index in `first` (-1 when none).
  int64_t countBits(uint64_t pattern, int64_t begin, int64_t end, int64_t &first) const;
  /// "bf16[4096x4096]".
  std::string describe() const;

private:
  DType dtype_ = DType::f32;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  std::vector<uint64_t> storage_; // 8-byte words: aligned for every dtype
};

/// "4096x4096" for {4096, 4096}; "scalar" for {}.
std::string shapeString(const std::vector<int64_t> &shape);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_HOSTBUFFER_H
