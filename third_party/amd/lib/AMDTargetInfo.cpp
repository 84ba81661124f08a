//===- AMDTargetInfo.cpp - ids, barriers, kernel attributes, limits -------===//
//
// The parts of the AMD adapter that are one ROCDL op each: work-item and workgroup ids, the
// workgroup barrier, the kernel's attributes, and the resource limits of each architecture.
// Cross-lane shuffles live in CrossLane.cpp, memory accesses in MemoryAccess.cpp, math in
// MathToOCML.cpp and code generation in Codegen.cpp.
//
// Sources for the numbers below:
//  - "AMD Instinct MI200 Instruction Set Architecture Reference Guide" (CDNA2, gfx90a) and
//    "AMD Instinct MI300 Instruction Set Architecture Reference Guide" (CDNA3, gfx942):
//    wavefronts of 64 work-items; 64 KB of LDS per compute unit, all of which one workgroup
//    may allocate; a unified file of 512 VGPRs per lane, split between architectural VGPRs
//    (at most 256) and accumulation VGPRs (AGPRs, the rest).
//  - "AMD RDNA3 Instruction Set Architecture Reference Guide" (gfx1100): wave32 for compute
//    (LLVM's default on gfx10 and later, as HIP's), at most 256 VGPRs per lane and no AGPRs,
//    64 KB of LDS per workgroup (a workgroup processor has 128 KB, one workgroup addresses 64).
//  - LLVM's AMDGPUUsage ("Processors", "Memory Spaces", "AMDGPU Attributes"): at most 1024
//    work-items per workgroup (amdgpu-flat-work-group-size), LDS is address space 3.
//
//===----------------------------------------------------------------------===//
#include "AMDTargetInfo.h"

#include "tessel/Dialect/TileGPU/IR/LinearLayout.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"
#include "tessel/Target/TargetRegistry.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::amd;

static TargetLimits cdnaLimits() {
  TargetLimits l;
  l.warpSize = 64;
  l.maxThreadsPerProgram = 1024;
  l.sharedMemoryPerProgram = 64 * 1024;
  l.sharedMemoryWithoutOptIn = 64 * 1024; // no opt-in on AMD: a workgroup may take all of it
  l.maxRegistersPerThread = 512;          // unified VGPRs + AGPRs
  return l;
}

static TargetLimits rdnaLimits() {
  TargetLimits l;
  l.warpSize = 32;
  l.maxThreadsPerProgram = 1024;
  l.sharedMemoryPerProgram = 64 * 1024;
  l.sharedMemoryWithoutOptIn = 64 * 1024;
  l.maxRegistersPerThread = 256; // VGPRs; RDNA has no AGPRs
  return l;
}

static const ArchInfo kArchs[] = {
    {"gfx90a", 9010, cdnaLimits(), MatrixUnit::Mfma},   // CDNA2: MI210, MI250, MI250X
    {"gfx942", 9402, cdnaLimits(), MatrixUnit::Mfma},   // CDNA3: MI300A, MI300X, MI325X
    {"gfx1100", 11000, rdnaLimits(), MatrixUnit::Wmma}, // RDNA3: Radeon RX 7900, Pro W7900
};

const ArchInfo *tessel::amd::lookupArch(StringRef arch) {
  for (const ArchInfo &a : kArchs)
    if (a.name == arch)
      return &a;
  return nullptr;
}

AMDTargetInfo::AMDTargetInfo(const ArchInfo &arch)
    : TargetInfo(("hip:" + arch.name).str()), arch(arch) {}

Value AMDTargetInfo::getThreadId(OpBuilder &b, Location loc) const {
  return b.create<ROCDL::ThreadIdXOp>(loc, b.getI32Type());
}

Value AMDTargetInfo::getProgramId(OpBuilder &b, Location loc, unsigned axis) const {
  Type t = b.getI32Type();
  if (axis == 0)
    return b.create<ROCDL::BlockIdXOp>(loc, t);
  if (axis == 1)
    return b.create<ROCDL::BlockIdYOp>(loc, t);
  return b.create<ROCDL::BlockIdZOp>(loc, t);
}

/// rocdl.grid.dim.* is a call of ockl's __ockl_get_num_groups (i64), which reads the
/// workgroup count from the implicit kernel arguments (code object v5); ockl is linked only
/// when a kernel asks.
Value AMDTargetInfo::getNumPrograms(OpBuilder &b, Location loc, unsigned axis) const {
  Type t = b.getI64Type();
  Value n;
  if (axis == 0)
    n = b.create<ROCDL::GridDimXOp>(loc, t);
  else if (axis == 1)
    n = b.create<ROCDL::GridDimYOp>(loc, t);
  else
    n = b.create<ROCDL::GridDimZOp>(loc, t);
  return b.create<LLVM::TruncOp>(loc, b.getI32Type(), n);
}

/// s_barrier alone orders nothing: LLVM's AMDGPU memory model (AMDGPUUsage, "Memory Model
/// GFX942") wants a workgroup-scope release fence before it, which waits for this wave's
/// outstanding LDS (and global) accesses, and an acquire fence after it. This is what HIP's
/// __syncthreads() emits.
void AMDTargetInfo::barrier(OpBuilder &b, Location loc) const {
  b.create<LLVM::FenceOp>(loc, LLVM::AtomicOrdering::release, "workgroup");
  b.create<ROCDL::SBarrierOp>(loc);
  b.create<LLVM::FenceOp>(loc, LLVM::AtomicOrdering::acquire, "workgroup");
}

/// rocdl.kernel gives the function the amdgpu_kernel calling convention;
/// amdgpu-flat-work-group-size bounds the workgroup for register allocation and
/// reqd_work_group_size states the exact shape (1-D, numThreads work-items), so the backend
/// knows the number of waves per workgroup and that the y and z ids are 0.
void AMDTargetInfo::setKernelAttributes(LLVM::LLVMFuncOp func, unsigned numThreads) const {
  MLIRContext *ctx = func.getContext();
  func->setAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  func->setAttr(ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName(),
                StringAttr::get(ctx, "1," + std::to_string(numThreads)));
  func->setAttr(ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName(),
                DenseI32ArrayAttr::get(ctx, {int32_t(numThreads), 1, 1}));
}

Attribute AMDTargetInfo::getDotEncoding(RankedTensorType a, RankedTensorType b, RankedTensorType d,
                                        tile::InputPrecision precision, unsigned numWarps,
                                        std::string &reason) const {
  // gfx90a and gfx942 share the MFMA forms used here (f16, bf16_1k, f32; 32x32 and 16x16).
  if (arch.matrixUnit == MatrixUnit::Mfma)
    return getMfmaDotEncoding(a, b, d, precision, numWarps, reason);
  (void)precision; // WMMA takes 16-bit inputs only: f32 dots stay on FMA units
  return getWmmaDotEncoding(a, b, d, numWarps, reason);
}

TargetInfo::OperandStaging AMDTargetInfo::getDotOperandStaging(RankedTensorType loaded,
                                                               RankedTensorType operand,
                                                               unsigned vectorBytes) const {
  // CDNA has no asynchronous global -> LDS copy of whole vectors: the next tile waits in
  // VGPRs (512 per lane with the AGPRs; the accumulators live in AGPRs) and is written to LDS
  // after the MFMAs, as Triton's AMD stream pipeliner does.
  // RDNA3 has 256 VGPRs and no AGPRs: a 128x128 accumulator takes half of them, and the next
  // tiles held beside it and the WMMA operands spill. Its loads stay synchronous.
  if (arch.matrixUnit == MatrixUnit::Wmma)
    return OperandStaging::None;
  auto enc = dyn_cast_if_present<tile_gpu::DotOperandEncodingAttr>(operand.getEncoding());
  if (loaded.getRank() != 2 || !enc || !isa<tile_gpu::MfmaEncodingAttr>(enc.getParent()) ||
      !isa<tile_gpu::BlockedEncodingAttr>(loaded.getEncoding()))
    return OperandStaging::None;
  // Runs narrower than 4 bytes (a stride not known to be a multiple of 8) stay synchronous:
  // an address per element held across the MFMAs spills, and on the H200 the same staging of
  // such runs was slower than synchronous loads (GPUBackends.md).
  unsigned bytes = std::max(1u, loaded.getElementTypeBitWidth() / 8);
  return vectorBytes >= 4 && tile_gpu::getElemsPerThread(loaded) * bytes <= 128
             ? OperandStaging::Registers
             : OperandStaging::None;
}

Attribute AMDTargetInfo::getDotOperandSharedEncoding(RankedTensorType loaded,
                                                     RankedTensorType operand) const {
  // MFMA operands read kWidth consecutive K elements per lane (one ds_read_b64 for 16-bit;
  // WMMA's 16 K elements two ds_read_b128): K contiguous in LDS, rows padded by 16 bytes so the
  // rows of one read fall in different banks and vectors stay aligned. No swizzle: addresses stay
  // base + constant per register.
  auto enc = cast<tile_gpu::DotOperandEncodingAttr>(operand.getEncoding());
  unsigned k = enc.getOpIdx() == 0 ? 1 : 0;
  unsigned bytes = std::max(1u, loaded.getElementTypeBitWidth() / 8);
  return tile_gpu::SharedEncodingAttr::get(loaded.getContext(), /*vec=*/1, /*perPhase=*/1,
                                           /*maxPhase=*/1, {k, 1 - k}, 16 / bytes);
}

void AMDTargetInfo::populateConversionPatterns(LLVMTypeConverter &converter, const AxisInfoMap &,
                                               SharedMemoryPlan &shared,
                                               RewritePatternSet &patterns) const {
  populateDotOpToMFMAPatterns(converter, patterns);
  populateDotOpToWMMAPatterns(converter, patterns);
  populateMfmaConvertLayoutPatterns(converter, *this, shared, patterns);
}

void AMDTargetInfo::configureConversionTarget(ConversionTarget &target) const {
  target.addLegalDialect<ROCDL::ROCDLDialect>();
}

std::unique_ptr<TargetInfo> tessel::amd::createTargetInfo(StringRef arch) {
  const ArchInfo *info = lookupArch(arch);
  if (!info)
    return nullptr;
  return std::make_unique<AMDTargetInfo>(*info);
}

void tessel::amd::registerAMDTarget() {
  TargetRegistration r;
  r.family = "hip";
  for (const ArchInfo &a : kArchs)
    r.names.push_back(("hip:" + a.name).str());
  r.create = [](StringRef name) { return createTargetInfo(name.split(':').second); };
  r.insertDialects = [](DialectRegistry &registry) { registry.insert<ROCDL::ROCDLDialect>(); };
  registerTarget(std::move(r));
}
