//===- DType.cpp - element types of host and device buffers ---------------===//
#include "tessel/Harness/DType.h"

using namespace tessel::harness;

size_t tessel::harness::sizeOf(DType t) {
  switch (t) {
  case DType::i1:
  case DType::i8:
    return 1;
  case DType::i16:
  case DType::f16:
  case DType::bf16:
    return 2;
  case DType::i32:
  case DType::f32:
    return 4;
  case DType::i64:
  case DType::f64:
    return 8;
  }
  return 0;
}

unsigned tessel::harness::bitWidth(DType t) { return t == DType::i1 ? 1 : 8 * sizeOf(t); }

const char *tessel::harness::name(DType t) {
  switch (t) {
  case DType::i1:
    return "i1";
  case DType::i8:
    return "i8";
  case DType::i16:
    return "i16";
  case DType::i32:
    return "i32";
  case DType::i64:
    return "i64";
  case DType::f16:
    return "f16";
  case DType::bf16:
    return "bf16";
  case DType::f32:
    return "f32";
  case DType::f64:
    return "f64";
  }
  return "?";
}

std::optional<DType> tessel::harness::parseDType(std::string_view s) {
  for (DType t : {DType::i1, DType::i8, DType::i16, DType::i32, DType::i64, DType::f16, DType::bf16,
                  DType::f32, DType::f64})
    if (s == name(t))
      return t;
  return std::nullopt;
}
