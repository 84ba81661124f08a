//===- Depfile.h - reading a compiler's -MD dependency file -----*- C++ -*-===//
#ifndef TESSEL_DRIVER_DEPFILE_H
#define TESSEL_DRIVER_DEPFILE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tessel::driver {

/// The prerequisites of the first rule of a Makefile-style depfile (`out.o: a.cpp b.h \`),
/// handling line continuations and `\ `-escaped spaces; the targets are dropped.
std::vector<std::string> parseDepfile(llvm::StringRef text);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_DEPFILE_H
