//===- RunPipelineTest.cpp - verification once per pipeline or per pass ---===//
#include "tessel/Driver/TilePipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
/// Leaves invalid IR: the function's return loses its operand.
struct BreakReturn : PassWrapper<BreakReturn, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BreakReturn)
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp op) { op->eraseOperands(0, op->getNumOperands()); });
  }
};

/// Counts its runs: it runs only if nothing stopped the pipeline before it.
struct CountRuns : PassWrapper<CountRuns, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountRuns)
  explicit CountRuns(int &runs) : runs(runs) {}
  void runOnOperation() override { ++runs; }
  int &runs;
};

struct Outcome {
  bool succeeded = false;
  int laterPassRuns = 0;
  std::string diagnostics;
};

Outcome run(bool breakIt, bool verifyEach) {
  MLIRContext context;
  context.loadDialect<func::FuncDialect, arith::ArithDialect>();
  Outcome out;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    out.diagnostics += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f() -> i32 {
      %c = arith.constant 1 : i32
      return %c : i32
    })mlir",
                                                             &context);
  EXPECT_TRUE(module);
  PassManager pm(&context);
  if (breakIt)
    pm.addPass(std::make_unique<BreakReturn>());
  pm.addPass(std::make_unique<CountRuns>(out.laterPassRuns));
  out.succeeded = succeeded(tessel::driver::runPipeline(pm, *module, verifyEach));
  return out;
}
} // namespace

TEST(RunPipeline, ValidIRPassesBothWays) {
  for (bool verifyEach : {false, true}) {
    Outcome o = run(/*breakIt=*/false, verifyEach);
    EXPECT_TRUE(o.succeeded) << o.diagnostics;
    EXPECT_EQ(o.laterPassRuns, 1);
    EXPECT_EQ(o.diagnostics, "");
  }
}

TEST(RunPipeline, InvalidIRIsCaughtAtTheEndAsACompilerBug) {
  Outcome o = run(/*breakIt=*/true, /*verifyEach=*/false);
  EXPECT_FALSE(o.succeeded);
  EXPECT_EQ(o.laterPassRuns, 1); // no verification between the passes
  EXPECT_NE(o.diagnostics.find("has 0 operands, but enclosing function"), std::string::npos)
      << o.diagnostics;
  EXPECT_NE(o.diagnostics.find("--verify-each names the pass"), std::string::npos) << o.diagnostics;
}

TEST(RunPipeline, VerifyEachStopsAfterThePassThatBrokeTheIR) {
  Outcome o = run(/*breakIt=*/true, /*verifyEach=*/true);
  EXPECT_FALSE(o.succeeded);
  EXPECT_EQ(o.laterPassRuns, 0);
  EXPECT_NE(o.diagnostics.find("has 0 operands, but enclosing function"), std::string::npos)
      << o.diagnostics;
  EXPECT_EQ(o.diagnostics.find("--verify-each"), std::string::npos) << o.diagnostics;
}
