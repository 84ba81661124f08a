// Experiment (session 57): rope_seq_out with HEADS heads per loop step, their loads issued
// before any of their stores (more bytes in flight per thread).
#include <tessel/dsl.h>
using namespace tessel::dsl;
struct RU {
  int HALF = 64;
  int BLOCK_S = 16;
  int HEADS = 2;
  int num_warps = 4;
};
TESSEL_CONFIG(RU, HALF, BLOCK_S, HEADS, num_warps)

template <class T>
void ropeU(const RU &c, Ptr<T> q_out, Ptr<T> k_out, Ptr<T> q, Ptr<T> k, Ptr<f32> cos, Ptr<f32> sin,
           Int seq_len, Int n_qh, Int n_kh, Int q_batch_stride, Int q_seq_stride, Int q_head_stride,
           Int k_batch_stride, Int k_seq_stride, Int k_head_stride, Int cos_batch_stride,
           Int cos_seq_stride, Int cos_half_offset) {
  Int b = program_id(1);
  Tile<i64> s = (program_id(0) * c.BLOCK_S + arange(0, c.BLOCK_S))(_, None);
  Tile<i32> d = arange(0, c.HALF)(None, _);
  Mask m = s < seq_len;
  Tile<i64> t = b * cos_batch_stride + s * cos_seq_stride + d;
  Tile<f32> c1 = load(cos + t, m), s1 = load(sin + t, m);
  Tile<f32> c2 = load(cos + t + cos_half_offset, m);
  Tile<f32> s2 = load(sin + t + cos_half_offset, m);
  auto rotate = [&](Ptr<T> src, Ptr<T> dst, Int n_heads, Int seq_stride, Int head_stride) {
    Tile<i64> offs = s * seq_stride + d;
    for_range(0, n_heads, c.HEADS, [&](Int h0) {
      std::vector<Tile<f32>> x1, x2;
      std::vector<Mask> hm;
      for (int u = 0; u < c.HEADS; ++u) {
        Ptr<T> p1 = src + (h0 + u) * head_stride + offs;
        Mask mu = m & ((h0 + u) < n_heads);
        hm.push_back(mu);
        x1.push_back(cast<f32>(load(p1, mu)));
        x2.push_back(cast<f32>(load(p1 + c.HALF, mu)));
      }
      for (int u = 0; u < c.HEADS; ++u) {
        Ptr<T> o1 = dst + (h0 + u) * head_stride + offs;
        store(o1, cast<T>(x1[u] * c1 - x2[u] * s1), hm[u]);
        store(o1 + c.HALF, cast<T>(x2[u] * c2 + x1[u] * s2), hm[u]);
      }
    });
  };
  rotate(q + b * q_batch_stride, q_out + b * q_batch_stride, n_qh, q_seq_stride, q_head_stride);
  rotate(k + b * k_batch_stride, k_out + b * k_batch_stride, n_kh, k_seq_stride, k_head_stride);
}
TESSEL_KERNEL(ropeU, DTYPES(bf16),
              ARGS(q_out, k_out, q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride,
                   q_head_stride, k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride,
                   cos_seq_stride, cos_half_offset),
              CONFIGS(RU{}))
