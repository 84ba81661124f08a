//===- TileDialectTest.cpp - building tile IR from C++ --------------------===//
//
// The DSL builds tile IR through these builders; the tests check that builders infer the
// types the verifiers expect and that verifier messages reach a diagnostic handler.
//
//===----------------------------------------------------------------------===//
#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tessel::tile;

namespace {
class TileDialectTest : public ::testing::Test {
protected:
  TileDialectTest() {
    DialectRegistry registry;
    tessel::registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  /// Verifies `op` and returns the first diagnostic message, or "" when it verifies.
  std::string verifyMessage(Operation *op) {
    std::string msg;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      if (msg.empty())
        msg = d.str();
      return success();
    });
    (void)mlir::verify(op);
    return msg;
  }
  MLIRContext ctx;
};
} // namespace

TEST_F(TileDialectTest, PtrTypeDefaultsToGlobalAddressSpace) {
  auto f32 = Float32Type::get(&ctx);
  auto p = PtrType::get(f32);
  EXPECT_EQ(p.getAddressSpace(), 1u);
  EXPECT_EQ(p.getPointeeType(), f32);
  EXPECT_NE(p, PtrType::get(f32, 3));
  EXPECT_EQ(getPointeeType(RankedTensorType::get({8}, p)), f32);
}

TEST_F(TileDialectTest, LoadBuilderInfersResultFromPointer) {
  OpBuilder b(&ctx);
  auto loc = b.getUnknownLoc();
  auto module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
  auto f16 = b.getF16Type();
  auto ptrT = PtrType::get(f16);
  auto func = b.create<func::FuncOp>(loc, "k", b.getFunctionType({ptrT}, {}));
  func->setAttr(TileDialect::getKernelAttrName(), b.getUnitAttr());
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto range = b.create<ArangeOp>(loc, RankedTensorType::get({64}, b.getI32Type()), 0, 64);
  auto ptrs = b.create<SplatOp>(loc, RankedTensorType::get({64}, ptrT), entry->getArgument(0));
  auto addr = b.create<AddPtrOp>(loc, ptrs.getType(), ptrs, range);
  auto load = b.create<LoadOp>(loc, addr.getResult());
  EXPECT_EQ(load.getType(), RankedTensorType::get({64}, f16));
  b.create<StoreOp>(loc, addr.getResult(), load.getResult());
  b.create<func::ReturnOp>(loc);
  EXPECT_EQ(verifyMessage(module), "");
  module->erase();
}

TEST_F(TileDialectTest, MaskShapeMismatchNamesBothShapes) {
  const char *ir = R"mlir(
    func.func @k(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<128xi1>) {
      %x = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}>
           : (tensor<64x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<64xf32>
      return
    })mlir";
  std::string msg;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    msg = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(ir, &ctx);
  EXPECT_FALSE(m);
  EXPECT_NE(msg.find("mask shape [128] does not match pointer shape [64]"), std::string::npos)
      << msg;
}

TEST_F(TileDialectTest, ShapeHelpers) {
  EXPECT_EQ(shapeToString({}), "scalar");
  EXPECT_EQ(shapeToString({16, 1}), "[16, 1]");
  auto i1 = IntegerType::get(&ctx, 1);
  auto t = RankedTensorType::get({4, 8}, Float32Type::get(&ctx));
  EXPECT_EQ(withShapeOf(t, i1), RankedTensorType::get({4, 8}, i1));
  EXPECT_EQ(withShapeOf(Float32Type::get(&ctx), i1), i1);
}
