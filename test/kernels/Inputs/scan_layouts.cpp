// Scans over the register / lane / warp arrangements the layout pass makes: runs inside a
// thread, lanes along the axis (some holding replicas), several warps along it, several chunks
// per thread, and tiles smaller than one thread's run. Every combiner is exact on every target,
// so the GPU must equal the interpreter bit for bit (benchmarks/gpu/ops.py replays these runs).
#include <tessel/dsl.h>
using namespace tessel::dsl;

/// Affine maps h -> a h + b over the integers mod 2^16, packed as x = a << 16 | b: applying
/// (a1, b1) and then (a2, b2) gives (a1 a2, a2 b1 + b2). Associative, not commutative, so a
/// scan that combines out of order gives a different result. The kernels make every a odd
/// (x | 1 << 16): products of odd numbers never reach 0, so the first element still counts
/// at the end of a long scan.
static Scalar<i32> compose(Scalar<i32> earlier, Scalar<i32> later) {
  Scalar<i32> a1 = (earlier >> 16) & 0xFFFF, b1 = earlier & 0xFFFF;
  Scalar<i32> a2 = (later >> 16) & 0xFFFF, b2 = later & 0xFFFF;
  return (((a1 * a2) & 0xFFFF) << 16) | ((a2 * b1 + b2) & 0xFFFF);
}

struct Config1 { int N = 8; int num_warps = 1; };
TESSEL_CONFIG(Config1, N, num_warps)

/// fwd / bwd: the affine scan forward and from the end (i32 only, so 4 elements per run).
void scan_layouts_1d(const Config1 &c, Ptr<i32> x, Ptr<i32> fwd, Ptr<i32> bwd) {
  Tile<i32> r = arange(0, c.N);                                                  // (N)
  Tile<i32> v = load(x + r) | 0x10000;                                          // (N)
  store(fwd + r, scan(v, 0, compose));
  store(bwd + r, scan(v, 0, compose, /*reverse=*/true));
}

/// Other dtypes: wide = cumsum in i64 of x << 40, top = running max of (bf16) x from the end,
/// half = running min of (f16) (x >> 16), s16 = running sum of (i16) x wrapping in i16,
/// low = running xor of (i8) (x & 127) (values below 128 never print as the i8 poison marker,
/// 0xDE), any = running or of x > 0 from the end (i1). The i8 accesses set the vector width:
/// 16 elements per run.
void scan_dtypes_1d(const Config1 &c, Ptr<i32> x, Ptr<i64> wide, Ptr<bf16> top, Ptr<f16> half,
                    Ptr<i16> s16, Ptr<i8> low, Ptr<i8> any) {
  Tile<i32> r = arange(0, c.N);                                                  // (N)
  Tile<i32> v = load(x + r);                                                     // (N)
  store(wide + r, cumsum(cast<i64>(v) << 40, 0));
  store(top + r, scan(cast<bf16>(v), 0, [](Scalar<bf16> a, Scalar<bf16> b) {
          return maximum(a, b);
        }, /*reverse=*/true));
  store(half + r, scan(cast<f16>(v >> 16), 0, [](Scalar<f16> a, Scalar<f16> b) {
          return minimum(a, b);
        }));
  store(s16 + r, scan(cast<i16>(v), 0, [](Scalar<i16> a, Scalar<i16> b) { return a + b; }));
  store(low + r, scan(cast<i8>(v & 127), 0, [](Scalar<i8> a, Scalar<i8> b) { return a ^ b; }));
  Tile<i1> positive = v > 0;                                                     // (N)
  store(any + r, cast<i8>(scan(positive, 0, [](Bool a, Bool b) { return a | b; }, true)));
}

struct Config2 { int R = 4; int C = 8; int num_warps = 1; };
TESSEL_CONFIG(Config2, R, C, num_warps)

/// (R, C) tiles: the affine scan down the columns, along the rows, and both from the end.
void scan_layouts_2d(const Config2 &c, Ptr<i32> x, Ptr<i32> down, Ptr<i32> across, Ptr<i32> up,
                     Ptr<i32> back) {
  Tile<i32> offs = expand_dims(arange(0, c.R), 1) * c.C + expand_dims(arange(0, c.C), 0);
  Tile<i32> v = load(x + offs) | 0x10000;                                        // (R, C)
  store(down + offs, scan(v, 0, compose));
  store(across + offs, scan(v, 1, compose));
  store(up + offs, scan(v, 0, compose, true));
  store(back + offs, scan(v, 1, compose, true));
}

struct Config3 { int A = 4; int B = 8; int C = 16; int num_warps = 4; };
TESSEL_CONFIG(Config3, A, B, C, num_warps)

/// (A, B, C) tiles: the affine scan along each axis, the middle one from the end.
void scan_layouts_3d(const Config3 &c, Ptr<i32> x, Ptr<i32> s0, Ptr<i32> s1, Ptr<i32> s2) {
  Tile<i32> offs = expand_dims(expand_dims(arange(0, c.A), 1), 2) * (c.B * c.C) +
                   expand_dims(expand_dims(arange(0, c.B), 0), 2) * c.C +
                   expand_dims(expand_dims(arange(0, c.C), 0), 1);
  Tile<i32> v = load(x + offs) | 0x10000;                                        // (A, B, C)
  store(s0 + offs, scan(v, 0, compose));
  store(s1 + offs, scan(v, 1, compose, true));
  store(s2 + offs, scan(v, 2, compose));
}

// Every variant stays within 1024 elements per buffer, so tessel-run prints them all.
TESSEL_KERNEL(scan_layouts_1d, ARGS(x, fwd, bwd),
              CONFIGS(Config1{.N = 2}, Config1{.N = 4, .num_warps = 4},
                      Config1{.N = 64, .num_warps = 4}, Config1{.N = 512, .num_warps = 4},
                      Config1{.N = 1024, .num_warps = 4}, Config1{.N = 1024, .num_warps = 1},
                      Config1{.N = 1024, .num_warps = 8}))
TESSEL_KERNEL(scan_dtypes_1d, ARGS(x, wide, top, half, s16, low, any),
              CONFIGS(Config1{.N = 2}, Config1{.N = 64, .num_warps = 4},
                      Config1{.N = 1024, .num_warps = 1}, Config1{.N = 1024, .num_warps = 8}))
TESSEL_KERNEL(scan_layouts_2d, ARGS(x, down, across, up, back),
              CONFIGS(Config2{}, Config2{.R = 16, .C = 64, .num_warps = 4},
                      Config2{.R = 32, .C = 32, .num_warps = 8},
                      Config2{.R = 64, .C = 4, .num_warps = 2},
                      Config2{.R = 2, .C = 512, .num_warps = 4},
                      Config2{.R = 128, .C = 8, .num_warps = 8}))
TESSEL_KERNEL(scan_layouts_3d, ARGS(x, s0, s1, s2),
              CONFIGS(Config3{}, Config3{.A = 2, .B = 16, .C = 32, .num_warps = 8},
                      Config3{.A = 16, .B = 4, .C = 2, .num_warps = 2}))
