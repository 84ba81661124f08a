//===- TestAxisInfo.cpp - print AxisInfo for lit tests --------------------===//
//
// `tessel-opt --tessel-test-print-axis-info` emits a remark on every op result that has
// AxisInfo: "contiguity = [..], divisibility = [..], constancy = [..]".
//
//===----------------------------------------------------------------------===//
#include "tessel/Analysis/AxisInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestPrintAxisInfoPass : public PassWrapper<TestPrintAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintAxisInfoPass)
  StringRef getArgument() const final { return "tessel-test-print-axis-info"; }
  StringRef getDescription() const final { return "Print AxisInfo of every value as remarks"; }
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      tessel::AxisInfoAnalysis analysis(func);
      func.walk([&](Operation *op) {
        if (op->getNumResults() != 1 || op == func)
          return;
        Type t = getElementTypeOrSelf(op->getResult(0).getType());
        if (!t.isIntOrIndex() && t.getDialect().getNamespace() != "tile")
          return;
        std::string s;
        llvm::raw_string_ostream os(s);
        analysis.get(op->getResult(0)).print(os);
        op->emitRemark(s);
      });
    }
  }
};
} // namespace

namespace tessel::test {
void registerTestAxisInfoPass() { PassRegistration<TestPrintAxisInfoPass>(); }
} // namespace tessel::test
