//===- MemoryAccess.cpp - bounds checks of the interpreter's memory ops ---===//
//
// One range test covers the common case of a tile within one buffer; otherwise lane by lane.
// The report names the op's line, the program id, the lane and the element offset from the
// nearest buffer.
//
//===----------------------------------------------------------------------===//
#include "MemoryAccess.h"

#include <algorithm>
#include <cinttypes>

using namespace mlir;
using namespace tessel::interp;
namespace h = tessel::harness;

namespace {

const MemoryRegion *regionOf(const std::vector<MemoryRegion> &mem, uint64_t addr) {
  auto it = std::upper_bound(mem.begin(), mem.end(), addr,
                             [](uint64_t a, const MemoryRegion &r) { return a < r.begin; });
  if (it == mem.begin())
    return nullptr;
  --it;
  return addr - it->begin < it->bytes ? &*it : nullptr;
}

bool inside(const std::vector<MemoryRegion> &mem, uint64_t addr, size_t size) {
  const MemoryRegion *r = regionOf(mem, addr);
  return r && addr + size - r->begin <= r->bytes && addr + size > addr;
}

std::string laneString(const AccessInfo &info, int64_t lane) {
  std::string s = "lane " + std::to_string(lane);
  if (info.shape.size() >= 2) {
    llvm::SmallVector<int64_t, 4> idx(info.shape.size());
    int64_t rest = lane;
    for (int d = static_cast<int>(info.shape.size()) - 1; d >= 0; --d) {
      idx[d] = rest % info.shape[d];
      rest /= info.shape[d];
    }
    s += " [";
    for (size_t d = 0; d < idx.size(); ++d)
      s += (d ? ", " : "") + std::to_string(idx[d]);
    s += "]";
  }
  int64_t n = 1;
  for (int64_t d : info.shape)
    n *= d;
  return s + " of " + std::to_string(n);
}

/// The out-of-bounds report: op, location, program id, lane, and the element offset relative
/// to the nearest buffer.
std::string outOfBounds(const Frame &f, const AccessInfo &info, int64_t lane, uint64_t addr) {
  const std::vector<MemoryRegion> &mem = *f.launch->memory;
  const MemoryRegion *nearest = nullptr;
  uint64_t best = UINT64_MAX;
  for (const MemoryRegion &r : mem) {
    uint64_t d = addr < r.begin              ? r.begin - addr
                 : addr >= r.begin + r.bytes ? addr - (r.begin + r.bytes) + 1
                                             : 0;
    if (d < best)
      best = d, nearest = &r;
  }
  char pid[96];
  std::snprintf(pid, sizeof pid, "program_id (%" PRId64 ", %" PRId64 ", %" PRId64 ")", f.pid[0],
                f.pid[1], f.pid[2]);
  std::string msg = info.loc + ": error: out-of-bounds " + info.opName + " of " +
                    h::name(info.dtype) + " in " + pid + ", " + laneString(info, lane) + ": ";
  if (!nearest)
    return msg + "no buffer is registered (address " + std::to_string(addr) + ")";
  int64_t offset = static_cast<int64_t>(addr - nearest->begin) / static_cast<int64_t>(info.size);
  int64_t count = static_cast<int64_t>(nearest->bytes / info.size);
  return msg + "element offset " + std::to_string(offset) + " from the start of buffer '" +
         nearest->name + "', which holds " + std::to_string(count) +
         " elements (valid offsets 0.." + std::to_string(count - 1) + "); nothing was accessed";
}

} // namespace

AccessInfo tessel::interp::accessInfo(ProgramBuilder &builder, Operation *op, Type ptrType,
                                      const char *opName) {
  AccessInfo i;
  i.loc = locationString(op->getLoc());
  i.opName = opName;
  SlotType t;
  (void)builder.slotTypeOf(ptrType, op, t);
  i.dtype = t.pointee;
  i.size = h::sizeOf(t.pointee);
  i.shape.assign(t.shape.begin(), t.shape.end());
  return i;
}

bool tessel::interp::checkAccess(Frame &f, const AccessInfo &info, const int64_t *ptr,
                                 const int64_t *mask, int64_t n) {
  const std::vector<MemoryRegion> &mem = *f.launch->memory;
  // Branch-free min/max over the enabled lanes (vectorizes).
  uint64_t lo = UINT64_MAX, hi = 0;
  if (!mask) {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t a = static_cast<uint64_t>(ptr[i]);
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t a = static_cast<uint64_t>(ptr[i]);
      bool on = mask[i] != 0;
      lo = on && a < lo ? a : lo;
      hi = on && a > hi ? a : hi;
    }
  }
  if (lo == UINT64_MAX && hi == 0) // no enabled lane (any enabled lane moves lo or hi)
    return true;
  if (const MemoryRegion *r = regionOf(mem, lo))
    if (hi + info.size - r->begin <= r->bytes && hi + info.size > hi)
      return true;
  for (int64_t i = 0; i < n; ++i) {
    if (mask && !mask[i])
      continue;
    uint64_t a = static_cast<uint64_t>(ptr[i]);
    if (!inside(mem, a, info.size)) {
      f.fail(outOfBounds(f, info, i, a));
      return false;
    }
  }
  return true;
}
