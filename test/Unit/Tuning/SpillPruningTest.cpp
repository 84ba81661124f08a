//===- SpillPruningTest.cpp - variants that spill are not timed -----------===//
#include "tessel/Tuning/SpillPruning.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace tessel::tuning;
namespace fs = std::filesystem;

namespace {
ManifestVariant variant(const std::string &name, std::optional<int64_t> spills) {
  ManifestVariant v;
  v.name = name;
  v.json = name + ".json";
  v.spillBytes = spills;
  return v;
}

ManifestShape shape(std::vector<std::string> variants) {
  return ManifestShape{{8, 32, 4096, 128}, {4096}, {4096}, std::move(variants)};
}
} // namespace

// rope_flat's space at one shape: 64 tokens on one warp spills (1656 bytes a thread on sm_90a);
// it is not timed where the shape admits a variant without spills, and stays compiled.
TEST(SpillPruning, DropsSpillersWhereACleanVariantIsAdmitted) {
  Manifest m;
  m.variants = {variant("s4w1", 0), variant("s64w1", 1656), variant("s128w2", 24)};
  m.shapes = {shape({"s4w1", "s64w1", "s128w2"}), shape({"s64w1"})};
  SpillPruneReport r = dropSpillingVariants(m);
  EXPECT_EQ(m.shapes[0].variants, std::vector<std::string>{"s4w1"});
  // The second shape admits only a spiller: timed anyway, and said so.
  EXPECT_EQ(m.shapes[1].variants, std::vector<std::string>{"s64w1"});
  EXPECT_EQ(r.shapesAllSpilling, 1);
  ASSERT_EQ(r.removed.size(), 2u);
  EXPECT_EQ(r.removed[0], "s64w1: spills 1656 bytes per thread");
  EXPECT_EQ(r.removed[1], "s128w2: spills 24 bytes per thread");
  EXPECT_EQ(m.variants.size(), 3u); // still compiled and launchable by name
}

// No assembler ran (no ptxas on the machine, or the interpreter): no count, nothing dropped.
TEST(SpillPruning, UnknownCountsKeepEverything) {
  Manifest m;
  m.variants = {variant("a", std::nullopt), variant("b", std::nullopt)};
  m.shapes = {shape({"a", "b"})};
  SpillPruneReport r = dropSpillingVariants(m);
  EXPECT_EQ(m.shapes[0].variants, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(r.removed.empty());
  EXPECT_EQ(r.shapesAllSpilling, 0);

  // A variant with no count is not evidence of a clean one: the spiller stays.
  m.variants.push_back(variant("c", 8));
  m.shapes = {shape({"a", "c"})};
  r = dropSpillingVariants(m);
  EXPECT_EQ(m.shapes[0].variants, (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(r.shapesAllSpilling, 1);
}

// The manifest carries each variant's count (null where unknown) and the compile side's number
// of variants left out of the timing; a count of the wrong type is an error naming the variant.
TEST(SpillPruning, ManifestReadsTheCounts) {
  fs::path dir = fs::temp_directory_path() /
                 ("tessel-spill-pruning-" + std::to_string(::getpid())) / "rope_flat__bf16";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const std::string &spill) {
    std::ofstream(dir / "manifest.json") << R"({
  "schema": "tessel-tuning-dir/1", "compiler": "0.1.0", "kernel": "rope_flat",
  "problem": "rope_flat", "dtype": "bf16", "target": "cuda:sm_90a", "source": "rope.cpp",
  "default_variant": "a", "key_names": ["seq_len"], "key_buckets": ["pow2"],
  "space": {"declared": 24, "dropped_by_where": 6, "dropped_by_keys": 0,
            "dropped_by_limit": {}, "compiled": 2, "failed": 0, "compile_seconds": 1.5,
            "not_timed_spilling": 1},
  "variants": [{"name": "a", "json": "a.json", "twin": null, "config": {}, "spill_bytes": 0},
               {"name": "b", "json": "b.json", "twin": null, "config": {}, "spill_bytes": )" +
                                                spill + R"(}],
  "shapes": [{"shape": [1, 1, 16, 128], "key_values": [16], "buckets": [16],
              "variants": ["a"]}]
})";
  };
  write("1656");
  Manifest m;
  ASSERT_TRUE(loadManifest(dir.string(), m));
  ASSERT_EQ(m.variants.size(), 2u);
  EXPECT_EQ(m.variants[0].spillBytes, 0);
  EXPECT_EQ(m.variants[1].spillBytes, 1656);
  EXPECT_NE(m.spaceSummary.find("; 1 spill registers, not timed"), std::string::npos)
      << m.spaceSummary;

  write("null");
  Manifest unknown;
  ASSERT_TRUE(loadManifest(dir.string(), unknown));
  EXPECT_FALSE(unknown.variants[1].spillBytes.has_value());

  write("\"many\"");
  Manifest bad;
  tessel::harness::Status s = loadManifest(dir.string(), bad);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("'b': 'spill_bytes' must be an integer or null"), std::string::npos)
      << s.message();
}
