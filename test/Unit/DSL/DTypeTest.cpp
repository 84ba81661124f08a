//===- DTypeTest.cpp - the promotion table --------------------------------===//
#include "tessel/dsl/DType.h"

#include <gtest/gtest.h>

using namespace tessel::dsl;

// The table of docs/DSL.md, checked at compile time (the static types of operators) ...
static_assert(std::is_same_v<promote_t<i32, i64>, i64>);
static_assert(std::is_same_v<promote_t<i1, i8>, i8>);
static_assert(std::is_same_v<promote_t<i64, f16>, f16>);
static_assert(std::is_same_v<promote_t<f16, bf16>, f32>);
static_assert(std::is_same_v<promote_t<bf16, f32>, f32>);
static_assert(std::is_same_v<promote_t<f32, f64>, f64>);
static_assert(std::is_same_v<promote_t<f8e4m3, bf16>, bf16>);
static_assert(std::is_same_v<promote_t<f8e4m3, f8e5m2>, f16>);
static_assert(std::is_same_v<literal_t<i32, int>, i32>);
static_assert(std::is_same_v<literal_t<i32, double>, f32>);
static_assert(std::is_same_v<literal_t<bf16, double>, bf16>);
static_assert(std::is_same_v<literal_t<f16, int>, f16>);

// ... and at run time, where the tracer uses it: symmetric, idempotent.
TEST(DType, PromoteIsSymmetricAndIdempotent) {
  for (int a = 0; a <= static_cast<int>(DType::f8e5m2); ++a)
    for (int b = 0; b <= static_cast<int>(DType::f8e5m2); ++b) {
      DType x = static_cast<DType>(a), y = static_cast<DType>(b);
      EXPECT_EQ(promote(x, y), promote(y, x)) << dtypeName(x) << " " << dtypeName(y);
      EXPECT_EQ(promote(x, x), x);
      // The result holds both operands' kinds: a float if either is.
      EXPECT_EQ(isFloat(promote(x, y)), isFloat(x) || isFloat(y));
    }
}

TEST(DType, AccumulatorsAndSums) {
  EXPECT_EQ(dotAccType(DType::f16), DType::f32);
  EXPECT_EQ(dotAccType(DType::bf16), DType::f32);
  EXPECT_EQ(dotAccType(DType::f64), DType::f64);
  EXPECT_EQ(dotAccType(DType::i8), DType::i32);
  EXPECT_EQ(sumType(DType::i1), DType::i32);
  EXPECT_EQ(sumType(DType::i16), DType::i32);
  EXPECT_EQ(sumType(DType::i64), DType::i64);
  // Case C16: f16/bf16 sums accumulate in (and return) f32.
  EXPECT_EQ(sumType(DType::bf16), DType::f32);
  EXPECT_EQ(sumType(DType::f16), DType::f32);
  EXPECT_EQ(sumType(DType::f32), DType::f32);
  EXPECT_EQ(sumType(DType::f64), DType::f64);
}

TEST(DType, Names) {
  EXPECT_STREQ(dtypeName(DType::bf16), "bf16");
  EXPECT_STREQ(dtypeName(DType::f8e4m3), "f8e4m3");
  EXPECT_EQ(bitWidth(DType::i1), 1);
  EXPECT_EQ(bitWidth(DType::bf16), 16);
}
