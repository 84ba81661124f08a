//===- ParallelTest.cpp - the harness's loops over large buffers ----------===//
//
// forChunks and what runs on it (Parallel.h): every chunk once, and results that do not depend
// on the number of threads (TESSEL_HOST_THREADS) or, below one chunk, on the chunking at all.
//
//===----------------------------------------------------------------------===//
#include "tessel/Harness/Parallel.h"
#include "tessel/Harness/Compare.h"
#include "tessel/Harness/FloatFormats.h"
#include "tessel/Harness/Poison.h"
#include "tessel/Harness/Problem.h"
#include "tessel/Harness/Random.h"
#include "tessel/Harness/Reference.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using namespace tessel::harness;

namespace {
/// Sets TESSEL_HOST_THREADS for one scope.
struct HostThreads {
  explicit HostThreads(int n) { setenv("TESSEL_HOST_THREADS", std::to_string(n).c_str(), 1); }
  ~HostThreads() { unsetenv("TESSEL_HOST_THREADS"); }
};
} // namespace

TEST(Parallel, EveryChunkOnceWithItsBounds) {
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(999), 40 * kChunkElements + 17}) {
    std::vector<std::atomic<int>> seen((n + kChunkElements - 1) / kChunkElements);
    std::atomic<int64_t> elements{0};
    forChunks(n, kChunkElements, [&](int64_t index, int64_t begin, int64_t end) {
      ++seen[index];
      EXPECT_EQ(begin, index * kChunkElements);
      EXPECT_EQ(end, std::min(n, begin + kChunkElements));
      elements += end - begin;
    });
    EXPECT_EQ(elements, n);
    for (auto &s : seen)
      EXPECT_EQ(s, 1);
  }
}

TEST(Parallel, SmallFillsKeepTheSerialStream) {
  // Below 2^22 elements a float buffer takes rng's own stream in order: what set(i, v) then
  // get(i) == 0 drew before the typed loops (the inputs of every lit test).
  for (DType t : {DType::f32, DType::bf16, DType::f16, DType::f64}) {
    HostBuffer fast(t, {5000}), slow(t, {5000});
    Random r1(11), r2(11);
    fillUniform(fast, r1, -2.0, 3.0);
    for (int64_t i = 0; i < slow.numel(); ++i)
      do
        slow.set(i, r2.uniform(-2.0, 3.0));
      while (slow.get(i) == 0.0);
    for (int64_t i = 0; i < fast.numel(); ++i)
      ASSERT_EQ(fast.bits(i), slow.bits(i)) << name(t) << " element " << i;
    EXPECT_EQ(r1.next(), r2.next()); // the same number of draws
  }
}

TEST(Parallel, LargeFillsAndComparisonsDoNotDependOnThreads) {
  int64_t n = (int64_t(1) << 22) + 12345; // past the parallel draw, a partial last chunk
  HostBuffer one(DType::bf16, {n}), many(DType::bf16, {n});
  {
    HostThreads h(1);
    Random r(5);
    fillUniform(one, r);
  }
  {
    HostThreads h(4);
    Random r(5);
    fillUniform(many, r);
  }
  int64_t below = 0;
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(one.bits(i), many.bits(i)) << "element " << i;
    double v = one.get(i);
    ASSERT_NE(v, 0.0);
    ASSERT_GE(v, -1.0);
    ASSERT_LE(v, 1.0);
    below += v < 0;
  }
  EXPECT_NEAR(double(below) / n, 0.5, 0.01);
  int64_t repeated = 0; // each chunk its own stream, not one stream repeated
  for (int64_t i = 0; i < 100; ++i)
    repeated += one.bits(i) == one.bits(kChunkElements + i);
  EXPECT_LT(repeated, 10);

  // A reference off by a little everywhere, poison at two places in later chunks, a NaN.
  std::vector<double> ref = one.toDoubles();
  for (int64_t i = 0; i < n; ++i)
    ref[i] *= 1.001;
  int64_t worst = 3 * kChunkElements + 5;
  ref[worst] += 0.5;
  many.set(2 * kChunkElements + 7, NAN);
  for (int64_t i : {9 * kChunkElements + 1, 30 * kChunkElements})
    std::memcpy(static_cast<uint16_t *>(many.data()) + i, &kPoisonBF16, 2);
  Comparison a, b;
  {
    HostThreads h(1);
    a = compare(many, ref, defaultTolerance(DType::bf16));
  }
  {
    HostThreads h(4);
    b = compare(many, ref, defaultTolerance(DType::bf16));
  }
  EXPECT_EQ(a.summary, b.summary);
  EXPECT_EQ(a.relError, b.relError); // bit for bit: the chunks' sums merge in order
  EXPECT_EQ(a.checked, n);
  EXPECT_EQ(a.unwritten, 2);
  EXPECT_EQ(a.badNonFinite, 1);
  EXPECT_EQ(a.firstBad, 2 * kChunkElements + 7);
  EXPECT_EQ(a.worstIndex, worst);
  EXPECT_FALSE(a.pass);

  // The serial arithmetic over the same elements, for the error's value.
  double diff2 = 0, ref2 = 0;
  for (int64_t i = 0; i < n; ++i) {
    double o = many.get(i);
    if (many.bits(i) == kPoisonBF16 || !std::isfinite(o))
      continue;
    diff2 += (o - ref[i]) * (o - ref[i]);
    ref2 += ref[i] * ref[i];
  }
  EXPECT_NEAR(a.relError, std::sqrt(diff2 / ref2), 1e-12);
  if (std::thread::hardware_concurrency() < 2)
    GTEST_SKIP() << "one core: both runs above were serial, thread independence not exercised";
}

TEST(Parallel, ToDoublesAndCountBitsOfEveryDType) {
  for (DType t : {DType::i1, DType::i8, DType::i16, DType::i32, DType::i64, DType::f16, DType::bf16,
                  DType::f32, DType::f64}) {
    HostBuffer b(t, {3 * kChunkElements + 3});
    for (int64_t i = 0; i < b.numel(); ++i) // signed, and none the dtype's poison (i8: -34)
      b.set(i, t == DType::i1 ? i % 2 : double(i % 61) - 30);
    std::vector<double> all = b.toDoubles();
    for (int64_t i = 0; i < b.numel(); ++i)
      ASSERT_EQ(all[i], b.get(i)) << name(t) << " element " << i;
    // Poison at two places (no element holds it before); the count and the first exactly.
    uint64_t poison = poisonBits(t);
    int64_t first = 0;
    ASSERT_EQ(b.countBits(poison, 0, b.numel(), first), 0) << name(t);
    EXPECT_EQ(first, -1);
    for (int64_t i : {kChunkElements + 1, 2 * kChunkElements + 9})
      std::memcpy(static_cast<char *>(b.data()) + i * sizeOf(t), &poison, sizeOf(t));
    EXPECT_EQ(b.countBits(poison, 0, b.numel(), first), 2) << name(t);
    EXPECT_EQ(first, kChunkElements + 1) << name(t);
    EXPECT_EQ(b.countBits(poison, kChunkElements + 2, b.numel(), first), 1) << name(t);
    EXPECT_EQ(first, 2 * kChunkElements + 9) << name(t);
  }
}

namespace {
const ProblemBuffer &buffer(const Problem &p, const std::string &name) {
  for (const ProblemBuffer &b : p.buffers)
    if (b.name == name)
      return b;
  ADD_FAILURE() << "no buffer " << name;
  static ProblemBuffer none;
  return none;
}
} // namespace

TEST(Parallel, ChunkedReferencesEqualTheWholeBuffers) {
  // 1100 rows of 1000: 17 chunks of 65 rows (the last shorter); 1.1M elements: 17 of 2^16.
  for (const char *name : {"softmax", "rmsnorm", "rmsnorm_rows", "layernorm", "layernorm_rows",
                           "cross_entropy", "vector_add", "swiglu", "geglu"}) {
    ProblemOptions o;
    o.name = name;
    std::string n = name;
    bool rows = n.find("norm") != std::string::npos || n == "softmax" || n == "cross_entropy";
    o.shape = rows ? std::vector<int64_t>{1100, 1000} : std::vector<int64_t>{1100 * 1000};
    o.dtype = DType::bf16;
    Problem p;
    ASSERT_TRUE(makeProblem(o, p).isOk()) << name;
    auto in = [&](const char *b) { return buffer(p, b).host.toDoubles(); };
    auto same = [&](const char *b, const std::vector<double> &whole) {
      EXPECT_TRUE(buffer(p, b).reference == whole) << name << " " << b;
    };
    if (n == "softmax") {
      same("out", ref::softmax(in("in"), 1100, 1000));
    } else if (n.rfind("rmsnorm", 0) == 0) {
      same("out", ref::rmsNorm(in("in"), in("w"), 1100, 1000, 1e-6));
      same("rstd", ref::rmsNormRstd(in("in"), 1100, 1000, 1e-6));
    } else if (n.rfind("layernorm", 0) == 0) {
      std::vector<double> mean, rstd;
      ref::layerNormStats(in("in"), 1100, 1000, 1e-5, mean, rstd);
      same("out", ref::layerNorm(in("in"), in("w"), in("bias"), 1100, 1000, 1e-5));
      same("mean", mean);
      same("rstd", rstd);
    } else if (n == "cross_entropy") {
      std::vector<int64_t> labels;
      for (double l : buffer(p, "labels").host.toDoubles())
        labels.push_back(static_cast<int64_t>(l));
      ref::CrossEntropy whole =
          ref::crossEntropy(in("logits"), labels, 1100, 1000, -100, ref::Reduction::mean);
      same("loss", whole.loss);
      same("reduced", {whole.total});
    } else if (n == "vector_add") {
      same("out", ref::vectorAdd(in("x"), in("y")));
    } else if (n == "swiglu") {
      same("out", ref::swiglu(in("gate"), in("up")));
    } else {
      same("out", ref::geglu(in("gate"), in("up")));
    }
  }
}

TEST(Parallel, RopeReferenceRowByRowInEitherLayout) {
  // 2 x 8 heads x 1100 tokens: 17600 rows of 64, 18 chunks of 1024 rows.
  const int64_t B = 2, HQ = 8, HK = 2, S = 1100, D = 64;
  for (bool bshd : {false, true}) {
    ProblemOptions o;
    o.name = "rope_out";
    o.shape = {B, HQ, HK, S, D};
    o.dtype = DType::bf16;
    if (bshd) { // the other layout, one table for every batch, tables of D/2 columns
      o.options["layout"] = "bshd";
      o.options["cos"] = "shared";
      o.options["table"] = "half";
    }
    Problem p;
    ASSERT_TRUE(makeProblem(o, p).isOk());
    std::vector<double> c = buffer(p, "cos").host.toDoubles(),
                        sn = buffer(p, "sin").host.toDoubles();
    for (auto [in, out, H] : {std::tuple{"q", "q_out", HQ}, std::tuple{"k", "k_out", HK}}) {
      std::vector<double> x = buffer(p, in).host.toDoubles(), want(x.size());
      if (!bshd) {
        want = ref::ropeRotateHalf(x, c, sn, B, H, S, D);
      } else { // x[b, s, h, :] with cos[s, d % 32]
        for (int64_t bi = 0; bi < B; ++bi)
          for (int64_t si = 0; si < S; ++si)
            for (int64_t h = 0; h < H; ++h)
              for (int64_t d = 0; d < D; ++d) {
                const double *row = &x[((bi * S + si) * H + h) * D];
                double rot = d < D / 2 ? -row[d + D / 2] : row[d - D / 2];
                want[((bi * S + si) * H + h) * D + d] =
                    row[d] * c[si * (D / 2) + d % (D / 2)] + rot * sn[si * (D / 2) + d % (D / 2)];
              }
      }
      EXPECT_TRUE(buffer(p, out).reference == want) << (bshd ? "bshd " : "bhsd ") << out;
      EXPECT_TRUE(buffer(p, in).reference == x) << in; // read only: compared with itself
    }
  }
}
