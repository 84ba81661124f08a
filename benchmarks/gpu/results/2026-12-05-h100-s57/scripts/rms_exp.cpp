// Experiment (session 57): where RMSNorm 32768x1000 loses 2.5% to QuACK / softmax.
#include <tessel/dsl.h>
using namespace tessel::dsl;
struct RC {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(RC, BLOCK, num_warps)

// A: the library's order (w after the reduction).
template <class T>
void rmsA(const RC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
          Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(rmsA, DTYPES(bf16), ARGS(out, rstd, in, w, stride, n_cols, eps), CONFIGS(RC{}))

// B: w loaded before x.
template <class T>
void rmsB(const RC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
          Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(rmsB, DTYPES(bf16), ARGS(out, rstd, in, w, stride, n_cols, eps), CONFIGS(RC{}))

// C: x first, then w, both before the reduction.
template <class T>
void rmsC(const RC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
          Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(rmsC, DTYPES(bf16), ARGS(out, rstd, in, w, stride, n_cols, eps), CONFIGS(RC{}))

// D: as B, w with evict_last.
template <class T>
void rmsD(const RC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
          Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0, {.evict = Evict::evict_last}));
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(rmsD, DTYPES(bf16), ARGS(out, rstd, in, w, stride, n_cols, eps), CONFIGS(RC{}))

// E: as A, rstd stored before out.
template <class T>
void rmsE(const RC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
          Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  store(rstd + row, r);
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
}
TESSEL_KERNEL(rmsE, DTYPES(bf16), ARGS(out, rstd, in, w, stride, n_cols, eps), CONFIGS(RC{}))

// add_rmsnorm_out orderings. P: the library's (sum stored before the reduction, w after).
template <class T>
void addP(const RC &c, Ptr<T> out, Ptr<T> sum_out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> res, Ptr<T> w,
          Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  x += cast<f32>(load(res + row * stride + cols, m, 0.0));
  store(sum_out + row * stride + cols, cast<T>(x), m);
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(addP, DTYPES(bf16), ARGS(out, sum_out, rstd, in, res, w, stride, n_cols, eps),
              CONFIGS(RC{}))

// Q: the sum stored after the reduction, next to out.
template <class T>
void addQ(const RC &c, Ptr<T> out, Ptr<T> sum_out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> res, Ptr<T> w,
          Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  x += cast<f32>(load(res + row * stride + cols, m, 0.0));
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0));
  store(sum_out + row * stride + cols, cast<T>(x), m);
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(addQ, DTYPES(bf16), ARGS(out, sum_out, rstd, in, res, w, stride, n_cols, eps),
              CONFIGS(RC{}))

// R: w first with evict_last, x and res with evict_first, the sum stored before the reduction.
template <class T>
void addR(const RC &c, Ptr<T> out, Ptr<T> sum_out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> res, Ptr<T> w,
          Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> wt = cast<f32>(load(w + cols, m, 0.0, {.evict = Evict::evict_last}));
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0, {.evict = Evict::evict_first}));
  x += cast<f32>(load(res + row * stride + cols, m, 0.0, {.evict = Evict::evict_first}));
  store(sum_out + row * stride + cols, cast<T>(x), m);
  Float r = 1.0 / sqrt(sum(x * x, 0) / n_cols + eps);
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
TESSEL_KERNEL(addR, DTYPES(bf16), ARGS(out, sum_out, rstd, in, res, w, stride, n_cols, eps),
              CONFIGS(RC{}))

// L: Inductor's form: pass 1 reads in and res (evict_last) for the sum of squares of the f32
// sum, pass 2 reads them again (evict_first, from L2), the weights (evict_last), and stores the
// sum and out. BLOCK columns a step.
template <class T>
void addL(const RC &c, Ptr<T> out, Ptr<T> sum_out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> res, Ptr<T> w,
          Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Ptr<T> x_row = in + row * stride, r_row = res + row * stride;
  Tile<i32> cols = arange(0, c.BLOCK);
  Float ss = for_range(0, n_cols, c.BLOCK, Float(0.0), [&](Int start, Float acc) {
    Tile<i64> offs = start + cols;
    Mask mask = offs < n_cols;
    Tile<f32> x = cast<f32>(load(x_row + offs, mask, 0.0, {.evict = Evict::evict_last})) +
                  cast<f32>(load(r_row + offs, mask, 0.0, {.evict = Evict::evict_last}));
    return acc + sum(x * x, 0);
  });
  Float r = 1.0 / sqrt(ss / n_cols + eps);
  store(rstd + row, r);
  for_range(0, n_cols, c.BLOCK, [&](Int start) {
    Tile<i64> offs = start + cols;
    Mask mask = offs < n_cols;
    Tile<f32> x = cast<f32>(load(x_row + offs, mask, 0.0, {.evict = Evict::evict_first})) +
                  cast<f32>(load(r_row + offs, mask, 0.0, {.evict = Evict::evict_first}));
    Tile<f32> wt = cast<f32>(load(w + offs, mask, 0.0, {.evict = Evict::evict_last}));
    store(sum_out + row * stride + offs, cast<T>(x), mask);
    store(out + row * stride + offs, cast<T>(x * r * wt), mask);
  });
}
TESSEL_KERNEL(addL, DTYPES(bf16), ARGS(out, sum_out, rstd, in, res, w, stride, n_cols, eps),
              CONFIGS(RC{}))
