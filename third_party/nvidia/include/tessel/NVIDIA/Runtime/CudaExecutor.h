//===- CudaExecutor.h - the harness Executor on an NVIDIA GPU ---*- C++ -*-===//
#ifndef TESSEL_NVIDIA_RUNTIME_CUDAEXECUTOR_H
#define TESSEL_NVIDIA_RUNTIME_CUDAEXECUTOR_H

namespace tessel::rt {
/// Registers the "cuda" executor: runs tesselc's cubin (or PTX) variants through the CUDA
/// driver. Available when libcuda.so.1 loads and reports a device.
void registerCudaExecutor();
} // namespace tessel::rt

#endif // TESSEL_NVIDIA_RUNTIME_CUDAEXECUTOR_H
