//===- LinearLayout.cpp - layouts as linear maps over bits ----------------===//
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tessel::tile_gpu {

void LinearLayout::addBasis(Input in, Coord c) {
  for (auto [i, v] : llvm::enumerate(c))
    v %= shape[i];
  bases[in].push_back(std::move(c));
}

LinearLayout::Coord LinearLayout::applyInput(Input in, unsigned value) const {
  Coord c(shape.size(), 0);
  for (auto [i, basis] : llvm::enumerate(bases[in]))
    if (value >> i & 1)
      for (auto [d, v] : llvm::enumerate(basis))
        c[d] ^= v;
  return c;
}

LinearLayout::Coord LinearLayout::apply(unsigned reg, unsigned lane, unsigned warp) const {
  Coord c = applyInput(Register, reg);
  Coord l = applyInput(Lane, lane), w = applyInput(Warp, warp);
  for (size_t d = 0; d < c.size(); ++d)
    c[d] ^= l[d] ^ w[d];
  return c;
}

bool LinearLayout::isSurjective() const {
  // The image of a linear map is spanned by its bases: surjective iff their rank is the
  // number of coordinate bits (Gaussian elimination over GF(2) on bit-packed rows).
  SmallVector<uint64_t> rows;
  unsigned shift = 0;
  SmallVector<unsigned> shifts;
  for (int64_t s : shape) {
    shifts.push_back(shift);
    shift += llvm::Log2_64(s);
  }
  for (const auto &in : bases)
    for (const Coord &c : in) {
      uint64_t row = 0;
      for (auto [d, v] : llvm::enumerate(c))
        row |= uint64_t(v) << shifts[d];
      rows.push_back(row);
    }
  unsigned rank = 0;
  for (unsigned bit = 0; bit < shift; ++bit) {
    auto pivot =
        llvm::find_if(llvm::drop_begin(rows, rank), [&](uint64_t r) { return r >> bit & 1; });
    if (pivot == rows.end())
      continue;
    std::swap(*pivot, rows[rank]);
    for (unsigned i = 0; i < rows.size(); ++i)
      if (i != rank && (rows[i] >> bit & 1))
        rows[i] ^= rows[rank];
    ++rank;
  }
  return rank == shift;
}

std::string LinearLayout::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  const char *names[] = {"register", "lane", "warp"};
  for (unsigned in = 0; in < 3; ++in) {
    os << names[in] << ":";
    for (const Coord &c : bases[in]) {
      os << " (";
      llvm::interleaveComma(c, os);
      os << ")";
    }
    os << "\n";
  }
  return s;
}

bool LinearLayout::registersDisjointFromThreads() const {
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t regBits = 0, threadBits = 0;
    for (const Coord &c : bases[Register])
      regBits |= c[d];
    for (Input in : {Lane, Warp})
      for (const Coord &c : bases[in])
        threadBits |= c[d];
    if (regBits & threadBits)
      return false;
  }
  return true;
}

unsigned LinearLayout::contiguousRegisters(unsigned dim) const {
  unsigned n = 0;
  for (const Coord &c : bases[Register]) {
    bool step = true;
    for (size_t d = 0; d < c.size(); ++d)
      step &= c[d] == (d == dim ? int64_t(1) << n : 0);
    if (!step)
      break;
    ++n;
  }
  return 1u << n;
}

unsigned LinearLayout::registerOnlyHighBits(unsigned dim) const {
  int64_t threadBits = 0;
  for (Input in : {Lane, Warp})
    for (const Coord &c : bases[in])
      threadBits |= c[dim];
  unsigned bits = llvm::Log2_64(shape[dim]), n = 0;
  while (n < bits && !(threadBits >> (bits - 1 - n) & 1))
    ++n;
  return n;
}

namespace {

bool isPow2Shape(ArrayRef<int64_t> shape) {
  return llvm::all_of(shape, [](int64_t d) { return d > 0 && llvm::isPowerOf2_64(d); });
}

/// Coordinates with `v` along `dim` (rank `rank`).
LinearLayout::Coord along(unsigned rank, unsigned dim, int64_t v) {
  LinearLayout::Coord c(rank, 0);
  c[dim] = v;
  return c;
}

/// Blocked and slice layouts, registers in ThreadElems order.
std::optional<LinearLayout> blockedToLinear(RankedTensorType type) {
  std::optional<ThreadElems> te = getThreadElems(type);
  if (!te)
    return std::nullopt;
  BlockedEncodingAttr root = te->view.root;
  unsigned rank = type.getRank();
  LinearLayout ll;
  ll.shape.assign(type.getShape().begin(), type.getShape().end());
  // Registers: dimOrder fastest first, within a dimension sizePerThread then repetitions.
  for (unsigned i : te->dimOrder) {
    for (unsigned bit = 0; (1u << bit) < te->perDim[i]; ++bit)
      ll.addBasis(LinearLayout::Register, along(rank, i, te->offset(i, 1u << bit)));
  }
  // Lanes and warps: decomposed in the root order; sliced root dimensions replicate.
  auto tensorDim = [&](unsigned k) -> int {
    for (auto [i, kept] : llvm::enumerate(te->view.keptDims))
      if (kept == k)
        return i;
    return -1;
  };
  for (unsigned k : root.getOrder()) {
    int i = tensorDim(k);
    int64_t spt = root.getSizePerThread()[k];
    for (unsigned bit = 0; (1u << bit) < root.getThreadsPerWarp()[k]; ++bit)
      ll.addBasis(LinearLayout::Lane,
                  i < 0 ? LinearLayout::Coord(rank, 0) : along(rank, i, spt << bit));
  }
  for (unsigned k : root.getOrder()) {
    int i = tensorDim(k);
    int64_t step = int64_t(root.getSizePerThread()[k]) * root.getThreadsPerWarp()[k];
    for (unsigned bit = 0; (1u << bit) < root.getWarpsPerCTA()[k]; ++bit)
      ll.addBasis(LinearLayout::Warp,
                  i < 0 ? LinearLayout::Coord(rank, 0) : along(rank, i, step << bit));
  }
  return ll;
}

unsigned log2Ceil(int64_t v) { return llvm::Log2_64_Ceil(std::max<int64_t>(v, 1)); }

/// mma.sync v2 accumulator (see MmaEncodingAttr).
std::optional<LinearLayout> mmaToLinear(MmaEncodingAttr mma, ArrayRef<int64_t> shape) {
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  LinearLayout ll;
  ll.shape.assign(shape.begin(), shape.end());
  ll.addBasis(LinearLayout::Register, {0, 1});
  ll.addBasis(LinearLayout::Register, {8, 0});
  for (unsigned i = 0; i < log2Ceil(shape[1] / (8 * int64_t(wn))); ++i)
    ll.addBasis(LinearLayout::Register, {0, (8 * int64_t(wn)) << i});
  for (unsigned i = 0; i < log2Ceil(shape[0] / (16 * int64_t(wm))); ++i)
    ll.addBasis(LinearLayout::Register, {(16 * int64_t(wm)) << i, 0});
  for (LinearLayout::Coord c : {LinearLayout::Coord{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}})
    ll.addBasis(LinearLayout::Lane, c);
  for (unsigned i = 0; (1u << i) < wm; ++i)
    ll.addBasis(LinearLayout::Warp, {16 << i, 0});
  for (unsigned i = 0; (1u << i) < wn; ++i)
    ll.addBasis(LinearLayout::Warp, {0, 8 << i});
  return ll;
}

/// MFMA accumulator (see MfmaEncodingAttr), 64-lane wavefronts.
std::optional<LinearLayout> mfmaToLinear(MfmaEncodingAttr mfma, ArrayRef<int64_t> shape) {
  unsigned wm = mfma.getWarpsPerCTA()[0], wn = mfma.getWarpsPerCTA()[1];
  int64_t d = mfma.getNonKDim();
  LinearLayout ll;
  ll.shape.assign(shape.begin(), shape.end());
  // Registers of one block: rows j (< 4) then, for 32x32, the groups of 8 rows.
  ll.addBasis(LinearLayout::Register, {1, 0});
  ll.addBasis(LinearLayout::Register, {2, 0});
  if (d == 32) {
    ll.addBasis(LinearLayout::Register, {8, 0});
    ll.addBasis(LinearLayout::Register, {16, 0});
  }
  for (unsigned i = 0; i < log2Ceil(shape[1] / (d * wn)); ++i)
    ll.addBasis(LinearLayout::Register, {0, (d * wn) << i});
  for (unsigned i = 0; i < log2Ceil(shape[0] / (d * wm)); ++i)
    ll.addBasis(LinearLayout::Register, {(d * wm) << i, 0});
  // Lanes: the column, then the row group.
  for (int64_t c = 1; c < d; c <<= 1)
    ll.addBasis(LinearLayout::Lane, {0, c});
  for (int64_t r = 4; r < 4 * (64 / d); r <<= 1)
    ll.addBasis(LinearLayout::Lane, {r, 0});
  for (unsigned i = 0; (1u << i) < wm; ++i)
    ll.addBasis(LinearLayout::Warp, {d << i, 0});
  for (unsigned i = 0; (1u << i) < wn; ++i)
    ll.addBasis(LinearLayout::Warp, {0, d << i});
  return ll;
}

/// WMMA accumulator (see WmmaEncodingAttr), 32-lane wavefronts.
std::optional<LinearLayout> wmmaToLinear(WmmaEncodingAttr wmma, ArrayRef<int64_t> shape) {
  unsigned wm = wmma.getWarpsPerCTA()[0], wn = wmma.getWarpsPerCTA()[1];
  LinearLayout ll;
  ll.shape.assign(shape.begin(), shape.end());
  // Register i of a block is row 2 i (+ 1 in lanes 16-31).
  for (int64_t r = 2; r < 16; r <<= 1)
    ll.addBasis(LinearLayout::Register, {r, 0});
  for (unsigned i = 0; i < log2Ceil(shape[1] / (16 * int64_t(wn))); ++i)
    ll.addBasis(LinearLayout::Register, {0, (16 * int64_t(wn)) << i});
  for (unsigned i = 0; i < log2Ceil(shape[0] / (16 * int64_t(wm))); ++i)
    ll.addBasis(LinearLayout::Register, {(16 * int64_t(wm)) << i, 0});
  for (int64_t c = 1; c < 16; c <<= 1)
    ll.addBasis(LinearLayout::Lane, {0, c});
  ll.addBasis(LinearLayout::Lane, {1, 0});
  for (unsigned i = 0; (1u << i) < wm; ++i)
    ll.addBasis(LinearLayout::Warp, {16 << i, 0});
  for (unsigned i = 0; (1u << i) < wn; ++i)
    ll.addBasis(LinearLayout::Warp, {0, 16 << i});
  return ll;
}

/// Dot operand of a mma.sync v2 parent. A (M, K): registers (repetition along M, along K,
/// fragment element); B (K, N): (repetition along N, along K, fragment element).
std::optional<LinearLayout> mmaOperandToLinear(DotOperandEncodingAttr op, MmaEncodingAttr mma,
                                               ArrayRef<int64_t> shape) {
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  bool is16 = op.getKWidth() == 2; // 16-bit: m16n8k16; 32-bit (tf32): m16n8k8
  int64_t instrK = is16 ? 16 : 8;
  LinearLayout ll;
  ll.shape.assign(shape.begin(), shape.end());
  using C = LinearLayout::Coord;
  if (op.getOpIdx() == 0) {
    // a0..a7 (16-bit): (g, 2t + {0,1}), (g + 8, ...), (g, 2t + 8 + ...), (g + 8, 2t + 8 + ...);
    // tf32 a0..a3: (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4).
    if (is16) {
      ll.addBasis(LinearLayout::Register, {0, 1});
      ll.addBasis(LinearLayout::Register, {8, 0});
      ll.addBasis(LinearLayout::Register, {0, 8});
    } else {
      ll.addBasis(LinearLayout::Register, {8, 0});
      ll.addBasis(LinearLayout::Register, {0, 4});
    }
    for (unsigned i = 0; i < log2Ceil(shape[1] / instrK); ++i)
      ll.addBasis(LinearLayout::Register, {0, instrK << i});
    for (unsigned i = 0; i < log2Ceil(shape[0] / (16 * int64_t(wm))); ++i)
      ll.addBasis(LinearLayout::Register, {(16 * int64_t(wm)) << i, 0});
    for (C c : is16 ? SmallVector<C>{{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}
                    : SmallVector<C>{{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}})
      ll.addBasis(LinearLayout::Lane, c);
    for (unsigned i = 0; (1u << i) < wm; ++i)
      ll.addBasis(LinearLayout::Warp, {16 << i, 0});
    for (unsigned i = 0; (1u << i) < wn; ++i)
      ll.addBasis(LinearLayout::Warp, {0, 0});
    return ll;
  }
  // b0..b3 (16-bit): (2t + {0,1}, g), (2t + 8 + {0,1}, g); tf32 b0, b1: (t, g), (t + 4, g).
  if (is16) {
    ll.addBasis(LinearLayout::Register, {1, 0});
    ll.addBasis(LinearLayout::Register, {8, 0});
  } else {
    ll.addBasis(LinearLayout::Register, {4, 0});
  }
  for (unsigned i = 0; i < log2Ceil(shape[0] / instrK); ++i)
    ll.addBasis(LinearLayout::Register, {instrK << i, 0});
  for (unsigned i = 0; i < log2Ceil(shape[1] / (8 * int64_t(wn))); ++i)
    ll.addBasis(LinearLayout::Register, {0, (8 * int64_t(wn)) << i});
  for (C c : is16 ? SmallVector<C>{{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}
                  : SmallVector<C>{{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}})
    ll.addBasis(LinearLayout::Lane, c);
  for (unsigned i = 0; (1u << i) < wm; ++i)
    ll.addBasis(LinearLayout::Warp, {0, 0});
  for (unsigned i = 0; (1u << i) < wn; ++i)
    ll.addBasis(LinearLayout::Warp, {0, 8 << i});
  return ll;
}

/// The wave bases of an mfma or wmma dot operand: waves are numbered M first (w % wm),
/// then N; an operand spans `block` rows (A) or columns (B) per wave along its own dimension
/// and is replicated over the waves of the other.
void addOperandWaves(LinearLayout &ll, bool isA, unsigned mnDim, unsigned warpsAlong,
                     unsigned warpsOther, int64_t block) {
  auto along_ = [&] {
    for (unsigned i = 0; (1u << i) < warpsAlong; ++i)
      ll.addBasis(LinearLayout::Warp, along(2, mnDim, block << i));
  };
  auto replicated = [&] {
    for (unsigned i = 0; (1u << i) < warpsOther; ++i)
      ll.addBasis(LinearLayout::Warp, {0, 0});
  };
  if (isA) {
    along_();
    replicated();
  } else {
    replicated();
    along_();
  }
}

/// Dot operand of an MFMA parent (kWidth consecutive K elements per lane). A (M, K): lane l
/// holds row l % nonKDim and K elements kWidth * (l / nonKDim) + [0, kWidth); B (K, N) the
/// transpose. Registers (repetition along M / N, along K, the kWidth elements).
std::optional<LinearLayout> mfmaOperandToLinear(DotOperandEncodingAttr op, MfmaEncodingAttr mfma,
                                                ArrayRef<int64_t> shape) {
  unsigned wm = mfma.getWarpsPerCTA()[0], wn = mfma.getWarpsPerCTA()[1];
  int64_t d = mfma.getNonKDim(), kw = op.getKWidth();
  int64_t instrK = kw * (64 / d);
  bool isA = op.getOpIdx() == 0;
  unsigned kDim = isA ? 1 : 0, mnDim = isA ? 0 : 1;
  unsigned warpsAlong = isA ? wm : wn, warpsOther = isA ? wn : wm;
  LinearLayout ll;
  ll.shape.assign(shape.begin(), shape.end());
  for (int64_t k = 1; k < kw; k <<= 1)
    ll.addBasis(LinearLayout::Register, along(2, kDim, k));
  for (unsigned i = 0; i < log2Ceil(shape[kDim] / instrK); ++i)
    ll.addBasis(LinearLayout::Register, along(2, kDim, instrK << i));
  for (unsigned i = 0; i < log2Ceil(shape[mnDim] / (d * warpsAlong)); ++i)
    ll.addBasis(LinearLayout::Register, along(2, mnDim, (d * warpsAlong) << i));
  for (int64_t c = 1; c < d; c <<= 1)
    ll.addBasis(LinearLayout::Lane, along(2, mnDim, c));
  for (int64_t k = kw; k < instrK; k <<= 1)
    ll.addBasis(LinearLayout::Lane, along(2, kDim, k));
  addOperandWaves(ll, isA, mnDim, warpsAlong, warpsOther, d);
  return ll;
}

/// Dot operand of a WMMA parent: lane l holds row (A) / column (B) l % 16 and all 16 K
/// elements of one instruction; lanes 16-31 hold a copy of lanes 0-15, as the instruction
/// reads them on wave32. Registers (repetition along M / N, along K, the 16 K elements).
std::optional<LinearLayout> wmmaOperandToLinear(DotOperandEncodingAttr op, WmmaEncodingAttr wmma,
                                                ArrayRef<int64_t> shape) {
  unsigned wm = wmma.getWarpsPerCTA()[0], wn = wmma.getWarpsPerCTA()[1];
  bool isA = op.getOpIdx() == 0;
  unsigned kDim = isA ? 1 : 0, mnDim = isA ? 0 : 1;
  unsigned warpsAlong = isA ? wm : wn, warpsOther = isA ? wn : wm;
  LinearLayout ll;
  ll.shape.assign(shape.begin(), shape.end());
  for (int64_t k = 1; k < 16; k <<= 1)
    ll.addBasis(LinearLayout::Register, along(2, kDim, k));
  for (unsigned i = 0; i < log2Ceil(shape[kDim] / 16); ++i)
    ll.addBasis(LinearLayout::Register, along(2, kDim, int64_t(16) << i));
  for (unsigned i = 0; i < log2Ceil(shape[mnDim] / (16 * warpsAlong)); ++i)
    ll.addBasis(LinearLayout::Register, along(2, mnDim, (16 * int64_t(warpsAlong)) << i));
  for (int64_t c = 1; c < 16; c <<= 1)
    ll.addBasis(LinearLayout::Lane, along(2, mnDim, c));
  ll.addBasis(LinearLayout::Lane, {0, 0});
  addOperandWaves(ll, isA, mnDim, warpsAlong, warpsOther, 16);
  return ll;
}

/// A row or column of a matrix-unit accumulator (slice `dim` of an mma, mfma or wmma layout):
/// the parent's layout over the shape with a unit dimension at `dim`, without that coordinate.
/// Register bases that select nothing then (the parent's registers along `dim`) are dropped,
/// so a thread holds each of its elements once; lanes and warps along `dim` replicate.
std::optional<LinearLayout> sliceOfMatrixUnitToLinear(SliceEncodingAttr slice,
                                                      RankedTensorType type) {
  SmallVector<int64_t> parentShape(type.getShape());
  parentShape.insert(parentShape.begin() + slice.getDim(), 1);
  std::optional<LinearLayout> parent =
      toLinearLayout(RankedTensorType::get(parentShape, type.getElementType(), slice.getParent()));
  if (!parent)
    return std::nullopt;
  LinearLayout ll;
  ll.shape.assign(type.getShape().begin(), type.getShape().end());
  for (unsigned in : {LinearLayout::Register, LinearLayout::Lane, LinearLayout::Warp})
    for (LinearLayout::Coord c : parent->bases[in]) {
      c.erase(c.begin() + slice.getDim());
      if (in == LinearLayout::Register && llvm::all_of(c, [](int64_t v) { return v == 0; }))
        continue;
      ll.addBasis(LinearLayout::Input(in), std::move(c));
    }
  return ll;
}

} // namespace

std::optional<LinearLayout> toLinearLayout(RankedTensorType type) {
  if (!isPow2Shape(type.getShape()))
    return std::nullopt;
  Attribute enc = type.getEncoding();
  if (auto slice = dyn_cast_if_present<SliceEncodingAttr>(enc);
      slice && !isa<BlockedEncodingAttr, SliceEncodingAttr>(slice.getParent()))
    return sliceOfMatrixUnitToLinear(slice, type);
  if (isa_and_present<BlockedEncodingAttr, SliceEncodingAttr>(enc))
    return blockedToLinear(type);
  if (type.getRank() != 2)
    return std::nullopt;
  if (auto mma = dyn_cast_if_present<MmaEncodingAttr>(enc))
    return mmaToLinear(mma, type.getShape());
  if (auto mfma = dyn_cast_if_present<MfmaEncodingAttr>(enc))
    return mfmaToLinear(mfma, type.getShape());
  if (auto wmma = dyn_cast_if_present<WmmaEncodingAttr>(enc))
    return wmmaToLinear(wmma, type.getShape());
  if (auto op = dyn_cast_if_present<DotOperandEncodingAttr>(enc)) {
    if (auto mma = dyn_cast<MmaEncodingAttr>(op.getParent()))
      return mmaOperandToLinear(op, mma, type.getShape());
    if (auto mfma = dyn_cast<MfmaEncodingAttr>(op.getParent()))
      return mfmaOperandToLinear(op, mfma, type.getShape());
    if (auto wmma = dyn_cast<WmmaEncodingAttr>(op.getParent()))
      return wmmaOperandToLinear(op, wmma, type.getShape());
  }
  return std::nullopt;
}

unsigned getElemsPerThread(RankedTensorType type) {
  if (std::optional<ThreadElems> te = getThreadElems(type))
    return te->total;
  if (std::optional<LinearLayout> ll = toLinearLayout(type))
    return ll->numRegisters();
  return 0;
}

unsigned getImpliedWarpSize(Attribute encoding) {
  if (isa_and_present<MmaEncodingAttr>(encoding))
    return 32;
  if (isa_and_present<MfmaEncodingAttr>(encoding))
    return 64;
  if (isa_and_present<WmmaEncodingAttr>(encoding))
    return 32;
  if (auto op = dyn_cast_if_present<DotOperandEncodingAttr>(encoding))
    return getImpliedWarpSize(op.getParent());
  if (auto b = dyn_cast_if_present<BlockedEncodingAttr>(encoding))
    return b.getWarpSize();
  return 0;
}

} // namespace tessel::tile_gpu
