//===- HipKernelInfo.cpp - code-object metadata and kernel arguments ------===//
#include "tessel/AMD/Runtime/HipKernelInfo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>

using namespace tessel::rt;

namespace {

bool getUnsigned(const nlohmann::json &j, const char *key, unsigned &out, bool required,
                 std::string &error) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required)
      error = std::string("kernel metadata has no '") + key + "'";
    return !required;
  }
  if (!it->is_number_unsigned() && !(it->is_number_integer() && it->get<int64_t>() >= 0)) {
    error = std::string("kernel metadata field '") + key + "' is not a non-negative integer";
    return false;
  }
  out = it->get<unsigned>();
  return true;
}

std::string getString(const nlohmann::json &j, const char *key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

} // namespace

bool tessel::rt::parseHipKernelInfo(const std::string &json, HipKernelInfo &info,
                                    std::string &error) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    error = "kernel metadata is not a JSON object";
    return false;
  }
  info = HipKernelInfo();
  info.name = getString(j, "name");
  info.symbol = getString(j, "symbol");
  info.target = getString(j, "target");
  if (info.name.empty()) {
    error = "kernel metadata has no 'name'";
    return false;
  }
  if (!getUnsigned(j, "kernarg_segment_size", info.kernargSegmentSize, true, error) ||
      !getUnsigned(j, "kernarg_segment_align", info.kernargSegmentAlign, false, error) ||
      !getUnsigned(j, "group_segment_fixed_size", info.groupSegmentFixedSize, true, error) ||
      !getUnsigned(j, "private_segment_fixed_size", info.privateSegmentFixedSize, true, error) ||
      !getUnsigned(j, "wavefront_size", info.wavefrontSize, false, error) ||
      !getUnsigned(j, "max_flat_workgroup_size", info.maxFlatWorkgroupSize, false, error) ||
      !getUnsigned(j, "code_object_version", info.codeObjectVersion, false, error) ||
      !getUnsigned(j, "sgpr_count", info.sgprCount, false, error) ||
      !getUnsigned(j, "vgpr_count", info.vgprCount, false, error) ||
      !getUnsigned(j, "agpr_count", info.agprCount, false, error) ||
      !getUnsigned(j, "sgpr_spill_count", info.sgprSpillCount, false, error) ||
      !getUnsigned(j, "vgpr_spill_count", info.vgprSpillCount, false, error))
    return false;
  auto args = j.find("args");
  if (args == j.end()) // a kernel without arguments has no "args"
    return true;
  if (!args->is_array()) {
    error = "kernel metadata field 'args' is not an array";
    return false;
  }
  for (size_t i = 0; i < args->size(); ++i) {
    const nlohmann::json &a = (*args)[i];
    std::string where = "kernel argument #" + std::to_string(i);
    if (!a.is_object()) {
      error = where + " is not an object";
      return false;
    }
    KernargSlot slot;
    slot.valueKind = getString(a, "value_kind");
    if (slot.valueKind.rfind("hidden_", 0) == 0)
      continue; // filled by the HIP runtime
    if (slot.valueKind != "global_buffer" && slot.valueKind != "by_value") {
      error = where + " has value_kind '" + slot.valueKind +
              "', which Tessel's runtime cannot pass (only global_buffer and by_value)";
      return false;
    }
    if (!getUnsigned(a, "offset", slot.offset, true, error) ||
        !getUnsigned(a, "size", slot.size, true, error)) {
      error = where + ": " + error;
      return false;
    }
    if (slot.offset + slot.size > info.kernargSegmentSize) {
      error = where + " ends at byte " + std::to_string(slot.offset + slot.size) +
              ", past the kernarg segment (" + std::to_string(info.kernargSegmentSize) + " bytes)";
      return false;
    }
    info.args.push_back(slot);
  }
  return true;
}

KernelArgValue KernelArgValue::pointer(const void *p) {
  KernelArgValue v;
  v.bits = reinterpret_cast<uintptr_t>(p);
  v.size = 8;
  v.isPointer = true;
  return v;
}

/// A scalar of `size` bytes (4 or 8) from the bytes at `p`.
static KernelArgValue scalarBits(const void *p, unsigned size) {
  KernelArgValue v;
  std::memcpy(&v.bits, p, size); // little-endian: the low bytes of `bits`
  v.size = size;
  return v;
}

KernelArgValue KernelArgValue::i32(int32_t x) { return scalarBits(&x, 4); }
KernelArgValue KernelArgValue::i64(int64_t x) { return scalarBits(&x, 8); }
KernelArgValue KernelArgValue::f32(float x) { return scalarBits(&x, 4); }
KernelArgValue KernelArgValue::f64(double x) { return scalarBits(&x, 8); }

/// The value's bytes (little-endian, as the GPU reads them) at `dst`.
static void place(const KernelArgValue &v, uint8_t *dst) {
  for (unsigned b = 0; b < v.size; ++b)
    dst[b] = uint8_t(v.bits >> (8 * b));
}

std::vector<uint8_t> tessel::rt::packKernargs(const std::vector<KernelArgValue> &values) {
  size_t offset = 0;
  std::vector<size_t> offsets;
  for (const KernelArgValue &v : values) {
    offset = (offset + v.size - 1) / v.size * v.size;
    offsets.push_back(offset);
    offset += v.size;
  }
  std::vector<uint8_t> out((offset + 7) / 8 * 8, 0);
  for (size_t i = 0; i < values.size(); ++i)
    place(values[i], out.data() + offsets[i]);
  return out;
}

bool tessel::rt::packKernargs(const HipKernelInfo &info, const std::vector<KernelArgValue> &values,
                              std::vector<uint8_t> &out, std::string &error) {
  if (values.size() != info.args.size()) {
    error = info.name + " takes " + std::to_string(info.args.size()) + " arguments, got " +
            std::to_string(values.size());
    return false;
  }
  size_t end = 0;
  for (const KernargSlot &s : info.args)
    end = std::max<size_t>(end, s.offset + s.size);
  out.assign((end + 7) / 8 * 8, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    const KernargSlot &s = info.args[i];
    const KernelArgValue &v = values[i];
    std::string where = info.name + " argument #" + std::to_string(i);
    if (v.size != s.size) {
      error = where + " is " + std::to_string(s.size) + " bytes in the kernel, got " +
              std::to_string(v.size);
      return false;
    }
    if ((s.valueKind == "global_buffer") != v.isPointer) {
      error = where + (v.isPointer ? " is a scalar in the kernel, got a pointer"
                                   : " is a pointer in the kernel, got a scalar");
      return false;
    }
    place(v, out.data() + s.offset);
  }
  return true;
}
