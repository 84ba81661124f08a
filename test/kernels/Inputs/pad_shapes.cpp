// Tiles whose dimensions are not powers of two: the GPU backends pad them to the next power of
// two and mask the padding (tile-gpu-pad-shapes); every result must equal the interpreter's,
// which runs the logical shapes. Integer inputs keep the f32 sums exact in any order.
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int N = 48; int num_warps = 4; };
TESSEL_CONFIG(Config, N, num_warps)

/// One program, N lanes of x (all real): red = [sum, max, min] of v = (f32) x and am = argmax(v)
/// (a two-operand reduce: the padded combiner carries a validity flag); fwd and back = cumsum
/// from the front and from the end, bmax = running max from the end, bcnt = a reverse scan
/// with a + b + 1 (no identity: the flag again). y = 2 x over the first n lanes only (a masked
/// load and store: the compiler's padding mask and the user's mask together).
void pad_1d(const Config &c, Ptr<i32> x, Ptr<i32> y, Ptr<f32> red, Ptr<i32> am, Ptr<f32> fwd,
            Ptr<f32> back, Ptr<f32> bmax, Ptr<i32> bcnt, Int n) {
  Tile<i32> r = arange(0, c.N);                                              // (N)
  Tile<i32> xi = load(x + r);                                                // (N)
  Tile<f32> v = cast<f32>(xi);                                               // (N)
  store(red, sum(v, 0));
  store(red + 1, max(v, 0));
  store(red + 2, min(v, 0));
  store(am, argmax(v, 0));
  store(fwd + r, cumsum(v, 0));
  store(back + r, cumsum(v, 0, true));
  store(bmax + r, scan(v, 0, [](Float a, Float b) { return maximum(a, b); }, true));
  store(bcnt + r, scan(xi, 0, [](Scalar<i32> a, Scalar<i32> b) { return a + b + 1; }, true));
  Mask m = r < n;                                                            // (N)
  store(y + r, load(x + r, m) * 2, m);
}

struct Config2 { int R = 3; int C = 100; int num_warps = 4; };
TESSEL_CONFIG(Config2, R, C, num_warps)

/// One (R, C) tile of x (row-major): down = sum along axis 0 (C values), across = sum along
/// axis 1 (R values), dmax / amax the maxima, back = cumsum along axis 1 from the end, up =
/// cumsum along axis 0 from the end (both (R, C)).
void pad_2d(const Config2 &c, Ptr<i32> x, Ptr<f32> down, Ptr<f32> across, Ptr<f32> dmax,
            Ptr<f32> amax, Ptr<f32> back, Ptr<f32> up) {
  Tile<i32> r = arange(0, c.R), k = arange(0, c.C);                          // (R), (C)
  Tile<i32> offs = r(_, None) * c.C + k(None, _);                            // (R, C)
  Tile<f32> v = cast<f32>(load(x + offs));                                   // (R, C)
  store(down + k, sum(v, 0));
  store(across + r, sum(v, 1));
  store(dmax + k, max(v, 0));
  store(amax + r, max(v, 1));
  store(back + offs, cumsum(v, 1, true));
  store(up + offs, cumsum(v, 0, true));
}

struct Config3 { int R = 100; int C = 4; int num_warps = 4; };
TESSEL_CONFIG(Config3, R, C, num_warps)

/// Reshapes across padding: x (R, C) row-major flattened to (R * C) (padded (128, 4) -> (512):
/// the padded dimension is the outermost of the merge, so every element keeps its place),
/// flat = 3 x, and rows = the row sums of flat reshaped back to (R, C).
void pad_reshape(const Config3 &c, Ptr<i32> x, Ptr<i32> flat, Ptr<i32> rows) {
  Tile<i32> r = arange(0, c.R), k = arange(0, c.C);                          // (R), (C)
  Tile<i32> v = load(x + r(_, None) * c.C + k(None, _));                     // (R, C)
  Tile<i32> f = reshape(v, {c.R * c.C}) * 3;                                 // (R * C)
  store(flat + arange(0, c.R * c.C), f);
  store(rows + r, sum(reshape(f, {c.R, c.C}), 1));
}

/// Sorts and top-k along a power-of-two axis of a tile whose other axis is padded: rows 3 of
/// (3, 16) pad to 4 (the bitonic network reshapes (4, 16) into groups along the rows, each
/// padded only in its outermost dimension).
void pad_sort(const Config3 &c, Ptr<f32> x, Ptr<f32> sv, Ptr<i32> si, Ptr<f32> tv, Ptr<i32> ti) {
  Tile<i32> r = arange(0, c.R), k = arange(0, c.C);                          // (R), (C)
  Tile<i32> offs = r(_, None) * c.C + k(None, _);                            // (R, C)
  Tile<f32> v = load(x + offs);                                              // (R, C)
  auto [s, i] = sort_with_indices(v, 1);                                     // (R, C)
  store(sv + offs, s);
  store(si + offs, i);
  auto [t, j] = topk(v, 4, 1);                                               // (R, 4)
  Tile<i32> o4 = r(_, None) * 4 + arange(0, 4)(None, _);                     // (R, 4)
  store(tv + o4, t);
  store(ti + o4, j);
}

TESSEL_KERNEL(pad_1d, ARGS(x, y, red, am, fwd, back, bmax, bcnt, n),
              CONFIGS(Config{.N = 48, .num_warps = 1}, Config{}, Config{.N = 100},
                      Config{.N = 1000}))
TESSEL_KERNEL(pad_2d, ARGS(x, down, across, dmax, amax, back, up),
              CONFIGS(Config2{}, Config2{.num_warps = 1}, Config2{.R = 5, .C = 12, .num_warps = 2}))
TESSEL_KERNEL(pad_reshape, ARGS(x, flat, rows), CONFIGS(Config3{}))
TESSEL_KERNEL(pad_sort, ARGS(x, sv, si, tv, ti), CONFIGS(Config3{.R = 3, .C = 16, .num_warps = 1}))
