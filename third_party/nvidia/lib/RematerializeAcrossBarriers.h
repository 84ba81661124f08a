//===- RematerializeAcrossBarriers.h - widen loaded halves after a barrier -*- C++ -*-===//
#ifndef TESSEL_NVIDIA_REMATERIALIZEACROSSBARRIERS_H
#define TESSEL_NVIDIA_REMATERIALIZEACROSSBARRIERS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tessel::nvidia {

/// In each basic block of `module` (optimized LLVM IR for NVPTX), recomputes after a barrier
/// the f32 values widened from loaded f16 / bf16 words, and the cheap element-wise values
/// computed from them, instead of keeping them live across it (the .cpp says which). Returns
/// whether anything changed.
bool rematerializeAcrossBarriers(llvm::Module &module);

} // namespace tessel::nvidia

#endif // TESSEL_NVIDIA_REMATERIALIZEACROSSBARRIERS_H
