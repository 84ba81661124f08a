//===- TileOps.cpp - tile dialect op verifiers and assembly directives ----===//
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
      return op->emitOpError()
             << what << " must be a permutation of [0, " << rank << "), got ["
             << llvm::join(llvm::map_range(order, [](int32_t d) { return std::to_string(d); }),
                           ", ")
             << "]";
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
      return emitOpError() << "cannot broadcast dimension " << i << " of size " << src.getDimSize(i)
                           << " to " << dst.getDimSize(i) << ": only unit dimensions broadcast";
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
    return emitOpError() << "cannot reshape " << str(src.getShape()) << " (" << src.getNumElements()
                         << " elements) to " << str(dst.getShape()) << " (" << dst.getNumElements()
                         << " elements)";
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
    return emitOpError() << "offsets has " << getOffsets().size() << " entries for a rank-" << rank
                         << " block";
  return success();
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError() << "operands must be rank-2 tiles, got a " << str(a.getShape()) << ", b "
                         << str(b.getShape()) << ", c " << str(c.getShape());
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
    return op->emitOpError() << what << " axis " << axis << " is out of range for a rank-" << rank
                             << " tile";
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
      return op->emitOpError() << "combiner argument #" << i << " must be " << expected << ", got "
                               << block.getArgument(i).getType();
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
    return emitOpError() << "has " << getSrcs().size() << " operands but " << getResults().size()
                         << " results";
  for (auto [src, res] : llvm::zip(getSrcs(), getResults())) {
    auto t = cast<RankedTensorType>(src.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.erase(shape.begin() + getAxis());
    Type expected =
        shape.empty() ? t.getElementType() : Type(RankedTensorType::get(shape, t.getElementType()));
    if (!sameShapeAndElementType(res.getType(), expected))
      return emitOpError() << "reducing " << t << " along axis " << getAxis() << " gives "
                           << expected << ", not " << res.getType();
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() { return verifyCombiner(*this, getCombineOp(), getSrcs()); }

LogicalResult ScanOp::verify() {
  if (failed(verifyAxisOperands(*this, getSrcs(), getAxis(), "scan")))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError() << "has " << getSrcs().size() << " operands but " << getResults().size()
                         << " results";
  for (auto [src, res] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != res.getType())
      return emitOpError() << "result type " << res.getType() << " differs from operand type "
                           << src.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() { return verifyCombiner(*this, getCombineOp(), getSrcs()); }

//===----------------------------------------------------------------------===//
// Custom directives of the assembly formats (TileOps.td)
//===----------------------------------------------------------------------===//

/// What the parser's errors call each enum.
static StringRef describe(CacheModifier) { return "cache modifier"; }
static StringRef describe(EvictionPolicy) { return "eviction policy"; }
static StringRef describe(PaddingOption) { return "padding option"; }
static StringRef describe(RMWKind) { return "atomic operation"; }
static StringRef describe(MemSemantic) { return "memory semantic"; }
static StringRef describe(MemScope) { return "memory scope"; }
static StringRef describe(InputPrecision) { return "input precision"; }

/// `cache = cg`: the bare keyword of an enum case. On anything else the error names the enum
/// and lists every valid keyword. The enums' cases are numbered densely from 0, and
/// stringifyEnum gives "" past the last one.
template <typename AttrT> static ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr) {
  using EnumT = decltype(std::declval<AttrT>().getValue());
  SMLoc loc = parser.getCurrentLocation();
  auto listValid = [](InFlightDiagnostic &&diag) -> ParseResult {
    diag << "; expected one of ";
    for (uint32_t i = 0; !stringifyEnum(static_cast<EnumT>(i)).empty(); ++i)
      diag << (i ? ", " : "") << stringifyEnum(static_cast<EnumT>(i));
    return diag;
  };
  StringRef kw;
  if (parser.parseOptionalKeyword(&kw))
    return listValid(parser.emitError(loc) << "expected " << describe(EnumT()) << " keyword");
  std::optional<EnumT> v = symbolizeEnum<EnumT>(kw);
  if (!v)
    return listValid(parser.emitError(loc) << "unknown " << describe(EnumT()) << " '" << kw << "'");
  attr = AttrT::get(parser.getContext(), *v);
  return success();
}

template <typename AttrT> static void printEnumKeyword(OpAsmPrinter &p, Operation *, AttrT attr) {
  p << stringifyEnum(attr.getValue());
}

/// `boundary_check = [0, 1]`.
static ParseResult parseI32List(OpAsmParser &parser, DenseI32ArrayAttr &attr) {
  SmallVector<int32_t> values;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     [&]() { return parser.parseInteger(values.emplace_back()); }))
    return failure();
  attr = DenseI32ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printI32List(OpAsmPrinter &p, Operation *, DenseI32ArrayAttr attr) {
  p << '[';
  llvm::interleaveComma(attr.asArrayRef(), p);
  p << ']';
}

// Loads, stores and atomics write only the pointer type; the types of the value, mask, other
// and result follow from it. They are inferred here rather than with TypesMatchWith, whose
// check would run before verify() and replace its messages (which name both shapes).

/// Type of the value a pointer-like type loads or stores.
static Type valueTypeOf(Type ptrType) {
  if (auto bp = dyn_cast<BlockPtrType>(ptrType))
    return bp.getBlockType();
  return withShapeOf(ptrType, getPointeeType(ptrType));
}

static Type maskTypeOf(OpAsmParser &parser, Type ptrType) {
  return withShapeOf(valueTypeOf(ptrType), parser.getBuilder().getI1Type());
}

/// Parses a pointer type and checks that it is pointer-like (atomics: not a block pointer).
static ParseResult parsePtrType(OpAsmParser &parser, Type &ptrType, bool atomic = false) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseType(ptrType))
    return failure();
  if (!getPointeeType(ptrType))
    return parser.emitError(loc) << "expected a !tile.ptr, a tile of them or a !tile.block_ptr, "
                                    "got "
                                 << ptrType;
  if (atomic && isa<BlockPtrType>(ptrType))
    return parser.emitError(loc) << "atomics take a !tile.ptr or a tile of them, not the block "
                                    "pointer "
                                 << ptrType;
  return success();
}

using OptionalOperand = std::optional<OpAsmParser::UnresolvedOperand>;

static ParseResult parseLoadTypes(OpAsmParser &parser, Type &ptr, const OptionalOperand &mask,
                                  Type &maskType, const OptionalOperand &other, Type &otherType,
                                  Type &result) {
  if (parsePtrType(parser, ptr))
    return failure();
  result = valueTypeOf(ptr);
  // A result that is not the pointee's type (a block pointer's tile in a layout, or padded to
  // powers of two by tile-gpu-pad-shapes) follows an arrow; LoadOp::verify checks it.
  if (succeeded(parser.parseOptionalArrow()) && parser.parseType(result))
    return failure();
  if (mask)
    maskType = maskTypeOf(parser, ptr);
  if (other)
    otherType = result;
  return success();
}

static ParseResult parseStoreTypes(OpAsmParser &parser, Type &ptr, Type &value,
                                   const OptionalOperand &mask, Type &maskType) {
  if (parsePtrType(parser, ptr))
    return failure();
  value = valueTypeOf(ptr);
  if (mask)
    maskType = maskTypeOf(parser, ptr);
  return success();
}

static ParseResult parseAtomicRMWTypes(OpAsmParser &parser, Type &ptr, Type &val,
                                       const OptionalOperand &mask, Type &maskType, Type &result) {
  if (parsePtrType(parser, ptr, /*atomic=*/true))
    return failure();
  val = result = valueTypeOf(ptr);
  if (mask)
    maskType = maskTypeOf(parser, ptr);
  return success();
}

static ParseResult parseAtomicCASTypes(OpAsmParser &parser, Type &ptr, Type &cmp, Type &val,
                                       Type &result) {
  if (parsePtrType(parser, ptr, /*atomic=*/true))
    return failure();
  cmp = val = result = valueTypeOf(ptr);
  return success();
}

// Their printers write the pointer type alone.
static void printLoadTypes(OpAsmPrinter &p, Operation *, Type ptr, Value, Type, Value, Type,
                           Type result) {
  p << ptr;
  if (result != valueTypeOf(ptr))
    p << " -> " << result;
}
static void printStoreTypes(OpAsmPrinter &p, Operation *, Type ptr, Type, Value, Type) { p << ptr; }
static void printAtomicRMWTypes(OpAsmPrinter &p, Operation *, Type ptr, Type, Value, Type, Type) {
  p << ptr;
}
static void printAtomicCASTypes(OpAsmPrinter &p, Operation *, Type ptr, Type, Type, Type) {
  p << ptr;
}

#define GET_OP_CLASSES
#include "tessel/Dialect/Tile/IR/TileOps.cpp.inc"
