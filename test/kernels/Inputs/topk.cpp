// topk (dsl/include/tessel/dsl/Sort.h): k = 4, 1 and 16 of 16-element rows of f32, bf16 and
// i32; a (4, 16) tile along each axis; k = 8 of a 1024-element row (topk.test).
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 16; int K = 8; int num_warps = 1; };
TESSEL_CONFIG(Config, BLOCK, K, num_warps)

// (v4, i4), (v1, i1), (v16, i16): topk(x, 4), topk(x, 1), topk(x, 16) (a stable descending sort).
template <class T>
void topk_1d(const Config &c, Ptr<T> x, Ptr<T> v4, Ptr<i32> i4, Ptr<T> v1, Ptr<i32> i1,
             Ptr<T> v16, Ptr<i32> i16) {
  Tile<i32> r = arange(0, c.BLOCK);                                     // (BLOCK)
  Tile<T> v = load(x + r);                                              // (BLOCK)
  auto [a, ia] = topk(v, 4);                                            // (4), (4)
  store(v4 + arange(0, 4), a);
  store(i4 + arange(0, 4), ia);
  auto [b, ib] = topk(v, 1, 0);                                         // (1), (1)
  store(v1 + arange(0, 1), b);
  store(i1 + arange(0, 1), ib);
  auto [d, id] = topk(v, c.BLOCK);                                      // (BLOCK), (BLOCK)
  store(v16 + r, d);
  store(i16 + r, id);
}
TESSEL_KERNEL(topk_1d, DTYPES(f32, bf16, i32), ARGS(x, v4, i4, v1, i1, v16, i16),
              CONFIGS(Config{}))

// A row-major (4, 16) tile: rv, ri = topk(t, 4, 1), (4, 4); cv, ci = topk(t, 2, 0), (2, 16).
void topk_2d(const Config &c, Ptr<f32> x, Ptr<f32> rv, Ptr<i32> ri, Ptr<f32> cv, Ptr<i32> ci) {
  Tile<i32> rows = arange(0, 4), cols = arange(0, 16);
  Tile<f32> t = load(x + rows(_, None) * 16 + cols(None, _));           // (4, 16)
  auto [a, ia] = topk(t, 4, 1);                                         // (4, 4)
  Tile<i32> o4 = rows(_, None) * 4 + arange(0, 4)(None, _);             // (4, 4)
  store(rv + o4, a);
  store(ri + o4, ia);
  auto [b, ib] = topk(t, 2, 0);                                         // (2, 16)
  Tile<i32> o2 = arange(0, 2)(_, None) * 16 + cols(None, _);            // (2, 16)
  store(cv + o2, b);
  store(ci + o2, ib);
}
TESSEL_KERNEL(topk_2d, ARGS(x, rv, ri, cv, ci), CONFIGS(Config{}))

// The K largest of one row of BLOCK.
void topk_big(const Config &c, Ptr<f32> x, Ptr<f32> v, Ptr<i32> i) {
  auto [a, ia] = topk(load(x + arange(0, c.BLOCK)), c.K);               // (K), (K)
  store(v + arange(0, c.K), a);
  store(i + arange(0, c.K), ia);
}
TESSEL_KERNEL(topk_big, ARGS(x, v, i), CONFIGS(Config{.BLOCK = 1024, .K = 8, .num_warps = 4}))
