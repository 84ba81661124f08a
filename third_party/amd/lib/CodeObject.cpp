//===- CodeObject.cpp - AMDGPU code object metadata -----------------------===//
//
// The backend records each kernel's resource usage and argument layout in a msgpack map in
// the object's NT_AMDGPU_METADATA note ("amdhsa.kernels": [{".name", ".vgpr_count", ...,
// ".args": [{".offset", ".size", ".value_kind", ...}]}]). This is what the HIP runtime itself
// reads when it loads the hsaco, so Tessel's numbers and launch layout agree with the loader's.
//
//===----------------------------------------------------------------------===//
#include "CodeObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace tessel;

namespace {

/// The metadata map (the note's descriptor) of an ELF64 little-endian object.
LogicalResult readNote(llvm::StringRef elf, llvm::msgpack::Document &doc, std::string &error) {
  auto obj =
      llvm::object::ObjectFile::createELFObjectFile(llvm::MemoryBufferRef(elf, "code object"));
  if (!obj) {
    error = "not an ELF code object: " + llvm::toString(obj.takeError());
    return failure();
  }
  auto *elf64 = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(obj->get());
  if (!elf64 || elf64->getELFFile().getHeader().e_machine != llvm::ELF::EM_AMDGPU) {
    error = "not an AMDGPU ELF64 code object";
    return failure();
  }
  const auto &file = elf64->getELFFile();
  auto sections = file.sections();
  if (!sections) {
    error = llvm::toString(sections.takeError());
    return failure();
  }
  for (const auto &shdr : *sections) {
    if (shdr.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error err = llvm::Error::success();
    for (const auto &note : file.notes(shdr, err)) {
      if (note.getName() != "AMDGPU" || note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      if (!doc.readFromBlob(note.getDescAsStringRef(shdr.sh_addralign), /*Multi=*/false)) {
        llvm::consumeError(std::move(err));
        error = "malformed AMDGPU metadata note";
        return failure();
      }
      llvm::consumeError(std::move(err));
      return success();
    }
    if (err) {
      error = llvm::toString(std::move(err));
      return failure();
    }
  }
  error = "the code object has no AMDGPU metadata note";
  return failure();
}

llvm::json::Value toJSON(llvm::msgpack::DocNode node) {
  using llvm::msgpack::Type;
  switch (node.getKind()) {
  case Type::Int:
    return node.getInt();
  case Type::UInt:
    return int64_t(node.getUInt());
  case Type::Boolean:
    return node.getBool();
  case Type::Float:
    return node.getFloat();
  case Type::String:
    return node.getString().str();
  case Type::Array: {
    llvm::json::Array a;
    for (auto &e : node.getArray())
      a.push_back(toJSON(e));
    return a;
  }
  case Type::Map: {
    llvm::json::Object o;
    for (auto &[k, v] : node.getMap())
      if (k.isString())
        o[k.getString().ltrim('.')] = toJSON(v);
    return o;
  }
  default:
    return nullptr;
  }
}

} // namespace

LogicalResult tessel::amd::readCodeObjectMetadata(llvm::StringRef elf, llvm::StringRef name,
                                                  llvm::StringMap<int64_t> &resources,
                                                  std::string &json, std::string &error) {
  llvm::msgpack::Document doc;
  if (failed(readNote(elf, doc, error)))
    return failure();
  llvm::msgpack::DocNode &root = doc.getRoot();
  if (!root.isMap()) {
    error = "AMDGPU metadata is not a map";
    return failure();
  }
  auto &top = root.getMap();
  llvm::msgpack::DocNode *kernel = nullptr;
  auto kernels = top.find(doc.getNode("amdhsa.kernels"));
  if (kernels != top.end() && kernels->second.isArray())
    for (auto &k : kernels->second.getArray())
      if (k.isMap()) {
        auto n = k.getMap().find(doc.getNode(".name"));
        if (n != k.getMap().end() && n->second.isString() && n->second.getString() == name)
          kernel = &k;
      }
  if (!kernel) {
    error = "the code object's metadata has no kernel named '" + name.str() + "'";
    return failure();
  }
  llvm::json::Object out = std::move(*toJSON(*kernel).getAsObject());

  // amdhsa.version [1, 2] is code object v5, [1, 1] v4, [1, 0] v3.
  auto version = top.find(doc.getNode("amdhsa.version"));
  if (version != top.end() && version->second.isArray() && version->second.getArray().size() == 2)
    out["code_object_version"] = int64_t(version->second.getArray()[1].getUInt() + 3);
  auto target = top.find(doc.getNode("amdhsa.target"));
  if (target != top.end() && target->second.isString())
    out["target"] = target->second.getString().str();

  const std::pair<const char *, const char *> fields[] = {
      {"vgpr_count", "vgpr_count"},
      {"agpr_count", "agpr_count"},
      {"sgpr_count", "sgpr_count"},
      {"vgpr_spill_count", "vgpr_spill_count"},
      {"sgpr_spill_count", "sgpr_spill_count"},
      {"group_segment_fixed_size", "lds_bytes"},
      {"private_segment_fixed_size", "scratch_bytes"},
      {"kernarg_segment_size", "kernarg_bytes"},
      {"max_flat_workgroup_size", "max_flat_workgroup_size"},
      {"wavefront_size", "wavefront_size"},
  };
  for (auto [field, key] : fields)
    if (std::optional<int64_t> v = out.getInteger(field))
      resources[key] = *v;
  if (std::optional<bool> dyn = out.getBoolean("uses_dynamic_stack"))
    resources["uses_dynamic_stack"] = *dyn;

  json.clear();
  llvm::raw_string_ostream os(json);
  os << llvm::json::Value(std::move(out));
  return success();
}
