//===- WgmmaEncoding.cpp - when a dot runs on Hopper's wgmma --------------===//
#include "NVIDIATargetInfo.h"

#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include <string>

using namespace mlir;
using namespace tessel;

Attribute tessel::nvidia::getWgmmaDotEncoding(RankedTensorType a, RankedTensorType b,
                                              RankedTensorType d, unsigned numWarps,
                                              std::string &reason) {
  Type elem = a.getElementType();
  int64_t M = a.getDimSize(0), K = a.getDimSize(1), N = b.getDimSize(1);
  if (!(elem.isF16() || elem.isBF16()) || b.getElementType() != elem ||
      !d.getElementType().isF32()) {
    reason = "wgmma here takes f16 or bf16 operands accumulated in f32";
    return {};
  }
  // Warpgroups stack along M (mma version 3 with warpsPerCTA = [numWarps, 1]): every warp
  // needs its 16 rows of each 64-row instruction.
  if (numWarps % 4 != 0) {
    reason = "num_warps = " + std::to_string(numWarps) +
             " is not a multiple of 4 (wgmma runs on warpgroups of 4 warps)";
    return {};
  }
  if (M % (16 * int64_t(numWarps)) != 0) {
    reason = "BLOCK_M = " + std::to_string(M) +
             " is not a multiple of 16 * num_warps = " + std::to_string(16 * numWarps) +
             " (each warpgroup takes 64 rows at a time); a larger BLOCK_M or fewer warps "
             "uses wgmma";
    return {};
  }
  // A 32-byte row is the narrowest swizzled placement wgmma reads.
  if (K % 16 != 0 || N % 16 != 0) {
    reason = "BLOCK_K = " + std::to_string(K) + " and BLOCK_N = " + std::to_string(N) +
             " must be multiples of 16";
    return {};
  }
  unsigned instrN = unsigned(std::min<int64_t>(N, 256));
  return tile_gpu::MmaEncodingAttr::get(a.getContext(), 3, {numWarps, 1}, {64, instrN});
}
