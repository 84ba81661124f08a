//===- CrossLane.cpp - xor shuffles across the lanes of a wavefront -------===//
//
// shuffleXor(v, m) returns v from lane (lane ^ m). A wave64 has no single instruction that
// does every xor, so each mask takes the cheapest exact one (CDNA3 ISA guide, "Data Parallel
// Processing (DPP)" and "LDS Instructions: DS_SWIZZLE_B32, DS_BPERMUTE_B32"):
//
//   m = 1, 2   DPP quad_perm [1,0,3,2] / [2,3,0,1]: a VALU operand modifier, no LDS traffic;
//              LLVM folds the v_mov_b32_dpp into the combining op where it can (v_add_f32_dpp).
//   m = 4      two DPP moves within each row of 16: row_shr:4 writes banks 1 and 3 (lanes
//              4-7, 12-15 read lanes 0-3, 8-11), then row_shl:4 writes banks 0 and 2 (lanes
//              0-3, 8-11 read lanes 4-7, 12-15) over the first move's result.
//   m = 8      DPP row_ror:8: rotating a row of 16 lanes by 8 is xor 8.
//   m = 16     ds_swizzle_b32 in bit mode, offset 0x401F: and_mask 0x1F, or_mask 0,
//              xor_mask 0x10, applied within each group of 32 lanes.
//   m = 32     ds_bpermute_b32 with byte address ((lane ^ 32) << 2): the only one of these that
//              crosses the two 32-lane halves (DPP rows are 16 lanes, swizzle groups 32).
//
// The same instructions serve RDNA's wave32 (gfx1100; RDNA3 ISA guide, "DPP16"): quad_perm,
// row_shl/shr/ror and the swizzle are there, and masks stop at 16.
//
// Other masks (never produced by power-of-two layouts, but legal) go through ds_bpermute.
// DPP and the swizzle read every source lane, so they assume the whole wave is active: the
// shared lowering shuffles only in straight-line reduction code, and a reduction under a
// divergent branch is as undefined here as NVIDIA's full-mask shfl.sync is there.
// The DPP ops are llvm.call_intrinsic of llvm.amdgcn.update.dpp: MLIR 19's ROCDL dialect has
// no DPP op yet.
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::amd;

namespace {

/// dpp_ctrl encodings (the DppCtrl enumeration of LLVM's SIDefines.h).
enum DppCtrl : unsigned {
  kQuadPerm = 0x000, ///< + perm[0] | perm[1] << 2 | perm[2] << 4 | perm[3] << 6
  kRowShl = 0x100,   ///< + shift 1..15
  kRowShr = 0x110,   ///< + shift 1..15
  kRowRor = 0x120,   ///< + rotation 1..15
};
constexpr unsigned kAllRows = 0xf, kAllBanks = 0xf;

unsigned quadPerm(unsigned l0, unsigned l1, unsigned l2, unsigned l3) {
  return kQuadPerm | l0 | l1 << 2 | l2 << 4 | l3 << 6;
}

/// llvm.amdgcn.update.dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl): lanes of rows and
/// banks outside the masks keep `old`.
Value dpp(OpBuilder &b, Location loc, Value old, Value src, unsigned ctrl, unsigned rowMask,
          unsigned bankMask, bool boundCtrl) {
  Value args[] = {old,
                  src,
                  i32Const(b, loc, ctrl),
                  i32Const(b, loc, rowMask),
                  i32Const(b, loc, bankMask),
                  b.create<LLVM::ConstantOp>(loc, b.getI1Type(), b.getBoolAttr(boundCtrl))};
  return b.create<LLVM::CallIntrinsicOp>(loc, b.getI32Type(), "llvm.amdgcn.update.dpp", args)
      .getResult(0);
}

/// A DPP move that writes every lane from a valid source lane (quad_perm, row_ror): `old` is
/// never read, so it is poison and bound_ctrl is set, which is what LLVM's DPP combiner needs
/// to fold the move into the instruction that consumes it (v_add_f32_dpp).
Value dppAllLanes(OpBuilder &b, Location loc, Value src, unsigned ctrl) {
  Value poison = b.create<LLVM::PoisonOp>(loc, b.getI32Type());
  return dpp(b, loc, poison, src, ctrl, kAllRows, kAllBanks, /*boundCtrl=*/true);
}

/// v from lane (lane ^ m) through ds_bpermute_b32 (any m below the wave size).
Value bpermuteXor(OpBuilder &b, Location loc, const TargetInfo &target, Value v, unsigned m) {
  Value lane = b.create<LLVM::AndOp>(loc, target.getThreadId(b, loc),
                                     i32Const(b, loc, target.getWarpSize() - 1));
  Value src = b.create<LLVM::XOrOp>(loc, lane, i32Const(b, loc, m));
  Value addr = b.create<LLVM::ShlOp>(loc, src, i32Const(b, loc, 2));
  return b.create<ROCDL::DsBpermuteOp>(loc, b.getI32Type(), addr, v);
}

} // namespace

Value AMDTargetInfo::shuffleXor(OpBuilder &b, Location loc, Value v, unsigned laneMask) const {
  Type t = v.getType();
  Type i32 = b.getI32Type();
  Value x = t == i32 ? v : b.create<LLVM::BitcastOp>(loc, i32, v).getResult();
  Value r;
  switch (laneMask) {
  case 1:
    r = dppAllLanes(b, loc, x, quadPerm(1, 0, 3, 2));
    break;
  case 2:
    r = dppAllLanes(b, loc, x, quadPerm(2, 3, 0, 1));
    break;
  case 4: {
    // The first move's banks 0 and 2 are overwritten by the second: its `old` is never read.
    Value poison = b.create<LLVM::PoisonOp>(loc, i32);
    Value upper = dpp(b, loc, poison, x, kRowShr + 4, kAllRows, /*banks 1, 3=*/0xa, false);
    r = dpp(b, loc, upper, x, kRowShl + 4, kAllRows, /*banks 0, 2=*/0x5, false);
    break;
  }
  case 8:
    r = dppAllLanes(b, loc, x, kRowRor + 8);
    break;
  case 16:
    r = b.create<ROCDL::DsSwizzleOp>(loc, i32, x, i32Const(b, loc, 0x401F));
    break;
  default:
    r = bpermuteXor(b, loc, *this, x, laneMask & (getWarpSize() - 1));
    break;
  }
  return t == i32 ? r : b.create<LLVM::BitcastOp>(loc, t, r).getResult();
}
