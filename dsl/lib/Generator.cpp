//===- Generator.cpp - building and loading a kernel file -----------------===//
#include "Generator.h"

#include "tessel/Driver/ContentCache.h"
#include "tessel/Driver/Depfile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <map>

using namespace llvm;
using namespace tessel;
using namespace tessel::dsl;

#ifndef TESSEL_HOST_CXX
#define TESSEL_HOST_CXX "c++"
#endif
#ifndef TESSEL_DSL_INCLUDE_DIR
#define TESSEL_DSL_INCLUDE_DIR ""
#endif

GeneratorOptions tessel::dsl::defaultGeneratorOptions() {
  GeneratorOptions o;
  o.compiler = sys::Process::GetEnv("TESSEL_CXX").value_or(TESSEL_HOST_CXX);
  o.includeDir = sys::Process::GetEnv("TESSEL_DSL_INCLUDE").value_or(TESSEL_DSL_INCLUDE_DIR);
  o.cacheDir = driver::getCacheDirectory();
  o.alwaysCompile = driver::alwaysCompile();
  return o;
}

std::vector<std::string> tessel::dsl::generatorFlags(const GeneratorOptions &options) {
  return {
      "-std=c++20", "-O0", "-fPIC", "-shared", "-fvisibility=hidden", "-I" + options.includeDir};
}

static Error error(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The full key: the manifest key plus the path and contents of every file in the depfile.
static Expected<std::string> fullKey(StringRef manifestKey, StringRef depfileText) {
  driver::CacheKey key;
  key.add("manifest", manifestKey);
  for (const std::string &dep : driver::parseDepfile(depfileText))
    if (Error err = key.addFile(dep))
      return std::move(err);
  return key.hex();
}

static Expected<std::vector<size_t>> loadObject(StringRef object) {
  // Loading the same object twice runs no registrations the second time.
  static std::map<std::string, std::vector<size_t>> loaded;
  auto it = loaded.find(object.str());
  if (it != loaded.end())
    return it->second;
  std::vector<KernelInfo> &registry = getKernelRegistry();
  size_t before = registry.size();
  if (!dlopen(object.str().c_str(), RTLD_NOW | RTLD_LOCAL))
    return error(Twine("cannot load the kernel library: ") + dlerror());
  std::vector<size_t> indices;
  for (size_t i = before; i < registry.size(); ++i)
    indices.push_back(i);
  loaded[object.str()] = indices;
  return indices;
}

Expected<std::vector<size_t>> tessel::dsl::loadKernelFile(StringRef path,
                                                          const GeneratorOptions &options) {
  SmallString<256> source;
  if (std::error_code ec = sys::fs::real_path(path, source))
    return error("cannot open '" + path + "': " + ec.message());

  std::string compiler = options.compiler;
  if (!sys::path::is_absolute(compiler)) {
    ErrorOr<std::string> found = sys::findProgramByName(compiler);
    if (!found)
      return error("cannot find the C++ compiler '" + compiler + "' (set TESSEL_CXX)");
    compiler = *found;
  }
  sys::fs::file_status compilerStatus;
  if (std::error_code ec = sys::fs::status(compiler, compilerStatus))
    return error("cannot stat the C++ compiler '" + compiler + "': " + ec.message());

  std::vector<std::string> flags = generatorFlags(options);
  driver::CacheKey manifest;
  manifest.add("kind", "tessel-generator")
      .add("abi", std::to_string(TESSEL_DSL_ABI_VERSION))
      .add("dsl", TESSEL_DSL_VERSION)
      .add("compiler", compiler)
      .add("compiler-size", std::to_string(compilerStatus.getSize()))
      .add("compiler-mtime",
           std::to_string(compilerStatus.getLastModificationTime().time_since_epoch().count()))
      .add("flags", join(flags, " "))
      .add("source", source);
  std::string manifestKey = manifest.hex();

  SmallString<256> dir(options.cacheDir);
  sys::path::append(dir, "generators");
  if (std::error_code ec = sys::fs::create_directories(dir))
    return error("cannot create the cache directory '" + dir + "': " + ec.message());
  SmallString<256> manifestPath(dir);
  sys::path::append(manifestPath, manifestKey + ".d");

  auto objectPath = [&](StringRef key) {
    SmallString<256> p(dir);
    sys::path::append(p, key + ".so");
    return p.str().str();
  };

  // Lookup: the recorded depfile names every file the object was built from; re-hash them.
  if (!options.alwaysCompile) {
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> deps = MemoryBuffer::getFile(manifestPath)) {
      Expected<std::string> key = fullKey(manifestKey, (*deps)->getBuffer());
      if (key && sys::fs::exists(objectPath(*key))) {
        if (options.verbose)
          errs() << "tesselc: generator cache hit: " << objectPath(*key) << "\n";
        return loadObject(objectPath(*key));
      }
      if (!key)
        consumeError(key.takeError()); // a dependency is gone: rebuild
    }
  }

  // Build into temporaries next to the cache entries, then rename them into place.
  std::string tmpObject = driver::temporaryPathNextTo(objectPath(manifestKey));
  std::string tmpDeps = driver::temporaryPathNextTo(manifestPath);
  std::vector<StringRef> args = {compiler};
  for (const std::string &f : flags)
    args.push_back(f);
  args.insert(args.end(), {"-MD", "-MF", tmpDeps, "-o", tmpObject, source});
  if (options.verbose)
    errs() << "tesselc: compiling " << source << ": " << join(args, " ") << "\n";
  std::string message;
  int rc = sys::ExecuteAndWait(compiler, args, /*Env=*/std::nullopt, /*Redirects=*/{},
                               /*SecondsToWait=*/0, /*MemoryLimit=*/0, &message);
  auto cleanup = [&] {
    sys::fs::remove(tmpObject);
    sys::fs::remove(tmpDeps);
  };
  if (rc != 0) {
    cleanup();
    if (rc < 0)
      return error("cannot run the C++ compiler '" + compiler + "': " + message);
    return error("compiling '" + source + "' failed");
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> deps = MemoryBuffer::getFile(tmpDeps);
  if (!deps) {
    cleanup();
    return error("the compiler wrote no depfile for '" + source + "'");
  }
  Expected<std::string> key = fullKey(manifestKey, (*deps)->getBuffer());
  if (!key) {
    cleanup();
    return key.takeError();
  }
  std::string object = objectPath(*key);
  if (std::error_code ec = sys::fs::rename(tmpObject, object)) {
    cleanup();
    return error("cannot rename '" + tmpObject + "' to '" + object + "': " + ec.message());
  }
  if (std::error_code ec = sys::fs::rename(tmpDeps, manifestPath)) {
    cleanup();
    return error("cannot rename '" + tmpDeps + "': " + ec.message());
  }
  return loadObject(object);
}
