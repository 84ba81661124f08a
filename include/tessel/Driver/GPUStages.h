//===- GPUStages.h - the stages of the GPU backends -------------*- C++ -*-===//
#ifndef TESSEL_DRIVER_GPUSTAGES_H
#define TESSEL_DRIVER_GPUSTAGES_H

namespace tessel::driver {
/// Gives the layout, llvm, ptx, cubin, amdgcn and hsaco stages their implementations.
void registerGPUStages();
} // namespace tessel::driver

#endif // TESSEL_DRIVER_GPUSTAGES_H
