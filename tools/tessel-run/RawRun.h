//===- RawRun.h - tessel-run without a problem spec ---------------*- C++ -*-===//
//
// `tessel-run KERNEL --grid X[,Y,Z] --arg SPEC...` runs a kernel on buffers and scalars given
// on the command line and prints every buffer afterwards: the mode of the interpreter's lit
// tests. SPEC is one of
//   f32:[1,2.5,-3]     a buffer holding these values
//   f32[8]             a buffer of 8 elements, poisoned (printed "poison" where unwritten)
//   f32[8]=iota        0, 1, 2, ...;   f32[8]=1.5: every element 1.5
//   i64=5, f32=0.5     a scalar of that type
// Integer values (buffers and scalars) are parsed as integers, exactly: i64 9007199254740993
// is not rounded through a double (case C15). --grid accepts 0 (an empty grid, a no-op: C17).
// An optional NAME@ prefix names a buffer (in out-of-bounds reports and in the output).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_RUN_RAWRUN_H
#define TESSEL_TOOLS_TESSEL_RUN_RAWRUN_H

#include "tessel/Harness/Executor.h"

#include <string>
#include <vector>

namespace tessel::harness {

/// Runs the loaded variant; prints buffers to stdout and errors to stderr; returns the exit
/// code (0 ran, 1 the launch failed, 2 bad arguments).
int rawRun(Executor &ex, const KernelMetadata &variant, const std::vector<std::string> &specs,
           const Grid &grid, int64_t firstProgram, int64_t programCount);

} // namespace tessel::harness

#endif // TESSEL_TOOLS_TESSEL_RUN_RAWRUN_H
