//===- Sampling.cpp - top-k / top-p mask of logits ------------------------===//
//
// top_k_top_p_mask (dsl/kernels/sampling.cpp): out = logits where kept by the row's top-k and
// top-p filters, -inf elsewhere. The reference implements the kernel's documented semantics in
// float64, by sorting.
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>

namespace tessel::harness::problems {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Half-width of the top-p band, in units of the row's top-k mass Z_k: the elements of a value
/// whose mass strictly above it lies within this of p * Z_k may be kept or dropped (either
/// passes). The kernel sums exp(x - max) in f32 (a tree within a block, then block by block:
/// for 128256 columns about 50 roundings deep, a worst-case relative error near 3e-6 of Z_k,
/// typically a few 1e-7), so its decision can differ from float64's only there; 1e-5 holds
/// that with margin. Top-k counts are exact: no band.
constexpr double kTopPBand = 1e-5;

/// Programs per row at most (the kernel's chunk_stats holds 128 (max, mass) words per row).
constexpr int64_t kMaxChunks = 128;

/// One row's k and p: for rows 0 to 9 a fixed list that covers every edge (the typical
/// k = 50, p = 0.9, each filter off in each of its ways, k = 1, tiny p, p = 0; row 9's k is set
/// by the caller to make t_k zero), past them random values, each filter off one time in five.
void rowParams(Random &rng, int64_t r, int64_t v, int64_t &k, double &p) {
  int64_t randomK = rng.integer(1, std::max<int64_t>(1, std::min<int64_t>(v - 1, 2000)));
  double randomP = rng.uniform(0.05, 0.99);
  const std::pair<int64_t, double> fixed[] = {
      {50, 0.9},          // typical
      {v, 0.9},           // top-k off (k == V): top-p alone
      {1, 1.0},           // greedy: only the max (and its ties)
      {randomK, randomP}, // both on, random
      {0, randomP},       // top-k off (k <= 0)
      {randomK, 1.0},     // top-p off
      {v + 5, 1.5},       // both off: a copy
      {-1, 1e-9},         // tiny p: only the max (and its ties)
      {randomK, 0.0},     // p = 0: the max still kept
      {1, 1.0},           // k: the caller's
  };
  if (r < 10) {
    std::tie(k, p) = fixed[r];
    return;
  }
  k = rng.uniform01() < 0.2 ? v : rng.integer(1, v);
  p = rng.uniform01() < 0.2 ? 1.0 : randomP;
}

struct RowResult {
  std::vector<bool> kept;
  std::vector<int64_t> band; ///< columns whose top-p decision is within the band
};

/// The documented semantics in float64 on one row (x: the stored logits).
RowResult referenceRow(const double *x, int64_t v, int64_t k, double p) {
  std::vector<double> xs(x, x + v);
  for (double &e : xs)
    if (std::isnan(e))
      e = -kInf; // NaN ranks as -inf and is never kept (below)
  RowResult res;
  res.kept.assign(v, true);
  if (k > 0 && k < v) {
    std::vector<double> sorted = xs;
    std::nth_element(sorted.begin(), sorted.begin() + (k - 1), sorted.end(), std::greater<>());
    double tk = sorted[k - 1];
    for (int64_t j = 0; j < v; ++j)
      res.kept[j] = xs[j] >= tk; // ties at t_k kept
  }
  if (p < 1) {
    // The top-k set S in descending order; mass of each value's tie group.
    std::vector<double> s;
    for (int64_t j = 0; j < v; ++j)
      if (res.kept[j])
        s.push_back(xs[j]);
    std::sort(s.begin(), s.end(), std::greater<>());
    double m = s.front();
    auto weight = [&](double e) { return m == -kInf ? 0.0 : std::exp(e - m); };
    double z = 0;
    for (double e : s)
      z += weight(e);
    double target = p * z;
    // t_p: the largest value whose mass at or above reaches p * Z_k; the max is always kept.
    // above: the mass strictly above the current value (elements kept iff above < target).
    double tp = m, above = 0, bandLo = kInf, bandHi = -kInf;
    for (size_t i = 0; i < s.size();) {
      size_t j = i;
      double group = 0;
      while (j < s.size() && s[j] == s[i])
        group += weight(s[j++]);
      if (i > 0 && std::fabs(above - target) <= kTopPBand * z)
        bandLo = std::min(bandLo, s[i]), bandHi = std::max(bandHi, s[i]);
      if (i == 0 || above < target)
        tp = s[i];
      above += group;
      i = j;
    }
    for (int64_t j = 0; j < v; ++j) {
      if (res.kept[j] && xs[j] >= bandLo && xs[j] <= bandHi)
        res.band.push_back(j);
      res.kept[j] = res.kept[j] && xs[j] >= tp;
    }
  }
  for (int64_t j = 0; j < v; ++j)
    if (std::isnan(x[j]))
      res.kept[j] = false;
  return res;
}

} // namespace

/// Shape ROWSxV (a single row: V). Logits uniform in [-8, 8) (the top-p cut of p = 0.9 then
/// falls among the top few percent of V, as for real logits); rows 0, 3, 6, ... rounded to
/// multiples of 1/16 (ties everywhere for every dtype, 0.0 and -0.0 among them); in the even
/// rows with top-k on, two more copies of t_k (ties at the k-th value; the odd rows keep an
/// exact k-th value, so that an off-by-one in k shows); one -inf per row, one NaN in rows 1, 4,
/// ...; row 9 holds 0.0 and -0.0 and its k makes t_k zero (the two are tied). k (i32) and p
/// (f32) per row by rowParams, or options k=K, p=P for every row; option chunks=S: programs
/// per row (grid y). out is compared exactly
/// (kept elements are copies); where the top-p decision is within the band (kTopPBand) the
/// reference takes the kernel's answer if it is one of the two allowed (the logit or -inf).
Status topKTopPMask(Builder &b) {
  int64_t rows = 0, v = 0;
  if (Status s = rowsCols(b.o, rows, v); !s)
    return s;
  if (Status s = floatDType(b.o); !s)
    return s;
  if (rows < 1 || v < 1)
    return Status::error("problem top_k_top_p_mask: needs at least one row and one column, got " +
                         shapeString(b.o.shape));
  std::string kOpt = b.option("k", ""), pOpt = b.option("p", "");
  // Programs per row (grid y): by default enough for chunks of about 64 columns, up to 4, so
  // that the tests' small rows still cross chunk boundaries.
  int64_t chunks =
      std::atoll(b.option("chunks", std::to_string(std::clamp<int64_t>(v / 64, 1, 4))).c_str());
  if (chunks < 1 || chunks > kMaxChunks)
    return Status::error("problem top_k_top_p_mask: chunks=" + std::to_string(chunks) +
                         " is out of range: 1 to " + std::to_string(kMaxChunks) +
                         " programs per row");
  int out = b.output("out", b.o.dtype, {rows, v});
  int logits = b.input("logits", b.o.dtype, {rows, v}, -8, 8);
  HostBuffer &lb = b.p.buffers[logits].host;
  for (int64_t r = 0; r < rows; r += 3)
    for (int64_t j = 0; j < v; ++j)
      lb.set(r * v + j, std::round(lb.get(r * v + j) * 16) / 16);
  int topK = b.input("top_k", DType::i32, {rows});
  int topP = b.input("top_p", DType::f32, {rows});
  auto pick = [&](int64_t r) { return r * v + b.rng.integer(0, v - 1); };
  for (int64_t r = 0; r < rows; ++r) {
    int64_t k;
    double p;
    rowParams(b.rng, r, v, k, p);
    if (r == 9 && v > 2) {
      lb.set(pick(r), 0.0);
      lb.set(pick(r), -0.0);
      k = 1;
      for (int64_t j = 0; j < v; ++j)
        k += lb.get(r * v + j) > 0;
    }
    if (!kOpt.empty())
      k = std::atoll(kOpt.c_str());
    if (!pOpt.empty())
      p = std::atof(pOpt.c_str());
    b.p.buffers[topK].host.setInt(r, k);
    b.p.buffers[topP].host.set(r, p);
    if (k > 0 && k < v && v > 2 && r % 2 == 0 && r != 9) {
      std::vector<double> row(v);
      for (int64_t j = 0; j < v; ++j)
        row[j] = lb.get(r * v + j);
      std::nth_element(row.begin(), row.begin() + (k - 1), row.end(), std::greater<>());
      for (int t = 0; t < 2; ++t)
        lb.set(pick(r), row[k - 1]);
    }
    if (r != 9 || v <= 2) {
      lb.set(pick(r), -kInf);
      if (r % 3 == 1)
        lb.set(pick(r), std::numeric_limits<double>::quiet_NaN());
    }
  }
  std::vector<double> x = b.values(logits), ref(rows * v);
  // (element, logit) of every element in the band.
  auto band = std::make_shared<std::vector<std::pair<int64_t, double>>>();
  for (int64_t r = 0; r < rows; ++r) {
    RowResult rr =
        referenceRow(&x[r * v], v, b.p.buffers[topK].host.getInt(r), b.p.buffers[topP].host.get(r));
    for (int64_t j = 0; j < v; ++j)
      ref[r * v + j] = rr.kept[j] ? x[r * v + j] : -kInf;
    for (int64_t j : rr.band)
      band->push_back({r * v + j, x[r * v + j]});
  }
  ProblemBuffer &o = b.p.buffers[out];
  o.reference = std::move(ref);
  o.tol = {0, 0, /*elementwise=*/true, 0, 0};
  if (!band->empty())
    b.p.derive = [out, band](Problem &p) {
      ProblemBuffer &o = p.buffers[out];
      for (auto [i, logit] : *band) {
        double got = o.host.get(i);
        if (got == -kInf || got == logit)
          o.reference[i] = got;
      }
    };
  b.ptr("out", out, {"out_ptr", "output"});
  b.ptr("logits", logits, {"logits_ptr", "in", "x"});
  b.ptr("top_k", topK, {"k", "top_k_ptr"});
  b.ptr("top_p", topP, {"p", "top_p_ptr"});
  // The workspaces: the candidates poisoned (the kernel must not read what it did not write),
  // the chunks' statistics and the counters zero, as the kernel wants them and leaves them.
  b.ptr("cand_vals", b.scratch("cand_vals", b.o.dtype, {rows, v}));
  b.ptr("cand_cols", b.scratch("cand_cols", DType::i32, {rows, v}));
  b.ptr("chunk_stats", b.scratch("chunk_stats", DType::i64, {rows, kMaxChunks}, /*zero=*/true));
  b.ptr("counters", b.scratch("counters", DType::i32, {rows, 2}, /*zero=*/true));
  b.i64("in_stride", v, {"stride", "logits_stride"});
  b.i64("out_stride", v, {"output_stride"});
  b.i64("n_cols", v, {"vocab", "v", "cols"});
  b.p.launch.grid.x = rows;
  b.p.launch.grid.y = chunks;
  b.p.elements = rows * v;
  b.p.bytes = 2 * rows * v * static_cast<int64_t>(sizeOf(b.o.dtype)) + 8 * rows;
  b.describe();
  if (!band->empty())
    b.p.description += " (" + std::to_string(band->size()) + " in the top-p band)";
  return Status::ok();
}

} // namespace tessel::harness::problems
