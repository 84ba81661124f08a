//===- Runner.cpp - one verified run of a problem on an executor -----------===//
#include "tessel/Harness/Runner.h"

#include "tessel/Harness/Poison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

using namespace tessel::harness;

static std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), ::tolower);
  return s;
}

/// ProblemBuffer::checkRows: the sampled rows against their reference, and every element of the
/// buffer written.
static Comparison compareRows(const ProblemBuffer &b) {
  HostBuffer rows(b.host.dtype(), {int64_t(b.checkRows.size()), b.rowLength});
  size_t bytes = sizeOf(b.host.dtype());
  for (size_t r = 0; r < b.checkRows.size(); ++r)
    std::memcpy(static_cast<char *>(rows.data()) + r * b.rowLength * bytes,
                static_cast<const char *>(b.host.data()) + b.checkRows[r] * b.rowLength * bytes,
                b.rowLength * bytes);
  Comparison c = compare(rows, b.reference, b.tol);
  int64_t first = -1;
  int64_t unwritten = b.host.countBits(poisonBits(b.host.dtype()), 0, b.host.numel(), first);
  c.summary += fmt::format(" over {} sampled rows", b.checkRows.size());
  if (unwritten) {
    c.pass = false;
    c.unwritten = unwritten;
    c.firstBad = first;
    c.summary +=
        fmt::format("; {} elements of the whole output unwritten (first at {})", unwritten, first);
  }
  return c;
}

Status tessel::harness::bindArguments(const KernelMetadata &variant, const Problem &p,
                                      std::vector<int> &order) {
  order.clear();
  size_t n = variant.args.size();
  if (n != p.args.size()) {
    std::string expected;
    for (const ProblemArg &a : p.args)
      expected += (expected.empty() ? "" : ", ") + a.name;
    return Status::error("kernel '" + variant.function + "' takes " + std::to_string(n) +
                         " parameters but problem " + p.name + " passes " +
                         std::to_string(p.args.size()) + " (" + expected + ")");
  }
  // By name when every parameter is named and matches.
  bool byName = std::all_of(variant.args.begin(), variant.args.end(),
                            [](const KernelArgInfo &a) { return !a.name.empty(); });
  if (byName) {
    for (const KernelArgInfo &param : variant.args) {
      int found = -1;
      for (size_t j = 0; j < p.args.size() && found < 0; ++j) {
        if (lower(p.args[j].name) == lower(param.name))
          found = static_cast<int>(j);
        for (const std::string &al : p.args[j].aliases)
          if (found < 0 && lower(al) == lower(param.name))
            found = static_cast<int>(j);
      }
      if (found < 0 || std::find(order.begin(), order.end(), found) != order.end()) {
        byName = false;
        break;
      }
      order.push_back(found);
    }
  }
  if (!byName) {
    order.clear();
    for (size_t i = 0; i < n; ++i)
      order.push_back(static_cast<int>(i));
  }
  for (size_t i = 0; i < n; ++i) {
    const KernelArgInfo &param = variant.args[i];
    const ProblemArg &a = p.args[order[i]];
    std::string what =
        "parameter #" + std::to_string(i) + (param.name.empty() ? "" : " '" + param.name + "'");
    bool wantPtr = a.kind == LaunchArg::Kind::Buffer;
    if (!param.type.empty() && param.isPointer() != wantPtr)
      return Status::error(what + " of '" + variant.function + "' has type " + param.type +
                           " but problem " + p.name + " passes " +
                           (wantPtr ? "buffer '" : "scalar '") + a.name + "' there");
    if (wantPtr && param.isPointer()) {
      // "!tile.ptr<f32>" or "!tile.ptr<f32, 1>": the pointee must be the buffer's dtype.
      std::string pointee = param.type.substr(10);
      pointee = pointee.substr(0, pointee.find_first_of(",>"));
      DType have = p.buffers[a.buffer].host.dtype();
      if (pointee != name(have))
        return Status::error(what + " of '" + variant.function + "' is " + param.type +
                             " but problem " + p.name + " passes buffer '" + a.name + "' of " +
                             name(have) + " (pick the variant for that dtype, or --dtype " +
                             pointee + ")");
    }
  }
  return Status::ok();
}

Status tessel::harness::uploadArguments(Executor &ex, const KernelMetadata &variant,
                                        const Problem &p, std::vector<BufferId> &ids,
                                        std::vector<LaunchArg> &args) {
  std::vector<int> order;
  if (Status s = bindArguments(variant, p, order); !s)
    return s;
  ids.clear();
  for (const ProblemBuffer &b : p.buffers) {
    BufferId id = -1;
    if (!b.derived) {
      if (Status s = ex.allocate(b.name, b.host.dtype(), b.host.numel(), id); !s)
        return s;
      if (Status s = ex.upload(id, b.host); !s)
        return s;
    }
    ids.push_back(id);
  }
  args.clear();
  for (int idx : order) {
    const ProblemArg &a = p.args[idx];
    switch (a.kind) {
    case LaunchArg::Kind::Buffer:
      args.push_back(LaunchArg::buffer_(ids[a.buffer], p.buffers[a.buffer].pointerOffset));
      break;
    case LaunchArg::Kind::Int:
      args.push_back(LaunchArg::int_(a.i));
      break;
    case LaunchArg::Kind::Float:
      args.push_back(LaunchArg::float_(a.f));
      break;
    }
  }
  return Status::ok();
}

Status tessel::harness::runProblem(Executor &ex, const KernelMetadata &variant, Problem &p,
                                   RunReport &report) {
  report = RunReport();
  std::vector<BufferId> ids;
  std::vector<LaunchArg> args;
  if (Status s = uploadArguments(ex, variant, p, ids, args); !s)
    return s;
  auto start = std::chrono::steady_clock::now();
  Status launched = ex.launch(p.launch, args);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!launched) {
    report.error = launched.message();
    ex.releaseAll();
    return Status::ok();
  }
  report.pass = true;
  for (size_t i = 0; i < p.buffers.size(); ++i)
    if (p.buffers[i].output && !p.buffers[i].derived)
      if (Status s = ex.download(ids[i], p.buffers[i].host); !s)
        return s;
  if (p.derive)
    p.derive(p);
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    ProblemBuffer &b = p.buffers[i];
    if (!b.output)
      continue;
    if (b.checkEnd == 0)
      continue;
    OutputCheck c{b.name, b.checkRows.empty()
                              ? compare(b.host, b.reference, b.tol, b.checkBegin, b.checkEnd)
                              : compareRows(b)};
    report.pass &= c.comparison.pass;
    report.checks.push_back(std::move(c));
  }
  ex.releaseAll();
  return Status::ok();
}

std::string tessel::harness::formatReport(const Problem &p, const RunReport &r) {
  std::string s;
  if (!r.error.empty())
    return r.error + "\n" + p.name + ": FAIL (the launch failed)\n";
  for (const OutputCheck &c : r.checks)
    s += fmt::format("  {}: {} {}\n", c.buffer, c.comparison.summary,
                     c.comparison.pass ? "PASS" : "FAIL");
  s += fmt::format("{}: {}\n", p.description, r.pass ? "PASS" : "FAIL");
  return s;
}
