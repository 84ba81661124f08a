//===- HipExecutor.h - the harness Executor on an AMD GPU ---------*- C++ -*-===//
#ifndef TESSEL_AMD_RUNTIME_HIPEXECUTOR_H
#define TESSEL_AMD_RUNTIME_HIPEXECUTOR_H

namespace tessel::rt {
/// Registers the "hip" executor: runs tesselc's hsaco variants through the HIP runtime
/// (libamdhip64.so, loaded at run time). Available when the runtime loads and reports a GPU;
/// elsewhere loading a variant fails with "no AMD driver" and the reason.
void registerHipExecutor();
} // namespace tessel::rt

#endif // TESSEL_AMD_RUNTIME_HIPEXECUTOR_H
