//===- Options.cpp - tessel-run's command line ----------------------------===//
//
// CLI11 reports its errors with exceptions; they are caught here, so the rest of tessel-run
// (and the libraries it links, built without exceptions) never sees one.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <tuple>

using namespace tessel::harness;

namespace {

constexpr const char *kDescription =
    "Runs a compiled kernel variant on a target and verifies it against a double-precision "
    "reference.\n"
    "  tessel-run KERNEL --problem NAME --shape DIMS [options]\n"
    "  tessel-run KERNEL --grid X[,Y,Z] --arg SPEC... [--save NAME=F.npy] [--expect NAME=F.npy]\n"
    "      (raw mode: the kernel on these buffers and scalars; print, save or check them)\n";

constexpr const char *kFooter =
    "--arg SPEC, one per kernel argument in order (raw mode; tools/tessel-run/RawRun.h):\n"
    "  f32:[1,2]           a buffer of these values\n"
    "  f32:FILE.npy        a buffer from a NumPy .npy file (C order, little-endian; flattened;\n"
    "                      values converted to the dtype, integers exactly)\n"
    "  f32[8]              8 elements, poisoned (printed 'poison' where the kernel wrote none)\n"
    "  f32[8]=iota         0, 1, 2, ...;   f32[8]=1.5: every element 1.5\n"
    "  f32[8]=rand         from --seed: floats uniform in [-1, 1), integers in [-8, 8), never 0\n"
    "                      (i1: 0 or 1); =rand(LO,HI): uniform in [LO, HI)\n"
    "  i64=5, f32=0.5      a scalar (integer parameters take integers, float parameters floats)\n"
    "  NAME@SPEC           labels it; where the kernel names the parameter, NAME must be that\n"
    "After the run, buffers of at most 1024 elements are printed unless --save, --expect or\n"
    "--quiet is given; others print 'NAME: N elements (DTYPE)'. --save writes f16 as '<f2' and\n"
    "bf16 as float32 '<f4' (NumPy has no bfloat16), other dtypes as their own type. --expect\n"
    "checks like a problem's output: ||out - ref|| / ||ref|| within the dtype's bound (f32 1e-5,\n"
    "f64 1e-12, f16/bf16 1e-2, integers exact; --tol X instead), no NaN or poison where the\n"
    "reference has none; one PASS/FAIL line per --expect, exit code 1 on FAIL. --bench times\n"
    "--reps launches on the initial contents.";

/// NAME=VALUE, with a non-empty NAME.
bool splitKeyValue(const std::string &s, std::string &k, std::string &v) {
  size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    return false;
  k = s.substr(0, eq), v = s.substr(eq + 1);
  return true;
}

int usageError(const std::string &message) {
  std::fprintf(stderr, "tessel-run: error: %s\n(run tessel-run --help)\n", message.c_str());
  return 2;
}

/// -D values: integers and booleans are config numbers, anything else an enum field's name.
int addDefines(const std::vector<std::string> &defines, RunOptions &out) {
  for (const std::string &kv : defines) {
    std::string k, val;
    if (!splitKeyValue(kv, k, val))
      return usageError("-D needs NAME=VALUE, got '" + kv + "'");
    char *end = nullptr;
    long long iv = std::strtoll(val.c_str(), &end, 0);
    if (val == "true" || val == "false")
      out.defines[k] = val == "true";
    else if (end && *end == 0 && !val.empty())
      out.defines[k] = iv;
    else
      out.defineText[k] = val; // an enum field: -D ACT=relu
  }
  return -1;
}

} // namespace

int tessel::harness::parseRunOptions(int argc, char **argv, RunOptions &out) {
  CLI::App app(kDescription, "tessel-run");
  app.footer(kFooter);
  app.get_formatter()->column_width(30);
  std::vector<std::string> defines, options;
  std::string programs;
  int threads = 0;
  app.add_option("KERNEL", out.kernelPath,
                 "a variant's metadata JSON (tesselc) or a tile-IR .mlir file");
  app.add_option("--kernel", out.function, "the function to run (a .mlir file with several)")
      ->option_text("NAME");
  app.add_option("--problem", out.problem,
                 "the problem spec (--list-problems); default: the variant's kernel")
      ->option_text("NAME");
  app.add_option("--shape", out.shape, "e.g. 4096x4096 (meaning per problem)")->option_text("DIMS");
  app.add_option("--dtype", out.dtype, "f32, f16, bf16, f64 (default: the variant's, else f32)")
      ->option_text("T");
  app.add_option("--seed", out.seed, "RNG seed of the inputs (default 0)")->option_text("N");
  app.add_option("--target", out.target,
                 "interpreter, cuda, hip (--list-targets); default: a GPU target that finds a "
                 "device, else the interpreter")
      ->option_text("T");
  app.add_option("-D", defines,
                 "config field for the problem (BLOCK, ACT, ...); the variant's own config "
                 "comes first")
      ->option_text("NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("--opt", options,
                 "problem option (reduction=mean, act=relu, gemm's lda=65, ...: "
                 "--list-problems)")
      ->option_text("NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("--threads", threads, "interpreter threads (default: all cores)")
      ->option_text("N")
      ->check(CLI::Range(1, 1 << 20));
  app.add_flag("--bench", out.bench, "time repeated launches (median) after the verified run");
  app.add_option("--reps", out.reps, "timed launches for --bench (default 5)")
      ->option_text("N")
      ->check(CLI::Range(1, 1 << 20));
  app.add_flag("--quiet", out.quiet,
               "print only the verdict line (raw mode: only the --expect lines)");
  app.add_option("--grid", out.gridSpec, "without --problem: run on the --arg values")
      ->option_text("X[,Y,Z]");
  app.add_option("--arg", out.rawArgs, "(repeatable) a buffer or scalar of a raw run (below)")
      ->option_text("SPEC")
      ->allow_extra_args(false);
  std::vector<std::string> saves, expects;
  app.add_option("--save", saves,
                 "(repeatable, raw mode) write buffer NAME to a .npy file after the run")
      ->option_text("NAME=FILE.npy")
      ->allow_extra_args(false);
  app.add_option("--expect", expects,
                 "(repeatable, raw mode) compare buffer NAME after the run with a .npy reference")
      ->option_text("NAME=FILE.npy")
      ->allow_extra_args(false);
  double tol = -1;
  CLI::Option *tolOption =
      app.add_option("--tol", tol,
                     "raw mode: --expect's bound instead of the dtype's (relative; absolute "
                     "for an all-zero reference)")
          ->option_text("X");
  double atol = -1, rtol = -1;
  CLI::Option *atolOption =
      app.add_option("--atol", atol,
                     "raw mode: --expect also bounds every element, |out - ref| <= atol + rtol "
                     "* |ref| (numpy.allclose; either flag turns it on, the other defaults to 0)")
          ->option_text("A");
  CLI::Option *rtolOption =
      app.add_option("--rtol", rtol, "raw mode: the relative part of --atol's bound")
          ->option_text("R");
  app.add_option("--programs", programs, "run only these linear program ids of the grid")
      ->option_text("FIRST:COUNT");
  app.add_flag("--list-targets", out.listTargets, "print the targets of this build");
  app.add_option("--batch", out.batch,
                 "run each line of FILE as a command line (without the program name), in this "
                 "process: one GPU context for all; '=== case N exit C' after each")
      ->option_text("FILE");
  std::string listFormat;
  CLI::Option *list =
      app.add_option("--list-problems", listFormat,
                     "print the problem specs and their parameters (=markdown: the table of "
                     "docs/Interpreter.md)")
          ->expected(0, 1)
          ->option_text("[=markdown]");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &) {
    std::printf("%s", app.help().c_str());
    return 0;
  } catch (const CLI::ParseError &e) {
    std::string message = e.what();
    // CLI11 puts the program's name in front of some messages; the prefix below has it.
    if (message.rfind("tessel-run: ", 0) == 0)
      message = message.substr(12);
    return usageError(message);
  }
  if (list->count()) {
    if (!listFormat.empty() && listFormat != "markdown")
      return usageError("--list-problems takes no value or =markdown, not '" + listFormat + "'");
    out.listProblems = listFormat;
  }
  if (threads > 0)
    setenv("TESSEL_INTERP_THREADS", std::to_string(threads).c_str(), 1);
  if (int rc = addDefines(defines, out); rc >= 0)
    return rc;
  for (const std::string &kv : options) {
    std::string k, v;
    if (!splitKeyValue(kv, k, v))
      return usageError("--opt needs NAME=VALUE, got '" + kv + "'");
    out.options[k] = v;
  }
  for (auto [list, flag, dest] :
       {std::tuple(&saves, "--save", &out.saves), std::tuple(&expects, "--expect", &out.expects)})
    for (const std::string &kv : *list) {
      std::string k, v;
      if (!splitKeyValue(kv, k, v) || v.empty())
        return usageError(std::string(flag) + " needs NAME=FILE.npy, got '" + kv + "'");
      dest->emplace_back(k, v);
    }
  if (tolOption->count() && !(tol >= 0)) // NaN too
    return usageError("--tol needs a bound >= 0, got " + tolOption->as<std::string>());
  if (tolOption->count())
    out.tol = tol;
  for (auto [option, value, dest] :
       {std::tuple(atolOption, atol, &out.atol), std::tuple(rtolOption, rtol, &out.rtol)}) {
    if (!option->count())
      continue;
    if (!(value >= 0))
      return usageError(option->get_name() + " needs a bound >= 0, got " +
                        option->as<std::string>());
    *dest = value;
  }
  if (!programs.empty()) {
    size_t colon = programs.find(':');
    char *end1 = nullptr, *end2 = nullptr;
    if (colon != std::string::npos) {
      out.firstProgram = std::strtoll(programs.c_str(), &end1, 10);
      out.programCount = std::strtoll(programs.c_str() + colon + 1, &end2, 10);
    }
    if (colon == std::string::npos || end1 != programs.c_str() + colon || *end2 != 0)
      return usageError("--programs needs FIRST:COUNT, got '" + programs + "'");
    out.hasPrograms = true;
  }
  return -1;
}

std::vector<std::string> tessel::harness::splitCommandLine(const std::string &line) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < line.size())
        word += line[++i];
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      inWord = true;
    } else if (c == ' ' || c == '\t') {
      if (inWord)
        words.push_back(word);
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord)
    words.push_back(word);
  return words;
}
