/*===- Kernels.h - the C API of the Python package (ctypes) -------*- C -*-===//
//
// Loads compiled kernel variants (tesselc's <variant>.json and its tile IR or cubin) and
// launches them on caller-owned memory. Two libraries export it, with one argument record:
//   libtessel_launcher.so  tessel_cuda_*: cubins through the CUDA driver (loaded at run time);
//                          no MLIR or LLVM, for GPU machines.
//   libtessel_interp.so    tessel_interp_*: tile IR on the CPU interpreter; links MLIR.
// python/tessel/_capi.py binds them with ctypes; docs/Python.md says why a C API.
// Every function returns 0 on success, else 1 with a NUL-terminated message in err[0..errLen).
//
//===----------------------------------------------------------------------===*/
#ifndef TESSEL_CAPI_KERNELS_H
#define TESSEL_CAPI_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TESSEL_ARG_POINTER = 0, TESSEL_ARG_INT = 1, TESSEL_ARG_FLOAT = 2 };

/// One kernel argument, in the kernel's order. Pointers: `address` is the first element the
/// kernel sees; the interpreter also needs the allocation it may touch, [regionBegin,
/// regionBegin + regionBytes) (the CUDA path ignores it).
typedef struct TesselArg {
  int32_t kind;
  int32_t reserved;
  uint64_t address;
  int64_t i;
  double f;
  uint64_t regionBegin;
  uint64_t regionBytes;
} TesselArg;

/// CUDA: loads `variantJson` (its cubin, else PTX) into device 0's primary context, the one
/// PyTorch uses. *kernel stays valid for the process.
int tessel_cuda_load(const char *variantJson, void **kernel, char *err, size_t errLen);
/// Launches `kernel` over grid[0..2] on `stream` (a CUstream; 0: the legacy default stream)
/// without waiting. twins[0..numTwins) are the variant's twins (tesselc's __div8 and named
/// `--twin`s, loaded with tessel_cuda_load), the most specialized first: the first whose
/// promises the arguments keep runs instead of `kernel`. Arguments are checked against the
/// variant's signature (count, pointer or scalar, alignment and divisibility); errors name the
/// argument.
int tessel_cuda_launch(void *kernel, void *const *twins, int32_t numTwins, const int64_t grid[3],
                       const TesselArg *args, int32_t numArgs, void *stream, char *err,
                       size_t errLen);
/// "NVIDIA H200 (sm_90, 132 SMs)" or why there is no device, into out[0..outLen).
void tessel_cuda_device(char *out, size_t outLen);
/// The CUDA driver's version ("CUDA 13.0") or why there is none, into out[0..outLen): with
/// tessel_cuda_device, what a tuning cache entry's device and driver must match.
void tessel_cuda_driver(char *out, size_t outLen);

/// Interpreter: parses and compiles the variant's tile IR. *kernel stays valid for the process.
int tessel_interp_load(const char *variantJson, void **kernel, char *err, size_t errLen);
/// Runs the grid on the CPU and waits; an access outside the pointer arguments' regions stops
/// the run with the op's source line, the program id and the offset.
int tessel_interp_launch(void *kernel, const int64_t grid[3], const TesselArg *args,
                         int32_t numArgs, char *err, size_t errLen);
/// "CPU interpreter (N threads)": the interpreter's device as the tuning cache names it.
void tessel_interp_device(char *out, size_t outLen);

#ifdef __cplusplus
}
#endif

#endif /* TESSEL_CAPI_KERNELS_H */
