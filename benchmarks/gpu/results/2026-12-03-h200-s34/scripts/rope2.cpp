// Session 34's candidate for the next GPU call: rope_seq_out with two heads per loop iteration,
// so that each thread has both heads' loads in flight before it computes either.
// Build: tesselc rope2.cpp -k rope_seq2_out -D BLOCK_S=16 -D num_warps=2 --target=cuda:sm_90a
// Run: tessel-run-gpu VARIANT.json --problem rope_seq_out --shape 8x32x8x4096x128 --bench
#include <tessel/dsl.h>

using namespace tessel::dsl;

struct RopeSeqConfig {
  int HALF = 64;
  int BLOCK_S = 16;
  int num_warps = 2;
};
TESSEL_CONFIG(RopeSeqConfig, HALF, BLOCK_S, num_warps)

template <class T>
void rope_seq2_out(const RopeSeqConfig &c, Ptr<T> q_out, Ptr<T> k_out, Ptr<T> q, Ptr<T> k,
                   Ptr<f32> cos, Ptr<f32> sin, Int seq_len, Int n_qh, Int n_kh, Int q_batch_stride,
                   Int q_seq_stride, Int q_head_stride, Int k_batch_stride, Int k_seq_stride,
                   Int k_head_stride, Int cos_batch_stride, Int cos_seq_stride,
                   Int cos_half_offset) {
  Int b = program_id(1);
  Tile<i64> s = (program_id(0) * c.BLOCK_S + arange(0, c.BLOCK_S))(_, None); // (BLOCK_S, 1)
  Tile<i32> d = arange(0, c.HALF)(None, _);                                  // (1, HALF)
  Mask m = s < seq_len;                                                      // (BLOCK_S, 1)
  Tile<i64> t = b * cos_batch_stride + s * cos_seq_stride + d;               // (BLOCK_S, HALF)
  Tile<f32> c1 = load(cos + t, m), s1 = load(sin + t, m);
  Tile<f32> c2 = load(cos + t + cos_half_offset, m);
  Tile<f32> s2 = load(sin + t + cos_half_offset, m);
  auto rotate = [&](Ptr<T> src, Ptr<T> dst, Int n_heads, Int seq_stride, Int head_stride) {
    Tile<i64> offs = s * seq_stride + d;
    for_range(0, n_heads, 2, [&](Int h) {
      Mask m2 = m & (h + 1 < n_heads); // the second head of the pair, when there is one
      Ptr<T> pa = src + h * head_stride + offs, pb = pa + head_stride;
      Tile<f32> a1 = cast<f32>(load(pa, m)), a2 = cast<f32>(load(pa + c.HALF, m));
      Tile<f32> b1 = cast<f32>(load(pb, m2)), b2 = cast<f32>(load(pb + c.HALF, m2));
      Ptr<T> oa = dst + h * head_stride + offs, ob = oa + head_stride;
      store(oa, cast<T>(a1 * c1 - a2 * s1), m);
      store(oa + c.HALF, cast<T>(a2 * c2 + a1 * s2), m);
      store(ob, cast<T>(b1 * c1 - b2 * s1), m2);
      store(ob + c.HALF, cast<T>(b2 * c2 + b1 * s2), m2);
    });
  };
  rotate(q + b * q_batch_stride, q_out + b * q_batch_stride, n_qh, q_seq_stride, q_head_stride);
  rotate(k + b * k_batch_stride, k_out + b * k_batch_stride, n_kh, k_seq_stride, k_head_stride);
}
TESSEL_KERNEL(rope_seq2_out, DTYPES(bf16),
              ARGS(q_out, k_out, q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride,
                   q_head_stride, k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride,
                   cos_seq_stride, cos_half_offset),
              CONFIGS(RopeSeqConfig{}))
