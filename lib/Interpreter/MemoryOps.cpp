//===- MemoryOps.cpp - pointers, loads, stores, block pointers ------------===//
//
// Every access is checked first (MemoryAccess.h): a lane out of bounds stops the program
// instance before any lane reads or writes. Atomics are in AtomicOps.cpp.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "MemoryAccess.h"

using namespace mlir;
using namespace tessel::interp;
namespace tile = tessel::tile;
namespace h = tessel::harness;
using h::DType;

namespace {

template <typename T> T readMem(uint64_t addr) {
  T v;
  std::memcpy(&v, reinterpret_cast<const void *>(addr), sizeof(T));
  return v;
}
template <typename T> void writeMem(uint64_t addr, T v) {
  std::memcpy(reinterpret_cast<void *>(addr), &v, sizeof(T));
}

/// Value of a masked-off lane without `other`: 0 = poison, 1 = zero, 2 = NaN (block padding).
enum class Fill { Poison, Zero, NaN };

template <typename S, typename Rd>
void loadLoop(const int64_t *ptr, const int64_t *mask, const S *other, S fill, S *out, int64_t n,
              Rd rd) {
  if (!mask) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = rd(static_cast<uint64_t>(ptr[i]));
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    out[i] = mask[i] ? rd(static_cast<uint64_t>(ptr[i])) : (other ? other[i] : fill);
}

void doLoad(const AccessInfo &info, const int64_t *ptr, const int64_t *mask, const void *other,
            Fill fill, void *out, int64_t n) {
  auto floatFill = [&](float poison) {
    return fill == Fill::Zero ? 0.0f : fill == Fill::NaN ? NAN : poison;
  };
  auto intFill = [&](unsigned w) -> int64_t { return fill == Fill::Poison ? intPoison(w) : 0; };
  const float *of = static_cast<const float *>(other);
  const int64_t *oi = static_cast<const int64_t *>(other);
  switch (info.dtype) {
  case DType::f32:
    return loadLoop<float>(ptr, mask, of, floatFill(f32Poison()), static_cast<float *>(out), n,
                           [](uint64_t a) { return readMem<float>(a); });
  case DType::f16:
    return loadLoop<float>(ptr, mask, of, floatFill(h::halfToFloat(h::kPoisonF16)),
                           static_cast<float *>(out), n,
                           [](uint64_t a) { return h::halfToFloat(readMem<uint16_t>(a)); });
  case DType::bf16:
    return loadLoop<float>(ptr, mask, of, floatFill(h::bf16ToFloat(h::kPoisonBF16)),
                           static_cast<float *>(out), n,
                           [](uint64_t a) { return h::bf16ToFloat(readMem<uint16_t>(a)); });
  case DType::f64:
    return loadLoop<double>(ptr, mask, static_cast<const double *>(other),
                            fill == Fill::Zero  ? 0.0
                            : fill == Fill::NaN ? double(NAN)
                                                : f64Poison(),
                            static_cast<double *>(out), n,
                            [](uint64_t a) { return readMem<double>(a); });
  case DType::i1:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(1), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<uint8_t>(a) != 0; });
  case DType::i8:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(8), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int8_t>(a); });
  case DType::i16:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(16), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int16_t>(a); });
  case DType::i32:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(32), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int32_t>(a); });
  case DType::i64:
    return loadLoop<int64_t>(ptr, mask, oi, intFill(64), static_cast<int64_t *>(out), n,
                             [](uint64_t a) -> int64_t { return readMem<int64_t>(a); });
  }
}

template <typename S, typename Wr>
void storeLoop(const int64_t *ptr, const int64_t *mask, const S *v, int64_t n, Wr wr) {
  for (int64_t i = 0; i < n; ++i)
    if (!mask || mask[i])
      wr(static_cast<uint64_t>(ptr[i]), v[i]);
}

void doStore(const AccessInfo &info, const int64_t *ptr, const int64_t *mask, const void *value,
             int64_t n) {
  const float *vf = static_cast<const float *>(value);
  const int64_t *vi = static_cast<const int64_t *>(value);
  switch (info.dtype) {
  case DType::f32:
    return storeLoop(ptr, mask, vf, n, [](uint64_t a, float v) { writeMem(a, v); });
  case DType::f16:
    return storeLoop(ptr, mask, vf, n, [](uint64_t a, float v) { writeMem(a, h::floatToHalf(v)); });
  case DType::bf16:
    return storeLoop(ptr, mask, vf, n, [](uint64_t a, float v) { writeMem(a, h::floatToBF16(v)); });
  case DType::f64:
    return storeLoop(ptr, mask, static_cast<const double *>(value), n,
                     [](uint64_t a, double v) { writeMem(a, v); });
  case DType::i1:
    return storeLoop(ptr, mask, vi, n, [](uint64_t a, int64_t v) { writeMem<uint8_t>(a, v & 1); });
  case DType::i8:
    return storeLoop(ptr, mask, vi, n,
                     [](uint64_t a, int64_t v) { writeMem<int8_t>(a, int8_t(v)); });
  case DType::i16:
    return storeLoop(ptr, mask, vi, n,
                     [](uint64_t a, int64_t v) { writeMem<int16_t>(a, int16_t(v)); });
  case DType::i32:
    return storeLoop(ptr, mask, vi, n,
                     [](uint64_t a, int64_t v) { writeMem<int32_t>(a, int32_t(v)); });
  case DType::i64:
    return storeLoop(ptr, mask, vi, n, [](uint64_t a, int64_t v) { writeMem<int64_t>(a, v); });
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Sequence pointers: [base, shape[r], strides[r], offsets[r]] in I64 words.
//===----------------------------------------------------------------------===//

/// Addresses and (for `checked` dimensions) the in-bounds mask of every element of the block.
static void blockAddresses(const int64_t *bp, int rank, llvm::ArrayRef<int64_t> blockShape,
                           size_t elemSize, llvm::ArrayRef<int32_t> checked, int64_t *ptr,
                           int64_t *mask) {
  const int64_t *shape = bp + 1, *strides = bp + 1 + rank, *offsets = bp + 1 + 2 * rank;
  int64_t n = 1;
  for (int64_t d : blockShape)
    n *= d;
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t addr = static_cast<uint64_t>(bp[0]);
    bool ok = true;
    for (int d = 0; d < rank; ++d) {
      int64_t pos = offsets[d] + idx[d];
      addr += static_cast<uint64_t>(pos) * static_cast<uint64_t>(strides[d]) * elemSize;
      (void)ok;
    }
    for (int32_t d : checked) {
      int64_t pos = offsets[d] + idx[d];
      ok = ok && pos >= 0 && pos < shape[d];
    }
    ptr[i] = static_cast<int64_t>(addr);
    if (mask)
      mask[i] = ok;
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < blockShape[d])
        break;
      idx[d] = 0;
    }
  }
}

namespace {
/// An access through a block pointer: scratch slots for the element addresses and the
/// boundary mask, and what blockAddresses needs to fill them.
struct BlockAccess {
  int ptrSlot = -1, maskSlot = -1, rank = 0;
  std::vector<int32_t> checked;
  llvm::SmallVector<int64_t, 4> shape;

  /// Fills the scratch slots from the block pointer in slot `bp`; the mask is null when no
  /// dimension is checked.
  void addresses(Frame &f, int bp, size_t elemSize, int64_t *&ptr, int64_t *&mask) const {
    ptr = f.slots[ptrSlot].as<int64_t>();
    mask = checked.empty() ? nullptr : f.slots[maskSlot].as<int64_t>();
    blockAddresses(f.slots[bp].as<int64_t>(), rank, shape, elemSize, checked, ptr, mask);
  }
};
} // namespace

/// The block access of a load or store of `n` elements through block pointer `ptr` (slot `p`);
/// sets `ai.shape` to the block's.
template <typename OpT>
static BlockAccess blockAccessOf(ProgramBuilder &pb, OpT op, int p, AccessInfo &ai, int64_t n) {
  auto bpt = cast<tile::BlockPtrType>(op.getPtr().getType());
  ai.shape.assign(bpt.getBlockType().getShape().begin(), bpt.getBlockType().getShape().end());
  SlotType addrT;
  addrT.elem = Elem::i64;
  addrT.numel = n;
  BlockAccess b;
  b.ptrSlot = pb.scratch(addrT);
  b.maskSlot = pb.scratch(addrT);
  if (auto bc = op.getBoundaryCheck())
    b.checked.assign(bc->begin(), bc->end());
  b.rank = pb.type(p).rank;
  b.shape.assign(ai.shape.begin(), ai.shape.end());
  return b;
}

/// tile.addptr: element-scaled offsets in wrapping 64-bit arithmetic.
Status ProgramBuilder::compileAddPtr(tile::AddPtrOp ap, Sequence &out) {
  Operation *op = ap;
  int p = slot(ap.getPtr()), o = slot(ap.getOffset()), r;
  if (Status s = define(ap.getResult(), op, r); !s)
    return s;
  int64_t n = type(r).numel;
  uint64_t size = h::sizeOf(type(r).pointee);
  out.ops.push_back([=](Frame &f) {
    const int64_t *pp = f.slots[p].as<int64_t>(), *oo = f.slots[o].as<int64_t>();
    int64_t *rr = f.slots[r].as<int64_t>();
    for (int64_t i = 0; i < n; ++i)
      rr[i] = static_cast<int64_t>(uint64_t(pp[i]) + uint64_t(oo[i]) * size);
  });
  return Status::ok();
}

/// tile.make_block_ptr: [base, shape, strides, offsets] in one slot.
Status ProgramBuilder::compileMakeBlockPtr(tile::MakeBlockPtrOp mk, Sequence &out) {
  Operation *op = mk;
  int r;
  if (Status s = define(mk.getResult(), op, r); !s)
    return s;
  int base = slot(mk.getBase());
  std::vector<int> parts;
  for (Value v : mk.getShape())
    parts.push_back(slot(v));
  for (Value v : mk.getStrides())
    parts.push_back(slot(v));
  for (Value v : mk.getOffsets())
    parts.push_back(slot(v));
  out.ops.push_back([=](Frame &f) {
    int64_t *bp = f.slots[r].as<int64_t>();
    bp[0] = f.slots[base].as<int64_t>()[0];
    for (size_t i = 0; i < parts.size(); ++i)
      bp[1 + i] = f.slots[parts[i]].as<int64_t>()[0];
  });
  return Status::ok();
}

/// tile.advance: a copy of the block pointer with its offsets moved.
Status ProgramBuilder::compileAdvance(tile::AdvanceOp adv, Sequence &out) {
  Operation *op = adv;
  int p = slot(adv.getPtr()), r;
  if (Status s = define(adv.getResult(), op, r); !s)
    return s;
  int rank = type(r).rank;
  std::vector<int> offs;
  for (Value v : adv.getOffsets())
    offs.push_back(slot(v));
  int64_t words = type(r).words();
  out.ops.push_back([=](Frame &f) {
    copySlot(f, p, r, words);
    int64_t *bp = f.slots[r].as<int64_t>();
    for (int d = 0; d < rank; ++d)
      bp[1 + 2 * rank + d] += f.slots[offs[d]].as<int64_t>()[0];
  });
  return Status::ok();
}

/// tile.load through a tensor of pointers or a block pointer (boundary check, padding).
Status ProgramBuilder::compileLoad(tile::LoadOp ld, Sequence &out) {
  Operation *op = ld;
  int p = slot(ld.getPtr()), r;
  int m = ld.getMask() ? slot(ld.getMask()) : -1;
  int o = ld.getOther() ? slot(ld.getOther()) : -1;
  if (Status s = define(ld.getResult(), op, r); !s)
    return s;
  int64_t n = type(r).numel;
  if (isa<tile::BlockPtrType>(ld.getPtr().getType())) {
    AccessInfo ai = accessInfo(*this, op, ld.getPtr().getType(), "tile.load");
    BlockAccess block = blockAccessOf(*this, ld, p, ai, n);
    Fill fill = Fill::Poison;
    if (auto pad = ld.getPadding())
      fill = *pad == tile::PaddingOption::zero ? Fill::Zero : Fill::NaN;
    out.ops.push_back([=](Frame &f) {
      int64_t *ptr, *mask;
      block.addresses(f, p, ai.size, ptr, mask);
      if (!checkAccess(f, ai, ptr, mask, n))
        return;
      doLoad(ai, ptr, mask, nullptr, fill, f.slots[r].data(), n);
    });
    return Status::ok();
  }
  AccessInfo ai = accessInfo(*this, op, ld.getPtr().getType(), "tile.load");
  out.ops.push_back([=](Frame &f) {
    const int64_t *ptr = f.slots[p].as<int64_t>();
    const int64_t *mask = m >= 0 ? f.slots[m].as<int64_t>() : nullptr;
    if (!checkAccess(f, ai, ptr, mask, n))
      return;
    doLoad(ai, ptr, mask, o >= 0 ? f.slots[o].data() : nullptr, Fill::Poison, f.slots[r].data(), n);
  });
  return Status::ok();
}

/// tile.store through a tensor of pointers or a block pointer (boundary check).
Status ProgramBuilder::compileStore(tile::StoreOp st, Sequence &out) {
  Operation *op = st;
  int p = slot(st.getPtr()), v = slot(st.getValue());
  int m = st.getMask() ? slot(st.getMask()) : -1;
  int64_t n = type(v).numel;
  AccessInfo ai = accessInfo(*this, op, st.getPtr().getType(), "tile.store");
  if (isa<tile::BlockPtrType>(st.getPtr().getType())) {
    BlockAccess block = blockAccessOf(*this, st, p, ai, n);
    out.ops.push_back([=](Frame &f) {
      int64_t *ptr, *mask;
      block.addresses(f, p, ai.size, ptr, mask);
      if (!checkAccess(f, ai, ptr, mask, n))
        return;
      doStore(ai, ptr, mask, f.slots[v].data(), n);
    });
    return Status::ok();
  }
  out.ops.push_back([=](Frame &f) {
    const int64_t *ptr = f.slots[p].as<int64_t>();
    const int64_t *mask = m >= 0 ? f.slots[m].as<int64_t>() : nullptr;
    if (!checkAccess(f, ai, ptr, mask, n))
      return;
    doStore(ai, ptr, mask, f.slots[v].data(), n);
  });
  return Status::ok();
}
