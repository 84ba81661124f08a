//===- DebugOps.cpp - tile.print and tile.assert --------------------------===//
//
// device_print: each program writes one line per element to stdout, under the launch's mutex
// so lines of concurrent programs do not interleave. device_assert: the first false element
// fails the program with the op's location, its program id and the element's index (the launch
// reports the lowest failing program, and tessel-run exits non-zero).
//
//===----------------------------------------------------------------------===//
#include "ProgramBuilder.h"

#include <cinttypes>
#include <cstdio>

using namespace mlir;
using namespace tessel;
using namespace tessel::interp;

namespace {

/// "(i, j)" of row-major element `e` of `shape` ("()" for a scalar).
std::string indexString(ArrayRef<int64_t> shape, int64_t e) {
  SmallVector<int64_t, 4> idx(shape.size());
  for (int d = int(shape.size()) - 1; d >= 0; --d) {
    idx[d] = e % shape[d];
    e /= shape[d];
  }
  std::string s = "(";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + ")";
}

std::string pidString(const Frame &f) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ")", f.pid[0], f.pid[1],
                f.pid[2]);
  return buf;
}

} // namespace

Status ProgramBuilder::compilePrint(tile::PrintOp op, Sequence &out) {
  struct Arg {
    int slot;
    SlotType type;
  };
  std::vector<Arg> args;
  SmallVector<int64_t, 4> shape;
  for (Value v : op.getArgs()) {
    args.push_back({slot(v), type(slot(v))});
    if (!args.back().type.shape.empty())
      shape.assign(args.back().type.shape.begin(), args.back().type.shape.end());
  }
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::string prefix = op.getPrefix().str();
  bool hex = op.getHex();
  out.ops.push_back([=](Frame &f) {
    std::string lines;
    for (int64_t e = 0; e < n; ++e) {
      std::string line = pidString(f) + " idx " + indexString(shape, e) + " " + prefix;
      for (const Arg &a : args) {
        int64_t i = a.type.shape.empty() ? 0 : e;
        char buf[64];
        switch (a.type.storage()) {
        case Storage::F32:
          std::snprintf(buf, sizeof buf, " %f", double(f.slots[a.slot].as<float>()[i]));
          break;
        case Storage::F64:
          std::snprintf(buf, sizeof buf, " %f", f.slots[a.slot].as<double>()[i]);
          break;
        case Storage::I64: {
          int64_t v = f.slots[a.slot].as<int64_t>()[i];
          unsigned w = widthOf(a.type.elem);
          if (hex)
            std::snprintf(buf, sizeof buf, " 0x%" PRIx64,
                          w == 64 ? uint64_t(v) : uint64_t(v) & ((uint64_t(1) << w) - 1));
          else
            std::snprintf(buf, sizeof buf, " %" PRId64, v);
          break;
        }
        }
        line += line.back() == ' ' ? buf + 1 : buf; // no double space after "x = "
      }
      lines += line + "\n";
    }
    std::lock_guard<std::mutex> lock(f.launch->mutex);
    std::fputs(lines.c_str(), stdout);
    std::fflush(stdout);
  });
  return Status::ok();
}

Status ProgramBuilder::compileAssert(tile::AssertOp op, Sequence &out) {
  int c = slot(op.getCondition());
  SlotType t = type(c);
  std::string where = locationString(op.getLoc());
  std::string message = op.getMessage().str();
  out.ops.push_back([=](Frame &f) {
    const int64_t *cond = f.slots[c].as<int64_t>();
    for (int64_t e = 0; e < t.numel; ++e)
      if (!cond[e]) {
        f.fail(where + ": error: device_assert failed: " + message + (message.empty() ? "" : " ") +
               "(" + pidString(f) +
               (t.shape.empty() ? "" : ", element " + indexString(t.shape, e)) + ")");
        return;
      }
  });
  return Status::ok();
}
