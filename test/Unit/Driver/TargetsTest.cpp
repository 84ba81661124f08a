//===- TargetsTest.cpp - accepted targets and the stage registry ----------===//
#include "tessel/Driver/Targets.h"
#include "tessel/Driver/Stages.h"
#include "tessel/InitAllTargets.h"
#include "tessel/Target/TargetRegistry.h"

#include <gtest/gtest.h>

using namespace tessel::driver;

TEST(Targets, AcceptedAndRejected) {
  tessel::registerAllTargets();
  for (llvm::StringRef t :
       {"interpreter", "cuda:sm_80", "cuda:sm_90", "cuda:sm_90a", "hip:gfx90a", "hip:gfx942"})
    EXPECT_FALSE(llvm::errorToBool(checkTarget(t))) << t.str();
  llvm::Error err = checkTarget("cuda:sm_75");
  ASSERT_TRUE(static_cast<bool>(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("cuda:sm_75"), std::string::npos);
  EXPECT_NE(message.find("hip:gfx942"), std::string::npos);
}

TEST(Targets, RegistryCreatesEveryNameItLists) {
  tessel::registerAllTargets();
  tessel::registerAllTargets(); // idempotent: each family once
  llvm::SmallVector<std::string> names = tessel::getRegisteredTargetNames();
  EXPECT_EQ(names.size(), 8u);
  for (const std::string &name : names) {
    std::string error;
    std::unique_ptr<tessel::TargetInfo> info = tessel::createTargetInfo(name, error);
    ASSERT_TRUE(info) << error;
    EXPECT_EQ(info->getName(), name);
  }
  std::string error;
  EXPECT_FALSE(tessel::createTargetInfo("cuda:sm_75", error));
  EXPECT_EQ(error, "unsupported target 'cuda:sm_75'; supported: cuda:sm_80, cuda:sm_86, "
                   "cuda:sm_89, cuda:sm_90, cuda:sm_90a, hip:gfx90a, hip:gfx942, hip:gfx1100");
}

TEST(Stages, TileIsAvailableTheRestAreListed) {
  ASSERT_NE(findStage("tile"), nullptr);
  EXPECT_TRUE(findStage("tile")->available());
  for (const char *s : {"layout", "llvm", "ptx", "cubin", "amdgcn", "hsaco", "header"}) {
    ASSERT_NE(findStage(s), nullptr) << s;
    EXPECT_FALSE(findStage(s)->available()) << s;
  }
  EXPECT_EQ(findStage("nope"), nullptr);
  EXPECT_EQ(getStages().front().name, "tile");
}

TEST(Stages, BackendsRegisterOrReplace) {
  size_t before = getStages().size();
  registerStage({"header", "C++ launcher header", ".h",
                 [](mlir::ModuleOp, const StageContext &, std::string &out) {
                   out = "// header";
                   return mlir::success();
                 }});
  EXPECT_EQ(getStages().size(), before);
  EXPECT_TRUE(findStage("header")->available());
}
