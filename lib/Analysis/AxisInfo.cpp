//===- AxisInfo.cpp - contiguity, divisibility, constancy of tiles --------===//
#include "tessel/Analysis/AxisInfo.h"

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;
using namespace tessel;

int64_t tessel::highestPowerOf2Divisor(int64_t v) {
  if (v == 0)
    return AxisInfo::kMaxDivisibility;
  return std::min<int64_t>(int64_t(1) << llvm::countr_zero(uint64_t(v)),
                           AxisInfo::kMaxDivisibility);
}

AxisInfo AxisInfo::pessimistic(unsigned rank) {
  AxisInfo a;
  a.contiguity.assign(rank, 1);
  a.divisibility.assign(rank, 1);
  a.constancy.assign(rank, 1);
  return a;
}

AxisInfo AxisInfo::uniform(ArrayRef<int64_t> shape, int64_t div) {
  AxisInfo a;
  size_t rank = std::max<size_t>(1, shape.size());
  a.contiguity.assign(rank, 1);
  a.divisibility.assign(rank, div);
  if (shape.empty())
    a.constancy.assign(1, 1);
  else
    a.constancy.assign(shape.begin(), shape.end());
  return a;
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](StringRef name, ArrayRef<int64_t> v) {
    os << name << " = [";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  list("contiguity", contiguity);
  os << ", ";
  list("divisibility", divisibility);
  os << ", ";
  list("constancy", constancy);
}

static unsigned rankOf(Type t) {
  if (auto r = dyn_cast<RankedTensorType>(t))
    return std::max<int64_t>(1, r.getRank());
  return 1;
}

static SmallVector<int64_t> shapeOf(Type t) {
  if (auto r = dyn_cast<RankedTensorType>(t))
    return SmallVector<int64_t>(r.getShape());
  return {1};
}

static int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// Bytes of a pointer's pointee (1 for anything unexpected).
static int64_t pointeeBytes(Type ptrLike) {
  Type t = tile::getPointeeType(ptrLike);
  if (!t || !t.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, t.getIntOrFloatBitWidth() / 8);
}

AxisInfoAnalysis::AxisInfoAnalysis(Operation *funcOp) {
  if (auto func = dyn_cast<FunctionOpInterface>(funcOp)) {
    for (BlockArgument arg : func.getArguments()) {
      int64_t div = 1;
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(), tile::TileDialect::getDivisibilityAttrName()))
        div = attr.getInt();
      // Tile arguments (helper functions, not kernels) are unknown tiles of their rank.
      if (auto tt = dyn_cast<RankedTensorType>(arg.getType()))
        infos[arg] = AxisInfo::pessimistic(tt.getRank());
      else
        infos[arg] = AxisInfo::uniform({}, div);
    }
  }
  funcOp->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != funcOp)
      visit(op);
  });
}

/// The facts that hold for both: runs and divisors shrink to their common part.
static AxisInfo meet(const AxisInfo &a, const AxisInfo &b) {
  if (a.getRank() != b.getRank())
    return AxisInfo::pessimistic(a.getRank());
  AxisInfo out = a;
  for (unsigned d = 0; d < a.getRank(); ++d) {
    out.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    out.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    out.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  return out;
}

void AxisInfoAnalysis::visitLoopCarried(scf::ForOp forOp) {
  // Optimistic start (the init values' facts), then the meet with what the body yields until
  // nothing changes: a pointer advanced by a uniform step keeps its contiguity, and its
  // divisibility becomes gcd(init, step). Every meet only lowers powers of two, so this ends.
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  for (auto [arg, init] : llvm::zip(forOp.getRegionIterArgs(), forOp.getInitArgs()))
    infos[arg] = get(init);
  bool changed = true;
  for (unsigned round = 0; changed && round < 64; ++round) {
    forOp.getBody()->walk<WalkOrder::PreOrder>([&](Operation *inner) { visit(inner); });
    changed = false;
    for (auto [arg, yielded] : llvm::zip(forOp.getRegionIterArgs(), yield.getOperands())) {
      AxisInfo next = meet(get(arg), get(yielded));
      if (!(next == get(arg))) {
        infos[arg] = next;
        changed = true;
      }
    }
  }
  for (auto [arg, result] : llvm::zip(forOp.getRegionIterArgs(), forOp.getResults())) {
    if (changed)
      infos[arg] = AxisInfo::pessimistic(get(arg).getRank());
    infos[result] = get(arg);
  }
}

AxisInfo AxisInfoAnalysis::get(Value v) const {
  auto it = infos.find(v);
  if (it != infos.end())
    return it->second;
  return AxisInfo::pessimistic(rankOf(v.getType()));
}

void AxisInfoAnalysis::visit(Operation *op) {
  // Loop induction variables: lb + i * step.
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    AxisInfo lb = get(forOp.getLowerBound()), step = get(forOp.getStep());
    infos[forOp.getInductionVar()] =
        AxisInfo::uniform({}, gcd(lb.divisibility[0], step.divisibility[0]));
    visitLoopCarried(forOp);
    return;
  }
  if (op->getNumResults() != 1)
    return;
  Value result = op->getResult(0);
  Type type = result.getType();
  SmallVector<int64_t> shape = shapeOf(type);
  unsigned rank = shape.size();
  auto operand = [&](unsigned i) { return get(op->getOperand(i)); };
  AxisInfo out = AxisInfo::pessimistic(rank);

  auto elementwiseConstancy = [&](const AxisInfo &a, const AxisInfo &b) {
    for (unsigned d = 0; d < rank; ++d)
      out.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  };

  llvm::TypeSwitch<Operation *>(op)
      .Case<arith::ConstantOp>([&](auto c) {
        APInt value;
        if (matchPattern(result, m_ConstantInt(&value)))
          out = AxisInfo::uniform(isa<RankedTensorType>(type) ? ArrayRef<int64_t>(shape)
                                                              : ArrayRef<int64_t>(),
                                  highestPowerOf2Divisor(value.getSExtValue()));
        else if (auto dense = dyn_cast<SplatElementsAttr>(c.getValue()))
          out = AxisInfo::uniform(shape, 1);
      })
      .Case<tile::ArangeOp>([&](auto a) {
        out.contiguity[0] = shape[0];
        out.divisibility[0] = highestPowerOf2Divisor(a.getStart());
      })
      .Case<tile::SplatOp>(
          [&](auto s) { out = AxisInfo::uniform(shape, get(s.getSrc()).divisibility[0]); })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
            tile_gpu::ConvertLayoutOp>([&](auto) { out = operand(0); })
      .Case<arith::AddIOp, tile::AddPtrOp>([&](Operation *) {
        AxisInfo a = operand(0), b = operand(1);
        int64_t scale = isa<tile::AddPtrOp>(op) ? pointeeBytes(type) : 1;
        for (unsigned d = 0; d < rank; ++d) {
          out.contiguity[d] =
              std::max(gcd(a.contiguity[d], b.constancy[d]), gcd(a.constancy[d], b.contiguity[d]));
          int64_t bd = std::min<int64_t>(b.divisibility[d] * scale, AxisInfo::kMaxDivisibility);
          out.divisibility[d] = gcd(a.divisibility[d], bd);
        }
        elementwiseConstancy(a, b);
      })
      .Case<arith::SubIOp>([&](auto) {
        AxisInfo a = operand(0), b = operand(1);
        for (unsigned d = 0; d < rank; ++d) {
          out.contiguity[d] = gcd(a.contiguity[d], b.constancy[d]);
          out.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
        }
        elementwiseConstancy(a, b);
      })
      .Case<arith::MulIOp>([&](auto m) {
        AxisInfo a = operand(0), b = operand(1);
        bool aIsOne = matchPattern(m.getLhs(), m_One()), bIsOne = matchPattern(m.getRhs(), m_One());
        for (unsigned d = 0; d < rank; ++d) {
          out.contiguity[d] = bIsOne ? a.contiguity[d] : aIsOne ? b.contiguity[d] : 1;
          // An operand's divisibility holds for the first value of each run; once the runs are
          // cut to single values (times anything but 1), every value counts, and a run
          // [x, x + 1, ...] has values that are only multiples of 1 (Triton's rule).
          int64_t ad = a.contiguity[d] > 1 && !bIsOne ? 1 : a.divisibility[d];
          int64_t bd = b.contiguity[d] > 1 && !aIsOne ? 1 : b.divisibility[d];
          out.divisibility[d] = std::min<int64_t>(ad * bd, AxisInfo::kMaxDivisibility);
        }
        elementwiseConstancy(a, b);
      })
      .Case<arith::DivSIOp, arith::DivUIOp>([&](auto) {
        AxisInfo a = operand(0), b = operand(1);
        APInt c;
        bool constRhs = matchPattern(op->getOperand(1), m_ConstantInt(&c)) && c.getSExtValue() > 0;
        for (unsigned d = 0; d < rank; ++d)
          if (constRhs && a.divisibility[d] % c.getSExtValue() == 0)
            out.divisibility[d] = highestPowerOf2Divisor(a.divisibility[d] / c.getSExtValue());
        elementwiseConstancy(a, b);
      })
      .Case<arith::RemSIOp, arith::RemUIOp>([&](auto) {
        AxisInfo a = operand(0), b = operand(1);
        for (unsigned d = 0; d < rank; ++d) {
          if (b.constancy[d] == shape[d])
            out.contiguity[d] = gcd(a.contiguity[d], b.divisibility[d]);
          out.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
        }
        elementwiseConstancy(a, b);
      })
      .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp,
            arith::MaxUIOp, arith::MinUIOp>(
          [&](auto) { elementwiseConstancy(operand(0), operand(1)); })
      .Case<arith::CmpIOp>([&](auto cmp) {
        AxisInfo a = operand(0), b = operand(1);
        bool ordering = cmp.getPredicate() != arith::CmpIPredicate::eq &&
                        cmp.getPredicate() != arith::CmpIPredicate::ne;
        for (unsigned d = 0; d < rank; ++d) {
          int64_t k = gcd(a.constancy[d], b.constancy[d]);
          // A run [x, x + C) starting at a multiple of D compared with a uniform multiple of
          // N is constant over aligned chunks of gcd(C, D, N).
          if (ordering && b.constancy[d] == shape[d])
            k = std::max(k, gcd(a.contiguity[d], gcd(a.divisibility[d], b.divisibility[d])));
          if (ordering && a.constancy[d] == shape[d])
            k = std::max(k, gcd(b.contiguity[d], gcd(b.divisibility[d], a.divisibility[d])));
          out.constancy[d] = k;
        }
      })
      .Case<arith::SelectOp>([&](auto sel) {
        AxisInfo c = get(sel.getCondition()), a = operand(1), b = operand(2);
        bool scalarCond = !isa<RankedTensorType>(sel.getCondition().getType());
        for (unsigned d = 0; d < rank; ++d) {
          int64_t cc = scalarCond ? shape[d] : c.constancy[d];
          out.constancy[d] = gcd(cc, gcd(a.constancy[d], b.constancy[d]));
          out.contiguity[d] = gcd(cc, std::min(a.contiguity[d], b.contiguity[d]));
          out.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
        }
      })
      .Case<tile::BroadcastOp>([&](auto b) {
        AxisInfo a = get(b.getSrc());
        ArrayRef<int64_t> srcShape = cast<RankedTensorType>(b.getSrc().getType()).getShape();
        for (unsigned d = 0; d < rank; ++d) {
          if (srcShape[d] == 1 && shape[d] != 1) {
            out.constancy[d] = shape[d];
            out.divisibility[d] = a.divisibility[d];
          } else {
            out.contiguity[d] = a.contiguity[d];
            out.divisibility[d] = a.divisibility[d];
            out.constancy[d] = a.constancy[d];
          }
        }
      })
      .Case<tile::ExpandDimsOp>([&](auto e) {
        AxisInfo a = get(e.getSrc());
        unsigned axis = e.getAxis();
        // The new axis has one value per position of the others: what all of them are multiples
        // of, where a run of contiguous values counts as multiples of 1.
        int64_t div = AxisInfo::kMaxDivisibility;
        for (unsigned s = 0; s < a.divisibility.size(); ++s)
          div = gcd(div, a.contiguity[s] > 1 ? 1 : a.divisibility[s]);
        if (a.divisibility.empty())
          div = 1;
        for (unsigned d = 0, s = 0; d < rank; ++d) {
          if (d == axis) {
            out.divisibility[d] = div;
            continue;
          }
          out.contiguity[d] = a.contiguity[s];
          out.divisibility[d] = a.divisibility[s];
          out.constancy[d] = a.constancy[s];
          ++s;
        }
      });
  Type elem = getElementTypeOrSelf(type);
  if (!elem.isIntOrIndex() && !isa<tile::PtrType>(elem))
    return;
  infos[result] = out;
}

unsigned AxisInfoAnalysis::getVectorWidth(Value ptr, Value mask, unsigned dim, unsigned elemBytes,
                                          unsigned maxBytes) const {
  AxisInfo p = get(ptr);
  if (dim >= p.getRank())
    return 1;
  int64_t v = std::min<int64_t>(p.contiguity[dim], std::max<unsigned>(1, maxBytes / elemBytes));
  v = std::min<int64_t>(v, std::max<int64_t>(1, p.divisibility[dim] / elemBytes));
  if (mask) {
    AxisInfo m = get(mask);
    if (dim < m.getRank())
      v = std::min(v, m.constancy[dim]);
  }
  return std::max<int64_t>(1, llvm::bit_floor(uint64_t(std::max<int64_t>(v, 1))));
}
