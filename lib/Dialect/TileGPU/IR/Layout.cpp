//===- Layout.cpp - compile-time math of distributed layouts --------------===//
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tessel::tile_gpu {

std::optional<LayoutView> getLayoutView(Attribute encoding) {
  if (auto b = dyn_cast_if_present<BlockedEncodingAttr>(encoding)) {
    LayoutView v{b, {}, {}};
    for (unsigned d = 0; d < b.getRank(); ++d)
      v.keptDims.push_back(d);
    return v;
  }
  if (auto s = dyn_cast_if_present<SliceEncodingAttr>(encoding)) {
    std::optional<LayoutView> v = getLayoutView(s.getParent());
    if (!v || s.getDim() >= v->keptDims.size())
      return std::nullopt;
    v->slicedDims.push_back(v->keptDims[s.getDim()]);
    v->keptDims.erase(v->keptDims.begin() + s.getDim());
    return v;
  }
  return std::nullopt;
}

std::optional<ThreadElems> getThreadElems(RankedTensorType type) {
  std::optional<LayoutView> view = getLayoutView(type.getEncoding());
  if (!view || view->keptDims.size() != static_cast<size_t>(type.getRank()))
    return std::nullopt;
  ThreadElems te;
  te.view = *view;
  te.shape.assign(type.getShape().begin(), type.getShape().end());
  BlockedEncodingAttr root = view->root;
  for (auto [i, k] : llvm::enumerate(view->keptDims)) {
    int64_t tile = root.getCTATile(k);
    int64_t reps = std::max<int64_t>(1, llvm::divideCeil(te.shape[i], tile));
    te.perDim.push_back(root.getSizePerThread()[k] * reps);
    te.total *= te.perDim.back();
  }
  for (unsigned k : root.getOrder())
    for (auto [i, kept] : llvm::enumerate(view->keptDims))
      if (kept == k)
        te.dimOrder.push_back(i);
  return te;
}

SmallVector<unsigned> ThreadElems::delinearize(unsigned k) const {
  SmallVector<unsigned> local(perDim.size(), 0);
  for (unsigned i : dimOrder) {
    local[i] = k % perDim[i];
    k /= perDim[i];
  }
  return local;
}

unsigned ThreadElems::linearize(ArrayRef<unsigned> local) const {
  unsigned k = 0;
  for (unsigned i : llvm::reverse(dimOrder))
    k = k * perDim[i] + local[i];
  return k;
}

int64_t ThreadElems::offset(unsigned i, unsigned l) const {
  unsigned k = view.keptDims[i];
  unsigned spt = view.root.getSizePerThread()[k];
  return static_cast<int64_t>(l / spt) * view.root.getCTATile(k) + l % spt;
}

unsigned ThreadElems::distinctLocal(unsigned i) const {
  return std::min<int64_t>(perDim[i], shape[i]);
}

unsigned ThreadElems::distinctLanes(unsigned i) const {
  unsigned k = view.keptDims[i];
  int64_t spt = view.root.getSizePerThread()[k];
  int64_t lanes = view.root.getThreadsPerWarp()[k];
  return std::clamp<int64_t>(shape[i] / spt, 1, lanes);
}

unsigned ThreadElems::distinctWarps(unsigned i) const {
  unsigned k = view.keptDims[i];
  int64_t perWarp = int64_t(view.root.getSizePerThread()[k]) * view.root.getThreadsPerWarp()[k];
  int64_t warps = view.root.getWarpsPerCTA()[k];
  return std::clamp<int64_t>(shape[i] / perWarp, 1, warps);
}

static unsigned strideIn(ArrayRef<unsigned> counts, ArrayRef<unsigned> order, unsigned dim) {
  unsigned stride = 1;
  for (unsigned d : order) {
    if (d == dim)
      return stride;
    stride *= counts[d];
  }
  return stride;
}

unsigned laneStride(BlockedEncodingAttr layout, unsigned dim) {
  return strideIn(layout.getThreadsPerWarp(), layout.getOrder(), dim);
}

unsigned warpStride(BlockedEncodingAttr layout, unsigned dim) {
  return strideIn(layout.getWarpsPerCTA(), layout.getOrder(), dim);
}

BlockedEncodingAttr getDefaultBlocked(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                      ArrayRef<unsigned> order, unsigned vec, unsigned numWarps,
                                      unsigned warpSize, ArrayRef<unsigned> warpOrder) {
  size_t rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  auto floorPow2 = [](int64_t v) {
    return unsigned(llvm::bit_floor(uint64_t(std::max<int64_t>(v, 1))));
  };
  spt[order[0]] = std::min<unsigned>(vec, floorPow2(shape[order[0]]));
  unsigned lanes = warpSize;
  for (unsigned d : order) {
    unsigned t = std::min(lanes, floorPow2(shape[d] / spt[d]));
    tpw[d] = t;
    lanes /= t;
  }
  tpw[order[0]] *= lanes; // replicas along the fastest dimension
  unsigned warps = numWarps;
  for (unsigned d : warpOrder) {
    unsigned w = std::min(warps, floorPow2(shape[d] / (int64_t(spt[d]) * tpw[d])));
    wpc[d] = w;
    warps /= w;
  }
  wpc[warpOrder.empty() ? order[0] : warpOrder[0]] *= warps;
  return BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
}

unsigned getDefaultKWidth(Attribute parent, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (isa<MfmaEncodingAttr>(parent))
    return bits == 16 ? 4 : 1;
  if (isa<WmmaEncodingAttr>(parent))
    return 16;
  return bits == 16 ? 2 : 1;
}

std::pair<unsigned, unsigned> chooseWarpsPerCTA(int64_t M, int64_t N, unsigned numWarps,
                                                int64_t instrM, int64_t instrN) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool mFits = M / (instrM * wm) >= 2, nFits = N / (instrN * wn) >= 2;
    if (mFits && (!nFits || M / wm >= N / wn))
      wm *= 2;
    else if (nFits)
      wn *= 2;
    else
      break;
  }
  // Replicas: the remaining warps go along M (their rows wrap onto the same elements).
  wm *= numWarps / (wm * wn);
  return {wm, wn};
}

SharedEncodingAttr getSwizzledSharedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                             ArrayRef<unsigned> order, unsigned elemBits) {
  unsigned elemBytes = std::max(1u, elemBits / 8);
  unsigned vec = std::max(1u, 16 / elemBytes);
  int64_t C = shape[order[0]];
  if (C < vec)
    return SharedEncodingAttr::get(ctx, 1, 1, 1, order, 0);
  unsigned perPhase = std::max<int64_t>(1, 128 / (C * elemBytes));
  unsigned maxPhase = std::max<int64_t>(1, std::min<int64_t>(C / vec, 8 / perPhase));
  return SharedEncodingAttr::get(ctx, vec, perPhase, maxPhase, order, 0);
}

SharedEncodingAttr getMmaSwizzledSharedEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                                ArrayRef<unsigned> order, unsigned elemBits) {
  unsigned elemBytes = std::max(1u, elemBits / 8);
  int64_t cols = shape[order[0]];
  int64_t rowBytes = cols >= 128 / elemBytes ? 128 : cols * elemBytes;
  if (rowBytes < 32)
    return {};
  // The 16-byte group index (3 address bits for 128 B) XORs with the row's index within the
  // 1024-byte pattern: rows of 64 B pair up (perPhase 2), rows of 32 B go four to a phase.
  return SharedEncodingAttr::get(ctx, 16 / elemBytes, 128 / rowBytes, rowBytes / 16, order, 0,
                                 rowBytes / elemBytes);
}

} // namespace tessel::tile_gpu
