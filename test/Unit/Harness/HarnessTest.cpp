//===- HarnessTest.cpp - buffers, RNG, comparison, problems, metadata -----===//
#include "tessel/Harness/Compare.h"
#include "tessel/Harness/KernelMetadata.h"
#include "tessel/Harness/Poison.h"
#include "tessel/Harness/Problem.h"
#include "tessel/Harness/Random.h"
#include "tessel/Harness/Reference.h"
#include "tessel/Harness/Runner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

using namespace tessel::harness;

TEST(HostBuffer, SetRoundsAndPoisonIsDistinct) {
  HostBuffer b(DType::bf16, {4});
  b.set(0, 1.00390625);
  EXPECT_EQ(b.get(0), 1.0);
  b.fillPoison();
  EXPECT_EQ(b.bits(2), kPoisonBF16);
  EXPECT_TRUE(std::isnan(b.get(2)));
  HostBuffer i(DType::i32, {1});
  i.fillPoison();
  EXPECT_EQ(static_cast<uint32_t>(i.getInt(0)), 0xDEADBEEFu);
}

TEST(Random, SeededAndNeverZero) {
  for (DType t : {DType::f32, DType::bf16, DType::f16, DType::i32}) {
    HostBuffer a(t, {10000}), b(t, {10000});
    Random r1(7), r2(7);
    fillUniform(a, r1);
    fillUniform(b, r2);
    for (int64_t i = 0; i < a.numel(); ++i) {
      ASSERT_NE(a.get(i), 0.0);
      ASSERT_EQ(a.bits(i), b.bits(i));
    }
  }
  HostBuffer n(DType::f16, {10000});
  Random r(3);
  fillNormal(n, r);
  for (int64_t i = 0; i < n.numel(); ++i)
    ASSERT_NE(n.get(i), 0.0);
}

TEST(Compare, RelativeErrorAndBounds) {
  HostBuffer out(DType::f32, {3});
  std::vector<double> ref = {1.0, 2.0, 3.0};
  for (int i = 0; i < 3; ++i)
    out.set(i, ref[i]);
  Comparison c = compare(out, ref, defaultTolerance(DType::f32));
  EXPECT_TRUE(c.pass);
  EXPECT_EQ(c.relError, 0.0);
  out.set(1, 2.001);
  c = compare(out, ref, defaultTolerance(DType::f32));
  EXPECT_FALSE(c.pass);
  EXPECT_NEAR(c.relError, 0.001 / std::sqrt(14.0), 1e-7);
  EXPECT_NEAR(c.maxAbsError, 0.001, 1e-6);
  EXPECT_EQ(c.worstIndex, 1);
  // The summary tessel-run prints (three significant digits, printf's %g).
  EXPECT_EQ(c.summary, "max_abs_err=0.001 rel_err=0.000267 (bound 1e-05), worst at element 1: "
                       "got 2, expected 2");
}

TEST(Compare, NaNNeverPassesUnlessExpected) {
  HostBuffer out(DType::f32, {2});
  out.set(0, 1.0);
  out.set(1, NAN);
  EXPECT_FALSE(compare(out, {1.0, 2.0}, {1, 1}).pass);      // even with a huge tolerance
  EXPECT_TRUE(compare(out, {1.0, NAN}, {1e-5, 1e-6}).pass); // C4: mean over nothing
  out.set(1, INFINITY);
  EXPECT_FALSE(compare(out, {1.0, 2.0}, {1, 1}).pass);
}

TEST(Compare, UnwrittenPoisonFails) {
  HostBuffer out(DType::bf16, {4});
  out.fillPoison();
  out.set(0, 1.0);
  Comparison c = compare(out, {1.0, 1.0, 1.0, 1.0}, {1, 1});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.unwritten, 3);
  EXPECT_EQ(c.firstBad, 1);
}

TEST(Reference, SoftmaxRowsSumToOne) {
  std::vector<double> x = {1, 2, 3, -1e30, 0, 0};
  std::vector<double> y = ref::softmax(x, 2, 3);
  EXPECT_NEAR(y[0] + y[1] + y[2], 1.0, 1e-15);
  EXPECT_NEAR(y[3], 0.0, 1e-300);
  EXPECT_NEAR(y[4], 0.5, 1e-15);
}

TEST(Reference, CrossEntropyMeanOverNothingIsNaN) {
  std::vector<double> logits = {1, 2, 3, 4};
  ref::CrossEntropy ce = ref::crossEntropy(logits, {-100, -100}, 2, 2, -100, ref::Reduction::mean);
  EXPECT_TRUE(std::isnan(ce.total));
  EXPECT_EQ(ce.loss[0], 0.0);
  ce = ref::crossEntropy(logits, {-100, -100}, 2, 2, -100, ref::Reduction::sum);
  EXPECT_EQ(ce.total, 0.0);
  std::vector<double> g =
      ref::crossEntropyBackward(logits, {-100, -100}, 2, 2, -100, ref::Reduction::mean, {1.0});
  for (double v : g)
    EXPECT_EQ(v, 0.0);
}

TEST(Reference, CrossEntropyLabelSmoothingAndZLoss) {
  // x = [0, ln 3], label 0: lse = ln 4, softmax = [1/4, 3/4], mean(x) = ln 3 / 2, so the loss is
  // (1 - eps) ln 4 + eps (ln 4 - ln 3 / 2) + z ln^2 4 and the gradient
  // [1/4 (1 + 2 z ln 4) - (1 - eps) - eps / 2, 3/4 (1 + 2 z ln 4) - eps / 2].
  const double eps = 0.2, z = 0.01, l4 = std::log(4.0), l3 = std::log(3.0);
  std::vector<double> logits = {0, l3};
  ref::CrossEntropy ce = ref::crossEntropy(logits, {0}, 1, 2, -100, ref::Reduction::sum, eps, z);
  EXPECT_NEAR(ce.loss[0], (1 - eps) * l4 + eps * (l4 - l3 / 2) + z * l4 * l4, 1e-15);
  EXPECT_NEAR(ce.total, ce.loss[0], 1e-15);
  std::vector<double> g =
      ref::crossEntropyBackward(logits, {0}, 1, 2, -100, ref::Reduction::sum, {1.0}, eps, z);
  EXPECT_NEAR(g[0], 0.25 * (1 + 2 * z * l4) - (1 - eps) - eps / 2, 1e-15);
  EXPECT_NEAR(g[1], 0.75 * (1 + 2 * z * l4) - eps / 2, 1e-15);
  // An ignored row stays 0 whatever eps and z.
  ce = ref::crossEntropy(logits, {-100}, 1, 2, -100, ref::Reduction::sum, eps, z);
  EXPECT_EQ(ce.loss[0], 0.0);
}

TEST(Reference, RopeRotatesHalf) {
  // x = [1, 2, 3, 4], cos = 0, sin = 1: out = rotate_half(x) = [-3, -4, 1, 2].
  std::vector<double> out =
      ref::ropeRotateHalf({1, 2, 3, 4}, {0, 0, 0, 0}, {1, 1, 1, 1}, 1, 1, 1, 4);
  EXPECT_EQ(out, (std::vector<double>{-3, -4, 1, 2}));
}

TEST(Reference, GemmReadsStridedOperandsInTheSameOrder) {
  // a (m, k) and b (k, n) row-major, then a col-major with a leading dimension of m + 3 and b
  // col-major: the same sums in the same order, so the same bits.
  const int64_t m = 7, n = 5, k = 9, lda = m + 3;
  Random rng(1);
  std::vector<double> a(m * k), b(k * n), at(k * lda, 1e30), bt(n * k), bias(n);
  for (double &v : a)
    v = rng.uniform(-1, 1);
  for (double &v : b)
    v = rng.uniform(-1, 1);
  for (double &v : bias)
    v = rng.uniform(-1, 1);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      at[p * lda + i] = a[i * k + p];
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j)
      bt[j * k + p] = b[p * n + j];
  std::vector<double> c = ref::gemm(a, b, bias, m, n, k, ref::Activation::silu);
  EXPECT_EQ(ref::gemm(at, bt, bias, m, n, k, ref::Activation::silu, {1, lda, 1, k}), c);
  EXPECT_NEAR(
      c[0],
      [&] {
        double x = bias[0];
        for (int64_t p = 0; p < k; ++p)
          x += a[p] * b[p * n];
        return x / (1 + std::exp(-x));
      }(),
      1e-12);
}

TEST(Reference, GemmBlockedAndThreadedMatchesNaiveLoop) {
  // Large enough (>= 1e8 products) to take the threaded path, with no size a multiple of the
  // blocks: every c(i, j) still sums in increasing p, bit for bit the naive loop.
  const int64_t m = 301, n = 517, k = 643;
  Random rng(2);
  std::vector<double> a(m * k), b(k * n);
  for (double &v : a)
    v = rng.uniform(-1, 1);
  for (double &v : b)
    v = rng.uniform(-1, 1);
  std::vector<double> c = ref::gemm(a, b, {}, m, n, k, ref::Activation::none), naive(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        naive[i * n + j] += a[i * k + p] * b[p * n + j];
  EXPECT_EQ(c, naive);
}

TEST(Problem, EveryProblemBuilds) {
  for (const std::string &name : problemNames()) {
    ProblemOptions o;
    o.name = name;
    o.shape = name == "rope_flat"          ? std::vector<int64_t>{1, 2, 2, 8}
              : name.rfind("rope", 0) == 0 ? std::vector<int64_t>{1, 2, 1, 2, 8}
              : name.rfind("gemm", 0) == 0 ? std::vector<int64_t>{5, 6, 7}
                                           : std::vector<int64_t>{3, 10};
    o.dtype = DType::bf16;
    Problem p;
    Status s = makeProblem(o, p);
    ASSERT_TRUE(s.isOk()) << name << ": " << s.message();
    EXPECT_FALSE(p.args.empty());
    bool anyOutput = false;
    for (const ProblemBuffer &b : p.buffers)
      if (b.output) {
        anyOutput = true;
        EXPECT_EQ(static_cast<int64_t>(b.reference.size()), b.host.numel())
            << name << " " << b.name;
      }
    EXPECT_TRUE(anyOutput) << name;
  }
}

TEST(Problem, ErrorsNameTheProblem) {
  ProblemOptions o;
  o.name = "softmax";
  o.shape = {2, 3, 4};
  Problem p;
  Status s = makeProblem(o, p);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("softmax"), std::string::npos);
  o.name = "nope";
  EXPECT_NE(makeProblem(o, p).message().find("unknown problem"), std::string::npos);
  EXPECT_TRUE(parseShape("4096x").empty());
  EXPECT_EQ(parseShape("2x3"), (std::vector<int64_t>{2, 3}));
}

TEST(Problem, TailWindowsTheVirtualTensor) {
  ProblemOptions o;
  o.name = "vector_add";
  o.shape = {(1ll << 31) + 4096};
  o.dtype = DType::bf16;
  o.config["BLOCK"] = 1024;
  o.options["tail"] = "8192";
  Problem p;
  ASSERT_TRUE(makeProblem(o, p).isOk());
  EXPECT_EQ(p.buffers[0].host.numel(), 8192);
  EXPECT_EQ(p.buffers[0].pointerOffset, -((1ll << 31) - 4096));
  EXPECT_EQ(p.launch.grid.x, (1ll << 21) + 4);
  EXPECT_EQ(p.launch.firstProgram, (1ll << 21) - 4);
}

TEST(Problem, TimingProblemsSkipTheirReference) {
  // The tuner rebuilds these for every BLOCK / BLOCK_S it times (their grids read it): without
  // `reference` they draw the inputs and make the outputs but compute no float64 reference.
  struct Case {
    const char *name;
    std::vector<int64_t> shape;
    std::map<std::string, int64_t> config;
  } cases[] = {{"swiglu_backward", {3, 1001}, {{"BLOCK", 256}}},
               {"geglu_backward", {3, 1001}, {{"BLOCK", 256}}},
               {"rope_seq_out", {2, 3, 1, 5, 8}, {{"HALF", 4}, {"BLOCK_S", 2}}},
               {"rope_flat", {2, 3, 5, 8}, {{"HALF", 4}, {"BLOCK_S", 2}}},
               {"rope", {2, 3, 1, 5, 8}, {{"HALF", 4}, {"BLOCK_H", 4}}}};
  for (const Case &c : cases) {
    for (bool reference : {true, false}) {
      ProblemOptions o;
      o.name = c.name;
      o.shape = c.shape;
      o.config = c.config;
      o.reference = reference;
      Problem p;
      ASSERT_TRUE(makeProblem(o, p).isOk()) << c.name;
      size_t outputs = 0, referenced = 0;
      for (const ProblemBuffer &b : p.buffers) {
        outputs += b.output;
        referenced += b.output && !b.reference.empty();
        if (b.output && !reference) { // braces: EXPECT_* expands to an if/else
          EXPECT_GT(b.host.numel(), 0) << c.name << " " << b.name;
        }
      }
      EXPECT_GT(outputs, 0u) << c.name;
      EXPECT_EQ(referenced, reference ? outputs : 0) << c.name << " reference " << reference;
    }
  }
}

TEST(Problem, AnotherConfigTakesTheInputsOfTheLast) {
  // The tuner's rebuild for a config field the problem reads (split-K's slices): the inputs
  // move over from the previous problem; what the config decides is built anew.
  ProblemOptions o;
  o.name = "gemm_split_k";
  o.shape = {5, 6, 300};
  o.dtype = DType::bf16;
  o.reference = false;
  o.config = {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 64}, {"SPLIT_K", 2}};
  Problem first;
  ASSERT_TRUE(makeProblem(o, first).isOk());
  std::vector<double> a = first.buffers[0].host.toDoubles();
  ASSERT_EQ(first.buffers[0].name, "a");
  o.config["SPLIT_K"] = 3;
  o.seed = 0;
  o.inputsFrom = &first;
  Problem second;
  ASSERT_TRUE(makeProblem(o, second).isOk());
  EXPECT_EQ(second.launch.grid.y, 3);
  EXPECT_EQ(second.buffers[0].host.toDoubles(), a);
  EXPECT_EQ(first.buffers[0].name, ""); // moved, not copied
  // A donor of another shape gives nothing: drawn again.
  o.shape = {5, 6, 301};
  o.inputsFrom = &second;
  Problem third;
  ASSERT_TRUE(makeProblem(o, third).isOk());
  EXPECT_EQ(third.buffers[0].host.numel(), 5 * 301);
  EXPECT_EQ(second.buffers[0].name, "a");
  // Without data (tessel-tune's keys): the same arguments, the inputs left zero.
  o.inputsFrom = nullptr;
  o.draw = false;
  Problem bare;
  ASSERT_TRUE(makeProblem(o, bare).isOk());
  ASSERT_EQ(bare.args.size(), third.args.size());
  for (size_t i = 0; i < bare.args.size(); ++i)
    EXPECT_EQ(bare.args[i].i, third.args[i].i) << bare.args[i].name;
  for (double v : bare.buffers[1].host.toDoubles())
    ASSERT_EQ(v, 0.0);
}

TEST(Problem, GemmLayoutsSizeBuffersForTheirStrides) {
  ProblemOptions o;
  o.name = "gemm";
  o.shape = {5, 6, 7}; // M, N, K
  o.dtype = DType::f16;
  o.options = {{"a_order", "col"}, {"b_order", "col"}, {"lda", "8"}};
  Problem p;
  ASSERT_TRUE(makeProblem(o, p).isOk());
  auto arg = [&](const std::string &name) {
    for (const ProblemArg &a : p.args)
      if (a.name == name)
        return a.i;
    return int64_t{-1};
  };
  EXPECT_EQ(p.buffers[0].host.numel(), 7 * 8); // a: K columns of lda elements
  EXPECT_EQ(p.buffers[1].host.numel(), 6 * 7); // b: N columns of K
  EXPECT_EQ(arg("stride_am"), 1);
  EXPECT_EQ(arg("stride_ak"), 8);
  EXPECT_EQ(arg("stride_bk"), 1);
  EXPECT_EQ(arg("stride_bn"), 7);
  EXPECT_EQ(arg("stride_cm"), 6);
  for (int64_t i = 0; i < p.buffers[0].host.numel(); ++i) // padding is random, never zero
    EXPECT_NE(p.buffers[0].host.get(i), 0.0);
  o.options = {{"lda", "6"}}; // row-major a needs lda >= K = 7
  Status s = makeProblem(o, p);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("lda=6 is less than K=7"), std::string::npos) << s.message();
  o.options = {{"a_order", "colmajor"}};
  EXPECT_FALSE(makeProblem(o, p).isOk());
}

// c_order = col: out stored (N, M) row-major (stride_cm = 1, stride_cn = M), its reference the
// row-major one transposed, the bias along N and the epilogue unchanged.
TEST(Problem, GemmColMajorOutTransposesTheReference) {
  ProblemOptions o;
  o.name = "gemm";
  o.shape = {5, 3, 7}; // M, N, K
  o.dtype = DType::bf16;
  o.seed = 11;
  o.options = {{"b_order", "col"}, {"bias", "1"}, {"act", "relu"}};
  Problem rowMajor, colMajor;
  ASSERT_TRUE(makeProblem(o, rowMajor).isOk());
  o.options["c_order"] = "col";
  ASSERT_TRUE(makeProblem(o, colMajor).isOk());
  auto arg = [](const Problem &p, const std::string &name) {
    for (const ProblemArg &a : p.args)
      if (a.name == name)
        return a.i;
    return int64_t{-1};
  };
  EXPECT_EQ(arg(colMajor, "stride_cm"), 1);
  EXPECT_EQ(arg(colMajor, "stride_cn"), 5);
  EXPECT_EQ(arg(rowMajor, "stride_cm"), 3);
  const ProblemBuffer &r = rowMajor.buffers[2], &c = colMajor.buffers[2];
  ASSERT_EQ(c.name, "out");
  EXPECT_EQ(c.host.shape(), (std::vector<int64_t>{3, 5}));
  ASSERT_EQ(c.reference.size(), r.reference.size());
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 3; ++j)
      EXPECT_EQ(c.reference[j * 5 + i], r.reference[i * 3 + j]) << i << "," << j;
  EXPECT_NE(colMajor.description.find("c=col"), std::string::npos) << colMajor.description;
  o.options["check_rows"] = "2";
  Status s = makeProblem(o, colMajor);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("check_rows samples rows of a row-major out; with c_order=col"),
            std::string::npos)
      << s.message();
}

// check_rows = R: the reference of R rows spread from the first to the last, each equal to that
// row of the full reference (the same sums in the same order), in every layout; the run then
// compares those rows and still requires every element written.
TEST(Problem, GemmCheckRowsSamplesTheFullReference) {
  for (const char *order : {"row", "col"}) {
    ProblemOptions o;
    o.name = "gemm";
    o.shape = {37, 9, 11}; // M, N, K
    o.dtype = DType::bf16;
    o.seed = 3;
    o.options = {{"a_order", order}, {"b_order", order}, {"bias", "1"}, {"act", "gelu"}};
    Problem full, sampled;
    ASSERT_TRUE(makeProblem(o, full).isOk());
    o.options["check_rows"] = "5";
    ASSERT_TRUE(makeProblem(o, sampled).isOk());
    const ProblemBuffer &f = full.buffers[2], &s = sampled.buffers[2];
    ASSERT_EQ(f.name, "out");
    EXPECT_TRUE(f.checkRows.empty());
    EXPECT_EQ(s.checkRows, (std::vector<int64_t>{0, 9, 18, 27, 36}));
    EXPECT_EQ(s.rowLength, 9);
    ASSERT_EQ(s.reference.size(), 5u * 9);
    for (size_t r = 0; r < s.checkRows.size(); ++r)
      for (int64_t j = 0; j < 9; ++j)
        EXPECT_EQ(s.reference[r * 9 + j], f.reference[s.checkRows[r] * 9 + j]) << order;
  }
  ProblemOptions o;
  o.name = "gemm";
  o.shape = {4, 4, 4};
  o.dtype = DType::f16;
  Problem p;
  for (const char *bad : {"1", "x", "-3"}) {
    o.options = {{"check_rows", bad}};
    Status st = makeProblem(o, p);
    EXPECT_FALSE(st.isOk()) << bad;
    EXPECT_NE(st.message().find("check_rows must be a number of rows >= 2"), std::string::npos)
        << st.message();
  }
  o.options = {{"check_rows", "64"}}; // more rows than M: the full reference
  ASSERT_TRUE(makeProblem(o, p).isOk());
  EXPECT_TRUE(p.buffers[2].checkRows.empty());
}

// gemm_split_k: grid y is the slice count (option, else config, else the heuristic of
// Gemm.cpp's splitKFor); the kernel's workspace arrives NaN-poisoned and its locks zeroed.
TEST(Problem, GemmSplitKSlicesAndScratch) {
  auto build = [](std::vector<int64_t> shape, std::map<std::string, int64_t> config,
                  std::map<std::string, std::string> options, Problem &p) {
    ProblemOptions o;
    o.name = "gemm_split_k";
    o.shape = std::move(shape);
    o.dtype = DType::bf16;
    o.config = std::move(config);
    o.options = std::move(options);
    return makeProblem(o, p);
  };
  struct Row {
    std::vector<int64_t> shape;
    int64_t blockN, tiles, splits;
  } rows[] = {{{1, 4096, 4096}, 128, 32, 4},    // 128 programs: one wave of quarter slices
              {{1, 4096, 2048}, 64, 64, 2},     // one wave of halves
              {{1, 6144, 2048}, 64, 96, 1},     // 3 waves of quarters cost more than 1 whole
              {{1, 8192, 1024}, 64, 128, 1},    // 128 tiles: splitting gains nothing
              {{1, 4096, 384}, 64, 64, 1},      // 3 K-blocks: no slice of 4
              {{256, 4096, 1024}, 64, 256, 1}}; // two waves already
  for (const Row &r : rows) {
    Problem p;
    ASSERT_TRUE(build(r.shape,
                      {{"BLOCK_M", 64}, {"BLOCK_N", r.blockN}, {"BLOCK_K", 128}, {"SPLIT_K", 0}},
                      {}, p)
                    .isOk());
    EXPECT_EQ(p.launch.grid.x, r.tiles) << shapeString(r.shape);
    EXPECT_EQ(p.launch.grid.y, r.splits) << shapeString(r.shape);
  }
  Problem p;
  ASSERT_TRUE(build({3, 5, 7}, {{"SPLIT_K", 3}}, {}, p).isOk());
  EXPECT_EQ(p.launch.grid.y, 3);
  ASSERT_TRUE(build({3, 5, 7}, {{"SPLIT_K", 3}}, {{"split_k", "5"}}, p).isOk());
  EXPECT_EQ(p.launch.grid.y, 5);
  std::string order;
  for (const ProblemArg &a : p.args)
    order += a.name + " ";
  EXPECT_EQ(order.substr(0, 33), "a b out bias workspace locks M N ");
  for (const ProblemBuffer &b : p.buffers) {
    if (b.name == "workspace") {
      EXPECT_EQ(b.host.numel(), 5 * 3 * 5);
      EXPECT_FALSE(b.output);
      EXPECT_TRUE(std::isnan(b.host.get(0)));
    } else if (b.name == "locks") {
      EXPECT_EQ(b.host.numel(), 1);
      EXPECT_EQ(b.host.get(0), 0.0);
    }
  }
  for (const char *bad : {"0", "x", "-2"}) {
    Status st = build({3, 5, 7}, {}, {{"split_k", bad}}, p);
    EXPECT_FALSE(st.isOk()) << bad;
    EXPECT_NE(st.message().find("split_k must be a number of K slices >= 1"), std::string::npos)
        << st.message();
  }
  // gemm has no slices: the option is a mistake there.
  ProblemOptions o;
  o.name = "gemm";
  o.shape = {3, 5, 7};
  o.options = {{"split_k", "2"}};
  EXPECT_FALSE(makeProblem(o, p).isOk());
}

// gemm_stream_k on 132 SMs: spans that divide a row of tiles' iterations where one is within
// 5/4 of an equal share (Gemm.cpp's streamKPrograms), else equal shares; option programs wins.
TEST(Problem, GemmStreamKProgramsAlignWithRows) {
  struct Row {
    std::vector<int64_t> shape;
    int64_t programs;
  } rows[] = {{{256, 6144, 4096}, 128},  // 3072 iterations a row: spans of 48, not 47
              {{256, 4096, 14336}, 128}, // 7168 a row: spans of 112, not 109
              {{2048, 4096, 4096}, 128}, // 2048 a row: spans of 256 (4 whole tiles), not 249
              {{128, 4096, 4096}, 128},  // one row: cdiv(2048, 132) = 16 divides it already
              {{512, 1664, 4160}, 130}}; // 13 x 65 a row: no divisor in 26..32: spans of 26
  for (const Row &r : rows) {
    ProblemOptions o;
    o.name = "gemm_stream_k";
    o.shape = r.shape;
    o.dtype = DType::bf16;
    o.config = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}};
    o.reference = false;
    o.multiprocessors = 132;
    Problem p;
    ASSERT_TRUE(makeProblem(o, p).isOk()) << shapeString(r.shape);
    EXPECT_EQ(p.launch.grid.x, r.programs) << shapeString(r.shape);
    o.options = {{"programs", "7"}};
    ASSERT_TRUE(makeProblem(o, p).isOk());
    EXPECT_EQ(p.launch.grid.x, 7);
  }
}

TEST(KernelMetadata, ReadsTesselcSchema) {
  std::string path = ::testing::TempDir() + "/variant.json";
  std::ofstream(path) << R"({"schema": 2, "kernel": "softmax",
    "variant": "softmax_bf16_0", "function": "softmax_bf16_0", "dtype": "bf16",
    "target": "cuda:sm_90a", "num_warps": 8, "num_stages": 1, "threads_per_warp": 32,
    "args": [{"name": "out", "kind": "ptr", "type": "bf16", "divisibility": 16},
             {"name": "n_cols", "kind": "scalar", "type": "i64", "divisibility": 8,
              "equal_to": 1}],
    "config": {"block": 4096}, "artifacts": {"tile": "softmax_bf16_0.mlir"},
    "resources": {"registers": 40, "shared_bytes": 64, "spill_bytes": 0,
                  "occupancy_hint": null}})";
  KernelMetadata m;
  Status read = loadKernelMetadata(path, m);
  ASSERT_TRUE(read.isOk()) << read.message();
  EXPECT_EQ(m.function, "softmax_bf16_0");
  EXPECT_EQ(m.dtype, "bf16");
  EXPECT_EQ(m.numWarps, 8);
  EXPECT_EQ(m.args[0].type, "!tile.ptr<bf16>");
  EXPECT_TRUE(m.args[0].isPointer());
  EXPECT_EQ(m.args[0].divisibility, 16);
  EXPECT_EQ(m.args[1].type, "i64");
  EXPECT_EQ(m.args[1].equalTo, 1);
  EXPECT_EQ(m.configValue({"BLOCK"}, 0), 4096);
  EXPECT_NE(m.tileIR.find("softmax_bf16_0.mlir"), std::string::npos);
  ASSERT_TRUE(m.resources.has_value());
  EXPECT_EQ(m.resources->registers, 40);
  EXPECT_EQ(m.resources->sharedBytes, 64);
  EXPECT_EQ(m.resources->spillBytes, 0);
  EXPECT_FALSE(m.resources->occupancyHint.has_value());
  std::ofstream(path) << "{ not json";
  EXPECT_FALSE(loadKernelMetadata(path, m).isOk());
}

// tensor_maps (sm_90a variants that copy with TMA): each map's base argument, dims and strides
// (argument or constant), box and swizzle; a malformed entry is an error naming it.
TEST(KernelMetadata, ReadsTensorMaps) {
  std::string path = ::testing::TempDir() + "/tma.json";
  const char *head = R"({"schema": 2, "kernel": "k", "function": "k", "target": "cuda:sm_90a",
    "num_warps": 4, "num_stages": 1, "args": [], "config": {}, "artifacts": {"tile": "k.mlir"},
    "tensor_maps": )";
  std::ofstream(path) << head << R"([{"base": 0, "element": "bf16", "dims": [{"value": 64},
    {"arg": 4}], "strides": [{"arg": 7}], "box": [64, 128], "swizzle": 128}]})";
  KernelMetadata m;
  Status read = loadKernelMetadata(path, m);
  ASSERT_TRUE(read.isOk()) << read.message();
  ASSERT_EQ(m.tensorMaps.size(), 1u);
  const TensorMapInfo &t = m.tensorMaps[0];
  EXPECT_EQ(t.base, 0);
  EXPECT_EQ(t.element, "bf16");
  ASSERT_EQ(t.dims.size(), 2u);
  EXPECT_FALSE(t.dims[0].arg.has_value());
  EXPECT_EQ(t.dims[0].value, 64);
  EXPECT_EQ(t.dims[1].arg, 4);
  EXPECT_EQ(t.strides[0].arg, 7);
  EXPECT_EQ(t.box, (std::vector<int64_t>{64, 128}));
  EXPECT_EQ(t.swizzle, 128);
  std::ofstream(path) << head << R"([{"base": 0, "element": "bf16", "dims": [{"arg": 1}],
    "strides": [{"arg": 7}], "box": [64], "swizzle": 128}]})";
  read = loadKernelMetadata(path, m);
  ASSERT_FALSE(read.isOk());
  EXPECT_NE(read.message().find("tensor_maps[0] has 1 dims, 1 box extents and 1 strides"),
            std::string::npos)
      << read.message();
}

// A file of another schema is refused as a whole, with the file, the schema it has and the fix.
TEST(KernelMetadata, RefusesOtherSchemas) {
  std::string path = ::testing::TempDir() + "/old.json";
  const char *body = R"("kernel": "k", "function": "k", "target": "interpreter",
    "num_warps": 4, "num_stages": 1, "args": [], "config": {}, "artifacts": {"tile": "k.mlir"}})";
  for (const char *schema :
       {R"({"schema": "tessel.kernel.v1", )", R"({"schema": 1, )", R"({"schema": 3, )", "{"}) {
    std::ofstream(path) << schema << body;
    KernelMetadata m;
    Status s = loadKernelMetadata(path, m);
    ASSERT_FALSE(s.isOk()) << schema;
    EXPECT_NE(s.message().find(path + ": error: "), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("recompile the kernel with tesselc"), std::string::npos)
        << s.message();
  }
  std::ofstream(path) << R"({"schema": 2, )" << body;
  KernelMetadata m;
  EXPECT_TRUE(loadKernelMetadata(path, m).isOk());
}

// One key per field: the alternative spellings earlier readers guessed at are errors naming
// the key that is missing.
TEST(KernelMetadata, NamesAMissingOrMistypedKey) {
  std::string path = ::testing::TempDir() + "/bad.json";
  std::ofstream(path) << R"({"schema": 2, "name": "k", "function": "k", "target": "x",
    "num_warps": 4, "num_stages": 1, "args": [], "config": {}, "artifacts": {"tile": "k.mlir"}})";
  KernelMetadata m;
  Status s = loadKernelMetadata(path, m);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("has no \"kernel\""), std::string::npos) << s.message();
  std::ofstream(path) << R"({"schema": 2, "kernel": "k", "function": "k", "target": "x",
    "num_warps": "4", "num_stages": 1, "args": [], "config": {}, "artifacts": {"tile": "k"}})";
  s = loadKernelMetadata(path, m);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("\"num_warps\" is not an integer"), std::string::npos) << s.message();
  std::ofstream(path) << R"({"schema": 2, "kernel": "k", "function": "k", "target": "x",
    "num_warps": 4, "num_stages": 1, "args": [{"name": "a", "type": "f32"}], "config": {},
    "artifacts": {"tile": "k"}})";
  s = loadKernelMetadata(path, m);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("args[0] has no \"kind\""), std::string::npos) << s.message();
}

TEST(Runner, BindsByNameWithAliases) {
  ProblemOptions o;
  o.name = "softmax";
  o.shape = {2, 8};
  Problem p;
  ASSERT_TRUE(makeProblem(o, p).isOk());
  KernelMetadata m;
  m.function = "softmax";
  m.args = {{"n_cols", "i64"},
            {"input_ptr", "!tile.ptr<f32>"},
            {"output_ptr", "!tile.ptr<f32>"},
            {"out_stride", "i64"},
            {"row_stride", "i64"}};
  std::vector<int> order;
  Status bound = bindArguments(m, p, order);
  ASSERT_TRUE(bound.isOk()) << bound.message();
  EXPECT_EQ(order, (std::vector<int>{4, 1, 0, 3, 2}));
  m.args[1].type = "!tile.ptr<bf16>";
  Status s = bindArguments(m, p, order);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("bf16"), std::string::npos);
}
