//===- NpyTest.cpp - NumPy .npy files: round trips, headers, errors -------===//
#include "tessel/Harness/Npy.h"
#include "tessel/Harness/FloatFormats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessel::harness;

namespace {

/// A file under the test's own temporary directory, removed with it.
class NpyFiles : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tessel-npy-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }
  /// Writes `bytes` to `name` and returns its path.
  std::string write(const std::string &name, const std::string &bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  std::filesystem::path dir_;
};

/// A .npy file: preamble of `major`.0 (1: 2-byte length, else 4), the dict text as given
/// (padded with spaces and a newline to a multiple of 16 bytes), then `data`.
std::string npyBytes(const std::string &dict, const std::string &data, int major = 1) {
  size_t pre = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((pre + header.size() + 1) % 16)
    header += ' ';
  header += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < pre - 8; ++i)
    out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

template <typename T> std::string raw(std::initializer_list<T> values) {
  std::string s;
  for (T v : values)
    s.append(reinterpret_cast<const char *>(&v), sizeof(T));
  return s;
}

/// The error message of reading `path` into `dtype` (empty when it succeeds).
std::string readError(const std::string &path, DType dtype = DType::f32) {
  HostBuffer b;
  Status s = readNpy(path, dtype, b);
  return s ? "" : s.message();
}

TEST_F(NpyFiles, RoundTripEveryDType) {
  struct Case {
    DType dtype;
    const char *descr;
    std::vector<double> values;
  };
  std::vector<Case> cases = {
      {DType::f16, "<f2", {1.5, -0.0009765625, 65504, -2, 0.333251953125}},
      {DType::bf16, "<f4", {1.5, -3.0e38, 1.0078125, -0.0, 0.333984375}},
      {DType::f32, "<f4", {1.5, -1e-40, 3.4028234663852886e38, 0.1f, -7}},
      {DType::f64, "<f8", {1.5, 0.1, -1e308, 5e-324, M_PI}},
      {DType::i1, "|b1", {1, 0, 1, 1, 0}},
      {DType::i8, "|i1", {-128, 127, 0, -1, 42}},
      {DType::i16, "<i2", {-32768, 32767, 0, -1, 1234}},
      {DType::i32, "<i4", {-2147483648.0, 2147483647, 0, -1, 123456}},
      {DType::i64, "<i8", {-9007199254740992.0, 9007199254740992.0, 0, -1, 1e15}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(name(c.dtype));
    HostBuffer b(c.dtype, {static_cast<int64_t>(c.values.size())});
    for (size_t i = 0; i < c.values.size(); ++i)
      b.set(static_cast<int64_t>(i), c.values[i]);
    std::string file = path(std::string(name(c.dtype)) + ".npy");
    ASSERT_TRUE(writeNpy(file, b)) << "write";
    HostBuffer back;
    NpyHeader h;
    Status s = readNpy(file, c.dtype, back, &h);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(h.descr, c.descr);
    EXPECT_EQ(h.shape, std::vector<int64_t>{static_cast<int64_t>(c.values.size())});
    EXPECT_EQ(h.dataOffset % 64, 0u); // numpy.save's alignment
    ASSERT_EQ(back.numel(), b.numel());
    for (int64_t i = 0; i < b.numel(); ++i)
      EXPECT_EQ(back.bits(i), b.bits(i)) << "element " << i;
    // Every file is exactly header + data.
    EXPECT_EQ(std::filesystem::file_size(file), h.dataOffset + h.numel * h.itemSize());
  }
}

TEST_F(NpyFiles, Bf16IsWrittenAsFloat32Values) {
  HostBuffer b(DType::bf16, {2});
  b.set(0, 1.0078125), b.set(1, -2.5);
  std::string file = path("bf16.npy");
  ASSERT_TRUE(writeNpy(file, b));
  HostBuffer f;
  ASSERT_TRUE(readNpy(file, DType::f32, f));
  EXPECT_EQ(f.as<float>()[0], 1.0078125f);
  EXPECT_EQ(f.as<float>()[1], -2.5f);
}

TEST_F(NpyFiles, EmptyAndMultiDimensional) {
  HostBuffer empty(DType::f32, {0});
  ASSERT_TRUE(writeNpy(path("e.npy"), empty));
  HostBuffer back;
  ASSERT_TRUE(readNpy(path("e.npy"), DType::f32, back));
  EXPECT_EQ(back.numel(), 0);
  HostBuffer m(DType::i32, {2, 3});
  for (int64_t i = 0; i < 6; ++i)
    m.setInt(i, i * 10);
  ASSERT_TRUE(writeNpy(path("m.npy"), m));
  NpyHeader h;
  ASSERT_TRUE(readNpy(path("m.npy"), DType::i64, back, &h));
  EXPECT_EQ(h.shape, (std::vector<int64_t>{2, 3}));
  for (int64_t i = 0; i < 6; ++i)
    EXPECT_EQ(back.getInt(i), i * 10);
}

TEST(NpyHeader, WrittenHeaderText) {
  std::string h = npyHeaderBytes("<f4", {7});
  EXPECT_EQ(h.size() % 64, 0u);
  EXPECT_EQ(h.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_NE(h.find("{'descr': '<f4', 'fortran_order': False, 'shape': (7,), }"), std::string::npos);
  EXPECT_EQ(h.back(), '\n');
  EXPECT_NE(npyHeaderBytes("<i8", {2, 3}).find("'shape': (2, 3), }"), std::string::npos);
  EXPECT_NE(npyHeaderBytes("<f8", {}).find("'shape': (), }"), std::string::npos);
}

TEST(NpyHeader, VersionsAndShapes) {
  struct Case {
    std::string dict;
    int major;
    std::vector<int64_t> shape;
    int64_t numel;
  };
  std::vector<Case> cases = {
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 1, {3, 4}, 12},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4,), }", 1, {3, 4}, 12},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", 1, {5}, 5},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}", 2, {5}, 5},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 1, {}, 1},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0, 3), }", 3, {2, 0, 3}, 0},
      {"{\"shape\": (2,3), \"fortran_order\": False, \"descr\": \"<f4\"}", 2, {2, 3}, 6},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3L, 4L), }", 1, {3, 4}, 12},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.dict);
    NpyHeader h;
    std::string bytes = npyBytes(c.dict, "", c.major);
    Status s = parseNpyHeader(bytes, h);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(h.major, c.major);
    EXPECT_EQ(h.descr, "<f4");
    EXPECT_EQ(h.type, NpyType::f4);
    EXPECT_FALSE(h.fortranOrder);
    EXPECT_EQ(h.shape, c.shape);
    EXPECT_EQ(h.numel, c.numel);
    EXPECT_EQ(h.dataOffset, bytes.size());
  }
}

TEST(NpyHeader, EveryDescr) {
  for (NpyType t : {NpyType::f2, NpyType::f4, NpyType::f8, NpyType::i1, NpyType::i2, NpyType::i4,
                    NpyType::i8, NpyType::u1, NpyType::u2, NpyType::u4, NpyType::u8, NpyType::b1}) {
    NpyHeader h;
    std::string d = npyDescr(t);
    ASSERT_TRUE(parseNpyHeader(npyHeaderBytes(d, {1}), h)) << d;
    EXPECT_EQ(h.type, t);
    EXPECT_EQ(h.itemSize(), static_cast<size_t>(d[2] - '0'));
  }
}

TEST(NpyHeader, Errors) {
  struct Case {
    std::string bytes;
    const char *message;
  };
  auto dict = [](const std::string &descr, const std::string &order, const std::string &shape) {
    return "{'descr': " + descr + ", 'fortran_order': " + order + ", 'shape': " + shape + ", }";
  };
  std::vector<Case> cases = {
      {"PK\x03\x04 a zip file", "is not a .npy file (it does not start with the \\x93NUMPY magic"},
      {"", "is not a .npy file"},
      {npyBytes(dict("'<f4'", "True", "(2, 3)"), ""),
       "is in Fortran order (fortran_order: True); save numpy.ascontiguousarray(arr) instead"},
      {npyBytes(dict("'>f4'", "False", "(2,)"), ""),
       "is big-endian (dtype '>f4'); save arr.astype('<f4') instead"},
      {npyBytes(dict("'>i8'", "False", "(2,)"), ""), "save arr.astype('<i8')"},
      {npyBytes(dict("'<c8'", "False", "(2,)"), ""),
       "holds dtype '<c8', which is not supported (supported: <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 "
       "<u2 <u4 <u8 |b1); save arr.astype(numpy.float32)"},
      {npyBytes(dict("'<U5'", "False", "(2,)"), ""), "holds dtype '<U5', which is not supported"},
      {npyBytes(dict("'|O'", "False", "(2,)"), ""), "holds dtype '|O', which is not supported"},
      {npyBytes(dict("[('x', '<f4'), ('y', '<i4')]", "False", "(2,)"), ""),
       "holds the structured dtype [('x', '<f4'), ('y', '<i4')], which is not supported"},
      {npyBytes("{'descr': '<f4', 'shape': (2,), }", ""),
       "has a malformed header (no 'fortran_order')"},
      {npyBytes(dict("'<f4'", "False", "(2,)") + "x", ""), "malformed header (text after the dict"},
      {npyBytes(dict("'<f4'", "False", "(-2,)"), ""), "non-negative integer in the shape"},
      {npyBytes(dict("'<f4'", "False", "[2]"), ""), "'shape' is not a tuple of integers"},
      {npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", ""),
       "unknown key 'x'"},
      {npyBytes(dict("'<f4'", "False", "(2,)"), "").substr(0, 20), "is truncated"},
      {std::string("\x93NUMPY\x04\x00\x10\x00", 10), "is .npy format version 4.0"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.bytes);
    NpyHeader h;
    Status s = parseNpyHeader(c.bytes, h);
    ASSERT_FALSE(s);
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
  }
}

TEST_F(NpyFiles, FileErrorsNameTheFile) {
  std::string missing = path("missing.npy");
  EXPECT_EQ(readError(missing), "cannot open '" + missing +
                                    "': No such file or directory (give a .npy file written by "
                                    "numpy.save)");
  std::string text = write("text.npy", "x,y\n1,2\n");
  EXPECT_EQ(readError(text), "'" + text +
                                 "' is not a .npy file (it does not start with the \\x93NUMPY "
                                 "magic; write it with numpy.save)");
  std::string fortran =
      write("f.npy", npyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                              raw<float>({1, 2, 3, 4})));
  EXPECT_NE(readError(fortran).find("'" + fortran + "' is in Fortran order"), std::string::npos);
  std::string big =
      write("b.npy", npyBytes("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }",
                              raw<double>({1})));
  EXPECT_NE(readError(big).find("'" + big + "' is big-endian"), std::string::npos);
  std::string complex =
      write("c.npy", npyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                              raw<float>({1, 2})));
  EXPECT_NE(readError(complex).find("'" + complex + "' holds dtype '<c8'"), std::string::npos);
  std::string shortData =
      write("s.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
                              raw<float>({1, 2})));
  EXPECT_NE(readError(shortData).find("is truncated: shape (3,) of '<f4' needs 12 bytes of data, "
                                      "the file has 8"),
            std::string::npos);
  std::string longData =
      write("l.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
                              raw<float>({1, 2})));
  EXPECT_NE(readError(longData).find("has 4 bytes after the data"), std::string::npos);
  std::string hugeHeader = write("h.npy", std::string("\x93NUMPY\x02\x00\xff\xff\xff\x7f{", 13));
  EXPECT_NE(readError(hugeHeader).find("is truncated (its header is"), std::string::npos);
  EXPECT_EQ(writeNpy(path("no/such/dir/x.npy"), HostBuffer(DType::f32, {1})).message(),
            "cannot write '" + path("no/such/dir/x.npy") + "': No such file or directory");
}

TEST_F(NpyFiles, ConversionsToTheBufferDType) {
  // f32 -> bf16 rounds to nearest even, as HostBuffer::set: 1 + 2^-8 is a tie between 1 and
  // 1 + 2^-7 (to 1), 1 + 3 * 2^-8 one between 1 + 2^-7 and 1 + 2^-6 (to 1 + 2^-6). f16 -> f32 is
  // exact.
  std::string f4 = write("f4.npy", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': "
                                            "(3,), }",
                                            raw<float>({1.00390625f, 1.01171875f, 1.0f / 3})));
  HostBuffer b;
  ASSERT_TRUE(readNpy(f4, DType::bf16, b));
  EXPECT_EQ(b.get(0), 1.0);
  EXPECT_EQ(b.get(1), 1.015625);
  HostBuffer ref(DType::bf16, {1});
  ref.set(0, 1.0f / 3);
  EXPECT_EQ(b.bits(2), ref.bits(0));
  std::string f2 = write("f2.npy", npyBytes("{'descr': '<f2', 'fortran_order': False, 'shape': "
                                            "(2,), }",
                                            raw<uint16_t>({0x3555, 0xfbff})));
  ASSERT_TRUE(readNpy(f2, DType::f32, b));
  EXPECT_EQ(b.get(0), halfToFloat(0x3555));
  EXPECT_EQ(b.get(1), -65504.0);
  // Integers exactly, including the bits of unsigned values; i64 beyond 2^53 into i64.
  std::string u1 = write("u1.npy", npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': "
                                            "(2,), }",
                                            raw<uint8_t>({200, 7})));
  ASSERT_TRUE(readNpy(u1, DType::i8, b));
  EXPECT_EQ(b.getInt(0), -56);
  ASSERT_TRUE(readNpy(u1, DType::i32, b));
  EXPECT_EQ(b.getInt(0), 200);
  std::string i8 = write("i8.npy", npyBytes("{'descr': '<i8', 'fortran_order': False, 'shape': "
                                            "(2,), }",
                                            raw<int64_t>({9007199254740993, -5})));
  ASSERT_TRUE(readNpy(i8, DType::i64, b));
  EXPECT_EQ(b.getInt(0), 9007199254740993);
  ASSERT_TRUE(readNpy(i8, DType::f64, b));
  EXPECT_EQ(b.get(1), -5.0);
  std::string u8 = write("u8.npy", npyBytes("{'descr': '<u8', 'fortran_order': False, 'shape': "
                                            "(1,), }",
                                            raw<uint64_t>({~uint64_t(0)})));
  ASSERT_TRUE(readNpy(u8, DType::i64, b));
  EXPECT_EQ(b.getInt(0), -1);
  EXPECT_NE(readError(u8, DType::i32)
                .find("element 0 is 18446744073709551615, which does not "
                      "fit i32"),
            std::string::npos);
  std::string big = write("big.npy", npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': "
                                              "(2,), }",
                                              raw<int32_t>({5, 300})));
  EXPECT_NE(readError(big, DType::i8).find("('<i4'): element 1 is 300, which does not fit i8"),
            std::string::npos);
  ASSERT_TRUE(readNpy(big, DType::i16, b));
  EXPECT_EQ(b.getInt(1), 300);
  EXPECT_NE(readError(big, DType::i1).find("element 0 is 5, which does not fit i1 (0 or 1)"),
            std::string::npos);
  // Floats into integer buffers: integral values only.
  std::string f8 = write("f8.npy", npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                            "(3,), }",
                                            raw<double>({3.0, -4.0, 2.5})));
  EXPECT_NE(readError(f8, DType::i32).find("element 2 is 2.5, not an integer"), std::string::npos);
  std::string f8ok = write("f8ok.npy", npyBytes("{'descr': '<f8', 'fortran_order': False, "
                                                "'shape': (2,), }",
                                                raw<double>({3.0, -4.0})));
  ASSERT_TRUE(readNpy(f8ok, DType::i32, b));
  EXPECT_EQ(b.getInt(1), -4);
  // Booleans: any nonzero byte is true.
  std::string b1 = write("b1.npy", npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': "
                                            "(3,), }",
                                            raw<uint8_t>({0, 1, 1})));
  ASSERT_TRUE(readNpy(b1, DType::i1, b));
  EXPECT_EQ(b.getInt(0), 0);
  EXPECT_EQ(b.getInt(2), 1);
  ASSERT_TRUE(readNpy(b1, DType::f32, b));
  EXPECT_EQ(b.get(1), 1.0);
}

} // namespace
