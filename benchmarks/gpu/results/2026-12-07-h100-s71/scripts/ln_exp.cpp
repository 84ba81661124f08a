// Experiment (session 71): LayerNorm 32768x1000 bf16 against inductor. Where w and b are loaded,
// their L2 priority, and rsqrt against 1 / sqrt.
#include <optional>
#include <tessel/dsl.h>
using namespace tessel::dsl;
struct LC {
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(LC, BLOCK, num_warps)

// EARLY: w and b issued right after x. HINT: w and b evict_last. RSQ: rsqrt.
template <class T, bool EARLY, bool HINT, bool RSQ, bool RAW = false>
void ln(const LC &c, Ptr<T> out, Ptr<f32> mean_out, Ptr<f32> rstd_out, Ptr<T> in, Ptr<T> w,
        Ptr<T> bias, Int stride, Int n_cols, Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  LoadHints h{};
  if (HINT)
    h.evict = Evict::evict_last;
  auto ldw = [&] { return cast<f32>(load(w + cols, m, h)); };
  auto ldb = [&] { return cast<f32>(load(bias + cols, m, h)); };
  std::optional<Tile<f32>> we, be;
  if (EARLY) {
    we = ldw();
    be = ldb();
  }
  // RAW: w and b issued early as T, widened where they are used.
  std::optional<Tile<T>> wr, br;
  if (RAW) {
    wr = load(w + cols, m, h);
    br = load(bias + cols, m, h);
  }
  Float mean = sum(x, 0) / n_cols;
  Tile<f32> d = where(m, x - mean, 0.0);
  Float var = sum(d * d, 0) / n_cols;
  Float r = RSQ ? rsqrt(var + eps) : 1.0 / sqrt(var + eps);
  Tile<f32> wt = RAW ? cast<f32>(*wr) : EARLY ? *we : ldw();
  Tile<f32> bt = RAW ? cast<f32>(*br) : EARLY ? *be : ldb();
  store(out + row * stride + cols, cast<T>(d * r * wt + bt), m);
  store(mean_out + row, mean);
  store(rstd_out + row, r);
}
#define LNK(NAME, E, H, R, ...)                                                                    \
  template <class T>                                                                               \
  void NAME(const LC &c, Ptr<T> out, Ptr<f32> mo, Ptr<f32> ro, Ptr<T> in, Ptr<T> w, Ptr<T> b,      \
            Int stride, Int n_cols, Float eps) {                                                   \
    ln<T, E, H, R __VA_OPT__(, ) __VA_ARGS__>(c, out, mo, ro, in, w, b, stride, n_cols, eps);      \
  }                                                                                                \
  TESSEL_KERNEL(NAME, DTYPES(bf16), ARGS(out, mean, rstd, in, w, bias, stride, n_cols, eps),       \
                CONFIGS(LC{}))
LNK(lnA, false, false, false)
LNK(lnB, true, false, false)
LNK(lnC, true, true, false)
LNK(lnD, false, true, false)
LNK(lnE, false, false, true)
LNK(lnF, true, true, true)
LNK(lnG, false, false, false, true)
LNK(lnH, false, true, false, true)
LNK(lnI, false, true, true, true)
LNK(lnJ, false, false, true, true)

// RMSNorm: the library's order (w early only up to 16 elements a thread), with 1 / sqrt (rmA)
// or rsqrt (rmE); w issued early as T and widened at its use, rsqrt (rmJ).
template <class T, bool RSQ, bool RAW>
void rms(const LC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
         Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  auto loadW = [&] { return cast<f32>(load(w + cols, m, 0.0)); };
  std::optional<Tile<f32>> early;
  std::optional<Tile<T>> raw;
  if (RAW)
    raw = load(w + cols, m, 0.0);
  else if (c.num_warps <= 8 && c.BLOCK <= 16 * 32 * c.num_warps)
    early = loadW();
  Float ms = sum(x * x, 0) / n_cols + eps;
  Float r = RSQ ? rsqrt(ms) : 1.0 / sqrt(ms);
  Tile<f32> wt = RAW ? cast<f32>(*raw) : early ? *early : loadW();
  store(out + row * stride + cols, cast<T>(x * r * wt), m);
  store(rstd + row, r);
}
/// RMSK(NAME, FN, ARGS...): an RMSNorm kernel NAME that runs FN<T, ARGS...>.
#define RMSK(NAME, FN, ...)                                                                        \
  template <class T>                                                                               \
  void NAME(const LC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,   \
            Float eps) {                                                                           \
    FN<T, __VA_ARGS__>(c, out, rstd, in, w, stride, n_cols, eps);                                  \
  }                                                                                                \
  TESSEL_KERNEL(NAME, DTYPES(bf16), ARGS(out, rstd, in, w, stride, n_cols, eps), CONFIGS(LC{}))
RMSK(rmA, rms, false, false)
RMSK(rmE, rms, true, false)
RMSK(rmJ, rms, true, true)

// RMSNorm with x read again after the reduction (from L2, evict_first) instead of kept in
// registers across it; w after the reduction (rmR), or before it as T (rmS).
template <class T, bool WEARLY>
void rmsReload(const LC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
               Float eps) {
  Int row = program_id(0);
  Tile<i32> cols = arange(0, c.BLOCK);
  Mask m = cols < n_cols;
  std::optional<Tile<T>> raw;
  if (WEARLY)
    raw = load(w + cols, m, 0.0);
  Tile<f32> x = cast<f32>(load(in + row * stride + cols, m, 0.0));
  Float r = rsqrt(sum(x * x, 0) / n_cols + eps);
  Tile<f32> x2 = cast<f32>(load(in + row * stride + cols, m, 0.0, {.evict = Evict::evict_first}));
  Tile<f32> wt = WEARLY ? cast<f32>(*raw) : cast<f32>(load(w + cols, m, 0.0));
  store(out + row * stride + cols, cast<T>(x2 * r * wt), m);
  store(rstd + row, r);
}
RMSK(rmR, rmsReload, false)
RMSK(rmS, rmsReload, true)

// RMSNorm: the reduction over the whole row in one block, then the output in DIV chunks, each
// reading x again (L2, evict_first) with its w: only a chunk is live after the reduction.
template <class T, int DIV>
void rmsChunks(const LC &c, Ptr<T> out, Ptr<f32> rstd, Ptr<T> in, Ptr<T> w, Int stride, Int n_cols,
               Float eps) {
  Int row = program_id(0);
  Ptr<T> src = in + row * stride;
  Ptr<T> dst = out + row * stride;
  Tile<i32> cols = arange(0, c.BLOCK);
  Tile<f32> x = cast<f32>(load(src + cols, cols < n_cols, 0.0));
  Float r = rsqrt(sum(x * x, 0) / n_cols + eps);
  store(rstd + row, r);
  Tile<i32> sub = arange(0, c.BLOCK / DIV);
  for_range(0, n_cols, c.BLOCK / DIV, [&](Int start) {
    Tile<i64> offs = start + sub;
    Mask mk = offs < n_cols;
    Tile<f32> x2 = cast<f32>(load(src + offs, mk, 0.0, {.evict = Evict::evict_first}));
    Tile<f32> wt = cast<f32>(load(w + offs, mk, 0.0));
    store(dst + offs, cast<T>(x2 * r * wt), mk);
  });
}
RMSK(rmC2, rmsChunks, 2)
RMSK(rmC4, rmsChunks, 4)
RMSK(rmC8, rmsChunks, 8)
