//===- ShapeOps.cpp - program ids, arange, splat and shape ops -------------===//
#include "Kernels.h"
#include "ProgramBuilder.h"

using namespace mlir;
using namespace tessel::interp;
namespace tile = tessel::tile;

template <typename T>
static void stridedCopyT(const T *src, T *dst, llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<int64_t> strides) {
  size_t rank = shape.size();
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  int64_t inner = shape[rank - 1], innerStride = strides[rank - 1];
  int64_t outer = 1;
  for (size_t d = 0; d + 1 < rank; ++d)
    outer *= shape[d];
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  int64_t base = 0;
  for (int64_t o = 0; o < outer; ++o) {
    if (innerStride == 1)
      std::memcpy(dst, src + base, inner * sizeof(T));
    else if (innerStride == 0)
      std::fill(dst, dst + inner, src[base]);
    else
      for (int64_t i = 0; i < inner; ++i)
        dst[i] = src[base + i * innerStride];
    dst += inner;
    // Advance the outer multi-index (dimensions rank-2 .. 0).
    for (int d = static_cast<int>(rank) - 2; d >= 0; --d) {
      base += strides[d];
      if (++idx[d] < shape[d])
        break;
      base -= strides[d] * shape[d];
      idx[d] = 0;
    }
  }
}

void tessel::interp::stridedCopy(const void *src, void *dst, llvm::ArrayRef<int64_t> shapeIn,
                                 llvm::ArrayRef<int64_t> stridesIn, size_t bytes) {
  // Drop unit dimensions and merge dimensions that are contiguous in the source, so that the
  // inner loop runs as long as possible (a plain copy becomes one memcpy).
  llvm::SmallVector<int64_t, 4> shape, srcStrides;
  for (size_t d = 0; d < shapeIn.size(); ++d) {
    if (shapeIn[d] == 1)
      continue;
    if (!shape.empty() && srcStrides.back() == stridesIn[d] * shapeIn[d]) {
      shape.back() *= shapeIn[d];
      srcStrides.back() = stridesIn[d];
      continue;
    }
    shape.push_back(shapeIn[d]);
    srcStrides.push_back(stridesIn[d]);
  }
  if (bytes == 4)
    stridedCopyT(static_cast<const uint32_t *>(src), static_cast<uint32_t *>(dst), shape,
                 srcStrides);
  else
    stridedCopyT(static_cast<const uint64_t *>(src), static_cast<uint64_t *>(dst), shape,
                 srcStrides);
}

/// Row-major strides of `shape`.
static llvm::SmallVector<int64_t, 4> rowMajor(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/// tile.program_id and tile.num_programs: one i32 from the frame or the launch.
Status ProgramBuilder::compileProgramIndex(Operation *op, Sequence &out) {
  int r;
  if (Status s = define(op->getResult(0), op, r); !s)
    return s;
  bool isPid = isa<tile::ProgramIdOp>(op);
  int axis =
      isPid ? cast<tile::ProgramIdOp>(op).getAxis() : cast<tile::NumProgramsOp>(op).getAxis();
  out.ops.push_back([=](Frame &f) {
    f.slots[r].as<int64_t>()[0] = wrap<32>(isPid ? f.pid[axis] : f.launch->grid[axis]);
  });
  return Status::ok();
}

/// tile.arange: a constant slot.
Status ProgramBuilder::compileArange(tile::ArangeOp ar, Sequence &out) {
  Operation *op = ar;
  SlotType t;
  if (Status s = slotTypeOf(ar.getType(), op, t); !s)
    return s;
  Buffer data;
  data.words.assign(t.words() + 1, 0);
  for (int64_t i = 0; i < t.numel; ++i)
    data.as<int64_t>()[i] = ar.getStart() + i;
  slotOf[ar.getResult()] = constant(t, std::move(data));
  return Status::ok();
}

Status ProgramBuilder::compileSplat(tile::SplatOp sp, Sequence &out) {
  Operation *op = sp;
  int a = slot(sp.getSrc()), r;
  if (Status s = define(sp.getResult(), op, r); !s)
    return s;
  int64_t n = type(r).numel;
  if (type(r).storage() == Storage::F32)
    out.ops.push_back([=](Frame &f) {
      float v = f.slots[a].as<float>()[0];
      std::fill_n(f.slots[r].as<float>(), n, v);
    });
  else
    out.ops.push_back([=](Frame &f) {
      uint64_t v = f.slots[a].as<uint64_t>()[0];
      std::fill_n(f.slots[r].as<uint64_t>(), n, v);
    });
  return Status::ok();
}

/// tile.expand_dims and tile.reshape: the row-major elements do not move.
Status ProgramBuilder::compileReshape(Operation *op, Sequence &out) {
  int a = slot(op->getOperand(0)), r;
  if (Status s = define(op->getResult(0), op, r); !s)
    return s;
  int64_t words = type(r).words();
  out.ops.push_back([=](Frame &f) { copySlot(f, a, r, words); });
  return Status::ok();
}

/// tile.broadcast and tile.trans: one strided copy (stride 0 along broadcast dimensions).
Status ProgramBuilder::compileBroadcastOrTrans(Operation *op, Sequence &out) {
  int a = slot(op->getOperand(0)), r;
  if (Status s = define(op->getResult(0), op, r); !s)
    return s;
  llvm::SmallVector<int64_t, 4> srcShape(type(a).shape), outShape(type(r).shape);
  llvm::SmallVector<int64_t, 4> srcStrides = rowMajor(srcShape), strides;
  if (auto tr = dyn_cast<tile::TransOp>(op)) {
    for (int32_t d : tr.getOrder())
      strides.push_back(srcStrides[d]);
  } else {
    for (size_t d = 0; d < outShape.size(); ++d)
      strides.push_back(srcShape[d] == 1 ? 0 : srcStrides[d]);
  }
  size_t bytes = type(r).elemBytes();
  out.ops.push_back([=](Frame &f) {
    stridedCopy(f.slots[a].data(), f.slots[r].data(), outShape, strides, bytes);
  });
  return Status::ok();
}
