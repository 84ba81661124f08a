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

namespace {
/// A kernel `k` with the given argument types and an insertion point in its body, for builder
/// tests. The module is erased with the fixture's context.
class TileBuilderTest : public TileDialectTest {
protected:
  TileBuilderTest() : b(&ctx), loc(b.getUnknownLoc()) {}
  ~TileBuilderTest() override {
    if (module)
      module->erase();
  }
  /// Creates `func.func @k(types...)`; leaves `b` at the start of its body.
  Block *makeFunc(TypeRange argTypes, bool kernel = true) {
    module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module.getBody());
    auto func = b.create<func::FuncOp>(loc, "k", b.getFunctionType(argTypes, {}));
    if (kernel)
      func->setAttr(TileDialect::getKernelAttrName(), b.getUnitAttr());
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToEnd(entry);
    b.create<func::ReturnOp>(loc);
    b.setInsertionPointToStart(entry);
    return entry;
  }
  RankedTensorType tile(ArrayRef<int64_t> shape, Type elem) {
    return RankedTensorType::get(shape, elem);
  }
  OpBuilder b;
  Location loc;
  ModuleOp module;
};
} // namespace

// (128) pointers, mask and other: the builder infers the (128) f32 result and sets one operand
// per segment; the hints default to none/normal, not volatile.
TEST_F(TileBuilderTest, LoadBuilderWithMaskAndOther) {
  auto f32 = b.getF32Type();
  auto ptrs = tile({128}, PtrType::get(f32));
  Block *entry = makeFunc({PtrType::get(f32)}, /*kernel=*/false);
  Value base = entry->getArgument(0);
  auto ps = b.create<SplatOp>(loc, ptrs, base);
  auto offs = b.create<ArangeOp>(loc, tile({128}, b.getI32Type()), 0, 128);
  auto addr = b.create<AddPtrOp>(loc, ptrs, ps, offs);
  auto mask = b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(tile({128}, b.getI1Type()), b.getBoolAttr(true)));
  auto other = b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(tile({128}, f32), b.getFloatAttr(f32, 0.0)));
  auto load = b.create<LoadOp>(loc, addr.getResult(), mask.getResult(), other.getResult());
  EXPECT_EQ(load.getType(), tile({128}, f32));
  EXPECT_EQ(load.getMask(), mask.getResult());
  EXPECT_EQ(load.getOther(), other.getResult());
  EXPECT_EQ(load.getCache(), CacheModifier::none);
  EXPECT_EQ(load.getEvict(), EvictionPolicy::normal);
  EXPECT_FALSE(load.getIsVolatile());
  EXPECT_FALSE(load.getBoundaryCheck());
  EXPECT_FALSE(load.getPadding());
  EXPECT_EQ(verifyMessage(module), "");
}

// A mask without other fills only the mask segment.
TEST_F(TileBuilderTest, LoadBuilderWithMaskOnly) {
  auto f16 = b.getF16Type();
  Block *entry = makeFunc({tile({4, 8}, PtrType::get(f16)), tile({4, 8}, b.getI1Type())},
                          /*kernel=*/false);
  auto load = b.create<LoadOp>(loc, entry->getArgument(0), entry->getArgument(1));
  EXPECT_EQ(load.getType(), tile({4, 8}, f16));
  EXPECT_EQ(load.getMask(), entry->getArgument(1));
  EXPECT_FALSE(load.getOther());
  EXPECT_EQ(verifyMessage(module), "");
}

TEST_F(TileBuilderTest, LoadBuilderScalarPointer) {
  auto i64 = b.getI64Type();
  Block *entry = makeFunc({PtrType::get(i64, 3)});
  auto load = b.create<LoadOp>(loc, entry->getArgument(0));
  EXPECT_EQ(load.getType(), i64);
  EXPECT_EQ(verifyMessage(module), "");
}

// Through a block pointer the result is the block type.
TEST_F(TileBuilderTest, LoadAndStoreThroughBlockPointer) {
  auto f16 = b.getF16Type();
  auto block = tile({64, 32}, f16);
  Block *entry = makeFunc({PtrType::get(f16), b.getI64Type()});
  Value base = entry->getArgument(0), x = entry->getArgument(1);
  auto bp =
      b.create<MakeBlockPtrOp>(loc, BlockPtrType::get(block), base, ValueRange{x, x},
                               ValueRange{x, x}, ValueRange{x, x}, b.getDenseI32ArrayAttr({1, 0}));
  auto load = b.create<LoadOp>(loc, bp.getResult());
  EXPECT_EQ(load.getType(), block);
  auto next = b.create<AdvanceOp>(loc, bp.getType(), bp, ValueRange{x, x});
  auto store = b.create<StoreOp>(loc, next.getResult(), load.getResult());
  EXPECT_FALSE(store.getMask());
  EXPECT_EQ(verifyMessage(module), "");
}

TEST_F(TileBuilderTest, StoreBuilderWithMask) {
  auto f32 = b.getF32Type();
  Block *entry =
      makeFunc({tile({16}, PtrType::get(f32)), tile({16}, f32), tile({16}, b.getI1Type())},
               /*kernel=*/false);
  auto store =
      b.create<StoreOp>(loc, entry->getArgument(0), entry->getArgument(1), entry->getArgument(2));
  EXPECT_EQ(store.getMask(), entry->getArgument(2));
  EXPECT_EQ(store.getCache(), CacheModifier::none);
  EXPECT_EQ(store.getEvict(), EvictionPolicy::normal);
  EXPECT_FALSE(store.getBoundaryCheck());
  EXPECT_EQ(verifyMessage(module), "");
}

// The builders do not check shapes; the verifier does, and names both shapes.
TEST_F(TileBuilderTest, StoreBuilderMaskMismatchIsAVerifierError) {
  auto f32 = b.getF32Type();
  Block *entry =
      makeFunc({tile({16}, PtrType::get(f32)), tile({16}, f32), tile({32}, b.getI1Type())},
               /*kernel=*/false);
  b.create<StoreOp>(loc, entry->getArgument(0), entry->getArgument(1), entry->getArgument(2));
  EXPECT_EQ(verifyMessage(module),
            "'tile.store' op mask shape [32] does not match pointer shape [16]");
}

// The DSL passes arange bounds as C++ ints; a negative start must survive the uint32_t builder.
TEST_F(TileBuilderTest, ArangeBuilderNegativeStart) {
  makeFunc({});
  auto r = b.create<ArangeOp>(loc, tile({8}, b.getI32Type()), -4, 4);
  EXPECT_EQ(r.getStartAttr().getInt(), -4);
  EXPECT_EQ(verifyMessage(module), "");
}

// The default input precision is ieee.
TEST_F(TileBuilderTest, DotBuilderDefaultsToIeee) {
  auto f16 = b.getF16Type(), f32 = b.getF32Type();
  Block *entry = makeFunc({tile({16, 8}, f16), tile({8, 32}, f16), tile({16, 32}, f32)},
                          /*kernel=*/false);
  auto dot = b.create<DotOp>(loc, entry->getArgument(2).getType(), entry->getArgument(0),
                             entry->getArgument(1), entry->getArgument(2));
  EXPECT_EQ(dot.getPrecision(), InputPrecision::ieee);
  EXPECT_EQ(verifyMessage(module), "");
}

TEST_F(TileDialectTest, GetPointeeType) {
  auto f32 = Float32Type::get(&ctx);
  auto i8 = IntegerType::get(&ctx, 8);
  auto block = RankedTensorType::get({64, 64}, f32);
  auto bp = BlockPtrType::get(block);
  EXPECT_EQ(getPointeeType(PtrType::get(i8, 3)), i8);
  EXPECT_EQ(getPointeeType(RankedTensorType::get({4, 4}, PtrType::get(f32))), f32);
  EXPECT_EQ(getPointeeType(bp), block);
  // Not pointer-like: a tile of block pointers, numbers and tiles of numbers.
  EXPECT_FALSE(getPointeeType(RankedTensorType::get({4}, bp)));
  EXPECT_FALSE(getPointeeType(f32));
  EXPECT_FALSE(getPointeeType(block));
}

TEST_F(TileDialectTest, GetShapeOrScalar) {
  auto f32 = Float32Type::get(&ctx);
  EXPECT_TRUE(getShapeOrScalar(f32).empty());
  EXPECT_TRUE(getShapeOrScalar(PtrType::get(f32)).empty());
  EXPECT_EQ(getShapeOrScalar(RankedTensorType::get({2, 3}, f32)), ArrayRef<int64_t>({2, 3}));
  EXPECT_EQ(shapeToString(getShapeOrScalar(RankedTensorType::get({128}, PtrType::get(f32)))),
            "[128]");
}

TEST_F(TileDialectTest, IsKernel) {
  OpBuilder b(&ctx);
  auto loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto kernel = b.create<func::FuncOp>(loc, "k", b.getFunctionType({}, {}));
  kernel->setAttr(TileDialect::getKernelAttrName(), b.getUnitAttr());
  auto helper = b.create<func::FuncOp>(loc, "h", b.getFunctionType({}, {}));
  EXPECT_TRUE(isKernel(kernel));
  EXPECT_FALSE(isKernel(helper));
  EXPECT_FALSE(isKernel(module->getOperation()));
}
