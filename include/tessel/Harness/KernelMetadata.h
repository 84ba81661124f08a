//===- KernelMetadata.h - what a compiled kernel variant is -------*- C++ -*-===//
#ifndef TESSEL_HARNESS_KERNELMETADATA_H
#define TESSEL_HARNESS_KERNELMETADATA_H

#include "tessel/Harness/Status.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::harness {

/// One kernel argument as the compiler sees it: `type` is its MLIR spelling
/// ("!tile.ptr<f32>", "i64", "f32").
struct KernelArgInfo {
  std::string name;
  std::string type;
  /// tile.divisibility promised for the argument: a pointer's address is a multiple of this
  /// many bytes, an integer's value a multiple of this number. Executors check it at launch.
  int64_t divisibility = 1;
  /// A specialized twin's promise that the integer argument has exactly this value.
  std::optional<int64_t> equalTo;
  bool isPointer() const { return type.rfind("!tile.ptr", 0) == 0; }
  /// A pointer's element type: "bf16" of "!tile.ptr<bf16>" or "!tile.ptr<f32, 3>"; "" otherwise.
  std::string pointee() const {
    size_t open = type.find('<'), end = type.find_first_of(",>", open);
    return isPointer() && open != std::string::npos ? type.substr(open + 1, end - open - 1) : "";
  }
  bool isFloat() const { return type == "f16" || type == "bf16" || type == "f32" || type == "f64"; }
};

/// What the variant's binary uses per program: the JSON's `resources` record, the same keys on
/// every GPU target (docs/Artifacts.md); empty where the compiler did not know.
struct VariantResources {
  std::optional<int64_t> registers;     ///< per thread (AMD: VGPRs per lane, AGPRs included)
  std::optional<int64_t> sharedBytes;   ///< shared memory / LDS, static and dynamic
  std::optional<int64_t> spillBytes;    ///< per thread, spilled to local / scratch memory
  std::optional<int64_t> occupancyHint; ///< programs per SM the binary was built to fit
};

/// A tensor map (a bulk-copy descriptor) that the runtime encodes before each launch from the
/// kernel's arguments: the JSON's `tensor_maps` entry (docs/Artifacts.md). The maps travel by
/// value, 128 bytes each, in one extra kernel parameter after the arguments.
struct TensorMapInfo {
  /// A dimension or stride: kernel argument `arg`, or the constant `value`.
  struct Operand {
    std::optional<int64_t> arg;
    int64_t value = 0;
  };
  int64_t base = 0;             ///< the pointer argument of the tensor's first element
  std::string element;          ///< "bf16", "f16", ...
  std::vector<Operand> dims;    ///< elements, innermost first
  std::vector<Operand> strides; ///< elements, of dims 1 .. rank - 1
  std::vector<int64_t> box;     ///< elements copied per dimension, innermost first
  int64_t swizzle = 128;        ///< bytes: 32, 64 or 128
};

/// A compiled kernel variant: one kernel at one config. Read from the JSON file tesselc writes
/// next to the variant's artifacts, or made up from a `.mlir` file and a function name (the
/// executor that loads it then fills `args` from the IR).
struct KernelMetadata {
  std::string kernel;       ///< kernel name in the library ("softmax")
  std::string function;     ///< symbol of the func.func in the IR
  std::string target;       ///< "interpreter", "cuda:sm_90a", ... (may be empty)
  std::string dtype;        ///< dtype of a dtype-generic kernel's variant ("bf16"), or empty
  std::string metadataPath; ///< the JSON file, empty for a bare .mlir
  std::string artifactsDir; ///< directory the paths below are relative to
  std::string tileIR;       ///< tile-IR file (absolute after loading)
  std::map<std::string, std::string> files; ///< other artifacts by kind ("ptx", "cubin", ...)
  std::vector<KernelArgInfo> args;
  std::map<std::string, int64_t> config; ///< integer and bool config fields (BLOCK, num_warps)
  std::map<std::string, std::string> configText; ///< enum config fields (ACT = "relu")
  int64_t numWarps = 4;
  int64_t numStages = 1;
  int64_t threadsPerWarp = 32; ///< GPU variants: lanes per warp
  int64_t sharedMemory = 0;    ///< GPU variants: dynamic shared memory per program, bytes
  std::string specializes;     ///< a __div8 twin: the variant it specializes
  std::optional<VariantResources> resources; ///< GPU variants compiled to a binary
  /// AMD variants: the code object's kernel metadata as JSON text (the kernarg layout the HIP
  /// executor packs arguments into; third_party/amd/runtime/HipKernelInfo reads it); empty
  /// otherwise.
  std::string binaryMetadata;
  std::vector<TensorMapInfo> tensorMaps; ///< variants whose loads are bulk tensor copies

  /// The config value of the first of `names` present (compared case-insensitively), else
  /// `fallback`.
  int64_t configValue(std::initializer_list<const char *> names, int64_t fallback) const;
};

/// Reads a variant's metadata JSON, the schema of docs/Artifacts.md at
/// artifacts::kVariantSchema. A file of any other schema (or none) is refused with a message
/// that names it and asks for a recompile with tesselc; a missing or mistyped key is an error
/// naming the key. Artifact paths are made absolute against the JSON file's directory.
Status loadKernelMetadata(const std::string &path, KernelMetadata &out);

/// A variant made from a tile-IR file: function `function` ("" for the only kernel in it).
KernelMetadata metadataForTileIR(const std::string &mlirPath, const std::string &function);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_KERNELMETADATA_H
