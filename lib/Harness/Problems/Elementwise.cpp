//===- Elementwise.cpp - vector_add, swiglu and geglu ---------------------===//
//
// out = f(first, second) over n elements; grid cdiv(n, BLOCK).
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessel::harness::problems {

using Binary = std::vector<double> (*)(const std::vector<double> &, const std::vector<double> &);

/// The GELU of geglu: erf (config approximate = none, the default) or tanh.
static std::vector<double> gegluTanh(const std::vector<double> &a, const std::vector<double> &b) {
  std::vector<double> o(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    double x = a[i];
    o[i] = 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))) * b[i];
  }
  return o;
}

/// vector_add (x, y, out, n) and the GLUs (out, gate, up, n): out = f(first, second) over n
/// elements; option tail=T keeps only the last T elements of each tensor in memory and runs
/// only the programs that touch them (case C6).
static Status elementwise(Builder &b, bool outFirst, const char *aName, const char *bName, Binary f,
                          std::vector<std::string> aAliases, std::vector<std::string> bAliases) {
  const ProblemOptions &o = b.o;
  if (Status s = floatDType(o); !s)
    return s;
  int64_t n = 1;
  for (int64_t d : o.shape)
    n *= d;
  int64_t block = b.config({"BLOCK", "BLOCK_SIZE"}, 1024);
  int64_t tail = std::atoll(b.option("tail", "0").c_str());
  int64_t start = 0;
  if (tail > 0 && tail < n)
    start = ((n - tail) / block) * block; // first element of the first program that runs
  int64_t len = n - start;
  int x = b.input(aName, o.dtype, {len});
  int y = b.input(bName, o.dtype, {len});
  int out = b.output("out", o.dtype, {len});
  for (int i : {x, y, out})
    b.p.buffers[i].pointerOffset = -start;
  // Timing only (the autotuner) skips the reference. Chunk by chunk on every core, so that the
  // operands' float64 copies (3.8 GB for SwiGLU's 235M elements) never exist whole.
  if (o.reference) {
    const HostBuffer &hx = b.p.buffers[x].host, &hy = b.p.buffers[y].host;
    std::vector<double> &ref = b.p.buffers[out].reference;
    ref.resize(len);
    forChunks(len, kChunkElements, [&](int64_t, int64_t lo, int64_t hi) {
      thread_local std::vector<double> a, c;
      a.resize(hi - lo);
      c.resize(hi - lo);
      hx.toDoubles(lo, hi, a.data());
      hy.toDoubles(lo, hi, c.data());
      std::vector<double> r = f(a, c);
      std::copy(r.begin(), r.end(), ref.begin() + lo);
    });
  }
  if (outFirst)
    b.ptr("out", out, {"out_ptr", "output", "output_ptr", "o", "y"});
  b.ptr(aName, x, aAliases);
  b.ptr(bName, y, bAliases);
  if (!outFirst)
    b.ptr("out", out, {"out_ptr", "output", "output_ptr", "o", "c"});
  b.i64("n", n, {"n_elements", "numel", "size"});
  b.p.launch.grid.x = cdiv(n, block);
  b.p.launch.firstProgram = start / block;
  b.p.elements = len; // the elements this run touches (all of them unless tail=T)
  b.p.bytes = 3 * len * static_cast<int64_t>(sizeOf(o.dtype));
  b.describe();
  if (start)
    b.p.description += " (last " + std::to_string(len) + " elements, programs " +
                       std::to_string(start / block) + ".." +
                       std::to_string(b.p.launch.grid.x - 1) + ")";
  return Status::ok();
}

Status vectorAdd(Builder &b) {
  return elementwise(b, false, "x", "y", ref::vectorAdd, {"x_ptr", "a", "a_ptr", "input"},
                     {"y_ptr", "b", "b_ptr"});
}

Status swiglu(Builder &b) {
  return elementwise(b, true, "gate", "up", ref::swiglu, {"a", "gate_ptr", "x"},
                     {"b", "up_ptr", "y"});
}

Status geglu(Builder &b) {
  bool tanh = b.text("approximate", b.option("approximate", "none")) == "tanh";
  return elementwise(b, true, "gate", "up", tanh ? gegluTanh : ref::geglu, {"a", "gate_ptr", "x"},
                     {"b", "up_ptr", "y"});
}

} // namespace tessel::harness::problems
