//===- ProblemBuilder.h - what every problem spec shares --------*- C++ -*-===//
//
// Internal to lib/Harness/Problems: the Builder a spec fills its Problem with, the shape and
// dtype checks the families share, and the specs themselves, one file per family; Registry.cpp
// lists them with their parameter orders.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_HARNESS_PROBLEMS_PROBLEMBUILDER_H
#define TESSEL_LIB_HARNESS_PROBLEMS_PROBLEMBUILDER_H

#include "tessel/Harness/Parallel.h"
#include "tessel/Harness/Problem.h"
#include "tessel/Harness/Random.h"
#include "tessel/Harness/Reference.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tessel::harness::problems {

inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Helpers shared by every spec.
struct Builder {
  const ProblemOptions &o;
  Problem &p;
  Random rng;
  Builder(const ProblemOptions &o, Problem &p) : o(o), p(p), rng(o.seed) {}

  int64_t config(std::initializer_list<const char *> names, int64_t fallback) const {
    for (const char *n : names)
      configRead.insert(n);
    for (const char *n : names)
      for (const auto &[k, v] : o.config) {
        std::string a = k, b = n;
        std::transform(a.begin(), a.end(), a.begin(), ::tolower);
        std::transform(b.begin(), b.end(), b.begin(), ::tolower);
        if (a == b)
          return v;
      }
    return fallback;
  }
  /// An enum config field of the variant (ACT = "relu"), or `fallback`.
  std::string text(const std::string &key, const std::string &fallback) const {
    configRead.insert(key);
    for (const auto &[k, v] : o.configText) {
      std::string a = k, b = key;
      std::transform(a.begin(), a.end(), a.begin(), ::tolower);
      std::transform(b.begin(), b.end(), b.begin(), ::tolower);
      if (a == b)
        return v;
    }
    return fallback;
  }
  /// The config fields the spec read (Problem::configRead).
  mutable std::set<std::string> configRead;
  /// The --opt keys the spec asked for: any other key the user gave is a mistake.
  mutable std::set<std::string> optionsRead;
  std::string option(const std::string &key, const std::string &fallback) const {
    optionsRead.insert(key);
    auto it = o.options.find(key);
    return it == o.options.end() ? fallback : it->second;
  }
  /// An option that takes one of `values` (the first is the default); another value is an
  /// error of the problem, reported after the spec (badOption) with the values it takes.
  std::string choice(const std::string &key, const std::vector<std::string> &values) const {
    std::string v = option(key, values.front());
    if (std::find(values.begin(), values.end(), v) == values.end() && badOption.empty()) {
      badOption = "problem " + o.name + ": option " + key + "=" + v + " is not one of ";
      for (size_t i = 0; i < values.size(); ++i)
        badOption += (i ? ", " : "") + values[i];
    }
    return v;
  }
  /// The first option value `choice` refused, or empty.
  mutable std::string badOption;
  int input(const std::string &name, DType t, std::vector<int64_t> shape, double lo = -1,
            double hi = 1) {
    ProblemBuffer b;
    b.name = name;
    if (ProblemBuffer *d = donor(name, t, shape)) {
      b.host = std::move(d->host);
      d->name.clear(); // taken
    } else {
      b.host = HostBuffer(t, std::move(shape));
      if (o.draw)
        fillUniform(b.host, rng, lo, hi);
    }
    p.buffers.push_back(std::move(b));
    return static_cast<int>(p.buffers.size()) - 1;
  }
  /// ProblemOptions::inputsFrom's input buffer `name` when it has this dtype and shape.
  ProblemBuffer *donor(const std::string &name, DType t, const std::vector<int64_t> &shape) {
    if (!o.inputsFrom)
      return nullptr;
    for (ProblemBuffer &d : o.inputsFrom->buffers)
      if (d.input && !d.output && d.name == name && d.host.dtype() == t && d.host.shape() == shape)
        return &d;
    return nullptr;
  }
  int output(const std::string &name, DType t, std::vector<int64_t> shape) {
    ProblemBuffer b;
    b.name = name;
    b.host = HostBuffer(t, std::move(shape));
    b.host.fillPoison();
    b.output = true;
    b.input = false;
    b.tol = defaultTolerance(t);
    p.buffers.push_back(std::move(b));
    return static_cast<int>(p.buffers.size()) - 1;
  }
  /// A kernel's working memory: uploaded with `fill` (NaN poison by default, so a read of a
  /// slot the kernel never wrote shows in the output), neither compared nor downloaded.
  int scratch(const std::string &name, DType t, std::vector<int64_t> shape, bool zero = false) {
    ProblemBuffer b;
    b.name = name;
    b.host = HostBuffer(t, std::move(shape));
    if (!zero) // a new HostBuffer holds zeros
      b.host.fillPoison();
    p.buffers.push_back(std::move(b));
    return static_cast<int>(p.buffers.size()) - 1;
  }
  void ptr(const std::string &name, int buffer, std::vector<std::string> aliases = {}) {
    ProblemArg a;
    a.name = name, a.aliases = std::move(aliases), a.kind = LaunchArg::Kind::Buffer;
    a.buffer = buffer;
    p.args.push_back(a);
  }
  void i64(const std::string &name, int64_t v, std::vector<std::string> aliases = {}) {
    ProblemArg a;
    a.name = name, a.aliases = std::move(aliases), a.kind = LaunchArg::Kind::Int, a.i = v;
    p.args.push_back(a);
  }
  void f64(const std::string &name, double v, std::vector<std::string> aliases = {}) {
    ProblemArg a;
    a.name = name, a.aliases = std::move(aliases), a.kind = LaunchArg::Kind::Float, a.f = v;
    p.args.push_back(a);
  }
  std::vector<double> values(int b) const { return p.buffers[b].host.toDoubles(); }
  /// Calls fn(x, first, count) for chunks of whole rows of the (rows, cols) buffer `in`, x holding
  /// rows [first, first + count) as doubles, on every core (Parallel.h): a row-wise reference
  /// is then built without a float64 copy of the whole input. fn writes only its rows.
  void forRowChunks(int in, int64_t rows, int64_t cols,
                    const std::function<void(const std::vector<double> &x, int64_t first,
                                             int64_t count)> &fn) const {
    const HostBuffer &h = p.buffers[in].host;
    forChunks(rows, std::max<int64_t>(1, kChunkElements / std::max<int64_t>(cols, 1)),
              [&](int64_t, int64_t first, int64_t end) {
                // Per chunk: a chunk is one row when rows are long (a thread_local would keep
                // the widest for the process's life).
                std::vector<double> x((end - first) * cols);
                h.toDoubles(first * cols, end * cols, x.data());
                fn(x, first, end - first);
              });
  }
  void describe() {
    p.description = o.name + " " + name(o.dtype) + " [" + shapeString(o.shape) + "]";
  }
};

inline Status needRank(const ProblemOptions &o, size_t rank, const char *what) {
  if (o.shape.size() != rank)
    return Status::error("problem " + o.name + ": expected a shape " + what + ", got '" +
                         shapeString(o.shape) + "'");
  return Status::ok();
}

inline Status floatDType(const ProblemOptions &o) {
  if (!isFloat(o.dtype))
    return Status::error("problem " + o.name + ": dtype " + name(o.dtype) +
                         " is not supported (f16, bf16, f32, f64)");
  return Status::ok();
}

/// Rows x cols from a rank-1 (one row) or rank-2 shape.
inline Status rowsCols(const ProblemOptions &o, int64_t &rows, int64_t &cols) {
  if (o.shape.size() == 1)
    rows = 1, cols = o.shape[0];
  else if (o.shape.size() == 2)
    rows = o.shape[0], cols = o.shape[1];
  else
    return Status::error("problem " + o.name + ": expected a shape ROWSxCOLS, got '" +
                         shapeString(o.shape) + "'");
  return Status::ok();
}

// The specs. Each builds its problem from the options or says what is wrong with them.
Status vectorAdd(Builder &b); // Elementwise.cpp
Status swiglu(Builder &b);
Status geglu(Builder &b);
Status softmax(Builder &b); // Rows.cpp
Status rowMax(Builder &b);
Status cumsum(Builder &b);
Status rmsnorm(Builder &b);
Status rmsnormRows(Builder &b);
Status addRmsnorm(Builder &b);
Status addRmsnormOut(Builder &b);
Status layernorm(Builder &b);
Status layernormRows(Builder &b);
Status rope(Builder &b);         // Rope.cpp
Status ropeOut(Builder &b);      // Rope.cpp
Status ropeSeqOut(Builder &b);   // Rope.cpp
Status ropeFlat(Builder &b);     // Rope.cpp
Status ropeQk(Builder &b);       // Rope.cpp
Status crossEntropy(Builder &b); // CrossEntropy.cpp
Status crossEntropyBackward(Builder &b);
Status crossEntropyFused(Builder &b);
Status crossEntropyBackwardLse(Builder &b);
Status gemmCrossEntropyBackward(Builder &b);
Status gemm(Builder &b);               // Gemm.cpp
Status gemmSplitK(Builder &b);         // Gemm.cpp
Status gemmResidual(Builder &b);       // Gemm.cpp
Status gemmPersistent(Builder &b);     // Gemm.cpp
Status gemmStreamK(Builder &b);        // Gemm.cpp
Status gemmSwiglu(Builder &b);         // Gemm.cpp
Status moeRouting(Builder &b);         // MoeRouting.cpp
Status topKTopPMask(Builder &b);       // Sampling.cpp
Status rmsnormBackward(Builder &b);    // Backward.cpp
Status addRmsnormBackward(Builder &b); // Backward.cpp
Status rmsnormDwReduce(Builder &b);
Status layernormBackward(Builder &b);
Status swigluBackward(Builder &b);
Status gegluBackward(Builder &b);

} // namespace tessel::harness::problems

#endif // TESSEL_LIB_HARNESS_PROBLEMS_PROBLEMBUILDER_H
