//===- RawArgs.h - the --arg specs of tessel-run's raw mode -----*- C++ -*-===//
//
// One --arg of `tessel-run KERNEL --grid ... --arg SPEC...` (RawRun.h describes the syntax):
// parsed first, checked against the kernel's signature (RawRun.cpp), then given its contents.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TESSEL_RUN_RAWARGS_H
#define TESSEL_TOOLS_TESSEL_RUN_RAWARGS_H

#include "tessel/Harness/Executor.h"
#include "tessel/Harness/HostBuffer.h"
#include "tessel/Harness/Random.h"

#include <string>
#include <vector>

namespace tessel::harness {

/// A buffer's contents as its --arg describes them; filled after the signature checks.
enum class ArgSource { Values, Poison, Iota, Fill, Rand, Npy };

/// One element value for a buffer of `dtype`: integer buffers take integers exactly (case
/// C15: 9007199254740993 is not rounded through a double), else any number.
struct ElementValue {
  bool isInt = false;
  int64_t i = 0;
  double f = 0;
  void storeTo(HostBuffer &b, int64_t k) const { isInt ? b.setInt(k, i) : b.set(k, f); }
};

/// One --arg: its syntax, then its parameter and contents.
struct RawArg {
  std::string spec;  ///< as given
  std::string label; ///< NAME@, or empty
  std::string name;  ///< the label, else the kernel's parameter name, else argN
  DType dtype = DType::f32;
  bool isBuffer = false;
  LaunchArg arg; ///< a scalar
  // A buffer:
  ArgSource source = ArgSource::Poison;
  int64_t size = 0;                 ///< Poison, Iota, Fill, Rand
  std::vector<ElementValue> values; ///< Values
  ElementValue fill;                ///< Fill
  double lo = -1, hi = 1;           ///< Rand over a float dtype: [lo, hi)
  int64_t ilo = -8, ihi = 8;        ///< Rand over an integer dtype: [ilo, ihi)
  std::string path;                 ///< Npy
  HostBuffer host;                  ///< the initial contents
  BufferId id = -1;
};

/// Whether `v` is a value of the integer dtype `t`, signed or unsigned (i1: 0 or 1; i64: all).
bool fitsInteger(DType t, int64_t v);
/// Reads the syntax of one --arg; files and random values are read and drawn later.
bool parseRawArg(const std::string &spec, RawArg &out, std::string &err);
/// Gives a parsed buffer its initial contents.
bool materialize(RawArg &p, Random &rng, std::string &err);

} // namespace tessel::harness

#endif // TESSEL_TOOLS_TESSEL_RUN_RAWARGS_H
