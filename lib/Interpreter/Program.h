//===- Program.h - the interpreter's executable form ------------*- C++ -*-===//
//
// Internal to lib/Interpreter. A Program is a table of slots (one per SSA value, plus scratch
// buffers) and a Sequence of handlers. Values are flat buffers in one of three storage kinds:
//   I64: every integer (sign-extended from its width; i1 as 0/1), index, and pointers
//        (byte addresses); block pointers as [base, shape..., strides..., offsets...];
//   F32: f32, and f16/bf16 values (always exactly representable in their format);
//   F64: f64.
// Shapes are static, so every slot's buffer is allocated once per thread and handlers never
// allocate.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LIB_INTERPRETER_PROGRAM_H
#define TESSEL_LIB_INTERPRETER_PROGRAM_H

#include "tessel/Interpreter/Interpreter.h"

#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <vector>

namespace tessel::interp {

enum class Storage : uint8_t { I64, F32, F64 };

/// Element kinds of slots.
enum class Elem : uint8_t { i1, i8, i16, i32, i64, f16, bf16, f32, f64, ptr, blockptr };

inline bool isFloatElem(Elem e) {
  return e == Elem::f16 || e == Elem::bf16 || e == Elem::f32 || e == Elem::f64;
}
inline Storage storageOf(Elem e) {
  switch (e) {
  case Elem::f16:
  case Elem::bf16:
  case Elem::f32:
    return Storage::F32;
  case Elem::f64:
    return Storage::F64;
  default:
    return Storage::I64;
  }
}
/// Integer width in bits (64 for pointers).
inline unsigned widthOf(Elem e) {
  switch (e) {
  case Elem::i1:
    return 1;
  case Elem::i8:
    return 8;
  case Elem::i16:
    return 16;
  case Elem::i32:
    return 32;
  default:
    return 64;
  }
}

/// Static type of a slot.
struct SlotType {
  Elem elem = Elem::i64;
  llvm::SmallVector<int64_t, 4> shape; ///< empty for a scalar
  int64_t numel = 1;
  DType pointee = DType::f32; ///< ptr / blockptr
  int rank = 0;               ///< blockptr: rank of the block
  Storage storage() const { return storageOf(elem); }
  /// 64-bit words the buffer needs.
  int64_t words() const {
    if (elem == Elem::blockptr)
      return 1 + 3 * rank;
    return storage() == Storage::F32 ? (numel + 1) / 2 : numel;
  }
  size_t elemBytes() const { return storage() == Storage::F32 ? 4 : 8; }
};

/// One slot's storage.
struct Buffer {
  std::vector<uint64_t> words;
  template <typename T> T *as() { return reinterpret_cast<T *>(words.data()); }
  template <typename T> const T *as() const { return reinterpret_cast<const T *>(words.data()); }
  void *data() { return words.data(); }
};

/// Shared by every program instance of one launch.
struct LaunchState {
  const std::vector<MemoryRegion> *memory = nullptr; ///< sorted by begin
  int64_t grid[3] = {1, 1, 1};
  std::mutex mutex;
  std::atomic<int64_t> errorProgram{INT64_MAX}; ///< lowest failing linear program id
  std::string error;
};

/// Per-thread state of one program instance.
struct Frame {
  std::vector<Buffer> slots;
  int64_t pid[3] = {0, 0, 0};
  int64_t linearPid = 0;
  LaunchState *launch = nullptr;
  bool failed = false;
  /// Records an error of this program instance (kept when it is the lowest failing id).
  void fail(const std::string &message);
};

using Handler = std::function<void(Frame &)>;

/// Straight-line handlers; control flow ops hold nested Blocks.
struct Sequence {
  std::vector<Handler> ops;
  /// Runs the handlers in order; stops at the first failure.
  void run(Frame &f) const {
    for (const Handler &h : ops) {
      h(f);
      if (f.failed)
        return;
    }
  }
};

struct Program {
  std::vector<SlotType> slots;
  /// Constant slots: filled once per frame, never written by handlers.
  std::vector<std::pair<int, Buffer>> constants;
  std::vector<int> argSlots;
  Sequence body;
  /// A fresh frame with every slot allocated and the constants filled.
  void initFrame(Frame &f) const;
};

/// Elementwise kernel over raw arrays: out[i] = f(a[i], b[i]) for i < n (out may alias a).
using BinaryKernel = std::function<void(const void *a, const void *b, void *out, int64_t n)>;

} // namespace tessel::interp

#endif // TESSEL_LIB_INTERPRETER_PROGRAM_H
