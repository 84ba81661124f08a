//===- CudaTensorMapsTest.cpp - TMA descriptors from launch arguments -----===//
//
// encodeTensorMaps without a GPU: a stand-in for the driver's cuTensorMapEncodeTiled records
// what it is asked to encode, so the test sees the dims, byte strides, box and swizzle the
// runtime derives from a variant's tensor_maps and the launch's arguments.
//
//===----------------------------------------------------------------------===//
#include "tessel/NVIDIA/Runtime/CudaTensorMaps.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tessel;
using namespace tessel::harness;
using namespace tessel::rt;

namespace {

struct Call {
  int type = -1, swizzle = -1, oobFill = -1;
  unsigned rank = 0;
  uint64_t base = 0, dims[5] = {}, strides[4] = {};
  unsigned box[5] = {};
};
std::vector<Call> calls;

CUresult recordEncode(void *map, int type, unsigned rank, void *base, const uint64_t *dims,
                      const uint64_t *strides, const unsigned *box, const unsigned *,
                      int interleave, int swizzle, int, int oobFill) {
  Call c;
  c.type = type;
  c.rank = rank;
  c.base = reinterpret_cast<uint64_t>(base);
  c.swizzle = swizzle;
  c.oobFill = oobFill;
  for (unsigned d = 0; d < rank; ++d) {
    c.dims[d] = dims[d];
    c.box[d] = box[d];
    if (d + 1 < rank)
      c.strides[d] = strides[d];
  }
  calls.push_back(c);
  std::memset(map, 0x5a, kTensorMapBytes);
  return interleave == 0 ? 0 : 1;
}

/// gemm_block_ptr's nn twin: A (M, K) with stride_am, B (K, N) with stride_bk, both row-major.
KernelMetadata variant() {
  KernelMetadata m;
  m.function = "gemm_block_ptr__bf16__nn";
  m.args = {{"a", "!tile.ptr<bf16>", 16, std::nullopt},
            {"b", "!tile.ptr<bf16>", 16, std::nullopt},
            {"M", "i32", 1, std::nullopt},
            {"N", "i32", 8, std::nullopt},
            {"K", "i32", 8, std::nullopt},
            {"stride_am", "i32", 8, std::nullopt},
            {"stride_bk", "i32", 8, std::nullopt}};
  TensorMapInfo a{0, "bf16", {{4, 0}, {2, 0}}, {{5, 0}}, {64, 128}, 128};
  TensorMapInfo b{1, "bf16", {{3, 0}, {4, 0}}, {{6, 0}}, {64, 64}, 128};
  m.tensorMaps = {a, b};
  return m;
}

std::vector<CheckedArg> launch(int64_t M, int64_t N, int64_t K, uint64_t a = 0x10000) {
  auto i32 = [](int64_t v) { return CheckedArg{uint64_t(uint32_t(int32_t(v))), 4, false}; };
  return {{a, 8, true}, {0x20000, 8, true}, i32(M), i32(N), i32(K), i32(K), i32(N)};
}

TEST(CudaTensorMaps, DimsStridesAndBoxFromTheArguments) {
  CudaDriver driver{};
  driver.cuTensorMapEncodeTiled = recordEncode;
  calls.clear();
  std::vector<uint8_t> out;
  std::string error;
  ASSERT_TRUE(encodeTensorMaps(driver, variant(), launch(1000, 4096, 2048), out, error)) << error;
  ASSERT_EQ(out.size(), 2 * kTensorMapBytes);
  EXPECT_EQ(out[0], 0x5a);
  ASSERT_EQ(calls.size(), 2u);
  // A: dims (K, M) innermost first, row stride K * 2 bytes, box 64 x 128, bf16 (9), 128 B
  // swizzle (3), zero fill.
  EXPECT_EQ(calls[0].type, 9);
  EXPECT_EQ(calls[0].rank, 2u);
  EXPECT_EQ(calls[0].base, 0x10000u);
  EXPECT_EQ(calls[0].dims[0], 2048u);
  EXPECT_EQ(calls[0].dims[1], 1000u);
  EXPECT_EQ(calls[0].strides[0], 4096u);
  EXPECT_EQ(calls[0].box[0], 64u);
  EXPECT_EQ(calls[0].box[1], 128u);
  EXPECT_EQ(calls[0].swizzle, 3);
  EXPECT_EQ(calls[0].oobFill, 0);
  // B: dims (N, K), row stride N * 2 bytes.
  EXPECT_EQ(calls[1].base, 0x20000u);
  EXPECT_EQ(calls[1].dims[0], 4096u);
  EXPECT_EQ(calls[1].dims[1], 2048u);
  EXPECT_EQ(calls[1].strides[0], 8192u);
}

TEST(CudaTensorMaps, RefusesWhatTMACannotAddress) {
  CudaDriver driver{};
  driver.cuTensorMapEncodeTiled = recordEncode;
  std::vector<uint8_t> out;
  std::string error;
  // K = 1001: A's rows are 2002 bytes apart, not a multiple of 16.
  EXPECT_FALSE(encodeTensorMaps(driver, variant(), launch(64, 64, 1001), out, error));
  EXPECT_NE(error.find("tensor map #0 (argument 'a')"), std::string::npos) << error;
  EXPECT_NE(error.find("2002 bytes"), std::string::npos) << error;
  // A base 8 bytes off a 16-byte boundary.
  EXPECT_FALSE(encodeTensorMaps(driver, variant(), launch(64, 64, 64, 0x10008), out, error));
  EXPECT_NE(error.find("not 16-byte aligned"), std::string::npos) << error;
  // More rows than a 32-bit coordinate reaches.
  std::vector<CheckedArg> huge = launch(64, 64, 64);
  huge[2] = CheckedArg{uint64_t(1) << 31, 8, false}; // M as an i64 argument
  EXPECT_FALSE(encodeTensorMaps(driver, variant(), huge, out, error));
  EXPECT_NE(error.find("TMA coordinates are 32-bit"), std::string::npos) << error;
  // A driver without the entry point (before CUDA 12).
  driver.cuTensorMapEncodeTiled = nullptr;
  EXPECT_FALSE(encodeTensorMaps(driver, variant(), launch(64, 64, 64), out, error));
  EXPECT_NE(error.find("CUDA 12"), std::string::npos) << error;
}

} // namespace
