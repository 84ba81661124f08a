//===- CodeObject.h - AMDGPU code object metadata ---------------*- C++ -*-===//
#ifndef TESSEL_AMD_CODEOBJECT_H
#define TESSEL_AMD_CODEOBJECT_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace tessel::amd {

/// Reads the AMDGPU metadata note (NT_AMDGPU_METADATA, msgpack; AMDGPUUsage "Code Object V5
/// Metadata") of an ELF code object and, for kernel `name`:
///  - adds its resource usage to `resources`: vgpr_count, agpr_count, sgpr_count,
///    vgpr_spill_count, sgpr_spill_count, lds_bytes (.group_segment_fixed_size), scratch_bytes
///    (.private_segment_fixed_size), kernarg_bytes, max_flat_workgroup_size, wavefront_size,
///    uses_dynamic_stack;
///  - writes the JSON object the runtime reads (third_party/amd/runtime/HipKernelInfo): the fields
///  above
///    under their metadata names, the code object version and target, and the kernel
///    arguments' layout (offset, size, value_kind, address_space when given).
mlir::LogicalResult readCodeObjectMetadata(llvm::StringRef elf, llvm::StringRef name,
                                           llvm::StringMap<int64_t> &resources, std::string &json,
                                           std::string &error);

} // namespace tessel::amd

#endif // TESSEL_AMD_CODEOBJECT_H
