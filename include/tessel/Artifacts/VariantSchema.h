//===- VariantSchema.h - the version of tesselc's variant JSON ----*- C++ -*-===//
//
// One constant shared by the one writer (lib/Driver/Metadata.cpp, LLVM's JSON) and the one
// reader (lib/Harness/KernelMetadata.cpp, header-only nlohmann, so that tessel-run-gpu stays
// free of LLVM). Header-only and without dependencies: both sides include it, neither links
// the other. docs/Artifacts.md documents the keys; test/Unit/Driver/MetadataSchemaTest.cpp
// checks that every key the writer emits is documented there.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_ARTIFACTS_VARIANTSCHEMA_H
#define TESSEL_ARTIFACTS_VARIANTSCHEMA_H

namespace tessel::artifacts {

/// The `schema` value of a variant JSON. Bumped whenever a key changes meaning, type or goes
/// away; readers refuse every other value, so a stale file asks for a recompile instead of
/// being half understood. 1 was the string "tessel.kernel.v1" (backend-specific resource keys).
inline constexpr int kVariantSchema = 2;

} // namespace tessel::artifacts

#endif // TESSEL_ARTIFACTS_VARIANTSCHEMA_H
