// Type misuse: stores and `other` must have the pointee type, dot operands one type, `+=`
// cannot widen its left side, bit ops need integers, math needs floats, literals must fit.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void store_dtype(const C &c, Ptr<bf16> out, Ptr<f32> in) {
  Tile<f32> x = load(in + arange(0, 64));        // (64)
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: the stored value has type f32 but the pointer points to bf16; convert it with cast<bf16>(...)
  store(out + arange(0, 64), x);
}
TESSEL_KERNEL(store_dtype, ARGS(out, in), CONFIGS(C{}))

void other_dtype(const C &c, Ptr<bf16> out, Ptr<f32> in) {
  Tile<f32> o = zeros<f32>({64});                // (64)
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: 'other' has type f32 but the pointer points to bf16
  Tile<bf16> x = load(out + arange(0, 64), arange(0, 64) < 3, o);
}
TESSEL_KERNEL(other_dtype, ARGS(out, in), CONFIGS(C{}))

void dot_dtype(const C &c, Ptr<f16> a, Ptr<bf16> b) {
  Tile<i32> r = arange(0, 16);                   // (16)
  Tile<f16> x = load(a + r(_, None) * 16 + r(None, _));   // (16, 16)
  Tile<bf16> y = load(b + r(_, None) * 16 + r(None, _));  // (16, 16)
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot operands have different element types f16 and bf16; convert one with cast<T>(...)
  Tile<f32> d = dot(x, y);
}
TESSEL_KERNEL(dot_dtype, ARGS(a, b), CONFIGS(C{}))

void compound_widening(const C &c, Ptr<f16> a, Float s) {
  Tile<f16> x = load(a + arange(0, 64));         // (64)
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: '+'= would change the left side from f16 to f32
  x += s;
}
TESSEL_KERNEL(compound_widening, ARGS(a, s), CONFIGS(C{}))

void float_bits(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, 64));         // (64)
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: '&' needs integer or mask operands, got a tile of f32 [64] and a tile of f32 [64]
  Tile<f32> y = x & x;
}
TESSEL_KERNEL(float_bits, ARGS(a), CONFIGS(C{}))

void int_math(const C &c, Ptr<f32> a) {
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: exp needs a float operand, got a tile of i32 [64]; convert it with cast<f32>(...)
  Tile<i32> e = exp(arange(0, 64));
}
TESSEL_KERNEL(int_math, ARGS(a), CONFIGS(C{}))

void mask_dtype(const C &c, Ptr<f32> a) {
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: mask must be i1 (a comparison such as cols < n), got a tile of i32 [64]
  Tile<f32> x = load(a + arange(0, 64), arange(0, 64));
}
TESSEL_KERNEL(mask_dtype, ARGS(a), CONFIGS(C{}))

void literal_range(const C &c, Ptr<i8> a) {
  Tile<i8> x = load(a + arange(0, 64));          // (64)
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: integer literal 1000 does not fit in i8
  store(a + arange(0, 64), x + 1000);
}
TESSEL_KERNEL(literal_range, ARGS(a), CONFIGS(C{}))

void float_literal_int(const C &c, Ptr<i32> a) {
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: floating-point literal 2.500000 used as an i32 value
  store(a, 2.5);
}
TESSEL_KERNEL(float_literal_int, ARGS(a), CONFIGS(C{}))

void bitcast_width(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, 64));         // (64)
  // CHECK: dtype.cpp:[[@LINE+1]]:{{[0-9]+}}: error: bitcast from f32 (32 bits) to f16 (16 bits) changes the width
  Tile<f16> y = x.bitcast<f16>();
}
TESSEL_KERNEL(bitcast_width, ARGS(a), CONFIGS(C{}))
// CHECK-NOT: error:
