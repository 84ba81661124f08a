//===- CudaTensorMaps.cpp - a variant's TMA descriptors at launch ---------===//
#include "tessel/NVIDIA/Runtime/CudaTensorMaps.h"

#include <cstdint>
#include <cstring>

using namespace tessel;
using namespace tessel::rt;

namespace {

// cuda.h's CUtensorMapDataType, CUtensorMapSwizzle and CUtensorMapL2promotion values.
enum : int { kDataF16 = 6, kDataF32 = 7, kDataBF16 = 9 };
enum : int { kSwizzle32B = 1, kSwizzle64B = 2, kSwizzle128B = 3 };
enum : int { kL2Promotion256B = 3 };

/// The value of `op` at this launch: a kernel argument (sign-extended) or a constant.
int64_t valueOf(const harness::TensorMapInfo::Operand &op, const std::vector<CheckedArg> &args) {
  if (!op.arg)
    return op.value;
  const CheckedArg &a = args[size_t(*op.arg)];
  if (a.size >= 8)
    return int64_t(a.bits);
  int shift = 64 - 8 * int(a.size);
  return int64_t(a.bits << shift) >> shift;
}

} // namespace

bool tessel::rt::encodeTensorMaps(const CudaDriver &driver, const harness::KernelMetadata &variant,
                                  const std::vector<CheckedArg> &args, std::vector<uint8_t> &out,
                                  std::string &error) {
  out.assign(variant.tensorMaps.size() * kTensorMapBytes, 0);
  if (variant.tensorMaps.empty())
    return true;
  if (!driver.cuTensorMapEncodeTiled) {
    error = variant.function + " copies with TMA, which needs a CUDA 12 or newer driver "
                               "(cuTensorMapEncodeTiled)";
    return false;
  }
  for (size_t i = 0; i < variant.tensorMaps.size(); ++i) {
    const harness::TensorMapInfo &m = variant.tensorMaps[i];
    // Named only when something fails: this runs on every launch of a TMA variant.
    auto what = [&] {
      return variant.function + " tensor map #" + std::to_string(i) + " (argument '" +
             (m.base >= 0 && size_t(m.base) < variant.args.size()
                  ? variant.args[size_t(m.base)].name
                  : "?") +
             "')";
    };
    int type = m.element == "bf16"  ? kDataBF16
               : m.element == "f16" ? kDataF16
               : m.element == "f32" ? kDataF32
                                    : -1;
    int elemBytes = scalarBytes(m.element);
    int swizzle = m.swizzle == 128  ? kSwizzle128B
                  : m.swizzle == 64 ? kSwizzle64B
                  : m.swizzle == 32 ? kSwizzle32B
                                    : -1;
    unsigned rank = unsigned(m.dims.size());
    if (type < 0 || swizzle < 0 || rank < 1 || rank > 5 || m.base < 0 ||
        size_t(m.base) >= args.size() || !args[size_t(m.base)].isPointer) {
      error = what() + ": unsupported element type, swizzle or rank; recompile with tesselc";
      return false;
    }
    uint64_t dims[5], strides[4];
    unsigned box[5], elementStrides[5];
    for (unsigned d = 0; d < rank; ++d) {
      // An empty dimension copies nothing (the loop that would is empty), but the encoder
      // wants at least one element.
      dims[d] = uint64_t(std::max<int64_t>(1, valueOf(m.dims[d], args)));
      // The kernel's box coordinates are 32-bit signed (cp.async.bulk.tensor).
      if (dims[d] > uint64_t(INT32_MAX)) {
        error = what() + ": dimension " + std::to_string(d) + " has " + std::to_string(dims[d]) +
                " elements; TMA coordinates are 32-bit (use the variant it specializes)";
        return false;
      }
      box[d] = unsigned(m.box[d]);
      elementStrides[d] = 1;
    }
    for (unsigned d = 0; d + 1 < rank; ++d) {
      int64_t s = valueOf(m.strides[d], args) * elemBytes;
      if (s <= 0 || s % 16 != 0) {
        error = what() + ": a stride of " + std::to_string(s) +
                " bytes; TMA needs positive multiples of 16 (use the variant it specializes)";
        return false;
      }
      strides[d] = uint64_t(s);
    }
    uint64_t base = args[size_t(m.base)].bits;
    if (base % 16 != 0) {
      error = what() + ": the base address is not 16-byte aligned";
      return false;
    }
    alignas(64) uint8_t map[kTensorMapBytes];
    int r = driver.cuTensorMapEncodeTiled(map, type, rank, reinterpret_cast<void *>(base), dims,
                                          strides, box, elementStrides, /*interleave=*/0, swizzle,
                                          kL2Promotion256B, /*oobFill zero=*/0);
    if (r != 0) {
      error = what() + ": cuTensorMapEncodeTiled: " + driver.describe(r);
      return false;
    }
    std::memcpy(out.data() + i * kTensorMapBytes, map, kTensorMapBytes);
  }
  return true;
}
