//===- GpuLaunchTest.cpp - the GPU executors' checks, without a GPU -------===//
#include "tessel/Runtime/GpuLaunch.h"
#include "tessel/AMD/Runtime/HipContext.h"
#include "tessel/AMD/Runtime/HipExecutor.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tessel;
using namespace tessel::harness;
using namespace tessel::rt;

namespace {

KernelMetadata variant() {
  KernelMetadata m;
  m.function = "scale__div8";
  m.specializes = "scale";
  m.args = {{"out", "!tile.ptr<f16>", 16, std::nullopt},
            {"n", "i64", 8, std::nullopt},
            {"stride", "i32", 1, 1},
            {"s", "f16", 1, std::nullopt}};
  return m;
}

/// Buffer 0 starts at 0x1000; other ids are unknown.
bool address(const LaunchArg &a, int elementBytes, uint64_t &out) {
  if (a.buffer != 0)
    return false;
  out = 0x1000 + uint64_t(a.elementOffset * elementBytes);
  return true;
}

std::string check(const std::vector<LaunchArg> &args, std::vector<CheckedArg> &out) {
  Status s = checkLaunchArgs(variant(), args, address, "tessel-run: gpu: ", out);
  return s ? "" : s.message();
}

TEST(GpuLaunch, ConvertsArgumentsToTheKernelsBits) {
  std::vector<CheckedArg> out;
  ASSERT_EQ(check({LaunchArg::buffer_(0, 8), LaunchArg::int_(64), LaunchArg::int_(1),
                   LaunchArg::float_(1.5)},
                  out),
            "");
  ASSERT_EQ(out.size(), 4u);
  EXPECT_TRUE(out[0].isPointer);
  EXPECT_EQ(out[0].bits, 0x1000u + 8 * 2); // 8 f16 elements in
  EXPECT_EQ(out[1].size, 8u);
  EXPECT_EQ(out[1].bits, 64u);
  EXPECT_EQ(out[2].size, 4u);
  EXPECT_EQ(out[3].size, 2u);
  EXPECT_EQ(out[3].bits, 0x3e00u); // 1.5 in f16
}

TEST(GpuLaunch, NamesTheBrokenPromise) {
  std::vector<CheckedArg> out;
  EXPECT_EQ(check({LaunchArg::buffer_(0, 1), LaunchArg::int_(64), LaunchArg::int_(1),
                   LaunchArg::float_(1)},
                  out),
            "tessel-run: gpu: scale__div8 argument #0 'out' is not aligned to 16 bytes as the "
            "variant assumes");
  EXPECT_EQ(
      check({LaunchArg::buffer_(0), LaunchArg::int_(60), LaunchArg::int_(1), LaunchArg::float_(1)},
            out),
      "tessel-run: gpu: scale__div8 argument #1 'n' = 60 is not a multiple of 8 as variant "
      "scale__div8 assumes; use the variant it specializes (scale)");
  EXPECT_EQ(
      check({LaunchArg::buffer_(0), LaunchArg::int_(64), LaunchArg::int_(2), LaunchArg::float_(1)},
            out),
      "tessel-run: gpu: scale__div8 argument #2 'stride' = 2 but variant scale__div8 "
      "assumes 1; use the variant it specializes (scale)");
  EXPECT_EQ(
      check({LaunchArg::buffer_(3), LaunchArg::int_(64), LaunchArg::int_(1), LaunchArg::float_(1)},
            out),
      "tessel-run: gpu: scale__div8 argument #0 'out' (!tile.ptr<f16>) needs a buffer");
  EXPECT_EQ(check({LaunchArg::buffer_(0)}, out),
            "tessel-run: gpu: scale__div8 takes 4 arguments, got 1");
}

TEST(GpuLaunch, GridsAreWholeAndWithinLimits) {
  const int64_t max[3] = {100, 10, 10};
  LaunchConfig c;
  c.grid = {100, 10, 1};
  unsigned grid[3];
  EXPECT_TRUE(checkGrid(c, "k", "p: ", max, grid).isOk());
  EXPECT_EQ(grid[0], 100u);
  c.grid.x = 101;
  EXPECT_EQ(checkGrid(c, "k", "p: ", max, grid).message(),
            "p: k: grid (101, 10, 1) exceeds the device's limits (100, 10, 10)");
  // Case C17: an empty grid passes; the context launches nothing.
  c.grid = {0, 10, 1};
  EXPECT_TRUE(checkGrid(c, "k", "p: ", max, grid).isOk());
  EXPECT_EQ(grid[0], 0u);
  c.grid.x = -1;
  EXPECT_FALSE(checkGrid(c, "k", "p: ", max, grid).isOk());
  c.grid = {4, 10, 1};
  c.firstProgram = 1;
  EXPECT_NE(checkGrid(c, "k", "p: ", max, grid).message().find("no --programs subset"),
            std::string::npos);
}

// On a machine without ROCm the hip executor is listed, not available, and says why at load.
TEST(HipExecutor, NoAMDDriverIsAClearError) {
  std::string why;
  if (std::unique_ptr<HipContext> ctx = HipContext::create(why))
    GTEST_SKIP() << "an AMD runtime is installed: " << ctx->describe();
  registerHipExecutor();
  const ExecutorEntry *entry = findExecutor("hip");
  ASSERT_NE(entry, nullptr);
  EXPECT_FALSE(entry->available());
  std::unique_ptr<Executor> ex = entry->create();
  KernelMetadata m = variant();
  m.target = "hip:gfx942";
  Status s = ex->load(m);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.message(), "tessel-run: hip: no AMD driver: " + why);
  EXPECT_EQ(ex->describe(), "no AMD driver: " + why);
  BufferId id;
  EXPECT_FALSE(ex->allocate("x", DType::f32, 4, id).isOk());
}

} // namespace
