//===- Kernel.h - registering the kernels of a kernel file ------*- C++ -*-===//
//
// A kernel is a function whose first parameter is its config struct and whose other
// parameters are pointers (Ptr<T>, Ptr<T, Align<N>>) and scalars (Int, IntDiv<N>, Float,
// Scalar<T>). TESSEL_KERNEL registers it with the names of its arguments (C++ cannot reflect
// them) and its configs; a dtype-generic kernel (a template over its element type T) lists
// the dtypes to instantiate:
//
//   TESSEL_KERNEL(vector_add, ARGS(x, y, out, n), CONFIGS(AddConfig{}))
//   TESSEL_KERNEL(softmax, DTYPES(f32, f16, bf16), ARGS(out, in, stride, n_cols),
//                 CONFIGS(SoftmaxConfig{.BLOCK = 1024},
//                         SoftmaxConfig{.BLOCK = 4096, .num_warps = 8}))
//
// The sections come in that order. tesselc traces one function per (dtype, config) variant.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_KERNEL_H
#define TESSEL_DSL_KERNEL_H

#include "tessel/dsl/Config.h"
#include "tessel/dsl/Ptr.h"

#include <utility>

namespace tessel::dsl::detail {

enum class ArgKind : uint8_t { ptr, scalar };

/// One kernel argument: a pointer to dtype or a scalar of dtype, with its divisibility hint
/// (bytes for pointers, the value for integers; 1: none).
struct ArgSpec {
  ArgKind kind;
  DType dtype;
  int32_t divisibility;
};

/// One instantiation of a kernel: its dtype (generic kernels), arguments and trace entry.
struct VariantDef {
  DType dtype;
  bool generic;
  const ArgSpec *args;
  int numArgs;
  void (*trace)(const void *config);
};

/// Everything TESSEL_KERNEL registers.
struct KernelDef {
  int abiVersion;
  const char *name;
  const char *argNames; // "out, in, stride, n_cols"
  const char *file;
  int line;
  const ConfigSchema *config;
  const void *const *configs;
  int numConfigs;
  const VariantDef *variants;
  int numVariants;
};

/// Adds a kernel to tesselc's registry (implemented by the tracer).
TESSEL_DSL_EXPORT void registerKernel(const KernelDef &def);

template <class... Ts> struct TypeList {};
template <class T> struct TypeTag {
  using type = T;
};

template <class A> struct ArgTraits {
  static constexpr bool valid = false;
};
template <DTypeTag T, class A> struct ArgTraits<Ptr<T, A>> {
  static constexpr bool valid = true;
  static constexpr ArgSpec spec{ArgKind::ptr, T::dtype, Ptr<T, A>::alignment};
  static Ptr<T, A> make(const RawValue &r) { return Ptr<T, A>(r); }
};
template <DTypeTag T> struct ArgTraits<Scalar<T>> {
  static constexpr bool valid = true;
  static constexpr ArgSpec spec{ArgKind::scalar, T::dtype, 1};
  static Scalar<T> make(const RawValue &r) { return Scalar<T>(r); }
};
template <int N> struct ArgTraits<IntDiv<N>> {
  static constexpr bool valid = true;
  static constexpr ArgSpec spec{ArgKind::scalar, DType::i64, N};
  static IntDiv<N> make(const RawValue &r) { return IntDiv<N>(r); }
};

template <class F> struct FnTraits;
template <class C, class... As> struct FnTraits<void (*)(C, As...)> {
  using Config = std::remove_cvref_t<C>;
  using Args = TypeList<std::remove_cvref_t<As>...>;
  static constexpr int numArgs = sizeof...(As);
};
template <class C, class... As>
struct FnTraits<void (*)(C, As...) noexcept> : FnTraits<void (*)(C, As...)> {};

template <auto Fn, class... As, size_t... I>
void invokeWith(const void *config, TypeList<As...>, std::index_sequence<I...>) {
  using Config = typename FnTraits<decltype(Fn)>::Config;
  Fn(*static_cast<const Config *>(config), ArgTraits<As>::make(kernelArg(I))...);
}
/// Calls the kernel with its config and its arguments as handles: one trace.
template <auto Fn> void invokeKernel(const void *config) {
  using FT = FnTraits<decltype(Fn)>;
  invokeWith<Fn>(config, typename FT::Args{}, std::make_index_sequence<FT::numArgs>{});
}

template <class... As> constexpr bool validArgs(TypeList<As...>) {
  return (ArgTraits<As>::valid && ...);
}
template <class... As> const ArgSpec *argSpecs(TypeList<As...>) {
  static constexpr ArgSpec specs[sizeof...(As) + 1] = {ArgTraits<As>::spec..., ArgSpec{}};
  return specs;
}

template <class D, class Getter, class Config> VariantDef makeVariant() {
  constexpr auto fn = Getter{}(TypeTag<D>{});
  using FT = FnTraits<std::remove_cv_t<decltype(fn)>>;
  static_assert(std::is_same_v<typename FT::Config, Config>,
                "a kernel's first parameter is its config struct, of the type of its CONFIGS");
  static_assert(validArgs(typename FT::Args{}),
                "kernel arguments are pointers (Ptr<T>, Ptr<T, Align<N>>) and scalars (Int, "
                "IntDiv<N>, Float, Scalar<T>); tiles are made inside the kernel");
  VariantDef v{};
  if constexpr (!std::is_void_v<D>) {
    v.dtype = D::dtype;
    v.generic = true;
  }
  v.args = argSpecs(typename FT::Args{});
  v.numArgs = FT::numArgs;
  v.trace = &invokeKernel<fn>;
  return v;
}

template <class... Ds, class Getter, class Config, class... Configs>
bool registerKernelDef(const char *name, const char *argNames, const char *file, int line,
                       TypeList<Ds...>, Getter, const Config &first, const Configs &...rest) {
  static_assert((std::is_same_v<Config, Configs> && ...),
                "all CONFIGS of a kernel have one struct type");
  const void *const *configs =
      new const void *[1 + sizeof...(rest)]{new Config(first), new Config(rest)...};
  const VariantDef *variants = new VariantDef[sizeof...(Ds)]{makeVariant<Ds, Getter, Config>()...};
  KernelDef def{TESSEL_DSL_ABI_VERSION,
                name,
                argNames,
                file,
                line,
                &configSchema<Config>(),
                configs,
                static_cast<int>(1 + sizeof...(rest)),
                variants,
                static_cast<int>(sizeof...(Ds))};
  registerKernel(def);
  return true;
}

} // namespace tessel::dsl::detail

#define TESSEL_KERNEL_SECTION_DTYPES(...) ::tessel::dsl::detail::TypeList<__VA_ARGS__>
#define TESSEL_KERNEL_SECTION_ARGS(...) #__VA_ARGS__
#define TESSEL_KERNEL_SECTION_CONFIGS(...) __VA_ARGS__
#define TESSEL_KERNEL_IMPL_(name, dtypes, getter, args, configs)                                   \
  [[maybe_unused]] static const bool TESSEL_PP_CAT(tessel_kernel_registered_, name) =              \
      ::tessel::dsl::detail::registerKernelDef(                                                    \
          #name, TESSEL_PP_CAT(TESSEL_KERNEL_SECTION_, args), __FILE__, __LINE__,                  \
          TESSEL_PP_CAT(TESSEL_KERNEL_SECTION_, dtypes){}, getter,                                 \
          TESSEL_PP_CAT(TESSEL_KERNEL_SECTION_, configs));
#define TESSEL_KERNEL_3_(name, args, configs)                                                      \
  TESSEL_KERNEL_IMPL_(name, DTYPES(void), [](auto) { return &name; }, args, configs)
#define TESSEL_KERNEL_4_(name, dtypes, args, configs)                                              \
  TESSEL_KERNEL_IMPL_(                                                                             \
      name, dtypes, [](auto tag) { return &name<typename decltype(tag)::type>; }, args, configs)

/// TESSEL_KERNEL(name, [DTYPES(...),] ARGS(...), CONFIGS(...)): see the top of this file.
#define TESSEL_KERNEL(...)                                                                         \
  TESSEL_PP_CAT(TESSEL_KERNEL_, TESSEL_PP_CAT(TESSEL_PP_NARGS(__VA_ARGS__), _))(__VA_ARGS__)

#endif // TESSEL_DSL_KERNEL_H
