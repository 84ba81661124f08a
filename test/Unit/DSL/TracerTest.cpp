//===- TracerTest.cpp - tracing kernels registered in-process -------------===//
//
// The kernels below register themselves when this test starts, as a kernel file's do when
// tesselc loads it; tracing them needs no compiler or shared object.
//
//===----------------------------------------------------------------------===//
#include "KernelTracer.h"

#include "tessel/InitAllDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <tessel/dsl.h>

#include <gtest/gtest.h>

using namespace tessel::dsl;

namespace tracertest {
struct C {
  int BLOCK = 64;
};
TESSEL_CONFIG(C, BLOCK)

template <class T> void copy_scaled(const C &c, Ptr<T> out, Ptr<T> in, Int n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK); // (BLOCK)
  Mask m = offs < n;                                             // (BLOCK)
  store(out + offs, cast<T>(cast<f32>(load(in + offs, m)) * 2.0), m);
}
TESSEL_KERNEL(copy_scaled, DTYPES(f32, bf16), ARGS(out, in, n), CONFIGS(C{}, C{.BLOCK = 256}))

constexpr int kBadLine = __LINE__ + 1;
void bad_shapes(const C &c, Ptr<f32> p) { store(p + arange(0, 64), load(p + arange(0, 32))); }
TESSEL_KERNEL(bad_shapes, ARGS(p), CONFIGS(C{}))
} // namespace tracertest

static const KernelInfo *findKernel(llvm::StringRef name) {
  for (const KernelInfo &k : getKernelRegistry())
    if (name == k.def.name)
      return &k;
  return nullptr;
}

struct Tracer : public ::testing::Test {
  Tracer() {
    tessel::registerAllDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }
  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
};

TEST_F(Tracer, RegistersVariantsAndArguments) {
  const KernelInfo *k = findKernel("copy_scaled");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->error.empty()) << k->error;
  EXPECT_EQ(k->def.numVariants, 2);
  EXPECT_EQ(k->def.numConfigs, 2);
  ASSERT_EQ(k->argNames.size(), 3u);
  EXPECT_EQ(k->argNames[2], "n");
  EXPECT_EQ(k->def.variants[1].dtype, DType::bf16);
  EXPECT_EQ(k->def.variants[1].args[0].divisibility, 16);
  ConfigValue config(*k->def.config, k->def.configs[1]);
  EXPECT_EQ(variantName(*k, k->def.variants[1], config), "copy_scaled__bf16__BLOCK_256");
}

TEST_F(Tracer, TracesVerifiedTileIR) {
  const KernelInfo *k = findKernel("copy_scaled");
  ASSERT_NE(k, nullptr);
  ConfigValue config(*k->def.config, k->def.configs[0]);
  auto module = traceVariant(*context, *k, k->def.variants[1], config, "f", "interpreter");
  ASSERT_TRUE(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  EXPECT_NE(text.find("tile.program_id 0"), std::string::npos) << text;
  EXPECT_NE(text.find("tensor<64x!tile.ptr<bf16>>"), std::string::npos) << text;
  EXPECT_NE(text.find("arith.truncf"), std::string::npos) << text;
}

TEST_F(Tracer, ReportsMisuseAtTheUsersLine) {
  const KernelInfo *k = findKernel("bad_shapes");
  ASSERT_NE(k, nullptr);
  std::string messages;
  mlir::ScopedDiagnosticHandler handler(context.get(), [&](mlir::Diagnostic &d) {
    llvm::raw_string_ostream os(messages);
    os << d.getLocation() << ": " << d.str() << "\n";
    return mlir::success();
  });
  ConfigValue config(*k->def.config, k->def.configs[0]);
  auto module = traceVariant(*context, *k, k->def.variants[0], config, "g", "interpreter");
  EXPECT_FALSE(module);
  std::string line = "TracerTest.cpp\":" + std::to_string(tracertest::kBadLine) + ":";
  EXPECT_NE(messages.find(line), std::string::npos) << messages;
  EXPECT_NE(messages.find("the stored value shape [32] does not match pointer shape [64]"),
            std::string::npos)
      << messages;
  // A failed trace leaves no trace state behind: the next one works.
  const KernelInfo *ok = findKernel("copy_scaled");
  ConfigValue c2(*ok->def.config, ok->def.configs[0]);
  EXPECT_TRUE(traceVariant(*context, *ok, ok->def.variants[0], c2, "h", "interpreter"));
}
