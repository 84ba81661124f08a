//===- ResourceEstimate.cpp - what a config needs, before compiling -------===//
#include "ResourceEstimate.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace tessel;
using namespace tessel::tune;

const char *tune::limitName(Limit l) {
  switch (l) {
  case Limit::none:
    return "none";
  case Limit::threads:
    return "threads per program";
  case Limit::sharedMemory:
    return "shared memory";
  case Limit::registers:
    return "registers per thread";
  }
  return "?";
}

/// Bytes of one element (pointers: 8).
static int64_t elementBytes(Type t) {
  if (t.isIntOrFloat())
    return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
  return 8;
}

static int64_t tensorBytes(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  return r && r.hasStaticShape() ? r.getNumElements() * elementBytes(r.getElementType()) : 0;
}

Limit tune::checkThreads(int numWarps, const TargetLimits &limits, std::string &why) {
  int64_t threads = int64_t(numWarps) * limits.warpSize;
  if (threads <= limits.maxThreadsPerProgram)
    return Limit::none;
  why = std::to_string(threads) + " > " + std::to_string(limits.maxThreadsPerProgram);
  return Limit::threads;
}

/// Bytes of a dot operand once tile-gpu-pad-shapes has rounded each dimension up to a power of
/// two (a 96-wide B is 128 wide in the ring: 128x96 tiles on 8 stages need 8 x 32 KiB).
static int64_t paddedBytes(Type t) {
  auto r = dyn_cast<RankedTensorType>(t);
  if (!r || !r.hasStaticShape())
    return 0;
  int64_t n = elementBytes(r.getElementType());
  for (int64_t d : tile_gpu::paddedShape(r.getShape()))
    n *= d;
  return n;
}

ResourceEstimate tune::estimateResources(ModuleOp module, int numWarps, int numStages,
                                         unsigned warpSize) {
  ResourceEstimate e;
  e.threads = int64_t(numWarps) * warpSize;
  // Dot accumulators stay in registers while the matrix unit reads the operands from shared
  // memory, and are updated in place: values of a dot result's type count once.
  llvm::SmallPtrSet<Type, 4> accumulatorTypes;
  module.walk([&](tile::DotOp dot) { accumulatorTypes.insert(dot.getType()); });
  int64_t peakWords = 0, peakAccumulator = 0; // 32-bit words per thread
  module.walk([&](Operation *op) {
    for (Type t : op->getResultTypes()) {
      auto r = dyn_cast<RankedTensorType>(t);
      // Only data (floats) counts: pointer and index tensors are address arithmetic that the
      // lowering mostly folds into a base and constant offsets per thread.
      if (!r || !r.hasStaticShape() || !isa<FloatType>(r.getElementType()))
        continue;
      int64_t words = (tensorBytes(r) + 3) / 4;
      int64_t perThread = (words + e.threads - 1) / e.threads;
      int64_t &peak = accumulatorTypes.contains(t) ? peakAccumulator : peakWords;
      peak = std::max(peak, perThread);
    }
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      int64_t operands = paddedBytes(dot.getA().getType()) + paddedBytes(dot.getB().getType());
      auto kLoop = op->getParentOfType<scf::ForOp>();
      int64_t bytes = operands * (kLoop ? std::max(numStages, 1) : 1);
      // A K loop inside another loop (a persistent or stream-K kernel's loop over tiles) keeps
      // its ring from tile to tile, beside the epilogue's scratch, which converts the f32
      // accumulator's layout through shared memory: the two cannot share bytes (gemm_persistent
      // 128x128 on 6 stages: 196608 + 65536 + barriers = 263200 bytes, over a 232448 limit).
      if (kLoop && kLoop->getParentOfType<scf::ForOp>())
        bytes += paddedBytes(dot.getType());
      e.sharedBytes = std::max(e.sharedBytes, bytes);
    }
    if (isa<tile::ScanOp>(op))
      for (Type t : op->getResultTypes())
        e.sharedBytes = std::max(e.sharedBytes, tensorBytes(t));
  });
  e.registers = std::max(peakWords, peakAccumulator) + 16;
  return e;
}

Limit tune::checkEstimate(const ResourceEstimate &e, const TargetLimits &limits, std::string &why) {
  if (e.threads > limits.maxThreadsPerProgram) {
    why = std::to_string(e.threads) + " > " + std::to_string(limits.maxThreadsPerProgram);
    return Limit::threads;
  }
  if (limits.sharedMemoryPerProgram && e.sharedBytes > limits.sharedMemoryPerProgram) {
    why =
        std::to_string(e.sharedBytes) + " bytes > " + std::to_string(limits.sharedMemoryPerProgram);
    return Limit::sharedMemory;
  }
  if (e.registers > limits.maxRegistersPerThread) {
    why = "about " + std::to_string(e.registers) + " > " +
          std::to_string(limits.maxRegistersPerThread);
    return Limit::registers;
  }
  return Limit::none;
}
