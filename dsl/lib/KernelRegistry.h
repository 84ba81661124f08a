//===- KernelRegistry.h - the kernels of loaded kernel files ----*- C++ -*-===//
//
// TESSEL_KERNEL registers each kernel when its shared object is loaded; tesselc reads them
// here. Configs are type-erased values described by their ConfigSchema (TESSEL_CONFIG); this
// file also formats config fields for variant names and metadata and applies -D overrides.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_LIB_KERNELREGISTRY_H
#define TESSEL_DSL_LIB_KERNELREGISTRY_H

#include "tessel/dsl/Kernel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::dsl {

/// A registered kernel as tesselc sees it.
struct KernelInfo {
  detail::KernelDef def;
  std::vector<std::string> argNames;
  /// A registration problem (wrong ABI, ARGS count), reported by tesselc; empty when fine.
  std::string error;
};

/// Every kernel registered so far, in registration order.
std::vector<KernelInfo> &getKernelRegistry();

/// An owned, mutable copy of a config value.
class ConfigValue {
public:
  ConfigValue(const detail::ConfigSchema &schema, const void *value)
      : schema(&schema), data(schema.copy(value), schema.destroy) {}
  const detail::ConfigSchema &getSchema() const { return *schema; }
  const void *get() const { return data.get(); }
  void *get() { return data.get(); }

  /// `field` as text: "1024", "true", "relu", "1e-06".
  std::string format(const detail::FieldInfo &field) const;
  /// Fields for the metadata: numbers, bools, enum names.
  llvm::json::Object toJSON() const;
  /// Sets a field from -D text; errors name the field, its kind and the accepted values.
  llvm::Error set(llvm::StringRef field, llvm::StringRef value);
  int numWarps() const { return schema->numWarps(get()); }
  int numStages() const { return schema->numStages(get()); }
  /// The `warp_specialize` field (Triton's name for the option), 0 when the struct has none.
  int warpSpecialize() const { return integerField("warp_specialize", 0); }
  /// The `cluster_size` field (CTAs per cluster along the grid's x), 1 when the struct has none.
  int clusterSize() const { return integerField("cluster_size", 1); }
  /// tma_store: nonzero asks sm_90a to store through block pointers with TMA (tile.tma_store).
  int tmaStore() const { return integerField("tma_store", 0); }

private:
  int integerField(llvm::StringRef name, int missing) const;

  const detail::ConfigSchema *schema;
  std::unique_ptr<void, void (*)(void *)> data;
};

/// The variant's function name: `<kernel>[__<dtype>]__<field>_<value>...` over every config
/// field in declaration order, characters other than [A-Za-z0-9_] replaced
/// (`softmax__bf16__BLOCK_4096__num_warps_8`). `warp_specialize` is named only when set and
/// `cluster_size` only when above 1, so that adding either option to a config struct renames
/// none of its existing variants.
std::string variantName(const KernelInfo &kernel, const detail::VariantDef &variant,
                        const ConfigValue &config);

} // namespace tessel::dsl

#endif // TESSEL_DSL_LIB_KERNELREGISTRY_H
