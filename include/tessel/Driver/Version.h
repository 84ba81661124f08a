//===- Version.h - the compiler version -------------------------*- C++ -*-===//
#ifndef TESSEL_DRIVER_VERSION_H
#define TESSEL_DRIVER_VERSION_H

namespace tessel::driver {
/// Written to every artifact's metadata ("compiler": {"version": ...}) and hashed into cache keys.
inline constexpr const char *kCompilerVersion = "0.1.0";
} // namespace tessel::driver

#endif // TESSEL_DRIVER_VERSION_H
