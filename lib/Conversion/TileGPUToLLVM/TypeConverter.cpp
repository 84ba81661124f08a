//===- TypeConverter.cpp - tile types to LLVM types -----------------------===//
#include "tessel/Conversion/TileGPUToLLVM/TileGPUToLLVM.h"

using namespace mlir;
using namespace tessel;

TileGPUTypeConverter::TileGPUTypeConverter(MLIRContext *ctx) : LLVMTypeConverter(ctx) {
  addConversion([ctx](tile::PtrType t) -> Type {
    return LLVM::LLVMPointerType::get(ctx, t.getAddressSpace());
  });
  addConversion([this](RankedTensorType t) -> std::optional<Type> {
    std::optional<tile_gpu::ThreadElems> te = tile_gpu::getThreadElems(t);
    if (!te)
      return std::nullopt;
    Type elem = convertType(t.getElementType());
    if (!elem)
      return std::nullopt;
    return LLVM::LLVMStructType::getLiteral(t.getContext(), SmallVector<Type>(te->total, elem));
  });
}
