//===- KernelRegistry.cpp - the kernels of loaded kernel files ------------===//
#include "KernelRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>

using namespace tessel;
using namespace tessel::dsl;
using namespace llvm;

std::vector<KernelInfo> &tessel::dsl::getKernelRegistry() {
  static std::vector<KernelInfo> registry;
  return registry;
}

void dsl::detail::registerKernel(const KernelDef &def) {
  KernelInfo info;
  info.def = def;
  if (def.abiVersion != TESSEL_DSL_ABI_VERSION) {
    info.error = "kernel file built against DSL ABI version " + std::to_string(def.abiVersion) +
                 ", tesselc has " + std::to_string(TESSEL_DSL_ABI_VERSION);
    getKernelRegistry().push_back(std::move(info));
    return;
  }
  SmallVector<StringRef> names;
  StringRef(def.argNames).split(names, ',', -1, /*KeepEmpty=*/true);
  for (StringRef n : names)
    if (!n.trim().empty())
      info.argNames.push_back(n.trim().str());
  for (int i = 0; i < def.numVariants; ++i)
    if (def.variants[i].numArgs != static_cast<int>(info.argNames.size())) {
      info.error = "ARGS names " + std::to_string(info.argNames.size()) +
                   " arguments but kernel '" + def.name + "' takes " +
                   std::to_string(def.variants[i].numArgs) + " (after its config)";
      break;
    }
  getKernelRegistry().push_back(std::move(info));
}

std::string ConfigValue::format(const dsl::detail::FieldInfo &f) const {
  switch (f.kind) {
  case dsl::detail::FieldKind::integer:
    return std::to_string(f.getInt(get()));
  case dsl::detail::FieldKind::boolean:
    return f.getInt(get()) ? "true" : "false";
  case dsl::detail::FieldKind::enumeration: {
    int64_t v = f.getInt(get());
    if (f.enumNames && v >= 0 && v < f.numEnumNames)
      return f.enumNames[v];
    return std::to_string(v);
  }
  case dsl::detail::FieldKind::floating: {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%g", f.getFloat(get()));
    return buf;
  }
  }
  return "?";
}

json::Object ConfigValue::toJSON() const {
  json::Object o;
  for (int i = 0; i < schema->numFields; ++i) {
    const dsl::detail::FieldInfo &f = schema->fields[i];
    switch (f.kind) {
    case dsl::detail::FieldKind::integer:
      o[f.name] = f.getInt(get());
      break;
    case dsl::detail::FieldKind::boolean:
      o[f.name] = f.getInt(get()) != 0;
      break;
    case dsl::detail::FieldKind::enumeration:
      o[f.name] = format(f);
      break;
    case dsl::detail::FieldKind::floating:
      o[f.name] = f.getFloat(get());
      break;
    }
  }
  return o;
}

Error ConfigValue::set(StringRef field, StringRef value) {
  const dsl::detail::FieldInfo *f = nullptr;
  for (int i = 0; i < schema->numFields; ++i)
    if (field == schema->fields[i].name)
      f = &schema->fields[i];
  if (!f)
    return createStringError(inconvertibleErrorCode(),
                             "config " + Twine(schema->typeName) + " has no field '" + field + "'");
  auto bad = [&](const Twine &expected) {
    return createStringError(inconvertibleErrorCode(), "invalid value '" + value +
                                                           "' for config field " + field + " (" +
                                                           expected + ")");
  };
  switch (f->kind) {
  case dsl::detail::FieldKind::integer: {
    int64_t v;
    if (value.getAsInteger(0, v))
      return bad("an integer");
    int64_t old = f->getInt(get());
    f->setInt(get(), v);
    if (f->getInt(get()) != v) { // narrowed by the field's C++ type (int, unsigned, ...)
      f->setInt(get(), old);
      return bad("an integer that fits the field's type");
    }
    return Error::success();
  }
  case dsl::detail::FieldKind::boolean:
    if (value == "true" || value == "1")
      f->setInt(get(), 1);
    else if (value == "false" || value == "0")
      f->setInt(get(), 0);
    else
      return bad("true, false, 1 or 0");
    return Error::success();
  case dsl::detail::FieldKind::enumeration: {
    for (int i = 0; i < f->numEnumNames; ++i)
      if (value == f->enumNames[i]) {
        f->setInt(get(), i);
        return Error::success();
      }
    int64_t v;
    if (!f->enumNames && !value.getAsInteger(0, v)) {
      f->setInt(get(), v);
      return Error::success();
    }
    std::vector<std::string> names(f->enumNames, f->enumNames + f->numEnumNames);
    return bad(names.empty() ? "an integer" : "one of " + join(names, ", "));
  }
  case dsl::detail::FieldKind::floating: {
    double v;
    if (value.getAsDouble(v))
      return bad("a number");
    f->setFloat(get(), v);
    return Error::success();
  }
  }
  return Error::success();
}

/// Keeps [A-Za-z0-9_]; '.' -> 'p', '-' -> 'm', anything else -> '_'.
static std::string symbolSafe(StringRef s) {
  std::string out;
  for (char c : s) {
    if (isAlnum(c) || c == '_')
      out += c;
    else if (c == '.')
      out += 'p';
    else if (c == '-')
      out += 'm';
    else if (c != '+')
      out += '_';
  }
  return out;
}

std::string tessel::dsl::variantName(const KernelInfo &kernel,
                                     const dsl::detail::VariantDef &variant,
                                     const ConfigValue &config) {
  std::string name = kernel.def.name;
  if (variant.generic)
    name += std::string("__") + dtypeName(variant.dtype);
  const dsl::detail::ConfigSchema &schema = config.getSchema();
  for (int i = 0; i < schema.numFields; ++i) {
    const dsl::detail::FieldInfo &field = schema.fields[i];
    // Options added after variants were named, named only away from their default.
    static constexpr std::pair<StringLiteral, int64_t> kOptions[] = {
        {"warp_specialize", 0}, {"cluster_size", 1}, {"tma_store", 0}};
    if (llvm::any_of(kOptions, [&](const auto &o) {
          return StringRef(field.name) == o.first && field.getInt(config.get()) == o.second;
        }))
      continue;
    name += "__" + symbolSafe(field.name) + "_" + symbolSafe(config.format(field));
  }
  return name;
}

int tessel::dsl::ConfigValue::integerField(StringRef name, int missing) const {
  for (int i = 0; i < schema->numFields; ++i)
    if (StringRef(schema->fields[i].name) == name)
      return int(schema->fields[i].getInt(get()));
  return missing;
}
