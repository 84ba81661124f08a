// join and split (dsl/include/tessel/dsl/SplitJoin.h): f32 and f16 values given as their bits
// (-0.0, NaN payloads, a signalling NaN) through join and back through split; i32 and mask
// tiles; an interleaved buffer split into its even and odd elements; a rank-3 join
// (split-join.test).
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int num_warps = 1; };
TESSEL_CONFIG(Config, num_warps)

// ab: join(a, b) as bits, (8, 2) written row-major; lo, hi: split(join(a, b)) as bits;
// f: join(a, b) as f32 values.
void join_split_f32(const Config &c, Ptr<i32> a, Ptr<i32> b, Ptr<i32> ab, Ptr<i32> lo,
                    Ptr<i32> hi, Ptr<f32> f) {
  Tile<i32> r = arange(0, 8);                                           // (8)
  Tile<i32> o2 = r(_, None) * 2 + arange(0, 2)(None, _);                // (8, 2)
  Tile<f32> j = join(bitcast<f32>(load(a + r)), bitcast<f32>(load(b + r))); // (8, 2)
  store(ab + o2, bitcast<i32>(j));
  store(f + o2, j);
  auto [p, q] = split(j);                                               // (8), (8)
  store(lo + r, bitcast<i32>(p));
  store(hi + r, bitcast<i32>(q));
}
TESSEL_KERNEL(join_split_f32, ARGS(a, b, ab, lo, hi, f), CONFIGS(Config{}))

// The same for f16 bits (i16), then i32 values and masks (m: join(a > 0, b > 0) as i32).
void join_split_16(const Config &c, Ptr<i16> a, Ptr<i16> b, Ptr<i16> ab, Ptr<i16> lo,
                   Ptr<i16> hi, Ptr<i32> m, Ptr<i32> mlo) {
  Tile<i32> r = arange(0, 8);                                           // (8)
  Tile<i32> o2 = r(_, None) * 2 + arange(0, 2)(None, _);                // (8, 2)
  Tile<i16> ia = load(a + r), ib = load(b + r);                         // (8)
  Tile<f16> j = join(bitcast<f16>(ia), bitcast<f16>(ib));               // (8, 2)
  store(ab + o2, bitcast<i16>(j));
  auto [p, q] = split(j);                                               // (8), (8)
  store(lo + r, bitcast<i16>(p));
  store(hi + r, bitcast<i16>(q));
  Mask jm = join(ia > 0, ib > 0);                                       // (8, 2)
  store(m + o2, cast<i32>(jm));
  auto [ml, mh] = split(jm);                                            // (8), (8)
  store(mlo + r, cast<i32>(ml) * 10 + cast<i32>(mh));
}
TESSEL_KERNEL(join_split_16, ARGS(a, b, ab, lo, hi, m, mlo), CONFIGS(Config{}))

// x: 8 interleaved (re, im) pairs of i32 -> re, im (split of the (8, 2) view); z: join of the
// (2, 4) tiles re[:4] and -im[:4] reshaped, (2, 4, 2) written row-major; s0, s1: split of a
// (2) tile (two scalars).
void split_pairs(const Config &c, Ptr<i32> x, Ptr<i32> re, Ptr<i32> im, Ptr<i32> z,
                 Ptr<i32> s) {
  Tile<i32> r = arange(0, 8);                                           // (8)
  auto [e, o] = split(reshape(load(x + arange(0, 16)), {8, 2}));        // (8), (8)
  store(re + r, e);
  store(im + r, o);
  Tile<i32> e4 = reshape(load(x + arange(0, 8) * 2), {2, 4});           // (2, 4)
  Tile<i32> o4 = reshape(load(x + arange(0, 8) * 2 + 1), {2, 4});       // (2, 4)
  store(z + arange(0, 16), reshape(join(e4, -o4), {16}));
  auto [s0, s1] = split(load(x + arange(0, 2)));                        // (), ()
  store(s, s0 - s1);
}
TESSEL_KERNEL(split_pairs, ARGS(x, re, im, z, s), CONFIGS(Config{}))
