//===- HipKernelInfoTest.cpp - AMD code-object metadata and kernel arguments -===//
//
// The JSON below is what tessel-translate --emit=bin-info writes (its "metadata" object) for
// test/Target/AMD/Inputs/layernorm.mlir on gfx942: six pointers, two i64 and an f32, plus the
// fields the runtime checks. The packing tests pin the AMDGPU kernarg layout.
//
//===----------------------------------------------------------------------===//
#include "tessel/AMD/Runtime/HipKernelInfo.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tessel::rt;

namespace {

const char *kLayerNorm = R"({"agpr_count": 0, "args": [
  {"address_space": "global", "offset": 0, "size": 8, "value_kind": "global_buffer"},
  {"address_space": "global", "offset": 8, "size": 8, "value_kind": "global_buffer"},
  {"address_space": "global", "offset": 16, "size": 8, "value_kind": "global_buffer"},
  {"address_space": "global", "offset": 24, "size": 8, "value_kind": "global_buffer"},
  {"address_space": "global", "offset": 32, "size": 8, "value_kind": "global_buffer"},
  {"address_space": "global", "offset": 40, "size": 8, "value_kind": "global_buffer"},
  {"offset": 48, "size": 8, "value_kind": "by_value"},
  {"offset": 56, "size": 8, "value_kind": "by_value"},
  {"offset": 64, "size": 4, "value_kind": "by_value"}],
  "code_object_version": 5, "group_segment_fixed_size": 32, "kernarg_segment_align": 8,
  "kernarg_segment_size": 68, "max_flat_workgroup_size": 512, "name": "layernorm",
  "private_segment_fixed_size": 0, "reqd_workgroup_size": [512, 1, 1], "sgpr_count": 30,
  "sgpr_spill_count": 0, "symbol": "layernorm.kd", "target": "amdgcn-amd-amdhsa--gfx942",
  "uniform_work_group_size": 1, "uses_dynamic_stack": false, "vgpr_count": 37,
  "vgpr_spill_count": 0, "wavefront_size": 64})";

template <typename T> T read(const std::vector<uint8_t> &buf, size_t offset) {
  T v;
  std::memcpy(&v, buf.data() + offset, sizeof(T));
  return v;
}

TEST(HipKernelInfo, ParsesTheCompilersMetadata) {
  HipKernelInfo info;
  std::string error;
  ASSERT_TRUE(parseHipKernelInfo(kLayerNorm, info, error)) << error;
  EXPECT_EQ(info.name, "layernorm");
  EXPECT_EQ(info.symbol, "layernorm.kd");
  EXPECT_EQ(info.target, "amdgcn-amd-amdhsa--gfx942");
  EXPECT_EQ(info.codeObjectVersion, 5u);
  EXPECT_EQ(info.kernargSegmentSize, 68u);
  EXPECT_EQ(info.groupSegmentFixedSize, 32u);
  EXPECT_EQ(info.privateSegmentFixedSize, 0u);
  EXPECT_EQ(info.maxFlatWorkgroupSize, 512u);
  EXPECT_EQ(info.wavefrontSize, 64u);
  EXPECT_EQ(info.vgprCount, 37u);
  EXPECT_EQ(info.sgprCount, 30u);
  ASSERT_EQ(info.args.size(), 9u);
  EXPECT_EQ(info.args[0].valueKind, "global_buffer");
  EXPECT_EQ(info.args[6].offset, 48u);
  EXPECT_EQ(info.args[6].size, 8u);
  EXPECT_EQ(info.args[8].offset, 64u);
  EXPECT_EQ(info.args[8].size, 4u);
  EXPECT_EQ(info.args[8].valueKind, "by_value");
}

TEST(HipKernelInfo, SkipsHiddenArguments) {
  HipKernelInfo info;
  std::string error;
  ASSERT_TRUE(parseHipKernelInfo(R"({"name": "k", "kernarg_segment_size": 288,
      "group_segment_fixed_size": 0, "private_segment_fixed_size": 0, "args": [
      {"offset": 0, "size": 8, "value_kind": "global_buffer"},
      {"offset": 8, "size": 4, "value_kind": "by_value"},
      {"offset": 16, "size": 4, "value_kind": "hidden_block_count_x"},
      {"offset": 20, "size": 4, "value_kind": "hidden_block_count_y"}]})",
                                 info, error))
      << error;
  ASSERT_EQ(info.args.size(), 2u);
}

TEST(HipKernelInfo, KernelWithoutArguments) {
  HipKernelInfo info;
  std::string error;
  ASSERT_TRUE(parseHipKernelInfo(R"({"name": "k", "kernarg_segment_size": 0,
      "group_segment_fixed_size": 0, "private_segment_fixed_size": 0})",
                                 info, error))
      << error;
  EXPECT_TRUE(info.args.empty());
}

TEST(HipKernelInfo, RejectsMalformedMetadata) {
  HipKernelInfo info;
  std::string error;
  EXPECT_FALSE(parseHipKernelInfo("[1, 2]", info, error));
  EXPECT_EQ(error, "kernel metadata is not a JSON object");
  EXPECT_FALSE(parseHipKernelInfo("{\"name\": \"k\"", info, error));
  EXPECT_EQ(error, "kernel metadata is not a JSON object");
  EXPECT_FALSE(parseHipKernelInfo(R"({"kernarg_segment_size": 8})", info, error));
  EXPECT_EQ(error, "kernel metadata has no 'name'");
  EXPECT_FALSE(parseHipKernelInfo(R"({"name": "k", "group_segment_fixed_size": 0,
      "private_segment_fixed_size": 0})",
                                  info, error));
  EXPECT_EQ(error, "kernel metadata has no 'kernarg_segment_size'");
  EXPECT_FALSE(parseHipKernelInfo(R"({"name": "k", "kernarg_segment_size": -8,
      "group_segment_fixed_size": 0, "private_segment_fixed_size": 0})",
                                  info, error));
  EXPECT_EQ(error, "kernel metadata field 'kernarg_segment_size' is not a non-negative integer");
  EXPECT_FALSE(parseHipKernelInfo(R"({"name": "k", "kernarg_segment_size": 8,
      "group_segment_fixed_size": 0, "private_segment_fixed_size": 0,
      "args": [{"offset": 4, "size": 8, "value_kind": "global_buffer"}]})",
                                  info, error));
  EXPECT_EQ(error, "kernel argument #0 ends at byte 12, past the kernarg segment (8 bytes)");
  EXPECT_FALSE(parseHipKernelInfo(R"({"name": "k", "kernarg_segment_size": 8,
      "group_segment_fixed_size": 0, "private_segment_fixed_size": 0,
      "args": [{"offset": 0, "size": 4, "value_kind": "dynamic_shared_pointer"}]})",
                                  info, error));
  EXPECT_EQ(error, "kernel argument #0 has value_kind 'dynamic_shared_pointer', which Tessel's "
                   "runtime cannot pass (only global_buffer and by_value)");
  EXPECT_FALSE(parseHipKernelInfo(R"({"name": "k", "kernarg_segment_size": 8,
      "group_segment_fixed_size": 0, "private_segment_fixed_size": 0,
      "args": [{"size": 4, "value_kind": "by_value"}]})",
                                  info, error));
  EXPECT_EQ(error, "kernel argument #0: kernel metadata has no 'offset'");
}

// Natural alignment: an f32 after a pointer stays at 8, an i64 after it moves to 16.
TEST(Kernargs, NaturalAlignment) {
  int x = 0;
  std::vector<uint8_t> buf =
      packKernargs({KernelArgValue::pointer(&x), KernelArgValue::f32(1.5f), KernelArgValue::i64(-3),
                    KernelArgValue::i32(7), KernelArgValue::f64(0.25)});
  ASSERT_EQ(buf.size(), 40u); // 8 + 4 (+4 pad) + 8 + 4 (+4 pad) + 8
  EXPECT_EQ(read<uint64_t>(buf, 0), reinterpret_cast<uintptr_t>(&x));
  EXPECT_EQ(read<float>(buf, 8), 1.5f);
  EXPECT_EQ(read<uint32_t>(buf, 12), 0u);
  EXPECT_EQ(read<int64_t>(buf, 16), -3);
  EXPECT_EQ(read<int32_t>(buf, 24), 7);
  EXPECT_EQ(read<double>(buf, 32), 0.25);
}

TEST(Kernargs, SizeRoundsUpToEightBytes) {
  EXPECT_EQ(packKernargs({KernelArgValue::i32(1)}).size(), 8u);
  EXPECT_EQ(packKernargs({}).size(), 0u);
}

TEST(Kernargs, PacksAtTheMetadataOffsets) {
  HipKernelInfo info;
  std::string error;
  ASSERT_TRUE(parseHipKernelInfo(kLayerNorm, info, error)) << error;
  float a[1], b[1], c[1], d[1], e[1], f[1];
  std::vector<KernelArgValue> values = {
      KernelArgValue::pointer(a), KernelArgValue::pointer(b), KernelArgValue::pointer(c),
      KernelArgValue::pointer(d), KernelArgValue::pointer(e), KernelArgValue::pointer(f),
      KernelArgValue::i64(4096),  KernelArgValue::i64(4000),  KernelArgValue::f32(1e-5f)};
  std::vector<uint8_t> buf;
  ASSERT_TRUE(packKernargs(info, values, buf, error)) << error;
  ASSERT_EQ(buf.size(), 72u);
  EXPECT_EQ(read<uint64_t>(buf, 40), reinterpret_cast<uintptr_t>(f));
  EXPECT_EQ(read<int64_t>(buf, 48), 4096);
  EXPECT_EQ(read<int64_t>(buf, 56), 4000);
  EXPECT_EQ(read<float>(buf, 64), 1e-5f);
  // The metadata and the ABI agree.
  EXPECT_EQ(buf, packKernargs(values));
}

TEST(Kernargs, ChecksArgumentsAgainstTheMetadata) {
  HipKernelInfo info;
  std::string error;
  ASSERT_TRUE(parseHipKernelInfo(kLayerNorm, info, error)) << error;
  std::vector<uint8_t> buf;
  std::vector<KernelArgValue> values(6, KernelArgValue::pointer(nullptr));
  EXPECT_FALSE(packKernargs(info, values, buf, error));
  EXPECT_EQ(error, "layernorm takes 9 arguments, got 6");
  values.push_back(KernelArgValue::i32(4096)); // an i64 in the kernel
  values.push_back(KernelArgValue::i64(4000));
  values.push_back(KernelArgValue::f32(1e-5f));
  EXPECT_FALSE(packKernargs(info, values, buf, error));
  EXPECT_EQ(error, "layernorm argument #6 is 8 bytes in the kernel, got 4");
  values[6] = KernelArgValue::pointer(nullptr);
  EXPECT_FALSE(packKernargs(info, values, buf, error));
  EXPECT_EQ(error, "layernorm argument #6 is a scalar in the kernel, got a pointer");
  values[6] = KernelArgValue::i64(4096);
  values[0] = KernelArgValue::i64(0);
  EXPECT_FALSE(packKernargs(info, values, buf, error));
  EXPECT_EQ(error, "layernorm argument #0 is a pointer in the kernel, got a scalar");
}

} // namespace
