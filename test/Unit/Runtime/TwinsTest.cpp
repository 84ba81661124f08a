//===- TwinsTest.cpp - a variant's twins in kernel directories ------------===//
#include "tessel/Runtime/Twins.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {
/// A variant's metadata file: `specializes` (empty for a base) and its integer promises.
void writeVariant(const fs::path &dir, const std::string &name, const std::string &specializes,
                  const std::string &promises) {
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".json"))
      << R"({"schema": 2, "kernel": "gemm", "variant": ")" << name << R"(", "function": ")" << name
      << R"(", "dtype": "bf16", "target": "cuda:sm_90a", "num_warps": 4,
      "num_stages": 3, "threads_per_warp": 32, )"
      << (specializes.empty() ? "" : R"("specializes": ")" + specializes + R"(", )")
      << R"("args": [{"name": "a", "kind": "ptr", "type": "bf16", "divisibility": 16},
                     {"name": "K", "kind": "scalar", "type": "i32", "divisibility": 1},
                     {"name": "stride_ak", "kind": "scalar", "type": "i32", "divisibility": 1},
                     {"name": "stride_bk", "kind": "scalar", "type": "i32", "divisibility": 1})"
      << promises << R"(],
      "config": {}, "artifacts": {"tile": "x.mlir"}})";
}
} // namespace

// The twins of a base, the most promises first: a layout twin (two arguments equal to 1, K
// divisible) before the automatic __div8 (K divisible); another variant that shares the name's
// prefix, a twin of another base, and the same name in a later directory are not its twins.
TEST(Twins, FoundInTheDirectoriesMostPromisesFirst) {
  fs::path root = fs::path(::testing::TempDir()) / ("twins-" + std::to_string(::getpid()));
  fs::remove_all(root);
  std::string base = "gemm__bf16__BLOCK_M_64";
  const std::string div8 = R"(, {"name": "n", "kind": "scalar", "type": "i32", "divisibility": 8})";
  const std::string nt =
      R"(, {"name": "m", "kind": "scalar", "type": "i32", "divisibility": 1, "equal_to": 1},
                            {"name": "p", "kind": "scalar", "type": "i32", "divisibility": 1, "equal_to": 1},
                            {"name": "n", "kind": "scalar", "type": "i32", "divisibility": 8})";
  writeVariant(root / "a", base, "", "");
  writeVariant(root / "a", base + "__div8", base, div8);
  writeVariant(root / "b", base + "__nt", base, nt);
  writeVariant(root / "b", base + "__div8", base, nt);      // shadowed by a's
  writeVariant(root / "a", base + "__tma_store_1", "", ""); // another variant
  writeVariant(root / "a", base + "__tma_store_1__nt", base + "__tma_store_1", nt);
  std::ofstream(root / "a" / (base + "__broken.json")) << "{ not json";
  std::vector<std::string> twins =
      rt::findTwins({(root / "a").string(), (root / "b").string(), (root / "none").string()}, base);
  ASSERT_EQ(twins.size(), 2u);
  EXPECT_EQ(twins[0], base + "__nt");
  EXPECT_EQ(twins[1], base + "__div8");
  EXPECT_TRUE(rt::findTwins({(root / "a").string()}, "gemm__bf16__BLOCK_M_128").empty());
  fs::remove_all(root);
}
