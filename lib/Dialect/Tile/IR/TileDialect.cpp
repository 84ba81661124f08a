//===- TileDialect.cpp - tile dialect registration and attributes ---------===//
//
// Registers the tile dialect, materializes folded constants as arith.constant, and verifies the
// dialect's discardable attributes (tile.kernel, tile.num_warps, tile.num_stages, tile.target).
//
//===----------------------------------------------------------------------===//
#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessel::tile;

#include "tessel/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "tessel/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/Tile/IR/TileAttrs.cpp.inc"

namespace {
/// Every tile op may be inlined: helpers called from kernels are inlined before lowering.
struct TileInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }
};
} // namespace

void TileDialect::initialize() {
  registerTypes();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tessel/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tessel/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addInterfaces<TileInlinerInterface>();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                            Location loc) {
  if (arith::ConstantOp::isBuildableWith(value, type))
    return builder.create<arith::ConstantOp>(loc, type, cast<TypedAttr>(value));
  return nullptr;
}

static LogicalResult verifyKernelSignature(Operation *op) {
  // After lowering, the marker stays on the llvm.func so that drivers find the kernels.
  if (op->getName().getStringRef() == "llvm.func")
    return success();
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    return op->emitOpError("'tile.kernel' may only be set on a func.func (or the llvm.func "
                           "it lowers to)");
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() != 0)
    return func.emitOpError("kernel must not return values; write results through pointers");
  for (auto [i, argType] : llvm::enumerate(type.getInputs())) {
    if (isa<PtrType>(argType) || argType.isIntOrFloat())
      continue;
    return func.emitOpError() << "kernel argument #" << i << " has type " << argType
                              << "; kernel arguments are !tile.ptr pointers and scalars";
  }
  return success();
}

bool TileDialect::isFpFusionEnabled(Operation *module) {
  auto a = module->getAttrOfType<BoolAttr>(getFpFusionAttrName());
  return !a || a.getValue();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (name == getKernelAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError("'tile.kernel' must be a unit attribute");
    return verifyKernelSignature(op);
  }
  if (name == getNumWarpsAttrName()) {
    auto v = dyn_cast<IntegerAttr>(attr.getValue());
    if (!v || !v.getType().isSignlessInteger(32) || v.getInt() < 1 || v.getInt() > 32 ||
        !llvm::isPowerOf2_64(v.getInt()))
      return op->emitOpError("'tile.num_warps' must be an i32 power of two in [1, 32], got ")
             << attr.getValue();
    return success();
  }
  if (name == getNumStagesAttrName()) {
    auto v = dyn_cast<IntegerAttr>(attr.getValue());
    if (!v || !v.getType().isSignlessInteger(32) || v.getInt() < 1)
      return op->emitOpError("'tile.num_stages' must be a positive i32, got ") << attr.getValue();
    return success();
  }
  if (name == getClusterSizeAttrName()) {
    auto v = dyn_cast<IntegerAttr>(attr.getValue());
    if (!v || !v.getType().isSignlessInteger(32) || v.getInt() < 1)
      return op->emitOpError("'tile.cluster_size' must be a positive i32, got ") << attr.getValue();
    return success();
  }
  if (name == getWarpSpecializeAttrName() || name == getProducerWarpsAttrName() ||
      name == getTmaStoreAttrName()) {
    auto v = dyn_cast<IntegerAttr>(attr.getValue());
    if (!v || !v.getType().isSignlessInteger(32) || v.getInt() < 0)
      return op->emitOpError("'") << name << "' must be a non-negative i32, got "
                                  << attr.getValue();
    return success();
  }
  if (name == getFpFusionAttrName()) {
    if (!isa<ModuleOp>(op))
      return op->emitOpError("'tile.fp_fusion' belongs on a builtin.module, not on this op");
    if (!isa<BoolAttr>(attr.getValue()))
      return op->emitOpError("'tile.fp_fusion' must be a bool, got ") << attr.getValue();
    return success();
  }
  if (name == getTargetAttrName()) {
    if (!isa<ModuleOp>(op))
      return op->emitOpError("'tile.target' belongs on a builtin.module, not on this op");
    auto s = dyn_cast<StringAttr>(attr.getValue());
    if (!s)
      return op->emitOpError("'tile.target' must be a string, got ") << attr.getValue();
    StringRef t = s.getValue();
    bool valid = t == "interpreter" || (t.starts_with("cuda:") && t.size() > 5) ||
                 (t.starts_with("hip:") && t.size() > 4);
    if (!valid)
      return op->emitOpError("'tile.target' must be 'interpreter', 'cuda:<arch>' or "
                             "'hip:<arch>', got '")
             << t << "'";
    return success();
  }
  return op->emitOpError("unknown tile dialect attribute '") << name << "'";
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op, unsigned regionIndex,
                                                    unsigned argIndex, NamedAttribute attr) {
  if (attr.getName().strref() == getEqualToAttrName()) {
    Type argType = isa<FunctionOpInterface>(op)
                       ? cast<FunctionOpInterface>(op).getArgumentTypes()[argIndex]
                       : op->getRegion(regionIndex).getArgument(argIndex).getType();
    if (!isa<IntegerAttr>(attr.getValue()) || !argType.isSignlessInteger())
      return op->emitOpError() << "'tile.equal_to' of argument #" << argIndex
                               << " must be an integer attribute on an integer argument";
    return success();
  }
  if (attr.getName().strref() != getDivisibilityAttrName())
    return op->emitOpError("unknown tile dialect argument attribute '")
           << attr.getName().getValue() << "'";
  auto v = dyn_cast<IntegerAttr>(attr.getValue());
  if (!v || !v.getType().isSignlessInteger(32) || v.getInt() < 1 ||
      !llvm::isPowerOf2_64(v.getInt()))
    return op->emitOpError() << "'tile.divisibility' of argument #" << argIndex
                             << " must be an i32 power of two, got " << attr.getValue();
  // A function declaration has no entry block: take the type from its signature.
  Type argType;
  if (auto fn = dyn_cast<FunctionOpInterface>(op))
    argType = fn.getArgumentTypes()[argIndex];
  else
    argType = op->getRegion(regionIndex).getArgument(argIndex).getType();
  if (!isa<PtrType>(argType) && !argType.isSignlessInteger())
    return op->emitOpError() << "'tile.divisibility' applies to pointer and integer arguments, "
                                "not argument #"
                             << argIndex << " of type " << argType;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers shared by the dialect's users
//===----------------------------------------------------------------------===//

namespace tessel::tile {

Type getPointeeType(Type ptrLike) {
  // Block pointers are never tile elements: a tensor of them is not pointer-like.
  if (auto b = dyn_cast<BlockPtrType>(ptrLike))
    return b.getBlockType();
  if (auto t = dyn_cast<RankedTensorType>(ptrLike))
    ptrLike = t.getElementType();
  if (auto p = dyn_cast<PtrType>(ptrLike))
    return p.getPointeeType();
  return nullptr;
}

ArrayRef<int64_t> getShapeOrScalar(Type type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    return t.getShape();
  return {};
}

Type withShapeOf(Type like, Type elementType) {
  if (auto t = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(t.getShape(), elementType, t.getEncoding());
  return elementType;
}

bool sameShapeAndElementType(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (!ta || !tb)
    return a == b;
  return ta.getShape() == tb.getShape() && ta.getElementType() == tb.getElementType();
}

bool isKernel(Operation *op) {
  return isa<func::FuncOp>(op) && op->hasAttr(TileDialect::getKernelAttrName());
}

std::string shapeToString(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

} // namespace tessel::tile
