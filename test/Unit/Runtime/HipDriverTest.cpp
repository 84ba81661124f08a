//===- HipDriverTest.cpp - the AMD runtime when no AMD driver is present --===//
#include "tessel/AMD/Runtime/HipContext.h"

#include <gtest/gtest.h>

using namespace tessel::rt;

namespace {

TEST(HipDriver, MissingRuntimeIsAClearError) {
  HipDriver driver;
  std::string error;
  EXPECT_FALSE(driver.load(error, "/nonexistent/libamdhip64.so"));
  EXPECT_EQ(error.rfind("cannot load the AMD runtime (/nonexistent/libamdhip64.so): ", 0), 0u)
      << error;
  EXPECT_NE(error.find("TESSEL_HIP_RUNTIME"), std::string::npos) << error;
}

TEST(HipDriver, LibraryWithoutTheEntryPointsIsAClearError) {
  HipDriver driver;
  std::string error;
  // A shared library that exists but is not the HIP runtime.
  EXPECT_FALSE(driver.load(error, "libdl.so.2"));
  EXPECT_EQ(error, "the AMD runtime (libdl.so.2) has no hipInit");
}

// On a machine without ROCm (CI, the NVIDIA hosts), creating a context says why.
TEST(HipContext, NoDriverMessage) {
  std::string error;
  std::unique_ptr<HipContext> ctx = HipContext::create(error);
  if (ctx)
    GTEST_SKIP() << "an AMD runtime is installed: " << ctx->describe();
  bool noRuntime = error.rfind("cannot load the AMD runtime (", 0) == 0;
  bool noGpu = error.rfind("hipInit", 0) == 0 || error == "the AMD runtime reports no GPU";
  EXPECT_TRUE(noRuntime || noGpu) << error;
}

} // namespace
