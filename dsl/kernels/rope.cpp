//===- rope.cpp - rotary position embedding of q and k --------------------===//
//
// Rotate-half convention (GPT-NeoX / Hugging Face): with x = [x1, x2] split at HALF = D/2,
//   out = [x1 * cos1 - x2 * sin1,  x2 * cos2 + x1 * sin2]
// where cos1/cos2 are the first/second half of the token's cos row (equal when cos has D/2
// columns). q and k are rotated by one program per token, every head of both at once; heads
// beyond n_qh (n_kh) are masked, so any head count from 1 to BLOCK_H works (a single k head
// is rotated too: case C5). grid = (batch * seq_len,). `rope` rotates in place; `rope_out`
// writes q_out and k_out (q's and k's strides) and only reads q and k, which halves the
// traffic of an out-of-place op (PyTorch's autograd keeps q and k) against a copy + `rope`.
// `rope_seq_out` is rope_out by blocks of tokens (grid = (cdiv(seq_len, BLOCK_S), batch)), for
// (B, H, S, D) tensors, where a head's block of tokens is contiguous and a token's heads are not.
// `rope_flat` rotates one such tensor, a block of tokens of one head a program, with tables in
// the tensor's dtype (below); q and k are then two launches.
//
// Layouts are strided: q[b, s, h, d] is at q + b*q_batch_stride + s*q_seq_stride +
// h*q_head_stride + d (d contiguous), so both (B, S, H, D) and (B, H, S, D) tensors work. cos
// and sin (f32, but for rope_flat) are at cos + b*cos_batch_stride + s*cos_seq_stride + d, with
// cos_batch_stride = 0 when all batches share them, and cos_half_offset = 0 for tables of D/2
// columns or D/2 for tables of D columns.
//
//===----------------------------------------------------------------------===//
#include <tessel/dsl.h>

#include <algorithm>

using namespace tessel::dsl;

struct RopeConfig {
  int HALF = 64;   // D / 2
  int BLOCK_H = 32; // power of two >= max(n_qh, n_kh)
  int num_warps = 4;
};
TESSEL_CONFIG(RopeConfig, HALF, BLOCK_H, num_warps)

/// Rotates the n_heads heads at `src` (this token) into `dst` (the same offsets; `dst` may be
/// `src`). A plain C++ function: its ops are emitted inline, once per call.
template <class T>
void rotate_heads(const RopeConfig &c, Ptr<T> src, Ptr<T> dst, Int n_heads, Int head_stride,
                  const Tile<f32> &c1, const Tile<f32> &c2, const Tile<f32> &s1,
                  const Tile<f32> &s2) {
  Tile<i32> h = arange(0, c.BLOCK_H)(_, None);          // (BLOCK_H, 1)
  Tile<i32> d = arange(0, c.HALF)(None, _);             // (1, HALF)
  Ptr<T> p1 = src + h * head_stride + d;                // (BLOCK_H, HALF)
  Ptr<T> o1 = dst + h * head_stride + d;                // (BLOCK_H, HALF); p1 when in place
  Mask m = h < n_heads;                                 // (BLOCK_H, 1)
  Tile<f32> x1 = cast<f32>(load(p1, m));                // (BLOCK_H, HALF)
  Tile<f32> x2 = cast<f32>(load(p1 + c.HALF, m));       // (BLOCK_H, HALF)
  store(o1, cast<T>(x1 * c1 - x2 * s1), m);             // (BLOCK_H, HALF)
  store(o1 + c.HALF, cast<T>(x2 * c2 + x1 * s2), m);    // (BLOCK_H, HALF)
}

/// This token's halves of the cos and sin rows, (1, HALF) each: c1, c2, s1, s2.
inline std::tuple<Tile<f32>, Tile<f32>, Tile<f32>, Tile<f32>>
token_tables(const RopeConfig &c, Ptr<f32> cos, Ptr<f32> sin, Int table, Int cos_half_offset) {
  Tile<i32> d = arange(0, c.HALF);                                    // (HALF)
  Tile<f32> c1 = load(cos + table + d)(None, _);                      // (1, HALF)
  Tile<f32> s1 = load(sin + table + d)(None, _);                      // (1, HALF)
  Tile<f32> c2 = load(cos + table + cos_half_offset + d)(None, _);    // (1, HALF)
  Tile<f32> s2 = load(sin + table + cos_half_offset + d)(None, _);    // (1, HALF)
  return {c1, c2, s1, s2};
}

template <class T>
void rope(const RopeConfig &c, Ptr<T> q, Ptr<T> k, Ptr<f32> cos, Ptr<f32> sin, Int seq_len,
          Int n_qh, Int n_kh, Int q_batch_stride, Int q_seq_stride, Int q_head_stride,
          Int k_batch_stride, Int k_seq_stride, Int k_head_stride, Int cos_batch_stride,
          Int cos_seq_stride, Int cos_half_offset) {
  Int tok = program_id(0);
  Int b = tok / seq_len;
  Int s = tok % seq_len;
  auto [c1, c2, s1, s2] =
      token_tables(c, cos, sin, b * cos_batch_stride + s * cos_seq_stride, cos_half_offset);
  Ptr<T> qt = q + b * q_batch_stride + s * q_seq_stride;
  Ptr<T> kt = k + b * k_batch_stride + s * k_seq_stride;
  rotate_heads(c, qt, qt, n_qh, q_head_stride, c1, c2, s1, s2);
  rotate_heads(c, kt, kt, n_kh, k_head_stride, c1, c2, s1, s2);
}
TESSEL_KERNEL(rope, DTYPES(f32, f16, bf16),
              ARGS(q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride,
                   q_head_stride, k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride,
                   cos_seq_stride, cos_half_offset),
              CONFIGS(RopeConfig{.HALF = 64, .BLOCK_H = 32, .num_warps = 4},
                      RopeConfig{.HALF = 64, .BLOCK_H = 2, .num_warps = 1},
                      RopeConfig{.HALF = 32, .BLOCK_H = 8, .num_warps = 2}))
/// Out of place: q_out (k_out) has q's (k's) strides.
template <class T>
void rope_out(const RopeConfig &c, Ptr<T> q_out, Ptr<T> k_out, Ptr<T> q, Ptr<T> k,
              Ptr<f32> cos, Ptr<f32> sin, Int seq_len, Int n_qh, Int n_kh, Int q_batch_stride,
              Int q_seq_stride, Int q_head_stride, Int k_batch_stride, Int k_seq_stride,
              Int k_head_stride, Int cos_batch_stride, Int cos_seq_stride, Int cos_half_offset) {
  Int tok = program_id(0);
  Int b = tok / seq_len;
  Int s = tok % seq_len;
  auto [c1, c2, s1, s2] =
      token_tables(c, cos, sin, b * cos_batch_stride + s * cos_seq_stride, cos_half_offset);
  Int qo = b * q_batch_stride + s * q_seq_stride, ko = b * k_batch_stride + s * k_seq_stride;
  rotate_heads(c, q + qo, q_out + qo, n_qh, q_head_stride, c1, c2, s1, s2);
  rotate_heads(c, k + ko, k_out + ko, n_kh, k_head_stride, c1, c2, s1, s2);
}
TESSEL_KERNEL(rope_out, DTYPES(f32, f16, bf16),
              ARGS(q_out, k_out, q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride,
                   q_seq_stride, q_head_stride, k_batch_stride, k_seq_stride, k_head_stride,
                   cos_batch_stride, cos_seq_stride, cos_half_offset),
              CONFIGS(RopeConfig{.HALF = 64, .BLOCK_H = 32, .num_warps = 4},
                      RopeConfig{.HALF = 64, .BLOCK_H = 32, .num_warps = 8},
                      RopeConfig{.HALF = 64, .BLOCK_H = 2, .num_warps = 1},
                      RopeConfig{.HALF = 32, .BLOCK_H = 8, .num_warps = 2}))
/// HALF is the head size's half (64: D = 128) and stays; BLOCK_H is tuned at the head counts'
/// power of two (a larger one only adds masked heads), so num_warps is what is tuned.
TESSEL_TUNE(rope, Space<RopeConfig>()
                      .field(&RopeConfig::BLOCK_H, {1, 2, 4, 8, 16, 32, 64, 128})
                      .field(&RopeConfig::num_warps, {1, 2, 4, 8, 16})
                      .key("n_qh", Bucket::pow2)
                      .key("n_kh", Bucket::pow2)
                      .valid([](const RopeConfig &c, const Keys &k) {
                        return c.BLOCK_H >= k["n_qh"] && c.BLOCK_H >= k["n_kh"];
                      })
                      .where([](const RopeConfig &c, const Keys &k) {
                        return c.BLOCK_H == std::max(k["n_qh"], k["n_kh"]);
                      })
                      .grid("n_tokens"))

struct RopeSeqConfig {
  int HALF = 64;    // D / 2
  int BLOCK_S = 16; // tokens per program
  int num_warps = 4;
};
TESSEL_CONFIG(RopeSeqConfig, HALF, BLOCK_S, num_warps)

/// rope_out's rotation by blocks of tokens, for Hugging Face's (B, H, S, D) layout: there one
/// token's heads lie a whole (S, D) plane apart, while a block of BLOCK_S tokens of one head is
/// one contiguous run of BLOCK_S * D elements. A program takes BLOCK_S tokens of one batch,
/// loads their cos and sin rows once, and walks every q head, then every k head, through
/// them. Same arguments and strides as rope_out; grid = (cdiv(seq_len, BLOCK_S), batch).
template <class T>
void rope_seq_out(const RopeSeqConfig &c, Ptr<T> q_out, Ptr<T> k_out, Ptr<T> q, Ptr<T> k,
                  Ptr<f32> cos, Ptr<f32> sin, Int seq_len, Int n_qh, Int n_kh,
                  Int q_batch_stride, Int q_seq_stride, Int q_head_stride, Int k_batch_stride,
                  Int k_seq_stride, Int k_head_stride, Int cos_batch_stride, Int cos_seq_stride,
                  Int cos_half_offset) {
  Int b = program_id(1);
  Tile<i64> s = (program_id(0) * c.BLOCK_S + arange(0, c.BLOCK_S))(_, None); // (BLOCK_S, 1)
  Tile<i32> d = arange(0, c.HALF)(None, _);                                  // (1, HALF)
  Mask m = s < seq_len;                                                      // (BLOCK_S, 1)
  Tile<i64> t = b * cos_batch_stride + s * cos_seq_stride + d;               // (BLOCK_S, HALF)
  Tile<f32> c1 = load(cos + t, m), s1 = load(sin + t, m);                    // (BLOCK_S, HALF)
  Tile<f32> c2 = load(cos + t + cos_half_offset, m);                         // (BLOCK_S, HALF)
  Tile<f32> s2 = load(sin + t + cos_half_offset, m);                         // (BLOCK_S, HALF)
  auto rotate = [&](Ptr<T> src, Ptr<T> dst, Int n_heads, Int seq_stride, Int head_stride) {
    Tile<i64> offs = s * seq_stride + d; // (BLOCK_S, HALF)
    for_range(0, n_heads, 1, [&](Int h) {
      Ptr<T> p1 = src + h * head_stride + offs;               // (BLOCK_S, HALF)
      Ptr<T> o1 = dst + h * head_stride + offs;               // (BLOCK_S, HALF)
      Tile<f32> x1 = cast<f32>(load(p1, m));                  // (BLOCK_S, HALF)
      Tile<f32> x2 = cast<f32>(load(p1 + c.HALF, m));         // (BLOCK_S, HALF)
      store(o1, cast<T>(x1 * c1 - x2 * s1), m);
      store(o1 + c.HALF, cast<T>(x2 * c2 + x1 * s2), m);
    });
  };
  rotate(q + b * q_batch_stride, q_out + b * q_batch_stride, n_qh, q_seq_stride, q_head_stride);
  rotate(k + b * k_batch_stride, k_out + b * k_batch_stride, n_kh, k_seq_stride, k_head_stride);
}
TESSEL_KERNEL(rope_seq_out, DTYPES(f32, f16, bf16),
              ARGS(q_out, k_out, q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride,
                   q_seq_stride, q_head_stride, k_batch_stride, k_seq_stride, k_head_stride,
                   cos_batch_stride, cos_seq_stride, cos_half_offset),
              // B8 S4096 H32/8 D128 bf16 (docs/Performance.md): 16 tokens on 2 warps 177 us, on
              // 4 180 us, 64 on 8 176 us; 16 keeps 4x the programs of 64 for short sequences.
              CONFIGS(RopeSeqConfig{.HALF = 64, .BLOCK_S = 16, .num_warps = 2},
                      RopeSeqConfig{.HALF = 64, .BLOCK_S = 16, .num_warps = 4},
                      RopeSeqConfig{.HALF = 32, .BLOCK_S = 16, .num_warps = 2}))
/// HALF stays (D = 128); the tokens per program and the warps are tuned at the head counts'
/// buckets (a program rotates every head of its tokens).
TESSEL_TUNE(rope_seq_out, Space<RopeSeqConfig>()
                              .field(&RopeSeqConfig::BLOCK_S, {4, 8, 16, 32, 64, 128})
                              .field(&RopeSeqConfig::num_warps, {1, 2, 4, 8, 16})
                              .key("n_qh", Bucket::pow2)
                              .key("n_kh", Bucket::pow2)
                              .grid("cdiv(seq_len, BLOCK_S), n_batch"))

struct RopeFlatConfig {
  int HALF = 64;    // D / 2
  int BLOCK_S = 16; // tokens per program
  int num_warps = 4;
};
TESSEL_CONFIG(RopeFlatConfig, HALF, BLOCK_S, num_warps)

/// A block of tokens' (BLOCK_S, HALF) cos or sin values at `at`, in f32. Every head of a token
/// reads its table rows again, so they are kept in L2.
template <class U> Tile<f32> block_table(Ptr<U> at, const Mask &m) {
  return cast<f32>(load(at, m, LoadHints{.evict = Evict::evict_last}));
}

/// Rotates a block's (BLOCK_S, HALF) halves at x + o (x1) and x + o + HALF (x2) into the same
/// offsets of `out` (which may be x): out1 = x1 * c1 - x2 * s1, out2 = x2 * c2 + x1 * s2.
template <class T>
void rotate_block(const RopeFlatConfig &c, Ptr<T> out, Ptr<T> x, const Tile<i64> &o,
                  const Mask &m, const Tile<f32> &c1, const Tile<f32> &c2, const Tile<f32> &s1,
                  const Tile<f32> &s2) {
  Tile<f32> x1 = cast<f32>(load(x + o, m));          // (BLOCK_S, HALF)
  Tile<f32> x2 = cast<f32>(load(x + o + c.HALF, m)); // (BLOCK_S, HALF)
  store(out + o, cast<T>(x1 * c1 - x2 * s1), m);
  store(out + o + c.HALF, cast<T>(x2 * c2 + x1 * s2), m);
}

/// One tensor of Hugging Face's (B, H, S, D) layout rotated out of place, flat: a program takes
/// BLOCK_S tokens of one head and nothing else (grid = (cdiv(seq_len, BLOCK_S), n_heads,
/// batch)), so a program holds a few registers a thread and an SM many programs; q and k are
/// two launches. The tables are cos and sin as the caller holds them, (1 or B, S, D) in x's
/// dtype: half the bytes of f32 tables through L2 (every head reads them again), kept there
/// with evict_last. inductor's kernel for the same op has this shape (results/2026-12-06-h100-s60,
/// call Y: rope_seq_out's walk over every head ran 118-226 registers and 12-23% of the warps).
///   out1 = x1 * cos1 - x2 * S1,  out2 = x2 * cos2 + x1 * S2,  S1 = sin_sign * sin[sin_first + d],
///   S2 = sin_sign * sin[sin_second + d]
/// The forward is sin_sign = 1, sin_first = 0, sin_second = cos_half_offset; its transpose (the
/// backward) sin_sign = -1, sin_first = cos_half_offset, sin_second = 0. cos_half_offset is
/// HALF for tables of D columns, 0 for D/2.
template <class T>
void rope_flat(const RopeFlatConfig &c, Ptr<T> out, Ptr<T> x, Ptr<T> cos, Ptr<T> sin,
               Int seq_len, Int batch_stride, Int head_stride, Int seq_stride,
               Int cos_batch_stride, Int cos_seq_stride, Int cos_half_offset, Int sin_first,
               Int sin_second, Float sin_sign) {
  Int h = program_id(1), b = program_id(2);
  Tile<i64> s = (program_id(0) * c.BLOCK_S + arange(0, c.BLOCK_S))(_, None); // (BLOCK_S, 1)
  Tile<i32> d = arange(0, c.HALF)(None, _);                                  // (1, HALF)
  Mask m = s < seq_len;                                                      // (BLOCK_S, 1)
  Tile<i64> t = b * cos_batch_stride + s * cos_seq_stride + d; // (BLOCK_S, HALF)
  Tile<f32> c1 = block_table(cos + t, m);
  Tile<f32> c2 = block_table(cos + t + cos_half_offset, m);
  Tile<f32> s1 = block_table(sin + t + sin_first, m) * sin_sign;
  Tile<f32> s2 = block_table(sin + t + sin_second, m) * sin_sign;
  Tile<i64> o = b * batch_stride + h * head_stride + s * seq_stride + d; // (BLOCK_S, HALF)
  rotate_block(c, out, x, o, m, c1, c2, s1, s2);
}
TESSEL_KERNEL(rope_flat, DTYPES(f32, f16, bf16),
              ARGS(out, x, cos, sin, seq_len, batch_stride, head_stride, seq_stride,
                   cos_batch_stride, cos_seq_stride, cos_half_offset, sin_first, sin_second,
                   sin_sign),
              CONFIGS(RopeFlatConfig{.HALF = 64, .BLOCK_S = 16, .num_warps = 4},
                      RopeFlatConfig{.HALF = 64, .BLOCK_S = 8, .num_warps = 2},
                      RopeFlatConfig{.HALF = 32, .BLOCK_S = 8, .num_warps = 1}))
/// rope_flat's and rope_qk's space: HALF stays (D = 128); tokens per program and warps are
/// tuned at the sequence length's bucket (the head counts only scale the grid; q's and k's
/// launches of rope_flat share the entry). A half tile of fewer than 8 elements a thread would
/// be held twice (the blocked layout keeps 16-byte vectors and repeats the tile over the extra
/// warps), so those configs are left out.
inline Space<RopeFlatConfig> flat_space() {
  return Space<RopeFlatConfig>()
      .field(&RopeFlatConfig::BLOCK_S, {4, 8, 16, 32, 64, 128})
      .field(&RopeFlatConfig::num_warps, {1, 2, 4, 8})
      .where([](const RopeFlatConfig &c) { return c.num_warps * 32 * 8 <= c.BLOCK_S * c.HALF; })
      .key("seq_len", Bucket::pow2);
}
TESSEL_TUNE(rope_flat, flat_space().grid("cdiv(seq_len, BLOCK_S), n_heads, n_batch"))

/// `rope` (q and k in place, f32 tables, the same arguments) by `rope_flat`'s programs, in one
/// launch: a program takes BLOCK_S tokens of one head, of q for program_id(1) < n_qh, else of
/// k's head program_id(1) - n_qh (grid = (cdiv(seq_len, BLOCK_S), n_qh + n_kh, batch)). A
/// program holds BLOCK_S x D elements of one head where `rope` holds every head of a token
/// (BLOCK_H x D): B8 S4096 H32/8 D128 bf16 ran `rope` at 177 us (90.8% of the device copy
/// bandwidth, results/2026-12-06-h200-s64) and rope_flat's q alone at 96.2%. inductor runs the
/// same op as two flat kernels, q then k; one launch saves the second's ramp and tail. On
/// another card it ran the row 1.5% slower than `rope` (results/2026-12-06-h100-s65): the
/// tuner picks.
template <class T>
void rope_qk(const RopeFlatConfig &c, Ptr<T> q, Ptr<T> k, Ptr<f32> cos, Ptr<f32> sin,
             Int seq_len, Int n_qh, Int n_kh, Int q_batch_stride, Int q_seq_stride,
             Int q_head_stride, Int k_batch_stride, Int k_seq_stride, Int k_head_stride,
             Int cos_batch_stride, Int cos_seq_stride, Int cos_half_offset) {
  Int h = program_id(1), b = program_id(2);
  Tile<i64> s = (program_id(0) * c.BLOCK_S + arange(0, c.BLOCK_S))(_, None); // (BLOCK_S, 1)
  Tile<i32> d = arange(0, c.HALF)(None, _);                                  // (1, HALF)
  Mask m = s < seq_len;                                                      // (BLOCK_S, 1)
  Tile<i64> t = b * cos_batch_stride + s * cos_seq_stride + d; // (BLOCK_S, HALF)
  Tile<f32> c1 = block_table(cos + t, m), s1 = block_table(sin + t, m);
  Tile<f32> c2 = block_table(cos + t + cos_half_offset, m);
  Tile<f32> s2 = block_table(sin + t + cos_half_offset, m);
  auto rotate = [&](Ptr<T> x, Int head, Int batch_stride, Int seq_stride, Int head_stride) {
    Tile<i64> o = s * seq_stride + d; // (BLOCK_S, HALF)
    Ptr<T> base = x + b * batch_stride + head * head_stride;
    rotate_block(c, base, base, o, m, c1, c2, s1, s2);
  };
  // Uniform per program: each program runs one branch.
  when(h < n_qh, [&] { rotate(q, h, q_batch_stride, q_seq_stride, q_head_stride); });
  when(h >= n_qh, [&] { rotate(k, h - n_qh, k_batch_stride, k_seq_stride, k_head_stride); });
}
TESSEL_KERNEL(rope_qk, DTYPES(f32, f16, bf16),
              ARGS(q, k, cos, sin, seq_len, n_qh, n_kh, q_batch_stride, q_seq_stride,
                   q_head_stride, k_batch_stride, k_seq_stride, k_head_stride, cos_batch_stride,
                   cos_seq_stride, cos_half_offset),
              CONFIGS(RopeFlatConfig{.HALF = 64, .BLOCK_S = 8, .num_warps = 2},
                      RopeFlatConfig{.HALF = 64, .BLOCK_S = 16, .num_warps = 4},
                      RopeFlatConfig{.HALF = 32, .BLOCK_S = 8, .num_warps = 1}))
TESSEL_TUNE(rope_qk, flat_space().grid("cdiv(seq_len, BLOCK_S), n_qh + n_kh, n_batch"))
