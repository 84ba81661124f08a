//===- ContentCache.h - content-addressed files and atomic writes -*- C++ -*-===//
//
// Tessel's compile cache lives in $TESSEL_CACHE_DIR, else ~/.cache/tessel (the XDG cache
// directory); TESSEL_ALWAYS_COMPILE=1 makes every lookup miss. Entries are named by a hash of
// everything that decides their content and are written atomically (a temporary file in the
// same directory, then rename), so concurrent compilers never see half an entry.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DRIVER_CONTENTCACHE_H
#define TESSEL_DRIVER_CONTENTCACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tessel::driver {

/// The cache root: $TESSEL_CACHE_DIR, else <XDG cache dir>/tessel.
std::string getCacheDirectory();
/// True when TESSEL_ALWAYS_COMPILE is set to anything but "" or "0".
bool alwaysCompile();

/// Builds a cache key from named fields and file contents (BLAKE3, hex).
class CacheKey {
public:
  /// Adds a named field; the name keeps ("a","bc") and ("ab","c") apart.
  CacheKey &add(llvm::StringRef name, llvm::StringRef value);
  /// Adds the path and the contents of a file; an error when it cannot be read.
  llvm::Error addFile(llvm::StringRef path);
  /// The key: 32 hex digits.
  std::string hex();

private:
  llvm::BLAKE3 hasher;
};

/// Writes `data` to `path` with llvm::writeToOutput: a temporary file next to it, renamed over
/// it once complete, so a reader (or a concurrent tesselc) sees the old file or the new one,
/// never a partial one; on failure the old file stays and the temporary is removed.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef data);
/// A fresh temporary path next to `path` (same directory, so rename is atomic), for files that
/// another process writes (the generator's object and depfile) and that are renamed into place.
std::string temporaryPathNextTo(llvm::StringRef path);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_CONTENTCACHE_H
