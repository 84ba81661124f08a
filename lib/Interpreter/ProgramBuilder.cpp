//===- ProgramBuilder.cpp - slots, blocks and op dispatch -----------------===//
#include "ProgramBuilder.h"

#include "tessel/Dialect/Tile/IR/ElementTypeEnum.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessel::interp;
namespace tile = tessel::tile;

std::string tessel::interp::locationString(Location loc) {
  if (auto fl = dyn_cast<FileLineColLoc>(loc))
    return (fl.getFilename().strref() + ":" + Twine(fl.getLine()) + ":" + Twine(fl.getColumn()))
        .str();
  if (auto nl = dyn_cast<NameLoc>(loc))
    return locationString(nl.getChildLoc());
  if (auto cl = dyn_cast<CallSiteLoc>(loc))
    return locationString(cl.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location l : fused.getLocations()) {
      std::string s = locationString(l);
      if (s != "<unknown location>")
        return s;
    }
  return "<unknown location>";
}

Status ProgramBuilder::error(Operation *op, const Twine &msg) const {
  return Status::error(locationString(op->getLoc()) + ": error: " + msg.str());
}

void Frame::fail(const std::string &message) {
  failed = true;
  std::lock_guard<std::mutex> lock(launch->mutex);
  if (linearPid < launch->errorProgram.load()) {
    launch->errorProgram.store(linearPid);
    launch->error = message;
  }
}

void Program::initFrame(Frame &f) const {
  f.slots.resize(slots.size());
  for (size_t i = 0; i < slots.size(); ++i)
    f.slots[i].words.assign(slots[i].words() + 1, 0);
  for (const auto &[slot, data] : constants)
    f.slots[slot].words = data.words;
}

// The interpreter runs index as i64.
static std::optional<tessel::harness::DType> dtypeOf(Type t) {
  using tessel::harness::DType;
  return t.isIndex() ? DType::i64 : tile::elementTypeEnum<DType>(t);
}

static std::optional<Elem> elemOf(Type t) {
  if (t.isIndex())
    return Elem::i64;
  if (isa<tile::PtrType>(t))
    return Elem::ptr;
  return tile::elementTypeEnum<Elem>(t);
}

Status ProgramBuilder::slotTypeOf(Type type, Operation *where, SlotType &out) {
  out = SlotType();
  if (auto bp = dyn_cast<tile::BlockPtrType>(type)) {
    auto block = bp.getBlockType();
    auto d = dtypeOf(block.getElementType());
    if (!d)
      return error(where, "the interpreter does not support blocks of " +
                              llvm::Twine(debugString(block.getElementType())));
    out.elem = Elem::blockptr;
    out.pointee = *d;
    out.rank = block.getRank();
    out.shape.assign(block.getShape().begin(), block.getShape().end());
    out.numel = 1;
    return Status::ok();
  }
  Type elem = type;
  if (auto rt = dyn_cast<RankedTensorType>(type)) {
    elem = rt.getElementType();
    out.shape.assign(rt.getShape().begin(), rt.getShape().end());
    out.numel = rt.getNumElements();
  }
  auto e = elemOf(elem);
  if (!e)
    return error(where, "the interpreter does not support values of type " +
                            llvm::Twine(debugString(type)) +
                            " (supported: i1-i64, index, f16, bf16, f32, f64, pointers)");
  out.elem = *e;
  if (*e == Elem::ptr) {
    auto d = dtypeOf(cast<tile::PtrType>(elem).getPointeeType());
    if (!d)
      return error(where, "the interpreter does not support pointers to " +
                              llvm::Twine(debugString(cast<tile::PtrType>(elem).getPointeeType())));
    out.pointee = *d;
  }
  if (widthOverride) {
    out.shape = {*widthOverride};
    out.numel = *widthOverride;
  }
  return Status::ok();
}

Status ProgramBuilder::define(Value v, Operation *where, int &slotIndex) {
  SlotType t;
  if (Status s = slotTypeOf(v.getType(), where, t); !s)
    return s;
  slotIndex = static_cast<int>(prog.slots.size());
  prog.slots.push_back(t);
  slotOf[v] = slotIndex;
  return Status::ok();
}

int ProgramBuilder::scratch(const SlotType &t) {
  prog.slots.push_back(t);
  return static_cast<int>(prog.slots.size()) - 1;
}

int ProgramBuilder::constant(const SlotType &t, Buffer data) {
  int s = scratch(t);
  prog.constants.emplace_back(s, std::move(data));
  return s;
}

Status ProgramBuilder::compileBlock(mlir::Block &block, Sequence &out) {
  for (Operation &op : block.without_terminator())
    if (Status s = compileOp(&op, out); !s)
      return s;
  return Status::ok();
}

Status ProgramBuilder::unsupported(Operation *op) const {
  return error(op, "the interpreter does not support '" + op->getName().getStringRef() + "'");
}

Status ProgramBuilder::compileOp(Operation *op, Sequence &out) {
  // Ops with a function of their own first; the arith/math ops that share generic kernels by
  // name go to the default, which also reports every op nobody handles.
  auto family = [&](Status (ProgramBuilder::*fn)(Operation *, Sequence &)) {
    return [this, fn, &out](Operation *o) { return (this->*fn)(o, out); };
  };
  return llvm::TypeSwitch<Operation *, Status>(op)
      .Case([&](arith::ConstantOp o) { return compileConstant(o, out); })
      .Case([&](arith::CmpIOp o) { return compileCmpI(o, out); })
      .Case([&](arith::CmpFOp o) { return compileCmpF(o, out); })
      .Case([&](arith::SelectOp o) { return compileSelect(o, out); })
      .Case([&](math::FmaOp o) { return compileFma(o, out); })
      .Case<arith::MulSIExtendedOp, arith::MulUIExtendedOp>(
          family(&ProgramBuilder::compileMulExtended))
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::FPToSIOp, arith::FPToUIOp, arith::BitcastOp>(
          family(&ProgramBuilder::compileCast))
      .Case<tile::ProgramIdOp, tile::NumProgramsOp>(family(&ProgramBuilder::compileProgramIndex))
      .Case([&](tile::ArangeOp o) { return compileArange(o, out); })
      .Case([&](tile::SplatOp o) { return compileSplat(o, out); })
      .Case<tile::ExpandDimsOp, tile::ReshapeOp>(family(&ProgramBuilder::compileReshape))
      .Case<tile::BroadcastOp, tile::TransOp>(family(&ProgramBuilder::compileBroadcastOrTrans))
      .Case([&](tile::AddPtrOp o) { return compileAddPtr(o, out); })
      .Case([&](tile::MakeBlockPtrOp o) { return compileMakeBlockPtr(o, out); })
      .Case([&](tile::AdvanceOp o) { return compileAdvance(o, out); })
      .Case([&](tile::LoadOp o) { return compileLoad(o, out); })
      .Case([&](tile::StoreOp o) { return compileStore(o, out); })
      .Case([&](tile::AtomicRMWOp o) { return compileAtomicRMW(o, out); })
      .Case([&](tile::AtomicCASOp o) { return compileAtomicCAS(o, out); })
      .Case<tile::ReduceOp, tile::ScanOp>(family(&ProgramBuilder::compileReduceScan))
      .Case([&](tile::DotOp o) { return compileDot(o, out); })
      .Case([&](scf::ForOp o) { return compileFor(o, out); })
      .Case([&](scf::IfOp o) { return compileIf(o, out); })
      .Case([&](scf::WhileOp o) { return compileWhile(o, out); })
      .Case([&](func::CallOp o) { return compileCall(o, out); })
      .Case([&](tile::PrintOp o) { return compilePrint(o, out); })
      .Case([&](tile::AssertOp o) { return compileAssert(o, out); })
      // A program runs its ops in order here: its stores are already visible to its loads.
      .Case([&](tile::BarrierOp) { return Status::ok(); })
      .Default(family(&ProgramBuilder::compileArithByName));
}

Status ProgramBuilder::compileKernel(func::FuncOp kernel, std::vector<ParamInfo> &params) {
  module = kernel->getParentOfType<ModuleOp>();
  if (kernel.isExternal())
    return error(kernel, "kernel '" + kernel.getSymName() + "' has no body");
  if (kernel.getNumResults() != 0)
    return error(kernel, "a kernel returns nothing; '" + kernel.getSymName() + "' returns " +
                             Twine(kernel.getNumResults()) + " value(s)");
  if (!kernel.getBody().hasOneBlock())
    return error(kernel, "the interpreter runs single-block kernels (use scf for control flow)");
  mlir::Block &entry = kernel.getBody().front();
  for (BlockArgument arg : entry.getArguments()) {
    int s;
    if (Status st = define(arg, kernel, s); !st)
      return st;
    if (!type(s).shape.empty())
      return error(kernel, "kernel parameter #" + Twine(arg.getArgNumber()) +
                               " is a tile; kernels take pointers and scalars");
    prog.argSlots.push_back(s);
    ParamInfo p;
    p.type = debugString(arg.getType());
    p.isPointer = isa<tile::PtrType>(arg.getType());
    p.name = "arg" + std::to_string(arg.getArgNumber());
    if (auto nl = dyn_cast<NameLoc>(arg.getLoc())) // tesselc names arguments with NameLocs
      p.name = nl.getName().str();
    if (auto d = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                      tile::TileDialect::getDivisibilityAttrName()))
      p.divisibility = std::max<int64_t>(1, d.getInt());
    if (auto e = kernel.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(),
                                                      tile::TileDialect::getEqualToAttrName()))
      p.equalTo = e.getInt();
    for (const char *attr : {"tessel.name", "tile.name", "tessel.arg_name"})
      if (auto n = kernel.getArgAttrOfType<StringAttr>(arg.getArgNumber(), attr))
        p.name = n.str();
    params.push_back(p);
  }
  return compileBlock(entry, prog.body);
}
