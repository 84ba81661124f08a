//===- Generator.h - building and loading a kernel file ---------*- C++ -*-===//
//
// `tesselc kernels.cpp` compiles the kernel file with the host C++ compiler into a shared
// object (the "generator"), loads it, and traces the kernels it registers. The object is
// cached by content: the key hashes the kernel file and every header it includes (from the
// compiler's -MD depfile, stored next to the object and re-hashed on every lookup), the DSL
// version, the compiler (path, size, mtime) and the flags.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_LIB_GENERATOR_H
#define TESSEL_DSL_LIB_GENERATOR_H

#include "KernelRegistry.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tessel::dsl {

struct GeneratorOptions {
  std::string compiler;   // host C++ compiler; its diagnostics go to stderr
  std::string includeDir; // the DSL headers (dsl/include)
  std::string cacheDir;   // content-addressed cache root
  bool alwaysCompile = false;
  bool verbose = false; // print cache hits/misses and the compile command on stderr
};

/// The defaults: $TESSEL_CXX or the compiler Tessel was built with; $TESSEL_DSL_INCLUDE or
/// the source tree's dsl/include; the cache of ContentCache.h.
GeneratorOptions defaultGeneratorOptions();

/// The flags every kernel file is compiled with (part of the cache key).
std::vector<std::string> generatorFlags(const GeneratorOptions &options);

/// Builds (or finds in the cache) the generator of the kernel file at `path`, loads it, and
/// returns the indices in getKernelRegistry() of the kernels it registered. Compiler errors
/// are printed by the compiler; the returned error says that compilation failed.
llvm::Expected<std::vector<size_t>> loadKernelFile(llvm::StringRef path,
                                                   const GeneratorOptions &options);

} // namespace tessel::dsl

#endif // TESSEL_DSL_LIB_GENERATOR_H
