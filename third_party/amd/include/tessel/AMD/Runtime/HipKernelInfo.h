//===- HipKernelInfo.h - code-object metadata and kernel arguments -*- C++ -*-===//
//
// What a launch of an AMDGPU kernel needs from its code object: the explicit arguments' layout
// in the kernarg segment, the workgroup size bound, the LDS and scratch sizes. The compiler
// writes these into the kernel's JSON metadata (third_party/amd/lib/CodeObject.cpp: the
// code object's NT_AMDGPU_METADATA map with the leading dots of its keys dropped); the runtime
// reads them back here and packs the argument values accordingly. No MLIR or LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_AMD_RUNTIME_HIPKERNELINFO_H
#define TESSEL_AMD_RUNTIME_HIPKERNELINFO_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rt {

/// One explicit kernel argument in the kernarg segment (hidden_* arguments, which the HIP
/// runtime fills itself, are not listed).
struct KernargSlot {
  unsigned offset = 0;
  unsigned size = 0;
  std::string valueKind; ///< "global_buffer" (a pointer) or "by_value" (a scalar)
};

/// A kernel's code-object metadata (AMDGPUUsage, "Code Object V5 Metadata").
struct HipKernelInfo {
  std::string name, symbol, target;
  unsigned codeObjectVersion = 0;
  unsigned kernargSegmentSize = 0, kernargSegmentAlign = 8;
  unsigned groupSegmentFixedSize = 0;   ///< static LDS bytes
  unsigned privateSegmentFixedSize = 0; ///< scratch bytes per work-item
  unsigned wavefrontSize = 64, maxFlatWorkgroupSize = 0;
  unsigned sgprCount = 0, vgprCount = 0, agprCount = 0, sgprSpillCount = 0, vgprSpillCount = 0;
  std::vector<KernargSlot> args;
};

/// Parses the JSON object the compiler wrote; false with a reason naming the field otherwise.
bool parseHipKernelInfo(const std::string &json, HipKernelInfo &info, std::string &error);

/// A host value of one kernel argument: a device pointer or a scalar's bytes.
struct KernelArgValue {
  uint64_t bits = 0;
  unsigned size = 8;
  bool isPointer = false;

  static KernelArgValue pointer(const void *p);
  static KernelArgValue i32(int32_t v);
  static KernelArgValue i64(int64_t v);
  static KernelArgValue f32(float v);
  static KernelArgValue f64(double v);
};

/// The explicit arguments laid out as the AMDGPU ABI does: each at the next offset aligned to
/// its size (natural alignment), the buffer padded to a multiple of 8 bytes.
std::vector<uint8_t> packKernargs(const std::vector<KernelArgValue> &values);

/// Packs `values` at the offsets the code object's metadata gives, after checking their number,
/// sizes and kinds against it; false with a reason naming the argument otherwise.
bool packKernargs(const HipKernelInfo &info, const std::vector<KernelArgValue> &values,
                  std::vector<uint8_t> &out, std::string &error);

} // namespace tessel::rt

#endif // TESSEL_AMD_RUNTIME_HIPKERNELINFO_H
