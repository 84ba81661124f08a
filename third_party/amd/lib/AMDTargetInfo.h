//===- AMDTargetInfo.h - the AMD adapter ------------------------*- C++ -*-===//
#ifndef TESSEL_AMD_AMDTARGETINFO_H
#define TESSEL_AMD_AMDTARGETINFO_H

#include "tessel/AMD/AMD.h"

namespace tessel::amd {

/// The matrix instructions a dot can use on an architecture.
enum class MatrixUnit {
  Mfma, ///< CDNA's v_mfma_* (DotOpToMFMA.cpp)
  Wmma, ///< RDNA3's v_wmma_* (DotOpToWMMA.cpp)
};

/// What the adapter needs to know about one AMDGPU architecture.
struct ArchInfo {
  llvm::StringRef name; ///< "gfx942"
  unsigned isaVersion;  ///< __oclc_ISA_version: major * 1000 + minor * 100 + stepping
  TargetLimits limits;  ///< limits.warpSize is the wavefront size the kernels are built for
  MatrixUnit matrixUnit;
};

/// The architectures Tessel supports; null for others.
const ArchInfo *lookupArch(llvm::StringRef arch);

/// MFMA candidates of a dot (DotOpToMFMA.cpp): 32x32 then 16x16 for f16, bf16 and f32 inputs
/// accumulating in f32; null with `reason` when none fits.
mlir::Attribute getMfmaDotEncoding(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                   mlir::RankedTensorType d, tile::InputPrecision precision,
                                   unsigned numWarps, std::string &reason);
void populateDotOpToMFMAPatterns(mlir::LLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// The WMMA layout of a dot (DotOpToWMMA.cpp): 16x16x16 for f16 and bf16 inputs accumulating
/// in f32; null with `reason` when it does not apply.
mlir::Attribute getWmmaDotEncoding(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                   mlir::RankedTensorType d, unsigned numWarps,
                                   std::string &reason);
void populateDotOpToWMMAPatterns(mlir::LLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// blocked <-> MFMA and WMMA layouts through LDS with base + constant addressing
/// (ConvertLayoutThroughLDS.cpp).
void populateMfmaConvertLayoutPatterns(mlir::LLVMTypeConverter &converter, const TargetInfo &target,
                                       SharedMemoryPlan &shared, mlir::RewritePatternSet &patterns);

class AMDTargetInfo : public TargetInfo {
public:
  explicit AMDTargetInfo(const ArchInfo &arch);
  const TargetLimits &getLimits() const override { return arch.limits; }
  mlir::Value getThreadId(mlir::OpBuilder &b, mlir::Location loc) const override;
  mlir::Value getProgramId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const override;
  mlir::Value getNumPrograms(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const override;
  mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         unsigned laneMask) const override;
  void barrier(mlir::OpBuilder &b, mlir::Location loc) const override;
  mlir::Value loadGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr, mlir::Type type,
                         mlir::Value pred, unsigned alignment, const MemoryHints &hints,
                         std::optional<llvm::APInt> fill = std::nullopt) const override;
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
  mlir::Attribute getDotEncoding(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                 mlir::RankedTensorType d, tile::InputPrecision precision,
                                 unsigned numWarps, std::string &reason) const override;
  OperandStaging getDotOperandStaging(mlir::RankedTensorType loaded, mlir::RankedTensorType operand,
                                      unsigned vectorBytes) const override;
  mlir::Attribute getDotOperandSharedEncoding(mlir::RankedTensorType loaded,
                                              mlir::RankedTensorType operand) const override;
  void populateConversionPatterns(mlir::LLVMTypeConverter &converter, const AxisInfoMap &axis,
                                  SharedMemoryPlan &shared,
                                  mlir::RewritePatternSet &patterns) const override;
  void configureConversionTarget(mlir::ConversionTarget &target) const override;
  mlir::LogicalResult compile(mlir::ModuleOp llvmModule, CompiledKernel &out,
                              std::string &error) const override;

  const ArchInfo &getArch() const { return arch; }

private:
  const ArchInfo &arch;
};

} // namespace tessel::amd

#endif // TESSEL_AMD_AMDTARGETINFO_H
