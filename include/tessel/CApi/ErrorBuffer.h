//===- ErrorBuffer.h - the C API's error messages ---------------*- C++ -*-===//
//
// Both libraries behind include/tessel/CApi/Kernels.h (the CUDA one without MLIR, the
// interpreter's with it) answer a failure the same way; this is that one way.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_CAPI_ERRORBUFFER_H
#define TESSEL_CAPI_ERRORBUFFER_H

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

namespace tessel::capi {

/// Copies `message` into err[0..errLen) (cut to fit, NUL-terminated; nothing when err is null
/// or errLen 0) and returns 1, the C API's failure.
inline int fail(const std::string &message, char *err, size_t errLen) {
  if (err && errLen) {
    size_t n = std::min(message.size(), errLen - 1);
    std::memcpy(err, message.data(), n);
    err[n] = 0;
  }
  return 1;
}

} // namespace tessel::capi

#endif // TESSEL_CAPI_ERRORBUFFER_H
