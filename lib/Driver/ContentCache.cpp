//===- ContentCache.cpp - content-addressed files and atomic writes -------===//
#include "tessel/Driver/ContentCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

using namespace llvm;
using namespace tessel::driver;

std::string tessel::driver::getCacheDirectory() {
  if (std::optional<std::string> dir = sys::Process::GetEnv("TESSEL_CACHE_DIR"))
    if (!dir->empty())
      return *dir;
  SmallString<256> path;
  if (!sys::path::cache_directory(path))
    path = "/tmp";
  sys::path::append(path, "tessel");
  return path.str().str();
}

bool tessel::driver::alwaysCompile() {
  std::optional<std::string> v = sys::Process::GetEnv("TESSEL_ALWAYS_COMPILE");
  return v && !v->empty() && *v != "0";
}

CacheKey &CacheKey::add(StringRef name, StringRef value) {
  // Length-prefixed fields: no two different field lists hash the same bytes.
  std::string header = (Twine(name.size()) + ":" + name + "=" + Twine(value.size()) + ":").str();
  hasher.update(header);
  hasher.update(value);
  return *this;
}

Error CacheKey::addFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buf =
      MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf)
    return createStringError(buf.getError(),
                             "cannot read '" + path + "': " + buf.getError().message());
  add("file", path);
  add("contents", (*buf)->getBuffer());
  return Error::success();
}

std::string CacheKey::hex() {
  BLAKE3Result<16> digest = hasher.final<16>();
  return toHex(digest, /*LowerCase=*/true);
}

std::string tessel::driver::temporaryPathNextTo(StringRef path) {
  static std::atomic<unsigned> counter{0};
  return (path + ".tmp." + Twine(sys::Process::getProcessId()) + "." + Twine(counter++)).str();
}

Error tessel::driver::writeFileAtomically(StringRef path, StringRef data) {
  return writeToOutput(path, [&](raw_ostream &os) {
    os << data;
    return Error::success();
  });
}
