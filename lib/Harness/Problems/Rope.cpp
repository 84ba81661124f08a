//===- Rope.cpp - rotary position embedding -------------------------------===//
//
// q and k rotated (rotate-half) with f32 cos/sin tables, in place (rope) or into q_out and k_out
// (rope_out; grid B * S), or into them by blocks of BLOCK_S tokens (rope_seq_out; grid
// (cdiv(S, BLOCK_S), B)), or in place by blocks of BLOCK_S tokens of one head of q or k
// (rope_qk; grid (cdiv(S, BLOCK_S), HQ + HK, B)); and one tensor at a time, flat, with tables
// in its dtype (rope_flat; grid (cdiv(S, BLOCK_S), H, B)), forward or transposed (the
// backward).
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <cmath>
#include <cstdlib>

namespace tessel::harness::problems {

namespace {
/// The variant's HALF (config, else D / 2) when head_dim D is even and twice it; else the
/// error naming the problem.
Status checkHalf(Builder &b, const char *problem, int64_t D, int64_t &half) {
  if (D % 2)
    return Status::error(std::string("problem ") + problem + ": head_dim " + std::to_string(D) +
                         " must be even");
  half = b.config({"HALF"}, D / 2);
  if (half != D / 2)
    return Status::error(
        std::string("problem ") + problem + ": the variant has HALF = " + std::to_string(half) +
        ", so head_dim must be " + std::to_string(2 * half) + ", not " + std::to_string(D));
  return Status::ok();
}

/// How a rope variant's programs cover the tokens (its grid).
enum class RopeGrid {
  tokens,     // one program per token, every head: (B * S)
  seqBlocks,  // BLOCK_S tokens of one batch, every head: (cdiv(S, BLOCK_S), B)
  headBlocks, // BLOCK_S tokens of one head of q, then of k: (cdiv(S, BLOCK_S), HQ + HK, B)
};

/// Shape BxHQxHKxSxD: q (B, HQ, S, D) and k (B, HK, S, D) rotated with f32 cos/sin tables
/// (B, S, D), one per batch (case C5): in place, or (outOfPlace) into poisoned q_out and k_out of
/// the same strides, q and k then compared with their own values (read, never written). The
/// variant's HALF must be D/2 and BLOCK_H at least max(HQ, HK) when its config names them.
/// Options: layout=bhsd|bshd, cos=per_batch|shared, table=full|half (tables of D or D/2
/// columns). `name` is the problem's, for its errors; `grid` how the variant's programs cover
/// the tokens.
Status ropeProblem(Builder &b, const char *name, bool outOfPlace,
                   RopeGrid grid = RopeGrid::tokens) {
  if (Status s = needRank(b.o, 5, "BxHQxHKxSxD"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t B = b.o.shape[0], HQ = b.o.shape[1], HK = b.o.shape[2], S = b.o.shape[3],
          D = b.o.shape[4];
  int64_t half;
  if (Status s = checkHalf(b, name, D, half); !s)
    return s;
  int64_t blockH = b.config({"BLOCK_H"}, std::max(HQ, HK));
  if (blockH < std::max(HQ, HK))
    return Status::error(std::string("problem ") + name +
                         ": the variant has BLOCK_H = " + std::to_string(blockH) +
                         ", fewer than the " + std::to_string(std::max(HQ, HK)) + " heads");
  // layout=bhsd (default): q (B, HQ, S, D); layout=bshd: q (B, S, HQ, D), a token's heads
  // contiguous as in the Triton anchor. cos=shared: one (S, D) table for every batch
  // (batch stride 0) instead of one per batch.
  bool bshd = b.choice("layout", {"bhsd", "bshd"}) == "bshd";
  bool sharedCos = b.choice("cos", {"per_batch", "shared"}) == "shared";
  // table=half: cos/sin of D/2 columns, the same for both halves of a head (cos_half_offset 0),
  // as the Triton anchor's; table=full: D columns, each half its own.
  bool halfTable = b.choice("table", {"full", "half"}) == "half";
  int64_t CB = sharedCos ? 1 : B, TD = halfTable ? D / 2 : D;
  auto shapeOf = [&](int64_t H) {
    return bshd ? std::vector<int64_t>{B, S, H, D} : std::vector<int64_t>{B, H, S, D};
  };
  int q = b.input("q", b.o.dtype, shapeOf(HQ));
  int k = b.input("k", b.o.dtype, shapeOf(HK));
  int c = b.input("cos", DType::f32, {CB, S, TD});
  int s = b.input("sin", DType::f32, {CB, S, TD});
  // Timing only (the autotuner, which rebuilds this problem for every BLOCK_S: its grid) skips
  // the references: float64 rotations of every head and a copy of q and k.
  const bool reference = b.o.reference;
  // The reference takes tables of D columns: a half table's rows twice.
  auto table = [&](int t) {
    std::vector<double> v = b.values(t);
    if (!halfTable)
      return v;
    std::vector<double> w;
    w.reserve(v.size() * 2);
    for (size_t r = 0; r < v.size(); r += size_t(TD))
      for (int copy = 0; copy < 2; ++copy)
        w.insert(w.end(), v.begin() + r, v.begin() + r + TD);
    return w;
  };
  std::vector<double> cv, sv;
  if (reference)
    cv = table(c), sv = table(s);
  int qOut = outOfPlace ? b.output("q_out", b.o.dtype, shapeOf(HQ)) : q;
  int kOut = outOfPlace ? b.output("k_out", b.o.dtype, shapeOf(HK)) : k;
  for (auto [in, out] : {std::pair{q, qOut}, std::pair{k, kOut}}) {
    int64_t H = in == q ? HQ : HK;
    if (outOfPlace) { // an input too: it must come back bit for bit
      ProblemBuffer &pin = b.p.buffers[in];
      pin.output = true;
      pin.tol = Tolerance{0, 0};
      if (reference)
        pin.reference = pin.host.toDoubles();
    }
    ProblemBuffer &pb = b.p.buffers[out];
    pb.output = true;
    pb.tol = defaultTolerance(b.o.dtype);
    if (!reference)
      continue;
    // Row by row of D in the buffer's own layout, chunks of rows on every core: no float64
    // copy of the whole of q or k, and no permuted ones.
    std::vector<double> &ref = pb.reference;
    ref.resize(B * H * S * D);
    b.forRowChunks(in, B * H * S, D,
                   [&](const std::vector<double> &rows, int64_t first, int64_t count) {
                     for (int64_t r = first; r < first + count; ++r) {
                       int64_t bi = r / (H * S), si = bshd ? r / H % S : r % S;
                       const double *cr = &cv[((sharedCos ? 0 : bi) * S + si) * D];
                       const double *sr = &sv[((sharedCos ? 0 : bi) * S + si) * D];
                       ref::ropeRotateHalfRow(&rows[(r - first) * D], cr, sr, D, &ref[r * D]);
                     }
                   });
  }
  if (outOfPlace) {
    b.ptr("q_out", qOut);
    b.ptr("k_out", kOut);
  }
  b.ptr("q", q, {"q_ptr"});
  b.ptr("k", k, {"k_ptr"});
  b.ptr("cos", c, {"cos_ptr"});
  b.ptr("sin", s, {"sin_ptr"});
  b.i64("seq_len", S, {"s", "seq", "n_tokens"});
  b.i64("n_qh", HQ, {"n_q_heads", "hq", "q_heads"});
  b.i64("n_kh", HK, {"n_k_heads", "hk", "k_heads"});
  b.i64("q_batch_stride", HQ * S * D);
  b.i64("q_seq_stride", bshd ? HQ * D : D);
  b.i64("q_head_stride", bshd ? D : S * D);
  b.i64("k_batch_stride", HK * S * D);
  b.i64("k_seq_stride", bshd ? HK * D : D);
  b.i64("k_head_stride", bshd ? D : S * D);
  b.i64("cos_batch_stride", sharedCos ? 0 : S * TD);
  b.i64("cos_seq_stride", TD);
  b.i64("cos_half_offset", halfTable ? 0 : D / 2);
  if (grid != RopeGrid::tokens) {
    int64_t blockS = b.config({"BLOCK_S"}, grid == RopeGrid::seqBlocks ? 16 : 8);
    if (blockS <= 0)
      return Status::error(std::string("problem ") + name + ": BLOCK_S must be positive");
    if (grid == RopeGrid::seqBlocks)
      b.p.launch.grid = {cdiv(S, blockS), B, 1};
    else
      b.p.launch.grid = {cdiv(S, blockS), HQ + HK, B};
  } else {
    b.p.launch.grid = {B * S, 1, 1};
  }
  b.p.elements = B * (HQ + HK) * S * D;
  b.p.bytes = 2 * b.p.elements * static_cast<int64_t>(sizeOf(b.o.dtype)) + 8 * CB * S * TD;
  b.describe();
  return Status::ok();
}

/// Shape BxHxSxD: x (B, H, S, D) rotated into a poisoned out with cos/sin tables in x's dtype,
/// (B or 1, S, D) or (B or 1, S, D/2) (options cos=per_batch|shared, table=full|half as above),
/// forward, or with direction=backward its transpose (sin_sign -1 and the sin halves swapped:
/// the reference rotates with the sin row [-sin2, -sin1]). x is compared with itself: read only.
Status ropeFlatProblem(Builder &b) {
  if (Status s = needRank(b.o, 4, "BxHxSxD"); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  int64_t B = b.o.shape[0], H = b.o.shape[1], S = b.o.shape[2], D = b.o.shape[3];
  int64_t half;
  if (Status s = checkHalf(b, "rope_flat", D, half); !s)
    return s;
  int64_t blockS = b.config({"BLOCK_S"}, 8);
  if (blockS <= 0)
    return Status::error("problem rope_flat: BLOCK_S must be positive");
  bool sharedCos = b.choice("cos", {"per_batch", "shared"}) == "shared";
  bool halfTable = b.choice("table", {"full", "half"}) == "half";
  bool backward = b.choice("direction", {"forward", "backward"}) == "backward";
  int64_t CB = sharedCos ? 1 : B, TD = halfTable ? half : D;
  int x = b.input("x", b.o.dtype, {B, H, S, D});
  int c = b.input("cos", b.o.dtype, {CB, S, TD});
  int s = b.input("sin", b.o.dtype, {CB, S, TD});
  int out = b.output("out", b.o.dtype, {B, H, S, D});
  ProblemBuffer &pin = b.p.buffers[x];
  pin.output = true;
  pin.tol = Tolerance{0, 0};
  if (b.o.reference) {
    pin.reference = pin.host.toDoubles();
    // Table rows of D columns: cos as is (a half table twice), sin as is or, for the
    // transpose, [-sin2, -sin1].
    std::vector<double> cv = b.values(c), sv = b.values(s), cd, sd;
    cd.reserve(CB * S * D), sd.reserve(CB * S * D);
    for (int64_t r = 0; r < CB * S; ++r) {
      const double *cr = &cv[r * TD], *sr = &sv[r * TD];
      for (int64_t d = 0; d < D; ++d) {
        int64_t first = d < half ? d : d - half; // column of this half in a half table
        int64_t col = halfTable ? first : d;
        int64_t scol = halfTable ? first : (backward ? (d < half ? d + half : d - half) : d);
        cd.push_back(cr[col]);
        sd.push_back(backward ? -sr[scol] : sr[scol]);
      }
    }
    std::vector<double> &ref = b.p.buffers[out].reference;
    ref.resize(B * H * S * D);
    b.forRowChunks(
        x, B * H * S, D, [&](const std::vector<double> &rows, int64_t first, int64_t count) {
          for (int64_t r = first; r < first + count; ++r) {
            int64_t bi = r / (H * S), si = r % S, t = ((sharedCos ? 0 : bi) * S + si);
            ref::ropeRotateHalfRow(&rows[(r - first) * D], &cd[t * D], &sd[t * D], D, &ref[r * D]);
          }
        });
  }
  int64_t halfOffset = halfTable ? 0 : half;
  b.ptr("out", out);
  b.ptr("x", x);
  b.ptr("cos", c);
  b.ptr("sin", s);
  b.i64("seq_len", S, {"s", "seq", "n_tokens"});
  b.i64("batch_stride", H * S * D);
  b.i64("head_stride", S * D);
  b.i64("seq_stride", D);
  b.i64("cos_batch_stride", sharedCos ? 0 : S * TD);
  b.i64("cos_seq_stride", TD);
  b.i64("cos_half_offset", halfOffset);
  b.i64("sin_first", backward ? halfOffset : 0);
  b.i64("sin_second", backward ? 0 : halfOffset);
  b.f64("sin_sign", backward ? -1.0 : 1.0);
  b.p.launch.grid = {cdiv(S, blockS), H, B};
  b.p.elements = B * H * S * D;
  b.p.bytes = 2 * b.p.elements * static_cast<int64_t>(sizeOf(b.o.dtype)) +
              2 * CB * S * TD * static_cast<int64_t>(sizeOf(b.o.dtype));
  b.describe();
  return Status::ok();
}
} // namespace

Status rope(Builder &b) { return ropeProblem(b, "rope", /*outOfPlace=*/false); }
Status ropeOut(Builder &b) { return ropeProblem(b, "rope_out", /*outOfPlace=*/true); }
Status ropeSeqOut(Builder &b) {
  return ropeProblem(b, "rope_seq_out", /*outOfPlace=*/true, RopeGrid::seqBlocks);
}
Status ropeQk(Builder &b) {
  return ropeProblem(b, "rope_qk", /*outOfPlace=*/false, RopeGrid::headBlocks);
}
Status ropeFlat(Builder &b) { return ropeFlatProblem(b); }

} // namespace tessel::harness::problems
