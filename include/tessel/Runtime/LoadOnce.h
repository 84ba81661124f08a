//===- LoadOnce.h - one process-wide, lazily loaded driver ----------------===//
//
// Shared by the vendor drivers (CudaDriver.cpp, HipDriver.cpp under third_party/*/runtime).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_RUNTIME_LOADONCE_H
#define TESSEL_RUNTIME_LOADONCE_H

#include <mutex>
#include <string>

namespace tessel::rt {

/// The process's one `Driver`, loaded (`bool Driver::load(std::string &why)`) on first use;
/// null with the load's reason in `error` when it failed (then and on every later call).
template <typename Driver> Driver *loadOnce(std::string &error) {
  static Driver driver;
  static bool ok = false;
  static std::string loadError;
  static std::once_flag once;
  std::call_once(once, [] { ok = driver.load(loadError); });
  if (!ok) {
    error = loadError;
    return nullptr;
  }
  return &driver;
}

} // namespace tessel::rt

#endif // TESSEL_RUNTIME_LOADONCE_H
