// Scans on every target: cumsum (i32 and f32), a reverse running max, and 2-D scans along
// either axis; tile sizes from one warp's worth to several warps per line, and tiles smaller
// than the program (threads that duplicate others).
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int N = 8; int num_warps = 1; };
TESSEL_CONFIG(Config, N, num_warps)

/// With v = (f32) x: s = cumsum(v), m = running max of v from the end, ci = cumsum(x). Integer
/// inputs keep the f32 sums exact in any order of summation, so every target agrees bit for bit.
void scan_1d(const Config &c, Ptr<i32> x, Ptr<f32> s, Ptr<f32> m, Ptr<i32> ci) {
  Tile<i32> r = arange(0, c.N);                                         // (N)
  Tile<i32> xi = load(x + r);                                           // (N)
  Tile<f32> v = cast<f32>(xi);                                          // (N)
  store(s + r, cumsum(v, 0));
  store(m + r, scan(v, 0, [](Float a, Float b) { return maximum(a, b); }, true));
  store(ci + r, cumsum(xi, 0));
}

struct Config2 { int R = 4; int C = 8; int num_warps = 1; };
TESSEL_CONFIG(Config2, R, C, num_warps)

/// (R, C) tiles: down = cumsum along axis 0, across = cumsum along axis 1, back = cumsum along
/// axis 1 from the end (i32).
void scan_2d(const Config2 &c, Ptr<i32> x, Ptr<i32> down, Ptr<i32> across, Ptr<i32> back) {
  Tile<i32> offs = expand_dims(arange(0, c.R), 1) * c.C + expand_dims(arange(0, c.C), 0);
  Tile<i32> v = load(x + offs);                                         // (R, C)
  store(down + offs, cumsum(v, 0));
  store(across + offs, cumsum(v, 1));
  store(back + offs, cumsum(v, 1, true));
}

TESSEL_KERNEL(scan_1d, ARGS(x, s, m, ci),
              CONFIGS(Config{}, Config{.N = 64, .num_warps = 4}, Config{.N = 1024, .num_warps = 4}))
TESSEL_KERNEL(scan_2d, ARGS(x, down, across, back),
              CONFIGS(Config2{}, Config2{.R = 16, .C = 64, .num_warps = 4},
                      Config2{.R = 32, .C = 32, .num_warps = 8}))
