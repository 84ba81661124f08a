//===- NVIDIATargetInfo.h - the NVIDIA adapter ------------------*- C++ -*-===//
#ifndef TESSEL_NVIDIA_NVIDIATARGETINFO_H
#define TESSEL_NVIDIA_NVIDIATARGETINFO_H

#include "tessel/NVIDIA/NVIDIA.h"

#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

namespace tessel::nvidia {

mlir::Attribute getMmaDotEncoding(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                  mlir::RankedTensorType d, tile::InputPrecision precision,
                                  unsigned numWarps, std::string &reason);
void populateDotOpToMMAPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);
void populateAsyncCopyToLLVMPatterns(mlir::LLVMTypeConverter &converter, const TargetInfo &target,
                                     const AxisInfoMap &axis, mlir::RewritePatternSet &patterns);
void populateWarpgroupDotToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                        const TargetInfo &target,
                                        mlir::RewritePatternSet &patterns);
void populateTensorMapToLLVMPatterns(mlir::LLVMTypeConverter &converter, const TargetInfo &target,
                                     mlir::RewritePatternSet &patterns);
/// The hardware-swizzled placement a TMA copy of `block`'s box (type `box`) writes: along the
/// block's stride-1 dimension (TensorMaps.cpp).
tile_gpu::SharedEncodingAttr getTensorMapPlacement(tile::MakeBlockPtrOp block,
                                                   mlir::RankedTensorType box);
/// A ring of `stages` mbarriers (memdesc<stages x 1 x i64>), each initialized for one arrival.
mlir::Value createTensorMapBarriers(mlir::OpBuilder &b, mlir::Location loc, unsigned stages);
/// barrier_expect for the copies' bytes, then one TMA copy per entry, when `pred`; registers
/// each box's tensor map with the kernel (its maps parameter and kTensorMapsAttrName).
void issueTensorMapCopies(mlir::OpBuilder &b, mlir::Location loc,
                          llvm::ArrayRef<TargetInfo::TensorMapCopy> copies, mlir::Value barrier,
                          mlir::Value pred);
/// `value` stored through a kept block-pointer store (storesBlockThroughTensorMap) by TMA:
/// written to a buffer in the copy's swizzled placement, fenced for the asynchronous proxy,
/// a barrier of all threads, then the bulk tensor copy (tile_nv.async_tma_copy_local_to_global,
/// whose issuing thread waits until the buffer has been read). Registers the box's tensor map.
void storeThroughTensorMap(mlir::OpBuilder &b, mlir::Location loc, tile::MakeBlockPtrOp block,
                           mlir::Value value);
/// bar.sync `id`, `threads` (inline PTX: NVVM's barrier op of LLVM 19 takes no thread count).
void namedBarrier(mlir::OpBuilder &b, mlir::Location loc, unsigned id, unsigned threads);
/// The consumer threads (num_warps * 32) of the warp-specialized kernel that `op` is in, or 0
/// when it is not warp-specialized (tile.producer_warps).
unsigned consumerThreads(mlir::Operation *op);
/// Per-thread registers of a warp-specialized kernel of `consumerWarps` + 4 warps: at entry
/// (the .maxnreg ptxas compiles it with), the producer's after setmaxnreg.dec and the
/// consumers' after setmaxnreg.inc (WarpSpecialize.cpp has the math).
struct WarpSpecializedRegisters {
  unsigned entry, producer, consumer;
};
WarpSpecializedRegisters warpSpecializedRegisters(unsigned consumerWarps);
/// wgmma's accumulator layout (mma version 3) for a dot on sm_90a, or null with `reason`.
mlir::Attribute getWgmmaDotEncoding(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                    mlir::RankedTensorType d, unsigned numWarps,
                                    std::string &reason);
void populateDotOperandToLdmatrixPatterns(mlir::LLVMTypeConverter &converter,
                                          const TargetInfo &target, SharedMemoryPlan &shared,
                                          mlir::RewritePatternSet &patterns);

class NVIDIATargetInfo : public TargetInfo {
public:
  explicit NVIDIATargetInfo(llvm::StringRef arch);
  const TargetLimits &getLimits() const override { return limits; }
  mlir::Value getThreadId(mlir::OpBuilder &b, mlir::Location loc) const override;
  mlir::Value getProgramId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const override;
  mlir::Value getNumPrograms(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const override;
  mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         unsigned laneMask) const override;
  void barrier(mlir::OpBuilder &b, mlir::Location loc) const override;
  mlir::Value loadGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr, mlir::Type type,
                         mlir::Value pred, unsigned alignment, const MemoryHints &hints,
                         std::optional<llvm::APInt> fill = std::nullopt) const override;
  bool fillsDisabledLoads() const override { return true; }
  void storeGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr, mlir::Value value,
                   mlir::Value pred, unsigned alignment, const MemoryHints &hints) const override;
  bool supportsAtomic(tile::RMWKind kind, mlir::Type elem) const override;
  mlir::Value atomicRMW(mlir::OpBuilder &b, mlir::Location loc, tile::RMWKind kind, mlir::Value ptr,
                        mlir::Value value, mlir::Value pred, tile::MemSemantic sem,
                        tile::MemScope scope) const override;
  mlir::Value atomicCAS(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr, mlir::Value cmp,
                        mlir::Value value, mlir::Value pred, tile::MemSemantic sem,
                        tile::MemScope scope) const override;
  // Printf.cpp:
  mlir::LogicalResult printf(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef format,
                             mlir::ValueRange args, mlir::Value pred) const override;
  mlir::LogicalResult abortIf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value failed,
                              llvm::StringRef message) const override;
  void populateMathPatterns(mlir::LLVMTypeConverter &converter,
                            mlir::RewritePatternSet &patterns) const override;
  void setKernelAttributes(mlir::LLVM::LLVMFuncOp func, unsigned numThreads) const override;
  void setKernelArgumentAttributes(mlir::func::FuncOp source,
                                   mlir::LLVM::LLVMFuncOp func) const override;
  mlir::Attribute getDotEncoding(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                 mlir::RankedTensorType d, tile::InputPrecision precision,
                                 unsigned numWarps, std::string &reason) const override;
  bool supportsAsyncCopy() const override { return true; }
  OperandStaging getDotOperandStaging(mlir::RankedTensorType loaded, mlir::RankedTensorType operand,
                                      unsigned vectorBytes) const override;
  mlir::Attribute getDotOperandSharedEncoding(mlir::RankedTensorType loaded,
                                              mlir::RankedTensorType operand) const override;
  void addLayoutPasses(mlir::OpPassManager &pm) const override;
  void addLateLayoutPasses(mlir::OpPassManager &pm) const override;
  bool loadsBlockThroughTensorMap(tile::LoadOp load) const override;
  bool storesBlockThroughTensorMap(tile::StoreOp store) const override;
  mlir::Attribute getTensorMapSharedEncoding(tile::LoadOp load) const override;
  mlir::Value createCopyBarriers(mlir::OpBuilder &b, mlir::Location loc,
                                 unsigned stages) const override;
  void issueTensorMapCopies(mlir::OpBuilder &b, mlir::Location loc,
                            llvm::ArrayRef<TensorMapCopy> copies, mlir::Value barrier,
                            mlir::Value pred) const override;
  void waitTensorMapCopies(mlir::OpBuilder &b, mlir::Location loc, mlir::Value barrier,
                           mlir::Value phase) const override;
  unsigned getDotOperandExtraStages(mlir::RankedTensorType operand) const override;
  void populateConversionPatterns(mlir::LLVMTypeConverter &converter, const AxisInfoMap &axis,
                                  SharedMemoryPlan &shared,
                                  mlir::RewritePatternSet &patterns) const override;
  void configureConversionTarget(mlir::ConversionTarget &target) const override;
  mlir::LogicalResult compile(mlir::ModuleOp llvmModule, CompiledKernel &out,
                              std::string &error) const override;

  llvm::StringRef getArch() const { return arch; }

private:
  std::string arch;
  TargetLimits limits;
};

} // namespace tessel::nvidia

#endif // TESSEL_NVIDIA_NVIDIATARGETINFO_H
