//===- TensorMaps.cpp - block-pointer dot operands through TMA ------------===//
//
// On sm_90a a dot operand loaded through a block pointer in a loop is copied into its ring
// stage by the tensor memory accelerator: one cp.async.bulk.tensor per 128-byte column block,
// completing on an mbarrier, instead of per-thread cp.async with its address arithmetic. The
// box is described by a tensor map (CUtensorMap) that the runtime encodes on the host from
// kernel arguments, so the block's base, shape and strides must be kernel arguments or
// constants, its contiguous dimension must have stride 1 and the other strides and the base
// 16-byte multiples (the __div8 variants' promises). The kernel's maps are recorded in the
// module (kTensorMapsAttrName) and passed by value in one extra kernel parameter, a grid
// constant (setKernelArgumentAttributes): a launch copies them with its other parameters, so
// the runtime uploads nothing and a launch never waits for an earlier one.
//
//===----------------------------------------------------------------------===//
#include "NVIDIATargetInfo.h"

#include "tessel/NVIDIA/Dialect/TileNV.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tessel;
using namespace tessel::nvidia;

namespace {

constexpr StringLiteral kMapsArgAttr = "tile_nv.tensor_maps";

/// `v` with loop-carried values that the loop passes on unchanged replaced by their initial
/// value, and integer widenings looked through.
Value rootValue(Value v) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto loop = dyn_cast_if_present<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg == loop.getInductionVar())
        return v;
      unsigned i = arg.getArgNumber() - 1;
      if (loop.getBody()->getTerminator()->getOperand(i) != arg)
        return v;
      v = loop.getInitArgs()[i];
      continue;
    }
    if (auto ext = v.getDefiningOp<arith::ExtSIOp>()) {
      v = ext.getIn();
      continue;
    }
    if (auto ext = v.getDefiningOp<arith::ExtUIOp>()) {
      v = ext.getIn();
      continue;
    }
    return v;
  }
}

/// The kernel argument `v` is (its index), if it is one.
std::optional<unsigned> kernelArg(Value v) {
  auto arg = dyn_cast<BlockArgument>(rootValue(v));
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return std::nullopt;
  return arg.getArgNumber();
}

/// {arg = i} or {value = c} for a shape or stride; null when it is neither.
DictionaryAttr describe(Value v) {
  MLIRContext *ctx = v.getContext();
  Builder b(ctx);
  Value r = rootValue(v);
  APInt c;
  if (matchPattern(r, m_ConstantInt(&c)))
    return b.getDictionaryAttr(b.getNamedAttr("value", b.getI64IntegerAttr(c.getSExtValue())));
  if (std::optional<unsigned> i = kernelArg(r))
    return b.getDictionaryAttr(b.getNamedAttr("arg", b.getI64IntegerAttr(*i)));
  return {};
}

/// What `v` (a kernel argument or constant) is known to be a multiple of.
int64_t knownMultiple(Value v) {
  Value r = rootValue(v);
  APInt c;
  if (matchPattern(r, m_ConstantInt(&c)))
    return c.isZero() ? 0 : std::abs(c.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(r))
    if (auto f = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      if (auto d = f.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                   tile::TileDialect::getDivisibilityAttrName()))
        return d.getInt();
  return 1;
}

/// The make_block_ptr a block pointer comes from through advances and loop-carried values
/// that only advance it; null otherwise.
tile::MakeBlockPtrOp rootBlock(Value bp) {
  while (true) {
    if (auto adv = bp.getDefiningOp<tile::AdvanceOp>()) {
      bp = adv.getPtr();
      continue;
    }
    if (auto mk = bp.getDefiningOp<tile::MakeBlockPtrOp>())
      return mk;
    auto arg = dyn_cast<BlockArgument>(bp);
    auto loop = arg ? dyn_cast_if_present<scf::ForOp>(arg.getOwner()->getParentOp()) : nullptr;
    if (!loop || arg == loop.getInductionVar())
      return {};
    unsigned i = arg.getArgNumber() - 1;
    Value next = loop.getBody()->getTerminator()->getOperand(i);
    while (auto adv = next.getDefiningOp<tile::AdvanceOp>())
      next = adv.getPtr();
    if (next != arg)
      return {};
    bp = loop.getInitArgs()[i];
  }
}

/// The dimension of stride 1 of a 2-D block, if one is.
std::optional<unsigned> contiguousDim(tile::MakeBlockPtrOp block) {
  for (unsigned d = 0; d < 2; ++d)
    if (matchPattern(rootValue(block.getStrides()[d]), m_One()))
      return d;
  return std::nullopt;
}

/// Rows of the box a copy of `block` into (or from) the buffer `buffer` moves: the block's
/// extent along its non-contiguous dimension, which is the buffer's unless tile-gpu-pad-shapes
/// padded the buffer (a BLOCK_N of 96 in a 128-row buffer: rows 96-127 are not copied).
int64_t boxRows(tile::MakeBlockPtrOp block, tile_gpu::MemDescType buffer) {
  unsigned o = 1 - *contiguousDim(block);
  int64_t logical = cast<tile::BlockPtrType>(block.getType()).getBlockType().getDimSize(o);
  return std::min(logical, buffer.getShape()[o]);
}

/// The index of `block`'s map in the kernel's list, adding it (and the kernel's maps
/// parameter, returned in `maps`) when new. The box is `box`'s column block by boxRows rows.
unsigned registerTensorMap(tile::MakeBlockPtrOp block, tile_gpu::MemDescType box, Value &maps) {
  auto func = block->getParentOfType<func::FuncOp>();
  auto module = func->getParentOfType<ModuleOp>();
  MLIRContext *ctx = func.getContext();
  Builder b(ctx);
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, kMapsArgAttr))
      maps = func.getArgument(i);
  if (!maps) {
    unsigned i = func.getNumArguments();
    // A generic pointer: the maps are the parameter itself, addressed in parameter space.
    func.insertArgument(
        i, tile::PtrType::get(b.getI8Type(), /*addressSpace=*/0),
        b.getDictionaryAttr({b.getNamedAttr(kMapsArgAttr, b.getUnitAttr()),
                             b.getNamedAttr(tile::TileDialect::getDivisibilityAttrName(),
                                            b.getI32IntegerAttr(64))}),
        func.getLoc());
    maps = func.getArgument(i);
  }
  unsigned c = *contiguousDim(block), o = 1 - c;
  auto enc = cast<tile_gpu::SharedEncodingAttr>(box.getEncoding());
  unsigned bits = box.getElementType().getIntOrFloatBitWidth();
  int64_t blockCols = enc.getBlockColsFor(box.getShape()[c]);
  std::string element;
  llvm::raw_string_ostream(element) << box.getElementType();
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("base", b.getI64IntegerAttr(*kernelArg(block.getBase()))),
      b.getNamedAttr("element", b.getStringAttr(element)),
      b.getNamedAttr(
          "dims", b.getArrayAttr({describe(block.getShape()[c]), describe(block.getShape()[o])})),
      b.getNamedAttr("strides", b.getArrayAttr({describe(block.getStrides()[o])})),
      b.getNamedAttr("box", b.getI64ArrayAttr({blockCols, boxRows(block, box)})),
      b.getNamedAttr("swizzle", b.getI64IntegerAttr(blockCols * bits / 8))};
  DictionaryAttr entry = b.getDictionaryAttr(fields);
  SmallVector<Attribute> list;
  if (auto old = module->getAttrOfType<ArrayAttr>(kTensorMapsAttrName))
    list.assign(old.begin(), old.end());
  auto it = llvm::find(list, entry);
  if (it != list.end())
    return it - list.begin();
  list.push_back(entry);
  module->setAttr(kTensorMapsAttrName, b.getArrayAttr(list));
  return list.size() - 1;
}

/// Whether a TMA copy can move the box `type` (2-D) of the block `ptr` comes from: the
/// block's base, shape and row stride are kernel arguments or constants (the runtime encodes
/// the map from them), its column has stride 1, cuTensorMapEncodeTiled's 16-byte aligned base
/// and row stride hold, and the box takes the 128-byte swizzle (the only one run on a GPU, H200
/// 2026-12-01; rows of 64 or 32 bytes keep cp.async until verified) in whole column blocks of
/// at most 256 rows (asked before tile-gpu-pad-shapes, on the block's own shape: 96 columns
/// are not whole column blocks, 192 are three). The block, when it can.
tile::MakeBlockPtrOp copyableBlock(Value ptr, RankedTensorType type) {
  if (type.getRank() != 2)
    return {};
  tile::MakeBlockPtrOp block = rootBlock(ptr);
  if (!block || block.getShape().size() != 2 || !kernelArg(block.getBase()))
    return {};
  std::optional<unsigned> c = contiguousDim(block);
  if (!c)
    return {};
  unsigned o = 1 - *c, bytes = type.getElementTypeBitWidth() / 8;
  if (!describe(block.getShape()[0]) || !describe(block.getShape()[1]) ||
      !describe(block.getStrides()[o]))
    return {};
  int64_t stride = knownMultiple(block.getStrides()[o]);
  if (knownMultiple(block.getBase()) % 16 != 0 || stride == 0 || (stride * bytes) % 16 != 0)
    return {};
  tile_gpu::SharedEncodingAttr enc = getTensorMapPlacement(block, type);
  int64_t cols = type.getDimSize(*c);
  if (!enc || enc.getBlockCols() * bytes != 128 || type.getDimSize(o) > 256 ||
      cols % enc.getBlockColsFor(cols) != 0)
    return {};
  return block;
}

/// The box's first element as i32 coordinates, innermost (the stride-1 dimension) first.
SmallVector<Value> boxCoordinates(OpBuilder &b, Location loc, tile::MakeBlockPtrOp block) {
  unsigned c = *contiguousDim(block);
  SmallVector<Value> coords;
  for (unsigned d : {c, 1 - c})
    coords.push_back(b.create<arith::TruncIOp>(loc, b.getI32Type(), block.getOffsets()[d]));
  return coords;
}

} // namespace

void NVIDIATargetInfo::setKernelArgumentAttributes(func::FuncOp source,
                                                   LLVM::LLVMFuncOp func) const {
  auto maps = source->getParentOfType<ModuleOp>()->getAttrOfType<ArrayAttr>(kTensorMapsAttrName);
  for (unsigned i = 0; i < source.getNumArguments(); ++i) {
    if (!maps || !source.getArgAttr(i, kMapsArgAttr))
      continue;
    // `.param .align 64 .b8 maps[128 * n]`; the grid-constant annotation lets the copies take
    // its address (cvta.param) instead of LLVM copying the parameter to local memory.
    MLIRContext *ctx = func.getContext();
    func.setArgAttr(
        i, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128 * maps.size())));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    IntegerAttr::get(IntegerType::get(ctx, 64), 64));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(), UnitAttr::get(ctx));
  }
}

bool NVIDIATargetInfo::loadsBlockThroughTensorMap(tile::LoadOp load) const {
  if (arch != "sm_90a" || !isa<tile::BlockPtrType>(load.getPtr().getType()) || load.getMask() ||
      load.getIsVolatile() || load->use_empty() || !load->getParentOfType<scf::ForOp>())
    return false;
  // Out-of-bounds elements of the box read as zero.
  if (auto pad = load.getPadding(); pad && *pad != tile::PaddingOption::zero)
    return false;
  auto type = cast<RankedTensorType>(load.getType());
  Type elem = type.getElementType();
  if (type.getRank() != 2 || !(elem.isF16() || elem.isBF16()))
    return false;
  // An operand of dots that run on wgmma, which read the stage where the copy put it (one x
  // block may feed two dots, as in a fused SwiGLU up-projection).
  auto func = load->getParentOfType<func::FuncOp>();
  auto warps = func ? func->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumWarpsAttrName())
                    : IntegerAttr();
  // Without a pipeline, plain loads beat a copy through shared memory and a barrier.
  auto stages = func ? func->getAttrOfType<IntegerAttr>(tile::TileDialect::getNumStagesAttrName())
                     : IntegerAttr();
  if (!stages || stages.getInt() < 2)
    return false;
  if (!warps)
    return false;
  for (OpOperand &use : load->getUses()) {
    auto dot = dyn_cast<tile::DotOp>(use.getOwner());
    std::string why;
    if (!dot || use.getOperandNumber() > 1 ||
        !getWgmmaDotEncoding(cast<RankedTensorType>(dot.getA().getType()),
                             cast<RankedTensorType>(dot.getB().getType()),
                             cast<RankedTensorType>(dot.getType()), warps.getInt(), why))
      return false;
  }
  return static_cast<bool>(copyableBlock(load.getPtr(), type));
}

bool NVIDIATargetInfo::storesBlockThroughTensorMap(tile::StoreOp store) const {
  if (arch != "sm_90a" || !isa<tile::BlockPtrType>(store.getPtr().getType()) || store.getMask())
    return false;
  // Opt-in until verified on a GPU: the kernel asks for it (config field tma_store).
  auto func = store->getParentOfType<func::FuncOp>();
  auto asked =
      func ? func->getAttrOfType<IntegerAttr>(tile::TileDialect::getTmaStoreAttrName()) : nullptr;
  if (!asked || asked.getInt() == 0)
    return false;
  // Inside a loop (a persistent kernel's tiles) the next iteration writes the buffer again only
  // after the copy has read it: the copying thread waits for that (wait_group.read) before any
  // later barrier, and tile-gpu-insert-barriers puts one between the copy (declared a read of
  // the buffer) and the next write.
  auto type = cast<RankedTensorType>(store.getValue().getType());
  Type elem = type.getElementType();
  if (!(elem.isF16() || elem.isBF16() || elem.isF32()))
    return false;
  // Besides a copyable box: whole 8-row swizzle atoms (each column block then starts on 1024
  // bytes, where the hardware's swizzle, from address bits 7-9, meets the one local_store
  // writes by row), and a buffer that fits the program's shared memory. Elements past the
  // tensor's shape are not written (the copy clips the box), as a boundary check skips them.
  // A padded tile's box would be the block's but its buffer the padded tile's: keep such
  // stores on masked pointer tiles.
  if (!llvm::all_of(type.getShape(), [](int64_t d) { return llvm::isPowerOf2_64(d); }))
    return false;
  tile::MakeBlockPtrOp block = copyableBlock(store.getPtr(), type);
  if (!block)
    return false;
  int64_t rows = type.getDimSize(1 - *contiguousDim(block));
  return rows % 8 == 0 && type.getNumElements() * (elem.getIntOrFloatBitWidth() / 8) <=
                              int64_t(getLimits().sharedMemoryPerProgram);
}

void nvidia::storeThroughTensorMap(OpBuilder &b, Location loc, tile::MakeBlockPtrOp block,
                                   Value value) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(value.getType());
  tile_gpu::SharedEncodingAttr enc = getTensorMapPlacement(block, type);
  auto bufType = tile_gpu::MemDescType::get(ctx, type.getShape(), type.getElementType(), enc);
  Value buffer = b.create<tile_gpu::LocalAllocOp>(loc, bufType, IntegerAttr());
  b.create<tile_gpu::LocalStoreOp>(loc, value, buffer);
  // Each thread's generic-proxy writes, made visible to the copy engine, then all of them
  // before one thread issues the copy (CUTLASS's tma_store_fence and barrier).
  b.create<tile_nv::FenceAsyncSharedOp>(loc);
  b.create<tile_gpu::BarrierOp>(loc);
  Value maps;
  unsigned index = registerTensorMap(block, bufType, maps);
  b.create<tile_nv::AsyncTMACopyLocalToGlobalOp>(loc, maps, index, boxCoordinates(b, loc, block),
                                                 buffer);
}

tile_gpu::SharedEncodingAttr nvidia::getTensorMapPlacement(tile::MakeBlockPtrOp block,
                                                           RankedTensorType box) {
  unsigned c = contiguousDim(block).value_or(1);
  return tile_gpu::getMmaSwizzledSharedEncoding(box.getContext(), box.getShape(), {c, 1 - c},
                                                box.getElementTypeBitWidth());
}

Value nvidia::createTensorMapBarriers(OpBuilder &b, Location loc, unsigned stages) {
  MLIRContext *ctx = b.getContext();
  auto enc = tile_gpu::SharedEncodingAttr::get(ctx, 1, 1, 1, {0}, 0);
  auto ringType = tile_gpu::MemDescType::get(ctx, {int64_t(stages), 1}, b.getI64Type(), enc);
  auto stageType = tile_gpu::MemDescType::get(ctx, {1}, b.getI64Type(), enc);
  Value ring = b.create<tile_gpu::LocalAllocOp>(loc, ringType, IntegerAttr());
  for (unsigned s = 0; s < stages; ++s) {
    Value stage = b.create<tile_gpu::MemDescIndexOp>(loc, stageType, ring,
                                                     b.create<arith::ConstantIntOp>(loc, s, 32));
    b.create<tile_nv::InitBarrierOp>(loc, stage, 1);
  }
  return ring;
}

void nvidia::issueTensorMapCopies(OpBuilder &b, Location loc,
                                  ArrayRef<TargetInfo::TensorMapCopy> copies, Value barrier,
                                  Value pred) {
  // The transaction count is what the boxes move: a padded buffer's padding rows get none.
  int64_t bytes = 0;
  for (const TargetInfo::TensorMapCopy &c : copies) {
    auto t = cast<tile_gpu::MemDescType>(c.dst.getType());
    unsigned cdim = cast<tile_gpu::SharedEncodingAttr>(t.getEncoding()).getOrder()[0];
    bytes +=
        t.getShape()[cdim] * boxRows(c.block, t) * (t.getElementType().getIntOrFloatBitWidth() / 8);
  }
  b.create<tile_nv::BarrierExpectOp>(loc, barrier, bytes, pred, /*leader=*/nullptr);
  for (const TargetInfo::TensorMapCopy &c : copies) {
    tile::MakeBlockPtrOp block = c.block;
    auto box = cast<tile_gpu::MemDescType>(c.dst.getType());
    Value maps;
    unsigned index = registerTensorMap(block, box, maps);
    b.create<tile_nv::AsyncTMACopyGlobalToLocalOp>(loc, maps, index, boxCoordinates(b, loc, block),
                                                   c.dst, barrier, pred,
                                                   /*multicast=*/Value(),
                                                   /*multicast_map=*/nullptr,
                                                   /*leader=*/nullptr);
  }
}

Attribute NVIDIATargetInfo::getTensorMapSharedEncoding(tile::LoadOp load) const {
  return getTensorMapPlacement(load.getPtr().getDefiningOp<tile::MakeBlockPtrOp>(),
                               cast<RankedTensorType>(load.getType()));
}

Value NVIDIATargetInfo::createCopyBarriers(OpBuilder &b, Location loc, unsigned stages) const {
  return createTensorMapBarriers(b, loc, stages);
}

void NVIDIATargetInfo::issueTensorMapCopies(OpBuilder &b, Location loc,
                                            ArrayRef<TensorMapCopy> copies, Value barrier,
                                            Value pred) const {
  nvidia::issueTensorMapCopies(b, loc, copies, barrier, pred);
}

void NVIDIATargetInfo::waitTensorMapCopies(OpBuilder &b, Location loc, Value barrier,
                                           Value phase) const {
  b.create<tile_nv::WaitBarrierOp>(loc, barrier, phase);
}
