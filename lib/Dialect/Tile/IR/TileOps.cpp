//===- TileOps.cpp - tile dialect op verifiers and assembly ---------------===//
//
// Verifier messages name the offending operand, both shapes or types, and what was expected:
// they are what a kernel author sees when the DSL or hand-written IR is wrong.
//
//===----------------------------------------------------------------------===//
#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tessel::tile;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string str(ArrayRef<int64_t> shape) { return shapeToString(shape); }

/// Checks that `order` is a permutation of [0, rank).
static LogicalResult verifyPermutation(Operation *op, ArrayRef<int32_t> order, int64_t rank,
                                       StringRef what) {
  if (static_cast<int64_t>(order.size()) != rank)
    return op->emitOpError() << what << " has " << order.size() << " entries for a rank-" << rank
                             << " tile";
  llvm::SmallSet<int32_t, 4> seen;
  for (int32_t d : order)
    if (d < 0 || d >= rank || !seen.insert(d).second)
      return op->emitOpError() << what << " must be a permutation of [0, " << rank << "), got ["
                               << llvm::join(llvm::map_range(order, [](int32_t d) {
                                    return std::to_string(d);
                                  }), ", ")
                               << "]";
  return success();
}

/// Verifies that the mask of a load, store or atomic has the pointer's shape (its i1 element
/// type is the ODS constraint Tile_BoolLike).
static LogicalResult verifyMask(Operation *op, Type ptrType, Value mask) {
  if (!mask)
    return success();
  ArrayRef<int64_t> ps = getShapeOrScalar(ptrType), ms = getShapeOrScalar(mask.getType());
  if (ps != ms)
    return op->emitOpError() << "mask shape " << str(ms) << " does not match pointer shape "
                             << str(ps);
  return success();
}

/// Verifies that `value` has the pointer's shape and pointee type.
static LogicalResult verifyPointee(Operation *op, Type ptrType, Type valueType, StringRef what) {
  Type expected = withShapeOf(ptrType, getPointeeType(ptrType));
  if (sameShapeAndElementType(valueType, expected))
    return success();
  ArrayRef<int64_t> ps = getShapeOrScalar(ptrType), vs = getShapeOrScalar(valueType);
  if (ps != vs)
    return op->emitOpError() << what << " shape " << str(vs) << " does not match pointer shape "
                             << str(ps);
  return op->emitOpError() << what << " type " << getElementTypeOrSelf(valueType)
                           << " differs from the pointee type " << getPointeeType(ptrType);
}

/// Verifies the boundary_check dimensions of a load or store through a block pointer.
static LogicalResult verifyBoundaryCheck(Operation *op, std::optional<ArrayRef<int32_t>> dims,
                                         BlockPtrType bp) {
  if (!dims)
    return success();
  int64_t rank = bp.getBlockType().getRank();
  llvm::SmallSet<int32_t, 4> seen;
  for (int32_t d : *dims)
    if (d < 0 || d >= rank || !seen.insert(d).second)
      return op->emitOpError() << "boundary_check dimension " << d
                               << " is out of range or repeated for a rank-" << rank << " block";
  return success();
}

//===----------------------------------------------------------------------===//
// Grid, arange and shape ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyAxis(Operation *op, int32_t axis) {
  if (axis < 0 || axis > 2)
    return op->emitOpError() << "axis must be 0, 1 or 2, got " << axis;
  return success();
}
LogicalResult ProgramIdOp::verify() { return verifyAxis(*this, getAxis()); }
LogicalResult NumProgramsOp::verify() { return verifyAxis(*this, getAxis()); }

LogicalResult ArangeOp::verify() {
  // getStart()/getEnd() are zero-extended; the bounds are signed i32.
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (start >= end)
    return emitOpError() << "start " << start << " must be less than end " << end;
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != end - start)
    return emitOpError() << "arange " << start << ", " << end << " has " << end - start
                         << " elements but the result has shape " << str(type.getShape());
  return success();
}

LogicalResult SplatOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  if (type.getElementType() != getSrc().getType())
    return emitOpError() << "result element type " << type.getElementType()
                         << " differs from the splatted scalar's type " << getSrc().getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type changes from " << src.getElementType() << " to "
                         << dst.getElementType();
  if (src.getRank() != dst.getRank())
    return emitOpError() << "cannot change rank from " << src.getRank() << " to " << dst.getRank()
                         << "; insert unit dimensions with tile.expand_dims first";
  for (int64_t i = 0; i < src.getRank(); ++i)
    if (src.getDimSize(i) != dst.getDimSize(i) && src.getDimSize(i) != 1)
      return emitOpError() << "cannot broadcast dimension " << i << " of size "
                           << src.getDimSize(i) << " to " << dst.getDimSize(i)
                           << ": only unit dimensions broadcast";
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  int32_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError() << "axis " << axis << " is out of range [0, " << src.getRank()
                         << "] for a rank-" << src.getRank() << " tile";
  SmallVector<int64_t> shape(src.getShape());
  shape.insert(shape.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(shape) || dst.getElementType() != src.getElementType())
    return emitOpError() << "result must be " << RankedTensorType::get(shape, src.getElementType())
                         << ", got " << dst;
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element type changes from " << src.getElementType() << " to "
                         << dst.getElementType();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError() << "cannot reshape " << str(src.getShape()) << " ("
                         << src.getNumElements() << " elements) to " << str(dst.getShape())
                         << " (" << dst.getNumElements() << " elements)";
  return success();
}

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto dst = cast<RankedTensorType>(getType());
  if (failed(verifyPermutation(*this, getOrder(), src.getRank(), "order")))
    return failure();
  SmallVector<int64_t> shape;
  for (int32_t d : getOrder())
    shape.push_back(src.getDimSize(d));
  if (dst.getShape() != ArrayRef<int64_t>(shape) || dst.getElementType() != src.getElementType())
    return emitOpError() << "result must be " << RankedTensorType::get(shape, src.getElementType())
                         << ", got " << dst;
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  ArrayRef<int64_t> ps = getShapeOrScalar(getPtr().getType());
  ArrayRef<int64_t> os = getShapeOrScalar(getOffset().getType());
  bool ptrIsTile = isa<RankedTensorType>(getPtr().getType());
  bool offIsTile = isa<RankedTensorType>(getOffset().getType());
  if (ptrIsTile != offIsTile || ps != os)
    return emitOpError() << "offset shape " << str(os) << " does not match pointer shape "
                         << str(ps) << "; splat or broadcast one of them first";
  return success();
}

LogicalResult MakeBlockPtrOp::verify() {
  RankedTensorType block = getType().getBlockType();
  int64_t rank = block.getRank();
  auto check = [&](OperandRange r, StringRef what) -> LogicalResult {
    if (static_cast<int64_t>(r.size()) != rank)
      return emitOpError() << what << " has " << r.size() << " entries for a rank-" << rank
                           << " block";
    return success();
  };
  if (failed(check(getShape(), "shape")) || failed(check(getStrides(), "strides")) ||
      failed(check(getOffsets(), "offsets")))
    return failure();
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError() << "base points to " << getBase().getType().getPointeeType()
                         << " but the block holds " << block.getElementType();
  return verifyPermutation(*this, getOrder(), rank, "order");
}

LogicalResult AdvanceOp::verify() {
  int64_t rank = getPtr().getType().getBlockType().getRank();
  if (static_cast<int64_t>(getOffsets().size()) != rank)
    return emitOpError() << "offsets has " << getOffsets().size() << " entries for a rank-"
                         << rank << " block";
  return success();
}

//===----------------------------------------------------------------------===//
// Load
//===----------------------------------------------------------------------===//

void LoadOp::build(OpBuilder &b, OperationState &state, Value ptr, Value mask, Value other) {
  Type resultType = isa<BlockPtrType>(ptr.getType())
                        ? getPointeeType(ptr.getType())
                        : withShapeOf(ptr.getType(), getPointeeType(ptr.getType()));
  build(b, state, resultType, ptr, mask, other, CacheModifier::none, EvictionPolicy::normal,
        /*isVolatile=*/false, /*boundaryCheck=*/nullptr, /*padding=*/nullptr);
}

LogicalResult LoadOp::verify() {
  Type ptrType = getPtr().getType();
  if (auto bp = dyn_cast<BlockPtrType>(ptrType)) {
    if (getMask() || getOther())
      return emitOpError("a load through a block pointer takes boundary_check and padding, "
                         "not a mask or other");
    if (getType() != bp.getBlockType())
      return emitOpError() << "result type " << getType() << " differs from the block type "
                           << bp.getBlockType();
    if (getPadding() == PaddingOption::nan && !isa<FloatType>(bp.getBlockType().getElementType()))
      return emitOpError() << "padding = nan needs a floating-point block, got "
                           << bp.getBlockType();
    return verifyBoundaryCheck(*this, getBoundaryCheck(), bp);
  }
  if (getBoundaryCheck() || getPadding())
    return emitOpError("boundary_check and padding apply to block pointers only; use a mask");
  if (failed(verifyPointee(*this, ptrType, getType(), "result")) ||
      failed(verifyMask(*this, ptrType, getMask())))
    return failure();
  if (Value other = getOther()) {
    if (!getMask())
      return emitOpError("'other' is the value of masked-off lanes and needs a mask");
    if (failed(verifyPointee(*this, ptrType, other.getType(), "'other'")))
      return failure();
  }
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
  // A volatile load must neither be removed nor reordered with other memory operations.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), SideEffects::DefaultResource::get());
}

/// Parses the keyword of one case of an ODS enum; on anything else the error names what was
/// being parsed (`what`) and lists every valid keyword. The enums' cases are numbered densely
/// from 0, and stringifyEnum gives "" past the last one.
template <typename EnumT>
static ParseResult parseEnumKeyword(OpAsmParser &parser, EnumT &out, StringRef what) {
  SMLoc loc = parser.getCurrentLocation();
  auto listValid = [](InFlightDiagnostic &&diag) -> ParseResult {
    diag << "; expected one of ";
    for (uint32_t i = 0; !stringifyEnum(static_cast<EnumT>(i)).empty(); ++i)
      diag << (i ? ", " : "") << stringifyEnum(static_cast<EnumT>(i));
    return diag;
  };
  StringRef kw;
  if (parser.parseOptionalKeyword(&kw))
    return listValid(parser.emitError(loc) << "expected " << what << " keyword");
  std::optional<EnumT> v = symbolizeEnum<EnumT>(kw);
  if (!v)
    return listValid(parser.emitError(loc) << "unknown " << what << " '" << kw << "'");
  out = *v;
  return success();
}

static void printI32List(OpAsmPrinter &p, ArrayRef<int32_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

static ParseResult parseI32List(OpAsmParser &parser, SmallVectorImpl<int32_t> &out) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
    int32_t v = 0;
    if (parser.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

/// Type of the value a pointer-like type loads or stores.
static Type valueTypeOf(Type ptrType) {
  if (auto bp = dyn_cast<BlockPtrType>(ptrType))
    return bp.getBlockType();
  return withShapeOf(ptrType, getPointeeType(ptrType));
}

/// Parses `: <pointer type>` and checks that it is pointer-like.
static ParseResult parsePtrType(OpAsmParser &parser, Type &ptrType) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseColonType(ptrType))
    return failure();
  if (!getPointeeType(ptrType))
    return parser.emitError(loc) << "expected a !tile.ptr, a tile of them or a !tile.block_ptr, "
                                    "got "
                                 << ptrType;
  return success();
}

/// Parses `: <pointer type>` of an atomic: a !tile.ptr or a tile of them.
static ParseResult parseAtomicPtrType(OpAsmParser &parser, Type &ptrType) {
  SMLoc loc = parser.getCurrentLocation();
  if (parsePtrType(parser, ptrType))
    return failure();
  if (isa<BlockPtrType>(ptrType))
    return parser.emitError(loc) << "atomics take a !tile.ptr or a tile of them, not the block "
                                    "pointer "
                                 << ptrType;
  return success();
}

// tile.load %ptr[, %mask[, %other]] [cache = c] [evict = e] [volatile]
//           [boundary_check = [d...]] [padding = p] attr-dict : ptr-type
ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> ops(1);
  if (parser.parseOperand(ops[0]))
    return failure();
  while (ops.size() < 3 && succeeded(parser.parseOptionalComma())) {
    ops.emplace_back();
    if (parser.parseOperand(ops.back()))
      return failure();
  }
  auto &props = result.getOrAddProperties<Properties>();
  MLIRContext *ctx = parser.getContext();
  while (true) {
    if (succeeded(parser.parseOptionalKeyword("cache"))) {
      CacheModifier c = CacheModifier::none;
      if (parser.parseEqual() || parseEnumKeyword(parser, c, "cache modifier"))
        return failure();
      props.cache = CacheModifierAttr::get(ctx, c);
    } else if (succeeded(parser.parseOptionalKeyword("evict"))) {
      EvictionPolicy e = EvictionPolicy::normal;
      if (parser.parseEqual() || parseEnumKeyword(parser, e, "eviction policy"))
        return failure();
      props.evict = EvictionPolicyAttr::get(ctx, e);
    } else if (succeeded(parser.parseOptionalKeyword("volatile"))) {
      props.isVolatile = UnitAttr::get(ctx);
    } else if (succeeded(parser.parseOptionalKeyword("boundary_check"))) {
      SmallVector<int32_t> dims;
      if (parser.parseEqual() || parseI32List(parser, dims))
        return failure();
      props.boundaryCheck = DenseI32ArrayAttr::get(ctx, dims);
    } else if (succeeded(parser.parseOptionalKeyword("padding"))) {
      PaddingOption p = PaddingOption::zero;
      if (parser.parseEqual() || parseEnumKeyword(parser, p, "padding option"))
        return failure();
      props.padding = PaddingOptionAttr::get(ctx, p);
    } else {
      break;
    }
  }
  Type ptrType;
  if (parser.parseOptionalAttrDict(result.attributes) || parsePtrType(parser, ptrType))
    return failure();
  Type valueType = valueTypeOf(ptrType);
  Type maskType = withShapeOf(valueType, parser.getBuilder().getI1Type());
  SmallVector<Type, 3> types = {ptrType, maskType, valueType};
  props.operandSegmentSizes = {1, ops.size() > 1 ? 1 : 0, ops.size() > 2 ? 1 : 0};
  if (parser.resolveOperands(ops, ArrayRef<Type>(types).take_front(ops.size()),
                             parser.getNameLoc(), result.operands))
    return failure();
  result.addTypes(valueType);
  return success();
}

void LoadOp::print(OpAsmPrinter &p) {
  p << ' ' << getPtr();
  if (getMask())
    p << ", " << getMask();
  if (getOther())
    p << ", " << getOther();
  if (getCache() != CacheModifier::none)
    p << " cache = " << stringifyCacheModifier(getCache());
  if (getEvict() != EvictionPolicy::normal)
    p << " evict = " << stringifyEvictionPolicy(getEvict());
  if (getIsVolatile())
    p << " volatile";
  if (auto bc = getBoundaryCheck())
    printI32List(p << " boundary_check = ", *bc);
  if (auto pad = getPadding())
    p << " padding = " << stringifyPaddingOption(*pad);
  p.printOptionalAttrDict((*this)->getAttrs(), getAttributeNames());
  p << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// Store
//===----------------------------------------------------------------------===//

void StoreOp::build(OpBuilder &b, OperationState &state, Value ptr, Value value, Value mask) {
  build(b, state, ptr, value, mask, CacheModifier::none, EvictionPolicy::normal,
        /*boundaryCheck=*/nullptr);
}

LogicalResult StoreOp::verify() {
  Type ptrType = getPtr().getType();
  if (auto bp = dyn_cast<BlockPtrType>(ptrType)) {
    if (getMask())
      return emitOpError("a store through a block pointer takes boundary_check, not a mask");
    if (getValue().getType() != bp.getBlockType())
      return emitOpError() << "value type " << getValue().getType()
                           << " differs from the block type " << bp.getBlockType();
    return verifyBoundaryCheck(*this, getBoundaryCheck(), bp);
  }
  if (getBoundaryCheck())
    return emitOpError("boundary_check applies to block pointers only; use a mask");
  if (failed(verifyPointee(*this, ptrType, getValue().getType(), "value")))
    return failure();
  return verifyMask(*this, ptrType, getMask());
}

// tile.store %ptr, %value[, %mask] [cache = c] [evict = e] [boundary_check = [d...]]
//            attr-dict : ptr-type
ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 3> ops(2);
  if (parser.parseOperand(ops[0]) || parser.parseComma() || parser.parseOperand(ops[1]))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    ops.emplace_back();
    if (parser.parseOperand(ops.back()))
      return failure();
  }
  auto &props = result.getOrAddProperties<Properties>();
  MLIRContext *ctx = parser.getContext();
  while (true) {
    if (succeeded(parser.parseOptionalKeyword("cache"))) {
      CacheModifier c = CacheModifier::none;
      if (parser.parseEqual() || parseEnumKeyword(parser, c, "cache modifier"))
        return failure();
      props.cache = CacheModifierAttr::get(ctx, c);
    } else if (succeeded(parser.parseOptionalKeyword("evict"))) {
      EvictionPolicy e = EvictionPolicy::normal;
      if (parser.parseEqual() || parseEnumKeyword(parser, e, "eviction policy"))
        return failure();
      props.evict = EvictionPolicyAttr::get(ctx, e);
    } else if (succeeded(parser.parseOptionalKeyword("boundary_check"))) {
      SmallVector<int32_t> dims;
      if (parser.parseEqual() || parseI32List(parser, dims))
        return failure();
      props.boundaryCheck = DenseI32ArrayAttr::get(ctx, dims);
    } else {
      break;
    }
  }
  Type ptrType;
  if (parser.parseOptionalAttrDict(result.attributes) || parsePtrType(parser, ptrType))
    return failure();
  Type valueType = valueTypeOf(ptrType);
  SmallVector<Type, 3> types = {ptrType, valueType,
                                withShapeOf(valueType, parser.getBuilder().getI1Type())};
  return parser.resolveOperands(ops, ArrayRef<Type>(types).take_front(ops.size()),
                                parser.getNameLoc(), result.operands);
}

void StoreOp::print(OpAsmPrinter &p) {
  p << ' ' << getPtr() << ", " << getValue();
  if (getMask())
    p << ", " << getMask();
  if (getCache() != CacheModifier::none)
    p << " cache = " << stringifyCacheModifier(getCache());
  if (getEvict() != EvictionPolicy::normal)
    p << " evict = " << stringifyEvictionPolicy(getEvict());
  if (auto bc = getBoundaryCheck())
    printI32List(p << " boundary_check = ", *bc);
  p.printOptionalAttrDict((*this)->getAttrs(), getAttributeNames());
  p << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

LogicalResult AtomicRMWOp::verify() {
  Type ptrType = getPtr().getType();
  if (failed(verifyPointee(*this, ptrType, getVal().getType(), "value")) ||
      failed(verifyPointee(*this, ptrType, getType(), "result")) ||
      failed(verifyMask(*this, ptrType, getMask())))
    return failure();
  Type elem = getPointeeType(ptrType);
  bool isInt = elem.isSignlessInteger() && !elem.isInteger(1); // i1 has no atomic arithmetic
  bool isFloat = isa<FloatType>(elem);
  switch (getKind()) {
  case RMWKind::add:
  case RMWKind::max:
  case RMWKind::min:
    if (!isInt && !isFloat)
      return emitOpError() << "atomic " << stringifyRMWKind(getKind())
                           << " needs an integer (i8 to i64) or float pointee, got " << elem;
    break;
  case RMWKind::umax:
  case RMWKind::umin:
  case RMWKind::And:
  case RMWKind::Or:
  case RMWKind::Xor:
    if (!isInt)
      return emitOpError() << "atomic " << stringifyRMWKind(getKind())
                           << " needs an integer (i8 to i64) pointee, got " << elem;
    break;
  case RMWKind::xchg:
    break;
  }
  return success();
}

// tile.atomic_rmw kind, sem, scope, %ptr, %val[, %mask] attr-dict : ptr-type
ParseResult AtomicRMWOp::parse(OpAsmParser &parser, OperationState &result) {
  RMWKind kind = RMWKind::add;
  MemSemantic sem = MemSemantic::relaxed;
  MemScope scope = MemScope::gpu;
  if (parseEnumKeyword(parser, kind, "atomic operation") || parser.parseComma() ||
      parseEnumKeyword(parser, sem, "memory semantic") || parser.parseComma() ||
      parseEnumKeyword(parser, scope, "memory scope") || parser.parseComma())
    return failure();
  SmallVector<OpAsmParser::UnresolvedOperand, 3> ops(2);
  if (parser.parseOperand(ops[0]) || parser.parseComma() || parser.parseOperand(ops[1]))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    ops.emplace_back();
    if (parser.parseOperand(ops.back()))
      return failure();
  }
  Type ptrType;
  if (parser.parseOptionalAttrDict(result.attributes) || parseAtomicPtrType(parser, ptrType))
    return failure();
  MLIRContext *ctx = parser.getContext();
  auto &props = result.getOrAddProperties<Properties>();
  props.kind = RMWKindAttr::get(ctx, kind);
  props.sem = MemSemanticAttr::get(ctx, sem);
  props.scope = MemScopeAttr::get(ctx, scope);
  Type valueType = valueTypeOf(ptrType);
  SmallVector<Type, 3> types = {ptrType, valueType,
                                withShapeOf(valueType, parser.getBuilder().getI1Type())};
  if (parser.resolveOperands(ops, ArrayRef<Type>(types).take_front(ops.size()),
                             parser.getNameLoc(), result.operands))
    return failure();
  result.addTypes(valueType);
  return success();
}

void AtomicRMWOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyRMWKind(getKind()) << ", " << stringifyMemSemantic(getSem()) << ", "
    << stringifyMemScope(getScope()) << ", " << getPtr() << ", " << getVal();
  if (getMask())
    p << ", " << getMask();
  p.printOptionalAttrDict((*this)->getAttrs(), getAttributeNames());
  p << " : " << getPtr().getType();
}

LogicalResult AtomicCASOp::verify() {
  Type ptrType = getPtr().getType();
  if (failed(verifyPointee(*this, ptrType, getCmp().getType(), "cmp")) ||
      failed(verifyPointee(*this, ptrType, getVal().getType(), "value")) ||
      failed(verifyPointee(*this, ptrType, getType(), "result")))
    return failure();
  unsigned bits = getPointeeType(ptrType).getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return emitOpError() << "atomic_cas needs a 16-, 32- or 64-bit pointee, got "
                         << getPointeeType(ptrType);
  return success();
}

// tile.atomic_cas sem, scope, %ptr, %cmp, %val attr-dict : ptr-type
ParseResult AtomicCASOp::parse(OpAsmParser &parser, OperationState &result) {
  MemSemantic sem = MemSemantic::relaxed;
  MemScope scope = MemScope::gpu;
  SmallVector<OpAsmParser::UnresolvedOperand, 3> ops(3);
  if (parseEnumKeyword(parser, sem, "memory semantic") || parser.parseComma() ||
      parseEnumKeyword(parser, scope, "memory scope") || parser.parseComma() ||
      parser.parseOperand(ops[0]) || parser.parseComma() || parser.parseOperand(ops[1]) ||
      parser.parseComma() || parser.parseOperand(ops[2]))
    return failure();
  Type ptrType;
  if (parser.parseOptionalAttrDict(result.attributes) || parseAtomicPtrType(parser, ptrType))
    return failure();
  MLIRContext *ctx = parser.getContext();
  auto &props = result.getOrAddProperties<Properties>();
  props.sem = MemSemanticAttr::get(ctx, sem);
  props.scope = MemScopeAttr::get(ctx, scope);
  Type valueType = valueTypeOf(ptrType);
  if (parser.resolveOperands(ops, {ptrType, valueType, valueType}, parser.getNameLoc(),
                             result.operands))
    return failure();
  result.addTypes(valueType);
  return success();
}

void AtomicCASOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyMemSemantic(getSem()) << ", " << stringifyMemScope(getScope()) << ", "
    << getPtr() << ", " << getCmp() << ", " << getVal();
  p.printOptionalAttrDict((*this)->getAttrs(), getAttributeNames());
  p << " : " << getPtr().getType();
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

/// `precision = tf32` in the custom form: the bare keyword, as the load and atomic hints.
static ParseResult parseInputPrecision(OpAsmParser &parser, InputPrecisionAttr &attr) {
  InputPrecision v = InputPrecision::ieee;
  if (parseEnumKeyword(parser, v, "input precision"))
    return failure();
  attr = InputPrecisionAttr::get(parser.getContext(), v);
  return success();
}

static void printInputPrecision(OpAsmPrinter &p, DotOp, InputPrecisionAttr attr) {
  p << stringifyInputPrecision(attr.getValue());
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError() << "operands must be rank-2 tiles, got a " << str(a.getShape())
                         << ", b " << str(b.getShape()) << ", c " << str(c.getShape());
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError() << "inner dimensions differ: a is " << str(a.getShape()) << ", b is "
                         << str(b.getShape());
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError() << "accumulator shape " << str(c.getShape()) << " must be ["
                         << a.getDimSize(0) << ", " << b.getDimSize(1) << "]";
  Type ea = a.getElementType(), eb = b.getElementType(), ec = c.getElementType();
  if (ea != eb)
    return emitOpError() << "a and b have different element types " << ea << " and " << eb;
  Type expected;
  if (ea.isInteger(8))
    expected = IntegerType::get(getContext(), 32);
  else if (ea.isF64())
    expected = ea;
  else if (isa<FloatType>(ea))
    expected = Float32Type::get(getContext());
  else
    return emitOpError() << "inputs of type " << ea
                         << " are not supported; use f16, bf16, fp8, f32, f64 or i8";
  if (ec != expected)
    return emitOpError() << ea << " inputs accumulate in " << expected << ", got " << ec;
  if (getPrecision() != InputPrecision::ieee && !ea.isF32())
    return emitOpError() << "precision = " << stringifyInputPrecision(getPrecision())
                         << " applies to f32 inputs only, got " << ea;
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce and scan
//===----------------------------------------------------------------------===//

/// Operands have one shape and `axis` is a dimension of it.
static LogicalResult verifyAxisOperands(Operation *op, ValueRange srcs, int32_t axis,
                                        StringRef what) {
  if (srcs.empty())
    return op->emitOpError() << "needs at least one operand";
  auto shape = cast<RankedTensorType>(srcs[0].getType()).getShape();
  for (Value v : srcs.drop_front())
    if (cast<RankedTensorType>(v.getType()).getShape() != shape)
      return op->emitOpError() << "operands have different shapes " << str(shape) << " and "
                               << str(cast<RankedTensorType>(v.getType()).getShape());
  int64_t rank = shape.size();
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << what << " axis " << axis << " is out of range for a rank-"
                             << rank << " tile";
  return success();
}

/// The combiner takes (acc_0..acc_{N-1}, new_0..new_{N-1}) scalars and yields N of them.
static LogicalResult verifyCombiner(Operation *op, Region &region, ValueRange srcs) {
  Block &block = region.front();
  size_t n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << "combiner must take " << 2 * n << " scalar arguments, got "
                             << block.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError() << "combiner argument #" << i << " must be " << expected
                               << ", got " << block.getArgument(i).getType();
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError("combiner must end with tile.yield");
  if (yield.getValues().size() != n)
    return op->emitOpError() << "combiner must yield " << n << " values, got "
                             << yield.getValues().size();
  for (size_t i = 0; i < n; ++i)
    if (yield.getValues()[i].getType() != getElementTypeOrSelf(srcs[i].getType()))
      return op->emitOpError() << "combiner yields " << yield.getValues()[i].getType()
                               << " for operand #" << i << " of element type "
                               << getElementTypeOrSelf(srcs[i].getType());
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyAxisOperands(*this, getSrcs(), getAxis(), "reduce")))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "has " << getSrcs().size() << " operands but "
                         << getResults().size() << " results";
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    auto t = cast<RankedTensorType>(src.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.erase(shape.begin() + getAxis());
    Type expected = shape.empty() ? t.getElementType()
                                  : Type(RankedTensorType::get(shape, t.getElementType()));
    if (!sameShapeAndElementType(res.getType(), expected))
      return emitOpError() << "reducing " << t << " along axis " << getAxis() << " gives "
                           << expected << ", not " << res.getType();
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyAxisOperands(*this, getSrcs(), getAxis(), "scan")))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "has " << getSrcs().size() << " operands but "
                         << getResults().size() << " results";
  for (auto [src, res] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != res.getType())
      return emitOpError() << "result type " << res.getType() << " differs from operand type "
                           << src.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() { return verifyCombiner(*this, getCombineOp(), getSrcs()); }

#define GET_OP_CLASSES
#include "tessel/Dialect/Tile/IR/TileOps.cpp.inc"
