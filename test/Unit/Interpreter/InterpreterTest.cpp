//===- InterpreterTest.cpp - the interpreter's C++ API ---------------------===//
//
// Compiling from MLIR, located compile errors, argument checks, memory safety (nothing outside
// the registered regions is touched), and results that do not depend on the thread count.
//
//===----------------------------------------------------------------------===//
#include "tessel/Interpreter/Interpreter.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace mlir;
using namespace tessel::interp;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    DialectRegistry registry;
    tessel::registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  /// Parses `src` and compiles its function `name`.
  Status compile(const char *src, const char *name, std::unique_ptr<CompiledKernel> &out) {
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    module = parseSourceString<ModuleOp>(src, &ctx, "test.mlir");
    if (!module)
      return Status::error("parse error");
    auto fn = module->lookupSymbol<func::FuncOp>(name);
    return CompiledKernel::compile(fn, out);
  }
  static ArgValue ptr(const void *p) {
    ArgValue a;
    a.kind = ArgValue::Kind::Pointer;
    a.address = reinterpret_cast<uint64_t>(p);
    return a;
  }
  static ArgValue i64(int64_t v) {
    ArgValue a;
    a.kind = ArgValue::Kind::Int;
    a.i = v;
    return a;
  }
  template <typename T> static MemoryRegion region(const std::vector<T> &v, const char *name) {
    return {reinterpret_cast<uint64_t>(v.data()), v.size() * sizeof(T), name,
            tessel::harness::DType::f32};
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

// out[i] = exp(x[i]) / (1 + i) over n elements, BLOCK 64, one program per block.
const char *kKernel = R"mlir(
func.func @k(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %p = arith.extsi %pid : i32 to i64
  %c64 = arith.constant 64 : i64
  %s = arith.muli %p, %c64 : i64
  %r = tile.arange 0, 64 : tensor<64xi32>
  %r64 = arith.extsi %r : tensor<64xi32> to tensor<64xi64>
  %ss = tile.splat %s : i64 -> tensor<64xi64>
  %offs = arith.addi %ss, %r64 : tensor<64xi64>
  %ns = tile.splat %n : i64 -> tensor<64xi64>
  %m = arith.cmpi slt, %offs, %ns : tensor<64xi64>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
  %v = tile.load %xp, %m : tensor<64x!tile.ptr<f32>>
  %e = math.exp %v : tensor<64xf32>
  %f = arith.sitofp %offs : tensor<64xi64> to tensor<64xf32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %d = arith.addf %f, %one : tensor<64xf32>
  %y = arith.divf %e, %d : tensor<64xf32>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi64>
  tile.store %op, %y, %m : tensor<64x!tile.ptr<f32>>
  return
}
)mlir";

} // namespace

TEST_F(InterpreterTest, ResultsDoNotDependOnThreads) {
  std::unique_ptr<CompiledKernel> k;
  ASSERT_TRUE(compile(kKernel, "k", k).isOk());
  EXPECT_EQ(k->params().size(), 3u);
  EXPECT_TRUE(k->params()[0].isPointer);
  const int64_t n = 10000;
  std::vector<float> x(n), o1(n, -1), o4(n, -1);
  for (int64_t i = 0; i < n; ++i)
    x[i] = 0.001f * static_cast<float>(i % 1000);
  for (auto [out, threads] : {std::pair{&o1, 1u}, std::pair{&o4, 4u}}) {
    LaunchSpec spec;
    spec.grid[0] = (n + 63) / 64;
    spec.threads = threads;
    Status s = k->run({ptr(x.data()), ptr(out->data()), i64(n)},
                      {region(x, "x"), region(*out, "o")}, spec);
    ASSERT_TRUE(s.isOk()) << s.message();
  }
  EXPECT_EQ(std::memcmp(o1.data(), o4.data(), n * sizeof(float)), 0);
  EXPECT_FLOAT_EQ(o1[1234], std::exp(x[1234]) / 1235.0f);
}

TEST_F(InterpreterTest, OutOfBoundsTouchesNothing) {
  std::unique_ptr<CompiledKernel> k;
  ASSERT_TRUE(compile(kKernel, "k", k).isOk());
  // x and o are windows of larger arrays; n is larger than the windows.
  std::vector<float> xa(300, 1.0f), oa(300, 7.0f);
  std::vector<float> xw(xa.begin() + 100, xa.begin() + 200);
  MemoryRegion rx{reinterpret_cast<uint64_t>(xa.data() + 100), 100 * 4, "x",
                  tessel::harness::DType::f32};
  MemoryRegion ro{reinterpret_cast<uint64_t>(oa.data() + 100), 100 * 4, "o",
                  tessel::harness::DType::f32};
  LaunchSpec spec;
  spec.grid[0] = 4;
  Status s = k->run({ptr(xa.data() + 100), ptr(oa.data() + 100), i64(256)}, {rx, ro}, spec);
  ASSERT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("test.mlir:15:"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("program_id (1, 0, 0), lane 36 of 64"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("element offset 100 from the start of buffer 'x'"), std::string::npos)
      << s.message();
  for (int i = 0; i < 100; ++i)
    ASSERT_EQ(oa[i], 7.0f);
  for (int i = 200; i < 300; ++i)
    ASSERT_EQ(oa[i], 7.0f) << "written past the buffer at " << i;
}

TEST_F(InterpreterTest, ArgumentsAreChecked) {
  std::unique_ptr<CompiledKernel> k;
  ASSERT_TRUE(compile(kKernel, "k", k).isOk());
  std::vector<float> x(4);
  LaunchSpec spec;
  Status s = k->run({ptr(x.data())}, {region(x, "x")}, spec);
  EXPECT_NE(s.message().find("takes 3 arguments"), std::string::npos);
  s = k->run({i64(1), ptr(x.data()), i64(4)}, {region(x, "x")}, spec);
  EXPECT_NE(s.message().find("must be a buffer"), std::string::npos);
  spec.grid[0] = -1;
  s = k->run({ptr(x.data()), ptr(x.data()), i64(4)}, {region(x, "x")}, spec);
  EXPECT_NE(s.message().find("grid dimension 0 is -1"), std::string::npos) << s.message();
  // Case C17: an empty grid runs no program and is no error.
  x.assign(4, 5.0f);
  spec.grid[0] = 0;
  s = k->run({ptr(x.data()), ptr(x.data()), i64(4)}, {region(x, "x")}, spec);
  EXPECT_TRUE(s.isOk()) << s.message();
  EXPECT_EQ(x, std::vector<float>(4, 5.0f));
  spec.grid[0] = 4;
  spec.grid[2] = 0;
  EXPECT_TRUE(k->run({ptr(x.data()), ptr(x.data()), i64(4)}, {region(x, "x")}, spec).isOk());
  EXPECT_EQ(x, std::vector<float>(4, 5.0f));
}

TEST_F(InterpreterTest, UnsupportedOpIsALocatedError) {
  const char *src = R"mlir(
func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %v = tile.load %x : !tile.ptr<f32>
  %w = math.cbrt %v : f32
  tile.store %x, %w : !tile.ptr<f32>
  return
}
)mlir";
  std::unique_ptr<CompiledKernel> k;
  Status s = compile(src, "k", k);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.message(), "test.mlir:4:8: error: the interpreter does not support 'math.cbrt'");
}

// The dispatch's default takes one-result arith/math ops by name; an op of two results or of
// another dialect is reported, not run.
TEST_F(InterpreterTest, UnsupportedMultiResultAndForeignOpsAreLocatedErrors) {
  const char *multi = R"mlir(
func.func @k(%a: i32) attributes {tile.kernel} {
  %sum, %carry = arith.addui_extended %a, %a : i32, i1
  return
}
)mlir";
  std::unique_ptr<CompiledKernel> k;
  Status s = compile(multi, "k", k);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.message(),
            "test.mlir:3:18: error: the interpreter does not support 'arith.addui_extended'");
  const char *foreign = R"mlir(
func.func @k(%a: i32) attributes {tile.kernel} {
  scf.execute_region {
    scf.yield
  }
  return
}
)mlir";
  s = compile(foreign, "k", k);
  ASSERT_FALSE(s.isOk());
  EXPECT_EQ(s.message(),
            "test.mlir:3:3: error: the interpreter does not support 'scf.execute_region'");
}

TEST_F(InterpreterTest, SubsetOfProgramsSeesTheWholeGrid) {
  const char *src = R"mlir(
func.func @k(%o: !tile.ptr<i32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %n = tile.num_programs 0
  %c1000 = arith.constant 1000 : i32
  %t = arith.muli %n, %c1000 : i32
  %v = arith.addi %t, %pid : i32
  %c5 = arith.constant 5 : i32
  %i = arith.subi %pid, %c5 : i32
  %p = tile.addptr %o, %i : !tile.ptr<i32>, i32
  tile.store %p, %v : !tile.ptr<i32>
  return
}
)mlir";
  std::unique_ptr<CompiledKernel> k;
  ASSERT_TRUE(compile(src, "k", k).isOk());
  std::vector<int32_t> o(3, 0);
  LaunchSpec spec;
  spec.grid[0] = 10;
  spec.firstProgram = 5;
  spec.programCount = 3;
  ASSERT_TRUE(k->run({ptr(o.data())}, {region(o, "o")}, spec).isOk());
  EXPECT_EQ(o, (std::vector<int32_t>{10005, 10006, 10007}));
}
