//===- ProblemOptionsTest.cpp - what the tuner builds its problems from ----===//
#include "tessel/Tuning/Tuner.h"

#include <gtest/gtest.h>

using namespace tessel::harness;
using namespace tessel::tuning;

namespace {
/// An executor that runs nothing and reports a device of `sms` multiprocessors.
class DeviceOfSMs : public Executor {
public:
  explicit DeviceOfSMs(int sms) : sms_(sms) {}
  std::string target() const override { return "test"; }
  std::string describe() const override { return "a device of " + std::to_string(sms_) + " SMs"; }
  Status load(KernelMetadata &) override { return Status::error("not for running"); }
  Status allocate(const std::string &, DType, int64_t, BufferId &) override {
    return Status::error("not for running");
  }
  Status upload(BufferId, const HostBuffer &) override { return Status::error("not for running"); }
  Status download(BufferId, HostBuffer &) override { return Status::error("not for running"); }
  void releaseAll() override {}
  Status launch(const LaunchConfig &, const std::vector<LaunchArg> &) override {
    return Status::error("not for running");
  }
  int multiprocessorCount() const override { return sms_; }

private:
  int sms_;
};

Manifest persistentGemm() {
  Manifest m;
  m.problem = "gemm_persistent";
  m.dtype = "bf16";
  m.options = {{"b_order", "col"}};
  return m;
}
} // namespace

// A persistent GEMM's problem is timed on one program per SM of the device the tuner runs on
// (before session 68 the tuner passed none: 3 programs, 30x slow on the benchmark GPU).
TEST(ProblemOptions, PersistentProblemRunsOneProgramPerSM) {
  Manifest m = persistentGemm();
  ManifestShape shape;
  shape.shape = {512, 512, 64}; // 16 tiles of 128x128
  ProblemOptions po;
  ASSERT_TRUE(problemOptions(DeviceOfSMs(5), m, shape, /*seed=*/7, /*reference=*/false, po));
  EXPECT_EQ(po.multiprocessors, 5);
  EXPECT_EQ(po.name, "gemm_persistent");
  EXPECT_EQ(po.shape, shape.shape);
  EXPECT_EQ(po.dtype, DType::bf16);
  EXPECT_EQ(po.seed, 7u);
  EXPECT_FALSE(po.reference);
  EXPECT_EQ(po.options.at("b_order"), "col");

  po.config = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}};
  po.draw = false;
  Problem p;
  ASSERT_TRUE(makeProblem(po, p));
  EXPECT_EQ(p.launch.grid.x, 5);

  // A device with more SMs than tiles runs one program per tile.
  ASSERT_TRUE(problemOptions(DeviceOfSMs(132), m, shape, 7, false, po));
  po.config = {{"BLOCK_M", 128}, {"BLOCK_N", 128}, {"BLOCK_K", 64}};
  po.draw = false;
  Problem all;
  ASSERT_TRUE(makeProblem(po, all));
  EXPECT_EQ(all.launch.grid.x, 16);
}

TEST(ProblemOptions, UnknownDTypeIsAnError) {
  Manifest m = persistentGemm();
  m.dtype = "bf17";
  ProblemOptions po;
  Status s = problemOptions(DeviceOfSMs(132), m, ManifestShape{}, 0, true, po);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("manifest dtype 'bf17' is unknown"), std::string::npos);
}
