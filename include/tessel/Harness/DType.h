//===- DType.h - element types of host and device buffers --------*- C++ -*-===//
#ifndef TESSEL_HARNESS_DTYPE_H
#define TESSEL_HARNESS_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel::harness {

/// Element types a buffer may hold. i1 is stored as one byte (0 or 1), as on the GPU.
enum class DType : uint8_t { i1, i8, i16, i32, i64, f16, bf16, f32, f64 };

/// Bytes per element in memory.
size_t sizeOf(DType t);
/// "f32", "bf16", ... (the MLIR spelling).
const char *name(DType t);
/// Parses the MLIR spelling; nullopt for anything else.
std::optional<DType> parseDType(std::string_view s);
inline bool isFloat(DType t) {
  return t == DType::f16 || t == DType::bf16 || t == DType::f32 || t == DType::f64;
}
inline bool isInt(DType t) { return !isFloat(t); }
/// Bit width (1 for i1).
unsigned bitWidth(DType t);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_DTYPE_H
