//===- TuningCacheTest.cpp - the persistent tuning cache ------------------===//
#include "tessel/Tuning/TuningCache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace tessel::tuning;
namespace fs = std::filesystem;

namespace {
std::string scratch(const std::string &name) {
  fs::path dir = fs::temp_directory_path() / ("tessel-tuning-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

TuningEntry entry(const std::string &compiler, int64_t bucket) {
  TuningEntry e;
  e.key = {"softmax",   "bf16",  {{"n_cols", bucket}}, "NVIDIA H200 (sm_90, 132 SMs)",
           "CUDA 13.0", compiler};
  e.target = "cuda:sm_90a";
  e.variant = "softmax__bf16__BLOCK_4096__num_warps_8";
  e.config = {{"BLOCK", 4096}, {"num_warps", 8}};
  e.ms = 0.0521;
  e.timed = 6;
  e.when = "2026-12-01T00:00:00Z";
  return e;
}
} // namespace

TEST(TuningCache, RoundTrip) {
  std::string path = scratch("round-trip/tuning.json");
  fs::remove(path);
  TuningCache cache;
  ASSERT_TRUE(TuningCache::load(path, cache)); // missing: empty
  EXPECT_TRUE(cache.entries().empty());
  TuningEntry twin = entry("0.1.0", 4096);
  twin.launched = twin.variant + "__div8";
  twin.warmMs = 100; // timed after a warm-up
  cache.put(twin);
  cache.put(entry("0.1.0", 1024)); // without `launched`, as older caches
  ASSERT_TRUE(cache.save());
  EXPECT_FALSE(fs::exists(path + ".tmp." + std::to_string(::getpid()))); // renamed into place

  TuningCache again;
  ASSERT_TRUE(TuningCache::load(path, again));
  ASSERT_EQ(again.entries().size(), 2u);
  const TuningEntry *e = again.find(entry("0.1.0", 4096).key);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->variant, "softmax__bf16__BLOCK_4096__num_warps_8");
  EXPECT_EQ(e->config.at("num_warps"), 8);
  EXPECT_DOUBLE_EQ(e->ms, 0.0521);
  EXPECT_EQ(e->timed, 6);
  EXPECT_EQ(e->target, "cuda:sm_90a");
  EXPECT_EQ(e->launched, "softmax__bf16__BLOCK_4096__num_warps_8__div8");
  EXPECT_DOUBLE_EQ(e->warmMs, 100);
  EXPECT_EQ(again.find(entry("0.1.0", 1024).key)->launched, "");
  EXPECT_EQ(again.find(entry("0.1.0", 1024).key)->warmMs, 0); // none: the key is absent
}

TEST(TuningCache, EveryKeyFieldSelects) {
  TuningCache cache;
  cache.put(entry("0.1.0", 4096));
  TuningKey k = entry("0.1.0", 4096).key;
  EXPECT_NE(cache.find(k), nullptr);
  for (int field = 0; field < 7; ++field) {
    TuningKey other = k;
    switch (field) {
    case 0:
      other.kernel = "rmsnorm";
      break;
    case 1:
      other.dtype = "f16";
      break;
    case 2:
      other.keys["n_cols"] = 2048;
      break;
    case 3:
      other.device = "NVIDIA H100 (sm_90, 132 SMs)";
      break;
    case 4:
      other.driver = "CUDA 12.8";
      break;
    case 5:
      other.compiler = "0.2.0";
      break; // a new compiler: a miss, tuned again
    case 6:
      other.twin = "nt"; // another layout's twin
      break;
    }
    EXPECT_EQ(cache.find(other), nullptr) << "field " << field;
  }
}

TEST(TuningCache, PutReplaces) {
  TuningCache cache;
  cache.put(entry("0.1.0", 4096));
  TuningEntry faster = entry("0.1.0", 4096);
  faster.variant = "softmax__bf16__BLOCK_4096__num_warps_4";
  cache.put(faster);
  ASSERT_EQ(cache.entries().size(), 1u);
  EXPECT_EQ(cache.entries()[0].variant, "softmax__bf16__BLOCK_4096__num_warps_4");
}

TEST(TuningCache, TwinOfTheLaunchedFile) {
  EXPECT_EQ(twinOf("g__BLOCK_M_64", "g__BLOCK_M_64__nt"), "nt");
  EXPECT_EQ(twinOf("g__BLOCK_M_64", "g__BLOCK_M_64__div8"), ""); // the launchers' own twin
  EXPECT_EQ(twinOf("g__BLOCK_M_64", "g__BLOCK_M_64"), "");
  EXPECT_EQ(twinOf("g__BLOCK_M_64", "g__BLOCK_M_128__nt"), ""); // not its twin
  EXPECT_EQ(twinOf("g__BLOCK_M_64", ""), "");
}

// A GEMM shape tuned in two operand layouts keeps both entries, each found by its twin; the
// file keeps the key's twin, and a cache written before it had one reads it from `launched`.
TEST(TuningCache, TwoLayoutsOfOneShape) {
  std::string path = scratch("layouts/tuning.json");
  fs::remove(path);
  auto gemm = [](const std::string &layout, const std::string &variant) {
    TuningEntry e = entry("0.1.0", 4096);
    e.key.kernel = "gemm_split_k";
    e.key.keys = {{"M", 16}, {"N", 4096}, {"K", 4096}};
    e.key.twin = layout;
    e.variant = variant;
    e.launched = variant + (layout.empty() ? "" : "__" + layout);
    return e;
  };
  TuningCache cache;
  ASSERT_TRUE(TuningCache::load(path, cache));
  cache.put(gemm("nt", "gemm_split_k__bf16__BLOCK_N_32"));
  cache.put(gemm("nn", "gemm_split_k__bf16__BLOCK_N_64"));
  ASSERT_EQ(cache.entries().size(), 2u);
  ASSERT_TRUE(cache.save());
  TuningCache again;
  ASSERT_TRUE(TuningCache::load(path, again));
  ASSERT_EQ(again.entries().size(), 2u);
  EXPECT_EQ(again.find(gemm("nt", "").key)->variant, "gemm_split_k__bf16__BLOCK_N_32");
  EXPECT_EQ(again.find(gemm("nn", "").key)->variant, "gemm_split_k__bf16__BLOCK_N_64");
  EXPECT_EQ(again.find(gemm("", "").key), nullptr); // no entry timed without a named twin
  std::vector<const TuningEntry *> each = again.findEachTwin(gemm("", "").key); // a launcher's
  ASSERT_EQ(each.size(), 2u);
  EXPECT_EQ(each[0]->key.twin, "nt");
  EXPECT_EQ(each[1]->key.twin, "nn");

  std::string old = scratch("layouts/before-twin.json");
  std::ofstream(old) << R"j({"schema": "tessel-tuning-cache/1", "entries": [
    {"kernel": "gemm_split_k", "dtype": "bf16", "keys": {"M": 16, "N": 4096, "K": 4096},
     "device": "NVIDIA H200 (sm_90, 132 SMs)", "driver": "CUDA 13.0", "compiler": "0.1.0",
     "target": "cuda:sm_90a", "variant": "gemm_split_k__bf16__BLOCK_N_32",
     "config": {"BLOCK_N": 32}, "ms": 0.02, "timed": 9, "when": "2026-12-05T00:00:00Z",
     "launched": "gemm_split_k__bf16__BLOCK_N_32__nt"}]})j";
  TuningCache before;
  ASSERT_TRUE(TuningCache::load(old, before));
  ASSERT_EQ(before.entries().size(), 1u);
  EXPECT_EQ(before.entries()[0].key.twin, "nt");
}

TEST(TuningCache, CorruptFileIsRefused) {
  std::string path = scratch("corrupt.json");
  std::ofstream(path) << "{\"schema\": \"tessel-tuning-cache/1\", \"entries\": [";
  TuningCache cache;
  tessel::harness::Status s = TuningCache::load(path, cache);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("not valid JSON"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("delete it"), std::string::npos) << s.message();
}
