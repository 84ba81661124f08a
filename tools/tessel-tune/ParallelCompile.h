//===- ParallelCompile.h - compiling a space's survivors in parallel -*- C++ -*-===//
//
// One process, a thread pool, an MLIRContext per worker thread: each job traces its variant
// (the tracer is process-global, so traces take turns; they are about a millisecond), then runs
// the pipeline and the stages, and its __div8 twin, concurrently with the others. Configs whose
// traces are the same tile IR (they differ only in a field the launch reads, such as
// gemm_split_k's SPLIT_K) are compiled once and share the binary.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_TUNE_PARALLELCOMPILE_H
#define TESSEL_TOOLS_TESSEL_TUNE_PARALLELCOMPILE_H

#include "KernelRegistry.h"

#include "tessel/Driver/Compiler.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::tune {

/// One variant to compile.
struct CompileJob {
  const dsl::KernelInfo *kernel;
  const dsl::detail::VariantDef *variant;
  const dsl::ConfigValue *config;
  std::string name; ///< the variant name
  // Results.
  bool ok = false;
  std::string twin; ///< the twin's name (__div8, or the --twin request's), when there is one
  /// The job whose binary this one's metadata names (the same tile IR), when not its own.
  std::string binaryOf;
  /// The assembler's spill bytes per thread for the binary the timing launches first (the
  /// twin's when there is one); empty where no assembler ran.
  std::optional<int64_t> spillBytes;
  double ms = 0; ///< wall time of this job
};

/// Compiles every job into `options.outputDir` on `threads` threads (0: one per core) for
/// `target`, printing one progress line per job unless `quiet`. Each GPU variant gets one twin:
/// the automatic __div8 one, or when `twinRequest` is given (tesselc's --twin syntax,
/// SUFFIX:ARG=1,ARG=0,ARG%N,...) that one instead, e.g. the TMA GEMM's, whose promises the
/// automatic analysis cannot see through block pointers. Errors go to stderr.
void compileInParallel(std::vector<CompileJob> &jobs, const driver::CompileOptions &options,
                       const std::string &target, unsigned threads, bool quiet,
                       const std::string &twinRequest = "");

} // namespace tessel::tune

#endif // TESSEL_TOOLS_TESSEL_TUNE_PARALLELCOMPILE_H
