//===- Npy.h - NumPy .npy files for host buffers ------------------*- C++ -*-===//
//
// Reads and writes NumPy's .npy format (numpy.lib.format), so that tessel-run's raw mode takes
// a user's inputs from NumPy and hands its outputs back. No MLIR, no LLVM, no exceptions: the
// GPU runner (tessel-run-gpu) links it.
//
// The format: the magic "\x93NUMPY", a major and a minor version byte, the header's length
// (version 1.0: 2 bytes; 2.0 and 3.0: 4 bytes; little-endian), the header (a Python dict
// literal such as "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }" padded with
// spaces and ending in a newline; 3.0 only allows UTF-8 in it), then the elements.
//
// Supported when reading: versions 1.0, 2.0 and 3.0; C order (fortran_order False); any shape
// (read flattened: numel elements in row-major order; () is one element); the little-endian or
// byte-order-free descrs '<f2' '<f4' '<f8' '|i1' '<i2' '<i4' '<i8' '|u1' '<u2' '<u4' '<u8' '|b1'.
// Everything else is an error that names the file and says how to convert it from NumPy: a
// missing file, a file without the magic (not .npy), a truncated header or data, bytes after
// the data, fortran_order True, a big-endian descr ('>f4'), and any other descr (complex,
// strings, objects, structured dtypes, datetimes, long double).
//
// Writing: version 1.0, the header padded so the data starts at a multiple of 64 bytes, shape
// (N,) for a buffer of N elements (the buffer's own shape when it has one), descr per dtype:
// f16 '<f2' (the bits), f32 '<f4', f64 '<f8', i8 '|i1', i16 '<i2', i32 '<i4', i64 '<i8', i1
// '|b1' (0 or 1), and bf16 '<f4': NumPy has no bfloat16, so its values are written as float32
// (exactly: every bf16 is a float32).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_NPY_H
#define TESSEL_HARNESS_NPY_H

#include "tessel/Harness/HostBuffer.h"
#include "tessel/Harness/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::harness {

/// The element types a .npy file may hold here.
enum class NpyType : uint8_t { f2, f4, f8, i1, i2, i4, i8, u1, u2, u4, u8, b1 };

/// The parsed preamble and header of a .npy file.
struct NpyHeader {
  int major = 1, minor = 0;
  std::string descr; ///< as written ("<f4")
  NpyType type = NpyType::f4;
  bool fortranOrder = false;
  std::vector<int64_t> shape; ///< () for a 0-d array
  int64_t numel = 1;          ///< product of shape
  size_t dataOffset = 0;      ///< bytes before the first element
  size_t itemSize() const;
};

/// The descr NumPy writes for `t` ("<f4", "|b1", ...).
const char *npyDescr(NpyType t);

/// Parses the preamble and header at the start of `bytes` (at least the whole header; the
/// data may follow). Errors say what is wrong without a file name ("is not a .npy file (no
/// \x93NUMPY magic)", "is in Fortran order: ..."); readNpy puts the path in front.
Status parseNpyHeader(std::string_view bytes, NpyHeader &out);

/// Reads `path` into `out`: a buffer of `dtype` with the file's shape, every element converted
/// to `dtype`. Float targets round to nearest even (as HostBuffer::set: f32 -> bf16 and f16
/// are rounded once). Integer targets take integers exactly: an integer element must fit the
/// target's width (signed, or unsigned for the bits of i8..i64: u8 200 -> i8 -56, u64 2^64-1
/// -> i64 -1; i1 takes 0 and 1) and a float element must be an integral value in range;
/// anything else is an error naming the element. Errors name `path`.
Status readNpy(const std::string &path, DType dtype, HostBuffer &out, NpyHeader *header = nullptr);

/// The header text (preamble, dict, padding; version 1.0, data at a multiple of 64 bytes) of
/// an array of `descr` and `shape`.
std::string npyHeaderBytes(const std::string &descr, const std::vector<int64_t> &shape);

/// Writes `buf` to `path` (descr per dtype as above). Errors name `path`.
Status writeNpy(const std::string &path, const HostBuffer &buf);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_NPY_H
