//===- LinearLayoutTest.cpp - index math of the tile_gpu layouts ----------===//
//
// The mma.sync / MFMA accumulator and dot-operand layouts against the fragment tables of the
// PTX ISA and the CDNA ISA, element ownership counts (every element held by the expected number
// of (register, lane, warp) triples), the linear form of blocked and slice layouts against the
// ThreadElems index math the lowering uses, and chooseWarpsPerCTA.
//
//===----------------------------------------------------------------------===//
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

using namespace mlir;
using namespace tessel::tile_gpu;

namespace {

using Coord = LinearLayout::Coord;

std::string debugString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

class LinearLayoutTest : public ::testing::Test {
protected:
  LinearLayoutTest() { ctx.loadDialect<TileGPUDialect>(); }

  MmaEncodingAttr mma(unsigned wm, unsigned wn) {
    return MmaEncodingAttr::get(&ctx, 2, {wm, wn}, {16, 8});
  }
  MfmaEncodingAttr mfma(unsigned d, unsigned wm, unsigned wn) {
    return MfmaEncodingAttr::get(&ctx, d, {wm, wn});
  }
  WmmaEncodingAttr wmma(unsigned wm, unsigned wn) { return WmmaEncodingAttr::get(&ctx, {wm, wn}); }
  DotOperandEncodingAttr dotOp(unsigned opIdx, Attribute parent, unsigned kWidth) {
    return DotOperandEncodingAttr::get(&ctx, opIdx, parent, kWidth);
  }
  RankedTensorType tensor(ArrayRef<int64_t> shape, Attribute enc) {
    return RankedTensorType::get(shape, Float32Type::get(&ctx), enc);
  }
  LinearLayout linear(ArrayRef<int64_t> shape, Attribute enc) {
    std::optional<LinearLayout> ll = toLinearLayout(tensor(shape, enc));
    EXPECT_TRUE(ll.has_value());
    return ll.value_or(LinearLayout{});
  }

  MLIRContext ctx;
};

/// How many (register, lane, warp) triples hold each element; every element must be held
/// exactly `copies` times.
void expectEachElementHeld(const LinearLayout &ll, unsigned copies) {
  std::map<std::pair<int64_t, int64_t>, unsigned> count;
  for (unsigned w = 0; w < ll.numWarps(); ++w)
    for (unsigned l = 0; l < ll.numLanes(); ++l)
      for (unsigned r = 0; r < ll.numRegisters(); ++r) {
        Coord c = ll.apply(r, l, w);
        ASSERT_EQ(c.size(), 2u);
        ASSERT_GE(c[0], 0);
        ASSERT_LT(c[0], ll.shape[0]);
        ASSERT_GE(c[1], 0);
        ASSERT_LT(c[1], ll.shape[1]);
        ++count[{c[0], c[1]}];
      }
  EXPECT_EQ(count.size(), size_t(ll.shape[0] * ll.shape[1])) << ll.toString();
  for (auto &[coord, n] : count)
    ASSERT_EQ(n, copies) << "element (" << coord.first << ", " << coord.second << ")\n"
                         << ll.toString();
}

//===----------------------------------------------------------------------===//
// mma.sync v2 accumulator
//===----------------------------------------------------------------------===//

TEST_F(LinearLayoutTest, MmaAccumulatorFragment) {
  // One m16n8 tile, one warp: PTX ISA "mma.m16n8k16 fragment C": c0, c1 at (g, 2t + {0, 1}),
  // c2, c3 at (g + 8, 2t + {0, 1}) with g = lane / 4, t = lane % 4.
  LinearLayout ll = linear({16, 8}, mma(1, 1));
  EXPECT_EQ(ll.numRegisters(), 4u);
  EXPECT_EQ(ll.numLanes(), 32u);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned r = 0; r < 4; ++r) {
      Coord expect{int64_t(l / 4 + (r >= 2 ? 8 : 0)), int64_t(2 * (l % 4) + r % 2)};
      EXPECT_EQ(ll.apply(r, l, 0), expect) << "lane " << l << " reg " << r;
    }
  expectEachElementHeld(ll, 1);
}

TEST_F(LinearLayoutTest, MmaAccumulator64x64Warps2x2) {
  RankedTensorType type = tensor({64, 64}, mma(2, 2));
  std::optional<LinearLayout> ll = toLinearLayout(type);
  ASSERT_TRUE(ll);
  // 64x64 over 4 warps: 1024 elements per warp = 32 per thread (2 reps along M, 4 along N).
  EXPECT_EQ(getElemsPerThread(type), 32u);
  EXPECT_EQ(ll->numWarps(), 4u);
  EXPECT_TRUE(ll->isSurjective());
  expectEachElementHeld(*ll, 1);
  // Warp w covers rows 16 * (w % 2) and columns 8 * (w / 2) of each 32x16 CTA tile.
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned r = 0; r < 4; ++r) {
        Coord expect{int64_t(16 * (w % 2) + l / 4 + (r >= 2 ? 8 : 0)),
                     int64_t(8 * (w / 2) + 2 * (l % 4) + r % 2)};
        EXPECT_EQ(ll->apply(r, l, w), expect) << "warp " << w << " lane " << l << " reg " << r;
      }
  // Registers (repetition along M, repetition along N, c0..c3), the slowest first: register
  // 4 * (m * 4 + n) + j is the CTA tile (m, n) = rows + 32 m, columns + 16 n.
  for (unsigned m = 0; m < 2; ++m)
    for (unsigned n = 0; n < 4; ++n)
      for (unsigned j = 0; j < 4; ++j) {
        unsigned l = 13, w = 3;
        Coord base = ll->apply(j, l, w);
        Coord c = ll->apply(4 * (m * 4 + n) + j, l, w);
        EXPECT_EQ(c, (Coord{base[0] + 32 * m, base[1] + 16 * n}))
            << "m " << m << " n " << n << " j " << j;
      }
  // A specific element: lane 13 (g 3, t 1), warp 3 (rows 16.., cols 8..), register c3 of
  // repetition (1, 2): row 16 + 3 + 8 + 32 = 59, column 8 + 3 + 32 = 43.
  EXPECT_EQ(ll->apply(4 * (1 * 4 + 2) + 3, 13, 3), (Coord{59, 43}));
}

TEST_F(LinearLayoutTest, MmaAccumulatorRowsAndColumns) {
  // Slices of a 64x64 accumulator on 2x2 warps: thread (lane, warp) holds, of the rows (slice
  // dim 1) and of the columns (slice dim 0), exactly the rows and columns of its elements of the
  // full tile, each once; lanes and warps along the removed dimension replicate.
  MmaEncodingAttr parent = mma(2, 2);
  LinearLayout full = linear({64, 64}, parent);
  for (unsigned dim : {0u, 1u}) {
    RankedTensorType type = tensor({64}, SliceEncodingAttr::get(&ctx, dim, parent));
    std::optional<LinearLayout> ll = toLinearLayout(type);
    ASSERT_TRUE(ll);
    unsigned kept = 1 - dim;
    // Rows: c0/c2 (g, g + 8) times 2 repetitions along M; columns: (2t, 2t + 1) times 4.
    EXPECT_EQ(getElemsPerThread(type), dim == 1 ? 4u : 8u);
    for (unsigned w = 0; w < 4; ++w)
      for (unsigned l = 0; l < 32; ++l) {
        std::set<int64_t> want, got;
        for (unsigned r = 0; r < full.numRegisters(); ++r)
          want.insert(full.apply(r, l, w)[kept]);
        for (unsigned r = 0; r < ll->numRegisters(); ++r)
          EXPECT_TRUE(got.insert(ll->apply(r, l, w)[0]).second) << "held twice, dim " << dim;
        EXPECT_EQ(got, want) << "dim " << dim << " warp " << w << " lane " << l;
      }
  }
  // Rows of a wgmma accumulator (v3, 8 warps, 128x256): two per thread, g and g + 8 of its
  // warp's 16 rows.
  RankedTensorType rows = tensor(
      {128}, SliceEncodingAttr::get(&ctx, 1, MmaEncodingAttr::get(&ctx, 3, {8, 1}, {64, 256})));
  std::optional<LinearLayout> ll = toLinearLayout(rows);
  ASSERT_TRUE(ll);
  EXPECT_EQ(ll->numRegisters(), 2u);
  EXPECT_EQ(ll->apply(1, 13, 5), (Coord{16 * 5 + 13 / 4 + 8}));
}

TEST_F(LinearLayoutTest, MmaAccumulatorReplicated) {
  // A 16x8 tile on 4 warps [4, 1]: every element is held by all 4 warps.
  LinearLayout ll = linear({16, 8}, mma(4, 1));
  EXPECT_EQ(ll.numRegisters(), 4u);
  EXPECT_TRUE(ll.isSurjective());
  expectEachElementHeld(ll, 4);
}

//===----------------------------------------------------------------------===//
// mma.sync dot operands
//===----------------------------------------------------------------------===//

TEST_F(LinearLayoutTest, MmaOperandA16Bit) {
  // PTX ISA m16n8k16 .f16/.bf16 fragment A: a0..a7; ai at row g (+8 for i % 4 >= 2),
  // column 2t + i % 2 (+8 for i >= 4).
  LinearLayout ll = linear({16, 16}, dotOp(0, mma(1, 1), 2));
  EXPECT_EQ(ll.numRegisters(), 8u);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 8; ++i) {
      int64_t g = l / 4, t = l % 4;
      Coord expect{g + ((i % 4) >= 2 ? 8 : 0), 2 * t + i % 2 + (i >= 4 ? 8 : 0)};
      EXPECT_EQ(ll.apply(i, l, 0), expect) << "lane " << l << " a" << i;
    }
  expectEachElementHeld(ll, 1);
}

TEST_F(LinearLayoutTest, MmaOperandB16Bit) {
  // Fragment B of m16n8k16: b0..b3 at k = 2t + i % 2 (+8 for i >= 2), n = g.
  LinearLayout ll = linear({16, 8}, dotOp(1, mma(1, 1), 2));
  EXPECT_EQ(ll.numRegisters(), 4u);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      int64_t g = l / 4, t = l % 4;
      Coord expect{2 * t + i % 2 + (i >= 2 ? 8 : 0), g};
      EXPECT_EQ(ll.apply(i, l, 0), expect) << "lane " << l << " b" << i;
    }
  expectEachElementHeld(ll, 1);
}

TEST_F(LinearLayoutTest, MmaOperandsTf32) {
  // m16n8k8 .tf32: a0..a3 at (g + 8 (i % 2), t + 4 (i / 2)); b0, b1 at (t + 4 i, g).
  LinearLayout a = linear({16, 8}, dotOp(0, mma(1, 1), 1));
  LinearLayout b = linear({8, 8}, dotOp(1, mma(1, 1), 1));
  EXPECT_EQ(a.numRegisters(), 4u);
  EXPECT_EQ(b.numRegisters(), 2u);
  for (unsigned l = 0; l < 32; ++l) {
    int64_t g = l / 4, t = l % 4;
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(a.apply(i, l, 0), (Coord{g + 8 * (i % 2), t + 4 * (i / 2)}))
          << "lane " << l << " a" << i;
    for (unsigned i = 0; i < 2; ++i)
      EXPECT_EQ(b.apply(i, l, 0), (Coord{t + 4 * i, g})) << "lane " << l << " b" << i;
  }
  expectEachElementHeld(a, 1);
  expectEachElementHeld(b, 1);
}

TEST_F(LinearLayoutTest, MmaOperandsWarps2x2) {
  // 64x64 result on warps [2, 2] with K = 32: A (64x32) is replicated over the 2 warps along
  // N, B (32x64) over the 2 warps along M.
  MmaEncodingAttr parent = mma(2, 2);
  RankedTensorType aType = tensor({64, 32}, dotOp(0, parent, 2));
  RankedTensorType bType = tensor({32, 64}, dotOp(1, parent, 2));
  std::optional<LinearLayout> a = toLinearLayout(aType), b = toLinearLayout(bType);
  ASSERT_TRUE(a && b);
  // A: 2 reps along M, 2 along K, 8 elements = 32; B: 4 reps along N, 2 along K, 4 = 32.
  EXPECT_EQ(getElemsPerThread(aType), 32u);
  EXPECT_EQ(getElemsPerThread(bType), 32u);
  expectEachElementHeld(*a, 2);
  expectEachElementHeld(*b, 2);
  for (unsigned w = 0; w < 4; ++w) {
    unsigned wm = w % 2, wn = w / 2;
    for (unsigned l = 0; l < 32; ++l) {
      int64_t g = l / 4, t = l % 4;
      // Register order of A: (mRep, kRep, a0..a7).
      for (unsigned m = 0; m < 2; ++m)
        for (unsigned k = 0; k < 2; ++k)
          for (unsigned i = 0; i < 8; ++i) {
            Coord expect{32 * m + 16 * wm + g + ((i % 4) >= 2 ? 8 : 0),
                         16 * k + 2 * t + i % 2 + (i >= 4 ? 8 : 0)};
            ASSERT_EQ(a->apply((m * 2 + k) * 8 + i, l, w), expect)
                << "A warp " << w << " lane " << l << " m " << m << " k " << k << " a" << i;
          }
      // Register order of B: (nRep, kRep, b0..b3).
      for (unsigned n = 0; n < 4; ++n)
        for (unsigned k = 0; k < 2; ++k)
          for (unsigned i = 0; i < 4; ++i) {
            Coord expect{16 * k + 2 * t + i % 2 + (i >= 2 ? 8 : 0), 16 * n + 8 * wn + g};
            ASSERT_EQ(b->apply((n * 2 + k) * 4 + i, l, w), expect)
                << "B warp " << w << " lane " << l << " n " << n << " k " << k << " b" << i;
          }
    }
  }
}

//===----------------------------------------------------------------------===//
// MFMA
//===----------------------------------------------------------------------===//

TEST_F(LinearLayoutTest, Mfma32x32Accumulator) {
  // v_mfma_f32_32x32x8f16: lane l, register i (< 16): column l % 32,
  // row 8 * (i / 4) + 4 * (l / 32) + i % 4.
  LinearLayout ll = linear({32, 32}, mfma(32, 1, 1));
  EXPECT_EQ(ll.numRegisters(), 16u);
  EXPECT_EQ(ll.numLanes(), 64u);
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned i = 0; i < 16; ++i)
      EXPECT_EQ(ll.apply(i, l, 0), (Coord{8 * (i / 4) + 4 * (l / 32) + i % 4, l % 32}))
          << "lane " << l << " reg " << i;
  expectEachElementHeld(ll, 1);
}

TEST_F(LinearLayoutTest, Mfma16x16Accumulator) {
  // v_mfma_f32_16x16x16f16: column l % 16, row 4 * (l / 16) + i (i < 4).
  LinearLayout ll = linear({16, 16}, mfma(16, 1, 1));
  EXPECT_EQ(ll.numRegisters(), 4u);
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(ll.apply(i, l, 0), (Coord{4 * (l / 16) + i, l % 16}))
          << "lane " << l << " reg " << i;
  expectEachElementHeld(ll, 1);
}

TEST_F(LinearLayoutTest, MfmaWarps2x2) {
  // 128x128 on waves [2, 2] with 32x32 blocks: wave w covers block (w % 2, w / 2) of each
  // 64x64 CTA tile, 2x2 repetitions of 16 registers = 64 per lane.
  RankedTensorType type = tensor({128, 128}, mfma(32, 2, 2));
  EXPECT_EQ(getElemsPerThread(type), 64u);
  std::optional<LinearLayout> ll = toLinearLayout(type);
  ASSERT_TRUE(ll);
  expectEachElementHeld(*ll, 1);
  for (unsigned w = 0; w < 4; ++w)
    EXPECT_EQ(ll->apply(0, 0, w), (Coord{32 * (w % 2), 32 * (w / 2)})) << "wave " << w;
  LinearLayout small = linear({64, 64}, mfma(16, 2, 2));
  expectEachElementHeld(small, 1);
}

TEST_F(LinearLayoutTest, WmmaAccumulator) {
  // v_wmma_f32_16x16x16_f16 on wave32 (RDNA3 ISA guide): lane l, register i (< 8): column
  // l % 16, row 2 i + l / 16.
  LinearLayout ll = linear({16, 16}, wmma(1, 1));
  EXPECT_EQ(ll.numRegisters(), 8u);
  EXPECT_EQ(ll.numLanes(), 32u);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 8; ++i)
      EXPECT_EQ(ll.apply(i, l, 0), (Coord{2 * i + l / 16, l % 16})) << "lane " << l << " reg " << i;
  expectEachElementHeld(ll, 1);
  // 64x64 on waves [2, 2]: wave w covers block (w % 2, w / 2) of each 32x32 CTA tile, 2x2
  // repetitions of 8 registers (M repetition slowest).
  RankedTensorType type = tensor({64, 64}, wmma(2, 2));
  EXPECT_EQ(getElemsPerThread(type), 32u);
  LinearLayout big = linear({64, 64}, wmma(2, 2));
  expectEachElementHeld(big, 1);
  for (unsigned w = 0; w < 4; ++w)
    EXPECT_EQ(big.apply(0, 0, w), (Coord{16 * (w % 2), 16 * (w / 2)})) << "wave " << w;
  EXPECT_EQ(big.apply(8, 0, 0), (Coord{0, 32}));
  EXPECT_EQ(big.apply(16, 0, 0), (Coord{32, 0}));
}

TEST_F(LinearLayoutTest, WmmaOperands) {
  // A (M, K): lane l holds row l % 16 and its 16 K elements in registers 0..15; lanes 16-31
  // hold a copy of lanes 0-15. B (K, N): column l % 16, the same K.
  LinearLayout a = linear({16, 16}, dotOp(0, wmma(1, 1), 16));
  LinearLayout b = linear({16, 16}, dotOp(1, wmma(1, 1), 16));
  ASSERT_EQ(a.numRegisters(), 16u);
  ASSERT_EQ(b.numRegisters(), 16u);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 16; ++i) {
      EXPECT_EQ(a.apply(i, l, 0), (Coord{l % 16, i})) << "lane " << l;
      EXPECT_EQ(b.apply(i, l, 0), (Coord{i, l % 16})) << "lane " << l;
    }
  expectEachElementHeld(a, 2);
  expectEachElementHeld(b, 2);
  // Waves [2, 2]: A is replicated over the waves along N, B over those along M; a 32x32 K
  // tile is two K repetitions of 16.
  LinearLayout a2 = linear({32, 32}, dotOp(0, wmma(2, 2), 16));
  expectEachElementHeld(a2, 4);
  EXPECT_EQ(a2.apply(16, 0, 0), (Coord{0, 16}));
  EXPECT_EQ(a2.apply(0, 0, 1), (Coord{16, 0}));
  EXPECT_EQ(a2.apply(0, 0, 2), (Coord{0, 0}));
}

TEST_F(LinearLayoutTest, MfmaOperands) {
  // kWidth 4: 32x32x8 A lane l holds row l % 32, K 4 (l / 32) + [0, 4); B the transpose.
  LinearLayout a32 = linear({32, 8}, dotOp(0, mfma(32, 1, 1), 4));
  LinearLayout b32 = linear({8, 32}, dotOp(1, mfma(32, 1, 1), 4));
  ASSERT_EQ(a32.numRegisters(), 4u);
  ASSERT_EQ(b32.numRegisters(), 4u);
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      EXPECT_EQ(a32.apply(i, l, 0), (Coord{l % 32, 4 * (l / 32) + i})) << "lane " << l;
      EXPECT_EQ(b32.apply(i, l, 0), (Coord{4 * (l / 32) + i, l % 32})) << "lane " << l;
    }
  expectEachElementHeld(a32, 1);
  expectEachElementHeld(b32, 1);
  // 16x16x16: row l % 16, K 4 (l / 16) + [0, 4).
  LinearLayout a16 = linear({16, 16}, dotOp(0, mfma(16, 1, 1), 4));
  LinearLayout b16 = linear({16, 16}, dotOp(1, mfma(16, 1, 1), 4));
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      EXPECT_EQ(a16.apply(i, l, 0), (Coord{l % 16, 4 * (l / 16) + i})) << "lane " << l;
      EXPECT_EQ(b16.apply(i, l, 0), (Coord{4 * (l / 16) + i, l % 16})) << "lane " << l;
    }
  expectEachElementHeld(a16, 1);
  expectEachElementHeld(b16, 1);
  // Waves [2, 2], 64x64 result, K 32: A replicated over the waves along N, B along M.
  LinearLayout a = linear({64, 32}, dotOp(0, mfma(32, 2, 2), 4));
  LinearLayout b = linear({32, 64}, dotOp(1, mfma(32, 2, 2), 4));
  expectEachElementHeld(a, 2);
  expectEachElementHeld(b, 2);
  for (unsigned w = 0; w < 4; ++w) {
    EXPECT_EQ(a.apply(0, 0, w), (Coord{32 * (w % 2), 0})) << "wave " << w;
    EXPECT_EQ(b.apply(0, 0, w), (Coord{0, 32 * (w / 2)})) << "wave " << w;
  }
}

TEST_F(LinearLayoutTest, MfmaRepetitionOrder) {
  // The MFMA lowering (third_party/amd/lib/DotOpToMFMA.cpp) reads registers in this order:
  // accumulator (mRep, nRep, 16 instruction registers); A (mRep, kRep, kWidth); B (nRep, kRep,
  // kWidth). 128x128 on waves [2, 2] with K 32: 2 repetitions along M and N, 4 along K.
  LinearLayout d = linear({128, 128}, mfma(32, 2, 2));
  LinearLayout a = linear({128, 32}, dotOp(0, mfma(32, 2, 2), 4));
  LinearLayout b = linear({32, 128}, dotOp(1, mfma(32, 2, 2), 4));
  ASSERT_EQ(d.numRegisters(), 64u);
  ASSERT_EQ(a.numRegisters(), 32u);
  ASSERT_EQ(b.numRegisters(), 32u);
  for (unsigned l : {0u, 5u, 33u, 63u})
    for (unsigned w = 0; w < 4; ++w) {
      unsigned m0 = 32 * (w % 2), n0 = 32 * (w / 2);
      for (unsigned m = 0; m < 2; ++m)
        for (unsigned n = 0; n < 2; ++n)
          for (unsigned i = 0; i < 16; ++i)
            EXPECT_EQ(
                d.apply((m * 2 + n) * 16 + i, l, w),
                (Coord{64 * m + m0 + 8 * (i / 4) + 4 * (l / 32) + i % 4, 64 * n + n0 + l % 32}))
                << "lane " << l << " wave " << w << " rep " << m << "," << n << " reg " << i;
      for (unsigned r = 0; r < 2; ++r)
        for (unsigned k = 0; k < 4; ++k)
          for (unsigned e = 0; e < 4; ++e) {
            EXPECT_EQ(a.apply((r * 4 + k) * 4 + e, l, w),
                      (Coord{64 * r + m0 + l % 32, 8 * k + 4 * (l / 32) + e}));
            EXPECT_EQ(b.apply((r * 4 + k) * 4 + e, l, w),
                      (Coord{8 * k + 4 * (l / 32) + e, 64 * r + n0 + l % 32}));
          }
    }
  // f32 operands (v_mfma_f32_16x16x4_f32, kWidth 1): lane l holds row l % 16, K l / 16.
  LinearLayout a32 = linear({16, 8}, dotOp(0, mfma(16, 1, 1), 1));
  ASSERT_EQ(a32.numRegisters(), 2u);
  for (unsigned l = 0; l < 64; ++l)
    for (unsigned k = 0; k < 2; ++k)
      EXPECT_EQ(a32.apply(k, l, 0), (Coord{l % 16, 4 * k + l / 16})) << "lane " << l;
}

TEST_F(LinearLayoutTest, AddressHelpers) {
  // MFMA layouts: register and lane/warp bits never share a coordinate bit, so an LDS address
  // is a run-time base plus a constant per register (ConvertLayoutThroughLDS.cpp).
  LinearLayout d = linear({128, 256}, mfma(32, 2, 4));
  EXPECT_TRUE(d.registersDisjointFromThreads());
  // Accumulator registers 0..3 are consecutive rows; none are consecutive columns.
  EXPECT_EQ(d.contiguousRegisters(0), 4u);
  EXPECT_EQ(d.contiguousRegisters(1), 1u);
  // Rows: registers 1, 2, 8, 16, 64; lane 4; wave 32: only the top bit (64) is register-only.
  EXPECT_EQ(d.registerOnlyHighBits(0), 1u);
  // Columns: lanes 1..16, waves 32, 64, register 128.
  EXPECT_EQ(d.registerOnlyHighBits(1), 1u);
  LinearLayout a = linear({128, 64}, dotOp(0, mfma(32, 2, 4), 4));
  EXPECT_TRUE(a.registersDisjointFromThreads());
  EXPECT_EQ(a.contiguousRegisters(1), 4u); // kWidth 4 along K
  EXPECT_EQ(a.contiguousRegisters(0), 1u);
  // A blocked layout: 4 consecutive columns per thread.
  RankedTensorType bt =
      tensor({128, 256}, BlockedEncodingAttr::get(&ctx, {1, 4}, {1, 64}, {8, 1}, {1, 0}));
  std::optional<LinearLayout> bl = toLinearLayout(bt);
  ASSERT_TRUE(bl);
  EXPECT_TRUE(bl->registersDisjointFromThreads());
  EXPECT_EQ(bl->contiguousRegisters(1), 4u);
  EXPECT_EQ(bl->registerOnlyHighBits(0), 4u); // rows 8..64 from registers, 1..4 from waves
  EXPECT_EQ(bl->registerOnlyHighBits(1), 0u);
  // Overlap: a register basis and a lane basis on the same bit.
  LinearLayout o;
  o.shape = {4, 4};
  o.addBasis(LinearLayout::Register, {1, 0});
  o.addBasis(LinearLayout::Lane, {1, 1});
  EXPECT_FALSE(o.registersDisjointFromThreads());
  EXPECT_EQ(o.contiguousRegisters(0), 2u);
  EXPECT_EQ(o.registerOnlyHighBits(0), 1u);
}

TEST_F(LinearLayoutTest, ImpliedWarpSize) {
  EXPECT_EQ(getImpliedWarpSize(mma(2, 2)), 32u);
  EXPECT_EQ(getImpliedWarpSize(mfma(32, 2, 2)), 64u);
  EXPECT_EQ(getImpliedWarpSize(dotOp(0, mma(2, 2), 2)), 32u);
  EXPECT_EQ(getImpliedWarpSize(dotOp(1, mfma(16, 1, 4), 4)), 64u);
}

TEST_F(LinearLayoutTest, NonPowerOfTwoShapeHasNoLinearLayout) {
  EXPECT_FALSE(toLinearLayout(tensor({48, 64}, mma(2, 2))));
}

//===----------------------------------------------------------------------===//
// Blocked and slice layouts against ThreadElems
//===----------------------------------------------------------------------===//

/// Coordinates of local element `k` of (lane, warp) as the lowering computes them: the
/// thread's base from its lane and warp components, plus ThreadElems offsets, mod the shape.
Coord threadElemsCoord(const ThreadElems &te, unsigned k, unsigned lane, unsigned warp) {
  BlockedEncodingAttr root = te.view.root;
  SmallVector<unsigned> local = te.delinearize(k);
  Coord c;
  for (unsigned i = 0; i < te.shape.size(); ++i) {
    unsigned d = te.view.keptDims[i];
    unsigned tpw = root.getThreadsPerWarp()[d], wpc = root.getWarpsPerCTA()[d];
    int64_t lc = (lane / laneStride(root, d)) % tpw;
    int64_t wc = (warp / warpStride(root, d)) % wpc;
    int64_t base = int64_t(root.getSizePerThread()[d]) * (lc + int64_t(tpw) * wc);
    c.push_back((base + te.offset(i, local[i])) % te.shape[i]);
  }
  return c;
}

void expectAgreesWithThreadElems(RankedTensorType type, unsigned warpSize, unsigned numWarps) {
  std::optional<ThreadElems> te = getThreadElems(type);
  std::optional<LinearLayout> ll = toLinearLayout(type);
  ASSERT_TRUE(te && ll) << "no layout for " << debugString(type);
  ASSERT_EQ(ll->numRegisters(), te->total) << debugString(type);
  ASSERT_EQ(ll->numLanes(), warpSize) << debugString(type);
  ASSERT_EQ(ll->numWarps(), numWarps) << debugString(type);
  EXPECT_EQ(getElemsPerThread(type), te->total);
  for (unsigned w = 0; w < numWarps; ++w)
    for (unsigned l = 0; l < warpSize; ++l)
      for (unsigned k = 0; k < te->total; ++k)
        ASSERT_EQ(ll->apply(k, l, w), threadElemsCoord(*te, k, l, w))
            << debugString(type) << " reg " << k << " lane " << l << " warp " << w << "\n"
            << ll->toString();
  // Every element is held by someone.
  EXPECT_TRUE(ll->isSurjective()) << debugString(type);
}

TEST_F(LinearLayoutTest, BlockedAgreesWithThreadElems) {
  std::mt19937 rng(20261130);
  auto pick = [&](unsigned maxLog2) { return 1u << (rng() % (maxLog2 + 1)); };
  unsigned checked = 0;
  for (unsigned iter = 0; iter < 200; ++iter) {
    unsigned rank = 1 + rng() % 2;
    unsigned warpSize = rng() % 2 ? 32 : 64;
    unsigned numWarps = pick(3);
    SmallVector<unsigned> spt(rank), tpw(rank, 1), wpc(rank, 1), order(rank);
    for (unsigned d = 0; d < rank; ++d) {
      spt[d] = pick(2);
      order[d] = d;
    }
    if (rng() % 2)
      std::reverse(order.begin(), order.end());
    // Split the warp's lanes and the warps over the dimensions at random.
    for (unsigned bit = 1; bit < warpSize; bit <<= 1)
      tpw[rng() % rank] *= 2;
    for (unsigned bit = 1; bit < numWarps; bit <<= 1)
      wpc[rng() % rank] *= 2;
    auto blocked = BlockedEncodingAttr::get(&ctx, spt, tpw, wpc, order);
    // Shapes from smaller than one CTA tile (replicas) to several repetitions.
    SmallVector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(int64_t(1) << (rng() % 8));
    expectAgreesWithThreadElems(tensor(shape, blocked), warpSize, numWarps);
    ++checked;
    if (rank == 2) {
      unsigned dim = rng() % 2;
      auto slice = SliceEncodingAttr::get(&ctx, dim, blocked);
      expectAgreesWithThreadElems(tensor({shape[1 - dim]}, slice), warpSize, numWarps);
      ++checked;
    }
    if (HasFatalFailure())
      return;
  }
  EXPECT_GE(checked, 250u);
}

TEST_F(LinearLayoutTest, BlockedSpecificElements) {
  // 4 elements per thread along the fastest dim 1, lanes [8, 4], warps [4, 1]: lane 5 holds
  // columns 4 (5 % 4) + [0, 4) of row 5 / 4 = 1; warp 2 adds 8 * 2 = 16 rows; a 64-row tensor
  // repeats the 32-row CTA tile once, after the 4 registers of a row.
  auto blocked = BlockedEncodingAttr::get(&ctx, {1, 4}, {8, 4}, {4, 1}, {1, 0});
  LinearLayout ll = linear({64, 16}, blocked);
  ASSERT_EQ(ll.numRegisters(), 8u);
  EXPECT_EQ(ll.apply(0, 5, 2), (Coord{17, 4}));
  EXPECT_EQ(ll.apply(3, 5, 2), (Coord{17, 7}));
  EXPECT_EQ(ll.apply(4, 5, 2), (Coord{49, 4}));
  expectEachElementHeld(ll, 1);
}

//===----------------------------------------------------------------------===//
// chooseWarpsPerCTA
//===----------------------------------------------------------------------===//

TEST(ChooseWarpsPerCTATest, Cases) {
  using P = std::pair<unsigned, unsigned>;
  // Square tiles alternate, M first.
  EXPECT_EQ(chooseWarpsPerCTA(64, 64, 4, 16, 8), (P{2, 2}));
  EXPECT_EQ(chooseWarpsPerCTA(128, 128, 8, 16, 8), (P{4, 2}));
  EXPECT_EQ(chooseWarpsPerCTA(128, 128, 4, 16, 8), (P{2, 2}));
  // Wide tiles split N.
  EXPECT_EQ(chooseWarpsPerCTA(16, 128, 4, 16, 8), (P{1, 4}));
  EXPECT_EQ(chooseWarpsPerCTA(32, 256, 8, 16, 8), (P{1, 8}));
  // Tall tiles split M.
  EXPECT_EQ(chooseWarpsPerCTA(128, 8, 4, 16, 8), (P{4, 1}));
  // One warp.
  EXPECT_EQ(chooseWarpsPerCTA(64, 64, 1, 16, 8), (P{1, 1}));
  // A tile of one instruction: the warps replicate along M.
  EXPECT_EQ(chooseWarpsPerCTA(16, 8, 4, 16, 8), (P{4, 1}));
  // A 32x16 tile holds 2x2 instructions: 4 warps take one each.
  EXPECT_EQ(chooseWarpsPerCTA(32, 16, 4, 16, 8), (P{2, 2}));
  // MFMA 32x32 blocks.
  EXPECT_EQ(chooseWarpsPerCTA(128, 128, 4, 32, 32), (P{2, 2}));
  EXPECT_EQ(chooseWarpsPerCTA(32, 128, 4, 32, 32), (P{1, 4}));
  // Always numWarps warps in all.
  for (int64_t m : {16, 32, 64, 128, 256})
    for (int64_t n : {8, 16, 64, 256})
      for (unsigned w : {1u, 2u, 4u, 8u}) {
        auto [wm, wn] = chooseWarpsPerCTA(m, n, w, 16, 8);
        EXPECT_EQ(wm * wn, w) << m << "x" << n << " on " << w << " warps";
        // No split that leaves a warp without one instruction along N.
        EXPECT_LE(int64_t(wn) * 8, std::max<int64_t>(n, 8)) << m << "x" << n;
      }
}

} // namespace

// Shared-memory sizes: a padded placement skews every row of the tile (and of every stage of a
// ring) by `pad` elements; a swizzled one adds nothing.
TEST(MemDescSizeTest, PaddedRowsCountInTheSize) {
  MLIRContext ctx;
  ctx.loadDialect<TileGPUDialect>();
  Type f16 = Float16Type::get(&ctx);
  // K contiguous (order [1, 0]): 128 rows of 64 + 8 halves.
  auto kMajor = SharedEncodingAttr::get(&ctx, 1, 1, 1, {1, 0}, 8);
  EXPECT_EQ(MemDescType::get(&ctx, {128, 64}, f16, kMajor).getSizeInBytes(), 128 * 72 * 2);
  EXPECT_EQ(MemDescType::get(&ctx, {3, 128, 64}, f16, kMajor).getSizeInBytes(), 3 * 128 * 72 * 2);
  // B (K, N) with K contiguous (order [0, 1]): 128 rows (N) of 64 + 8.
  auto nRows = SharedEncodingAttr::get(&ctx, 1, 1, 1, {0, 1}, 8);
  EXPECT_EQ(MemDescType::get(&ctx, {64, 128}, f16, nRows).getSizeInBytes(), 128 * 72 * 2);
  auto swizzled = SharedEncodingAttr::get(&ctx, 8, 1, 8, {1, 0}, 0);
  EXPECT_EQ(MemDescType::get(&ctx, {2, 64, 64}, f16, swizzled).getSizeInBytes(), 2 * 64 * 64 * 2);
}
