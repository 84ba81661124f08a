//===- ManifestDirsTest.cpp - finding tuning directories ------------------===//
#include "tessel/Tuning/Manifest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace tessel::tuning;
namespace fs = std::filesystem;

namespace {
fs::path scratch(const std::string &name) {
  fs::path dir =
      fs::temp_directory_path() / ("tessel-manifest-dirs-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void manifestIn(const fs::path &dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "manifest.json") << "{}";
}
} // namespace

// tessel-tune-gpu DIR: DIR itself when it is a tuning directory, else every one below it, at
// any depth (tune_prepare.sh's DIR/tune/<kernel>__<dtype>, or one run per kernel one level
// further down), sorted; nothing below a tuning directory (its variants are not searched).
TEST(ManifestDirs, FindsTuningDirectoriesAtAnyDepth) {
  fs::path root = scratch("nested");
  manifestIn(root / "b_kernel" / "b_kernel__bf16");
  manifestIn(root / "a_kernel__f32");
  manifestIn(root / "a_kernel__f32" / "inner"); // below a tuning directory: not listed
  fs::create_directories(root / "empty" / "deeper");
  std::vector<std::string> dirs = findManifestDirs(root.string());
  ASSERT_EQ(dirs.size(), 2u);
  EXPECT_EQ(dirs[0], (root / "a_kernel__f32").string());
  EXPECT_EQ(dirs[1], (root / "b_kernel" / "b_kernel__bf16").string());

  EXPECT_EQ(findManifestDirs((root / "a_kernel__f32").string()),
            std::vector<std::string>{(root / "a_kernel__f32").string()});
  EXPECT_TRUE(findManifestDirs((root / "empty").string()).empty());
  EXPECT_TRUE(findManifestDirs((root / "missing").string()).empty());
}
