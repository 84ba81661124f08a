//===- TypeConverter.cpp - tile types to LLVM types -----------------------===//
#include "tessel/Conversion/TileGPUToLLVM/TileGPUToLLVM.h"

using namespace mlir;
using namespace tessel;

TileGPUTypeConverter::TileGPUTypeConverter(MLIRContext *ctx) : LLVMTypeConverter(ctx) {
  addConversion([ctx](tile::PtrType t) -> Type {
    return LLVM::LLVMPointerType::get(ctx, t.getAddressSpace());
  });
  // A shared-memory buffer is its base address; shape and placement are static.
  addConversion([ctx](tile_gpu::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, kSharedAddressSpace);
  });
  addConversion([this](RankedTensorType t) -> std::optional<Type> {
    unsigned n = tile_gpu::getElemsPerThread(t);
    if (!n)
      return std::nullopt;
    Type elem = convertType(t.getElementType());
    if (!elem)
      return std::nullopt;
    return LLVM::LLVMStructType::getLiteral(t.getContext(), SmallVector<Type>(n, elem));
  });
}
