//===- Trace.h - the calls from DSL handles into the tracer -----*- C++ -*-===//
//
// A handle (Tile<T>, Ptr<T>, ...) holds a `RawValue`: an opaque id of an IR value in the
// tracer plus its static shape. Every DSL operation is one call below; the tracer (dsl/lib,
// linked into tesselc, which exports these symbols to the kernel's shared object) builds the
// tile IR, checks the operands and reports misuse at the user's source line. Nothing here
// includes MLIR: kernel files compile against these declarations only.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_TRACE_H
#define TESSEL_DSL_TRACE_H

#include "tessel/dsl/DType.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <string>

/// Bumped whenever a declaration below or the layout of a struct here changes; tesselc refuses
/// a kernel library built against another version.
#define TESSEL_DSL_ABI_VERSION 1
#define TESSEL_DSL_VERSION "0.1.0"

#define TESSEL_DSL_EXPORT __attribute__((visibility("default")))

namespace tessel::dsl {

/// Largest tile rank the DSL handles.
inline constexpr int kMaxRank = 4;

/// A static tile shape: rank 0 (a scalar) to kMaxRank dimensions, e.g. `{BLOCK_M, BLOCK_K}`.
class Shape {
public:
  constexpr Shape() = default;
  constexpr Shape(std::initializer_list<int64_t> dims) {
    for (int64_t d : dims) {
      if (rank_ < kMaxRank)
        dims_[rank_] = d;
      ++rank_;
    }
  }
  /// Number of dimensions; 0 for a scalar. May exceed kMaxRank for a shape that the tracer
  /// will reject.
  constexpr int rank() const { return rank_; }
  constexpr int64_t operator[](int i) const { return dims_[i]; }
  constexpr int64_t &operator[](int i) { return dims_[i]; }
  /// Product of the dimensions (1 for a scalar).
  constexpr int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < rank_ && i < kMaxRank; ++i)
      n *= dims_[i];
    return n;
  }
  constexpr void push_back(int64_t d) {
    if (rank_ < kMaxRank)
      dims_[rank_] = d;
    ++rank_;
  }
  friend constexpr bool operator==(const Shape &a, const Shape &b) {
    if (a.rank_ != b.rank_)
      return false;
    for (int i = 0; i < a.rank_ && i < kMaxRank; ++i)
      if (a.dims_[i] != b.dims_[i])
        return false;
    return true;
  }

private:
  int32_t rank_ = 0;
  int64_t dims_[kMaxRank] = {};
};

// Enums of memory ops, in the tile dialect's terms (docs/TileIR.md).
enum class Cache : uint8_t { none, ca, cg, cs, cv, wb, wt };
enum class Evict : uint8_t { normal, evict_first, evict_last };
enum class Sem : uint8_t { relaxed, acquire, release, acq_rel };
enum class Scope : uint8_t { gpu, cta, sys };
enum class Padding : uint8_t { none, zero, nan };
enum class Precision : uint8_t { ieee, tf32, tf32x3 };

/// Cache and eviction hints of a load: `load(p, m, 0.0, {.cache = Cache::cg})`.
struct LoadHints {
  Cache cache = Cache::none;
  Evict evict = Evict::normal;
  bool is_volatile = false;
};
/// Cache and eviction hints of a store.
struct StoreHints {
  Cache cache = Cache::none;
  Evict evict = Evict::normal;
};

namespace detail {

/// A user source position: file, line, column (1-based).
struct Loc {
  const char *file;
  uint32_t line;
  uint32_t col;
  static constexpr Loc from(const std::source_location &l) {
    return {l.file_name(), l.line(), l.column()};
  }
};

enum class ValueKind : uint8_t { none, tile, ptr, block_ptr };

/// What a handle holds: the tracer's id of the value, its kind, its element (or pointee) type
/// and its shape (rank 0: a scalar). `id < 0`: a default-constructed, unassigned handle.
struct RawValue {
  int32_t id = -1;
  uint32_t trace = 0;
  ValueKind kind = ValueKind::none;
  DType dtype = DType::i1;
  Shape shape;
};

enum class UnaryOp : uint8_t {
  neg,
  logical_not,
  bit_not,
  exp,
  exp2,
  log,
  log2,
  sqrt,
  rsqrt,
  abs,
  sin,
  cos,
  tanh,
  sigmoid,
  erf,
  floor,
  ceil
};
enum class BinaryOp : uint8_t {
  add,
  sub,
  mul,
  div,
  rem,
  bit_and,
  bit_or,
  bit_xor,
  shl,
  shr,
  lt,
  le,
  gt,
  ge,
  eq,
  ne,
  maximum,
  minimum,
  pow,
  umulhi
};
enum class ReduceKind : uint8_t { sum, max, min, argmax, argmin };
enum class AtomicKind : uint8_t { add, max, min, umax, umin, bit_and, bit_or, bit_xor, xchg };

/// Operands of a load; pointers to absent operands are null.
struct LoadArgs {
  RawValue ptr;
  const RawValue *mask = nullptr;
  const RawValue *other = nullptr;
  LoadHints hints;
  const int32_t *boundaryCheck = nullptr; // block pointers only
  int numBoundaryCheck = 0;
  Padding padding = Padding::none;
};
struct StoreArgs {
  RawValue ptr;
  RawValue value;
  const RawValue *mask = nullptr;
  StoreHints hints;
  const int32_t *boundaryCheck = nullptr;
  int numBoundaryCheck = 0;
};

// Every function below is implemented by the tracer (dsl/lib). Each reports misuse as
// `file:line:col: error: ...` at `loc` and aborts the trace of the current kernel variant.
TESSEL_DSL_EXPORT [[noreturn]] void fail(Loc loc, const char *message);
TESSEL_DSL_EXPORT RawValue kernelArg(int index);
TESSEL_DSL_EXPORT RawValue gridIndex(bool numPrograms, int axis, Loc loc);
TESSEL_DSL_EXPORT RawValue constInt(int64_t value, DType dtype, Loc loc);
TESSEL_DSL_EXPORT RawValue constFloat(double value, DType dtype, Loc loc);
TESSEL_DSL_EXPORT RawValue arange(int64_t start, int64_t end, Loc loc);
TESSEL_DSL_EXPORT RawValue full(const Shape &shape, RawValue scalar, Loc loc);
TESSEL_DSL_EXPORT RawValue cast(RawValue v, DType to, bool bitcast, Loc loc);
TESSEL_DSL_EXPORT RawValue unary(UnaryOp op, RawValue v, Loc loc);
TESSEL_DSL_EXPORT RawValue binary(BinaryOp op, RawValue a, RawValue b, Loc loc);
TESSEL_DSL_EXPORT RawValue select(RawValue cond, RawValue a, RawValue b, Loc loc);
TESSEL_DSL_EXPORT RawValue fma(RawValue a, RawValue b, RawValue c, Loc loc);
TESSEL_DSL_EXPORT RawValue expandDims(RawValue v, int axis, Loc loc);
TESSEL_DSL_EXPORT RawValue broadcastTo(RawValue v, const Shape &shape, Loc loc);
TESSEL_DSL_EXPORT RawValue reshape(RawValue v, const Shape &shape, Loc loc);
TESSEL_DSL_EXPORT RawValue trans(RawValue v, const int32_t *order, int n, Loc loc);
TESSEL_DSL_EXPORT RawValue addptr(RawValue ptr, RawValue offset, Loc loc);
TESSEL_DSL_EXPORT RawValue load(const LoadArgs &args, Loc loc);
TESSEL_DSL_EXPORT void store(const StoreArgs &args, Loc loc);
TESSEL_DSL_EXPORT void barrier(Loc loc);
TESSEL_DSL_EXPORT RawValue atomicRMW(AtomicKind kind, RawValue ptr, RawValue value,
                                     const RawValue *mask, Sem sem, Scope scope, Loc loc);
TESSEL_DSL_EXPORT RawValue atomicCAS(RawValue ptr, RawValue cmp, RawValue value, Sem sem,
                                     Scope scope, Loc loc);
TESSEL_DSL_EXPORT RawValue makeBlockPtr(RawValue base, const RawValue *shape,
                                        const RawValue *strides, const RawValue *offsets, int rank,
                                        const Shape &block, const int32_t *order, int numOrder,
                                        Loc loc);
TESSEL_DSL_EXPORT RawValue advance(RawValue blockPtr, const RawValue *offsets, int n, Loc loc);
TESSEL_DSL_EXPORT RawValue dot(RawValue a, RawValue b, const RawValue *acc, Precision precision,
                               Loc loc);
TESSEL_DSL_EXPORT RawValue reduce(ReduceKind kind, RawValue v, int axis, bool keepDims, Loc loc);
TESSEL_DSL_EXPORT RawValue cumsum(RawValue v, int axis, bool reverse, Loc loc);
TESSEL_DSL_EXPORT void devicePrint(const char *prefix, const RawValue *args, int n, bool hex,
                                   Loc loc);
TESSEL_DSL_EXPORT void deviceAssert(RawValue condition, const char *message, Loc loc);
TESSEL_DSL_EXPORT void staticPrint(const char *text, Loc loc);
/// "a tile of f32 [128]": what static_print shows of a handle.
TESSEL_DSL_EXPORT std::string describeValue(const RawValue &v);
TESSEL_DSL_EXPORT void staticAssert(bool condition, const char *message, Loc loc);

// Regions. The header runs the user's body between a begin and an end call, so no user code
// ever runs under an MLIR frame.
/// Opens the combiner of a reduce (scan = false) or scan of `v` along `axis`; writes the two
/// scalar block arguments (running value, new value) to `args`.
TESSEL_DSL_EXPORT void beginCombiner(bool scan, RawValue v, int axis, bool reverse, RawValue *args,
                                     Loc loc);
/// Closes the combiner with the value it yields; returns the reduce or scan result.
TESSEL_DSL_EXPORT RawValue endCombiner(RawValue yielded, bool keepDims, Loc loc);
/// Opens an scf.for over [lb, ub) by step (i64 scalars) carrying `inits`; writes the induction
/// variable then the n carried values of the body to `bodyArgs` (n + 1 entries).
TESSEL_DSL_EXPORT void beginFor(RawValue lb, RawValue ub, RawValue step, const RawValue *inits,
                                int n, RawValue *bodyArgs, Loc loc);
/// Closes the innermost scf.for with the body's n new carried values; writes the loop results.
TESSEL_DSL_EXPORT void endFor(const RawValue *yields, int n, RawValue *results, Loc loc);
/// Opens an scf.if on the i1 scalar `cond`; the then-branch is traced next.
TESSEL_DSL_EXPORT void beginIf(RawValue cond, Loc loc);
/// Ends the then-branch with its n yielded values; the else-branch is traced next.
TESSEL_DSL_EXPORT void beginElse(const RawValue *yields, int n, Loc loc);
/// Ends the else-branch with its n values (same types as the then-branch); writes the results.
TESSEL_DSL_EXPORT void endIf(const RawValue *yields, int n, RawValue *results, Loc loc);

} // namespace detail
} // namespace tessel::dsl

#endif // TESSEL_DSL_TRACE_H
