//===- Poison.h - poison bit patterns ----------------------------*- C++ -*-===//
//
// One distinctive pattern per dtype. The harness fills every output buffer with it before a
// run (a value never written is then detected bit for bit), and the interpreter gives it to
// masked-off load lanes without `other` (floats: a quiet NaN with payload 0xDEAD..., so any
// arithmetic on it yields NaN and fails the comparison; integers: 0xDEADBEEF-like markers).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_POISON_H
#define TESSEL_HARNESS_POISON_H

#include "tessel/Harness/DType.h"

#include <cstdint>

namespace tessel::harness {

/// Quiet NaN, payload 0x5EADBE (sign 0): bits 0x7FDEADBE.
inline constexpr uint32_t kPoisonF32 = 0x7FDEADBEu;
/// Quiet NaN: bits 0x7FFDEADBEEFDEAD0.
inline constexpr uint64_t kPoisonF64 = 0x7FFDEADBEEFDEAD0ull;
/// Quiet NaN: bits 0x7EAD (what kPoisonF32's top payload bits look like in f16).
inline constexpr uint16_t kPoisonF16 = 0x7EADu;
/// Quiet NaN: bits 0x7FDE (the top half of kPoisonF32).
inline constexpr uint16_t kPoisonBF16 = 0x7FDEu;
inline constexpr uint64_t kPoisonI64 = 0xDEADBEEFDEADBEEFull;
inline constexpr uint32_t kPoisonI32 = 0xDEADBEEFu;
inline constexpr uint16_t kPoisonI16 = 0xDEADu;
inline constexpr uint8_t kPoisonI8 = 0xDEu;
/// i1 cannot hold a distinctive value; a byte 0xDE is stored in memory, 1 (true) in registers.
inline constexpr uint8_t kPoisonI1Byte = 0xDEu;

/// The poison pattern of `t` in memory, zero-extended to 64 bits (sizeOf(t) low bytes count).
inline uint64_t poisonBits(DType t) {
  switch (t) {
  case DType::i1:
    return kPoisonI1Byte;
  case DType::i8:
    return kPoisonI8;
  case DType::i16:
    return kPoisonI16;
  case DType::i32:
    return kPoisonI32;
  case DType::i64:
    return kPoisonI64;
  case DType::f16:
    return kPoisonF16;
  case DType::bf16:
    return kPoisonBF16;
  case DType::f32:
    return kPoisonF32;
  case DType::f64:
    return kPoisonF64;
  }
  return 0;
}

} // namespace tessel::harness

#endif // TESSEL_HARNESS_POISON_H
