//===- FuzzRunArgs.cpp - libFuzzer target: tessel-run's command line ------===//
//
// Input: text; the first line is a tessel-run command line (the words after the program name,
// split as --batch splits its lines), every later line one more --arg SPEC. The line goes
// through parseRunOptions (CLI11), each --arg through parseRawArg and, when it names a
// buffer, materialize with a seeded generator, as RawRun.cpp does before a launch. Any crash
// or sanitizer report is a bug: a bad command line must end in a usage error. Buffers of more
// than 2^16 elements and .npy sources are parsed but not materialized here (memory and files
// are not what this target is about; the size limit itself is checked by parseRawArg).
//
//===----------------------------------------------------------------------===//
#include "../tessel-run/Options.h"
#include "../tessel-run/RawArgs.h"

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel::harness;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::istringstream lines(text);
  std::string first, line;
  std::getline(lines, first);
  std::vector<std::string> words = splitCommandLine(first);
  words.insert(words.begin(), "tessel-run");
  while (std::getline(lines, line)) {
    words.push_back("--arg");
    words.push_back(line);
  }
  std::vector<char *> argv;
  for (std::string &w : words)
    argv.push_back(w.data());
  argv.push_back(nullptr);
  RunOptions options;
  // Usage errors print to stderr; libFuzzer's -close_fd_mask=2 silences them.
  if (parseRunOptions(int(words.size()), argv.data(), options) != -1)
    return 0;
  Random rng(options.seed);
  for (const std::string &spec : options.rawArgs) {
    RawArg arg;
    std::string err;
    if (!parseRawArg(spec, arg, err) || !arg.isBuffer || arg.source == ArgSource::Npy)
      continue;
    int64_t elements = arg.source == ArgSource::Values ? int64_t(arg.values.size()) : arg.size;
    if (elements > (int64_t(1) << 16))
      continue;
    (void)materialize(arg, rng, err);
  }
  return 0;
}
