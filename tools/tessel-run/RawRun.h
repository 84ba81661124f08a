//===- RawRun.h - tessel-run without a problem spec ---------------*- C++ -*-===//
//
// `tessel-run KERNEL --grid X[,Y,Z] --arg SPEC...` runs a kernel on buffers and scalars given
// on the command line: the mode of the interpreter's lit tests, and the way to test and time a
// kernel of one's own. One --arg per kernel argument, in order. SPEC is one of
//   f32:[1,2.5,-3]     a buffer holding these values
//   f32:PATH.npy       a buffer filled from a NumPy .npy file (include/tessel/Harness/Npy.h:
//                      versions 1.0-3.0, C order, little-endian, descr <f2 <f4 <f8 |i1 <i2 <i4
//                      <i8 |u1 <u2 <u4 <u8 |b1), flattened, every value converted to the
//                      buffer's dtype (floats round to nearest even, f32 -> bf16 as
//                      HostBuffer::set; integer buffers take integers exactly and refuse
//                      values that do not fit or are not integral)
//   f32[8]             a buffer of 8 elements, poisoned (printed "poison" where unwritten)
//   f32[8]=iota        0, 1, 2, ...;   f32[8]=1.5: every element 1.5
//   f32[8]=rand        random from --seed's stream (lib/Harness/Random.h, the generator of the
//                      problems; the rand buffers draw from one stream in --arg order): floats
//                      uniform in [-1, 1) (drawn in double, then rounded to the dtype, which
//                      may round up to 1 as in the problems), integers in [-8, 8); never 0
//                      after rounding unless the range holds nothing else; i1 gets 0 and 1
//   f32[8]=rand(LO,HI) the same, uniform in [LO, HI) (integers: LO and HI integers with
//                      -2^(bits-1) <= LO < HI <= 2^(bits-1), i1 0 <= LO < HI <= 2; floats:
//                      finite in the dtype)
//   i64=5, f32=0.5     a scalar of that type
// Integer values (buffers and scalars) are parsed as integers, exactly: i64 9007199254740993
// is not rounded through a double (case C15). --grid accepts 0 (an empty grid, a no-op: C17).
// An optional NAME@ prefix labels the argument; the buffer goes by that name (in out-of-bounds
// reports, the output, --save and --expect), else by the kernel's name for the parameter, else
// argN.
//
// After the syntax of every --arg, and before a file is read or a buffer allocated, the
// arguments are checked against the variant's signature (KernelMetadata::args): the number of
// --arg; a label where the kernel names the parameter (not a generated argN) must be that name; a
// buffer goes to a pointer of its dtype, a scalar to a scalar parameter, an integer scalar to an
// integer parameter and a float one to a float parameter. Violations are usage errors (exit 2)
// naming the parameter.
//
// After the run each buffer of at most 1024 elements is printed ("o = [1, 2, poison]") unless
// --save, --expect or --quiet is given; other buffers print "NAME: N elements (DTYPE)", and
// --quiet prints none. --save NAME=PATH.npy writes a buffer (Npy.h: bf16 as float32).
// --expect NAME=PATH.npy compares it with a reference through the harness's compare()
// (Compare.h: ||out - ref|| / ||ref|| within defaultTolerance of the buffer's dtype, or --tol
// X for both the relative and the zero-reference absolute bound; poison or NaN where the
// reference has none fails) and prints "NAME: max_abs_err=... rel_err=... (bound ...)
// PASS|FAIL". When every --expect passed, --bench then times --reps launches (after one
// warm-up) on the initial contents through Executor::time and prints the problem mode's line,
// counting the largest buffer's elements and every buffer's bytes once; an executor that cannot
// time (Executor::canTime) is a usage error before the run.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_RUN_RAWRUN_H
#define TESSEL_TOOLS_TESSEL_RUN_RAWRUN_H

#include "Options.h"

#include "tessel/Harness/Executor.h"

#include <string>
#include <vector>

namespace tessel::harness {

/// Runs the loaded variant; prints buffers and verdicts to stdout and errors to stderr; returns
/// the exit code (0 ran and every --expect passed, 1 the launch failed or an --expect failed, 2
/// bad arguments or files).
int rawRun(Executor &ex, const KernelMetadata &variant, const RunOptions &options,
           const Grid &grid);

/// Prints --bench's line: "bench: median X ms over N launches, E elements/s, B GB/s", plus the
/// fraction of the device's copy bandwidth when the executor measures it. Sorts `ms`.
void printBench(Executor &ex, std::vector<double> &ms, int reps, double elements, double bytes);

} // namespace tessel::harness

#endif // TESSEL_TOOLS_TESSEL_RUN_RAWRUN_H
