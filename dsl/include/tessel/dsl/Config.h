//===- Config.h - reflection of config structs and enums --------*- C++ -*-===//
//
// A kernel's compile-time knobs are a plain struct; TESSEL_CONFIG lists its fields so that
// tesselc can name variants after them, write them to the metadata and override them with
// `-D FIELD=VALUE`:
//
//   struct SoftmaxConfig { int BLOCK = 1024; int num_warps = 4; };
//   TESSEL_CONFIG(SoftmaxConfig, BLOCK, num_warps)
//
// Fields are integers, bools, floating point, or enums declared with TESSEL_ENUM (whose names
// `-D` accepts). `num_warps` (default 4) and `num_stages` (default 1), when present, become the
// kernel's tile.num_warps / tile.num_stages.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_CONFIG_H
#define TESSEL_DSL_CONFIG_H

#include "tessel/dsl/Preprocessor.h"
#include "tessel/dsl/Trace.h"

#include <type_traits>

namespace tessel::dsl::detail {

enum class FieldKind : uint8_t { integer, boolean, floating, enumeration };

/// One reflected field: its name, kind, enum names, and accessors on a type-erased config.
struct FieldInfo {
  const char *name;
  FieldKind kind;
  const char *const *enumNames; // enumerations declared with TESSEL_ENUM; else null
  int numEnumNames;
  int64_t (*getInt)(const void *config);
  double (*getFloat)(const void *config);
  void (*setInt)(void *config, int64_t value);
  void (*setFloat)(void *config, double value);
};

/// A reflected config struct.
struct ConfigSchema {
  const char *typeName;
  const FieldInfo *fields;
  int numFields;
  void *(*copy)(const void *config);
  void (*destroy)(void *config);
  int (*numWarps)(const void *config);  // 4 when the struct has no num_warps
  int (*numStages)(const void *config); // 1 when the struct has no num_stages
};

template <class> inline constexpr bool kAlwaysFalse = false;

template <class F> constexpr FieldKind fieldKind() {
  static_assert(!std::is_const_v<F>, "config fields must be assignable (not const)");
  if constexpr (std::is_same_v<F, bool>)
    return FieldKind::boolean;
  else if constexpr (std::is_enum_v<F>)
    return FieldKind::enumeration;
  else if constexpr (std::is_integral_v<F>)
    return FieldKind::integer;
  else if constexpr (std::is_floating_point_v<F>)
    return FieldKind::floating;
  else
    static_assert(kAlwaysFalse<F>, "config fields are integers, bools, floating point or enums");
}
template <class F> int64_t toInt(const F &v) { return static_cast<int64_t>(v); }
template <class F> double toFloat(const F &v) { return static_cast<double>(v); }
template <class F> void fromInt(F &f, int64_t v) { f = static_cast<F>(v); }
template <class F> void fromFloat(F &f, double v) {
  if constexpr (std::is_enum_v<F>)
    f = static_cast<F>(static_cast<int64_t>(v));
  else
    f = static_cast<F>(v);
}

template <class E> const char *const *enumNames() {
  if constexpr (requires { tesselEnumNames(static_cast<E *>(nullptr)); })
    return tesselEnumNames(static_cast<E *>(nullptr));
  else
    return nullptr;
}
template <class E> constexpr int numEnumNames() {
  if constexpr (requires { tesselEnumCount(static_cast<E *>(nullptr)); })
    return tesselEnumCount(static_cast<E *>(nullptr));
  else
    return 0;
}

template <class S>
ConfigSchema makeSchema(const char *typeName, const FieldInfo *fields, int numFields) {
  ConfigSchema s;
  s.typeName = typeName;
  s.fields = fields;
  s.numFields = numFields;
  s.copy = [](const void *c) -> void * { return new S(*static_cast<const S *>(c)); };
  s.destroy = [](void *c) { delete static_cast<S *>(c); };
  s.numWarps = [](const void *c) -> int {
    if constexpr (requires(const S &x) { x.num_warps; })
      return static_cast<int>(static_cast<const S *>(c)->num_warps);
    else
      return 4;
  };
  s.numStages = [](const void *c) -> int {
    if constexpr (requires(const S &x) { x.num_stages; })
      return static_cast<int>(static_cast<const S *>(c)->num_stages);
    else
      return 1;
  };
  return s;
}

/// The schema of config struct S, from its TESSEL_CONFIG (found by argument-dependent lookup).
template <class S> const ConfigSchema &configSchema() {
  static_assert(
      requires { tesselConfigSchema(static_cast<const S *>(nullptr)); },
      "the config struct has no TESSEL_CONFIG(Struct, fields...) listing its fields");
  return tesselConfigSchema(static_cast<const S *>(nullptr));
}

} // namespace tessel::dsl::detail

#define TESSEL_CONFIG_FIELD_(S, field)                                                             \
  ::tessel::dsl::detail::FieldInfo{                                                                \
      #field,                                                                                      \
      ::tessel::dsl::detail::fieldKind<decltype(S::field)>(),                                      \
      ::tessel::dsl::detail::enumNames<decltype(S::field)>(),                                      \
      ::tessel::dsl::detail::numEnumNames<decltype(S::field)>(),                                   \
      [](const void *c) {                                                                          \
        return ::tessel::dsl::detail::toInt(static_cast<const S *>(c)->field);                     \
      },                                                                                           \
      [](const void *c) {                                                                          \
        return ::tessel::dsl::detail::toFloat(static_cast<const S *>(c)->field);                   \
      },                                                                                           \
      [](void *c, int64_t v) { ::tessel::dsl::detail::fromInt(static_cast<S *>(c)->field, v); },   \
      [](void *c, double v) { ::tessel::dsl::detail::fromFloat(static_cast<S *>(c)->field, v); }},

/// Lists the fields of config struct `Struct` (in the namespace of Struct, after its definition).
#define TESSEL_CONFIG(Struct, ...)                                                                 \
  [[maybe_unused]] inline const ::tessel::dsl::detail::ConfigSchema &tesselConfigSchema(           \
      const Struct *) {                                                                            \
    static const ::tessel::dsl::detail::FieldInfo fields[] = {                                     \
        TESSEL_PP_FOR_EACH(TESSEL_CONFIG_FIELD_, Struct, __VA_ARGS__)};                            \
    static const ::tessel::dsl::detail::ConfigSchema schema =                                      \
        ::tessel::dsl::detail::makeSchema<Struct>(#Struct, fields,                                 \
                                                  sizeof(fields) / sizeof(fields[0]));             \
    return schema;                                                                                 \
  }

#define TESSEL_ENUM_NAME_(E, x) #x,
/// Declares `enum class Name : int { a, b, ... }` with its names, for config fields:
/// `TESSEL_ENUM(Activation, none, relu, gelu, silu)`. Enumerators take no initializers.
#define TESSEL_ENUM(Name, ...)                                                                     \
  enum class Name : int { __VA_ARGS__ };                                                           \
  [[maybe_unused]] inline const char *const *tesselEnumNames(Name *) {                             \
    static const char *const names[] = {TESSEL_PP_FOR_EACH(TESSEL_ENUM_NAME_, Name, __VA_ARGS__)}; \
    return names;                                                                                  \
  }                                                                                                \
  [[maybe_unused]] constexpr int tesselEnumCount(Name *) { return TESSEL_PP_NARGS(__VA_ARGS__); }

#endif // TESSEL_DSL_CONFIG_H
