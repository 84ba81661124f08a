// sort and sort_with_indices (dsl/include/tessel/dsl/Sort.h): 16-element rows of f32, bf16 and
// i32 in both directions, a (4, 8) tile along each axis, f32 bit patterns (-0.0, NaN payloads)
// through the network, an i1 mask, and a 1024-element row (sort.test).
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 16; int num_warps = 1; };
TESSEL_CONFIG(Config, BLOCK, num_warps)

// asc / desc: sort; sv, si: sort_with_indices ascending; dv, di: descending (axis 0 = -1).
template <class T>
void sort_1d(const Config &c, Ptr<T> x, Ptr<T> asc, Ptr<T> desc, Ptr<T> sv, Ptr<i32> si,
             Ptr<T> dv, Ptr<i32> di) {
  Tile<i32> r = arange(0, c.BLOCK);                                     // (BLOCK)
  Tile<T> v = load(x + r);                                              // (BLOCK)
  store(asc + r, sort(v));
  store(desc + r, sort(v, 0, true));
  auto [a, ia] = sort_with_indices(v);                                  // (BLOCK), (BLOCK)
  store(sv + r, a);
  store(si + r, ia);
  auto [d, id] = sort_with_indices(v, -1, /*descending=*/true);
  store(dv + r, d);
  store(di + r, id);
}
TESSEL_KERNEL(sort_1d, DTYPES(f32, bf16, i32), ARGS(x, asc, desc, sv, si, dv, di),
              CONFIGS(Config{}))

// A row-major (4, 8) tile: rv, ri sorted along axis 1 (each row, ascending); cv, ci along
// axis 0 (each column, descending, written as axis -2).
template <class T>
void sort_2d(const Config &c, Ptr<T> x, Ptr<T> rv, Ptr<i32> ri, Ptr<T> cv, Ptr<i32> ci) {
  Tile<i32> rows = arange(0, 4), cols = arange(0, 8);
  Tile<i32> offs = rows(_, None) * 8 + cols(None, _);                   // (4, 8)
  Tile<T> t = load(x + offs);                                           // (4, 8)
  auto [a, ia] = sort_with_indices(t, 1);                               // (4, 8)
  store(rv + offs, a);
  store(ri + offs, ia);
  auto [b, ib] = sort_with_indices(t, -2, true);                        // (4, 8)
  store(cv + offs, b);
  store(ci + offs, ib);
}
TESSEL_KERNEL(sort_2d, DTYPES(f32, i32), ARGS(x, rv, ri, cv, ci), CONFIGS(Config{}))

// f32 values given as their bits: the sorted bits must be the input's, moved (ascending,
// stable); m: the mask bits > 0 sorted descending (true first), as i32.
void sort_bits(const Config &c, Ptr<i32> x, Ptr<i32> out, Ptr<i32> idx, Ptr<i32> m) {
  Tile<i32> r = arange(0, 8);                                           // (8)
  Tile<i32> bits = load(x + r);                                         // (8)
  auto [v, i] = sort_with_indices(bitcast<f32>(bits));                  // (8), (8)
  store(out + r, bitcast<i32>(v));
  store(idx + r, i);
  store(m + r, cast<i32>(sort(bits > 0, 0, true)));
}
TESSEL_KERNEL(sort_bits, ARGS(x, out, idx, m), CONFIGS(Config{}))

// One row of 1024: 55 compare-and-swap stages with the indices.
void sort_1024(const Config &c, Ptr<f32> x, Ptr<f32> out, Ptr<i32> idx) {
  Tile<i32> r = arange(0, c.BLOCK);                                     // (BLOCK)
  auto [v, i] = sort_with_indices(load(x + r));                         // (BLOCK), (BLOCK)
  store(out + r, v);
  store(idx + r, i);
}
TESSEL_KERNEL(sort_1024, ARGS(x, out, idx), CONFIGS(Config{.BLOCK = 1024, .num_warps = 4}))
