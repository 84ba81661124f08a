//===- Dot.cpp - tile.dot -------------------------------------------------===//
//
// d = a · b + c with a (M, K), b (K, N): f16/bf16/f32 inputs multiply and accumulate in f32
// (k in increasing order, one rounding per product and per sum); precision = tf32 first
// rounds both inputs to tf32 (10 mantissa bits, nearest even); tf32x3 is computed as exact f32
// (what the three-product split recovers); f64 in f64; i8 in i32 (wrapping).
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "ProgramBuilder.h"

using namespace mlir;
using namespace tessel::interp;
namespace tile = tessel::tile;

template <typename In, typename Acc>
static void matmul(const In *a, const In *b, const Acc *c, Acc *d, int64_t M, int64_t N,
                   int64_t K) {
  std::memcpy(d, c, sizeof(Acc) * M * N);
  for (int64_t i = 0; i < M; ++i) {
    Acc *row = d + i * N;
    for (int64_t k = 0; k < K; ++k) {
      Acc av = static_cast<Acc>(a[i * K + k]);
      const In *brow = b + k * N;
      for (int64_t j = 0; j < N; ++j)
        row[j] += av * static_cast<Acc>(brow[j]);
    }
  }
}

Status ProgramBuilder::compileDot(tile::DotOp dot, Sequence &out) {
  Operation *op = dot;
  int a = slot(dot.getA()), b = slot(dot.getB()), c = slot(dot.getC()), r;
  if (Status s = define(dot.getD(), op, r); !s)
    return s;
  int64_t M = type(a).shape[0], K = type(a).shape[1], N = type(b).shape[1];
  Elem e = type(a).elem;
  bool tf32 = dot.getPrecision() == tile::InputPrecision::tf32;
  if (e == Elem::f64) {
    out.ops.push_back([=](Frame &f) {
      matmul(f.slots[a].as<double>(), f.slots[b].as<double>(), f.slots[c].as<double>(),
             f.slots[r].as<double>(), M, N, K);
    });
    return Status::ok();
  }
  if (isFloatElem(e)) {
    SlotType ta = type(a), tb = type(b);
    int sa = tf32 ? scratch(ta) : a, sb = tf32 ? scratch(tb) : b;
    out.ops.push_back([=](Frame &f) {
      if (tf32) {
        const float *x = f.slots[a].as<float>(), *y = f.slots[b].as<float>();
        float *xr = f.slots[sa].as<float>(), *yr = f.slots[sb].as<float>();
        for (int64_t i = 0; i < M * K; ++i)
          xr[i] = harness::roundToTF32(x[i]);
        for (int64_t i = 0; i < K * N; ++i)
          yr[i] = harness::roundToTF32(y[i]);
      }
      matmul(f.slots[sa].as<float>(), f.slots[sb].as<float>(), f.slots[c].as<float>(),
             f.slots[r].as<float>(), M, N, K);
    });
    return Status::ok();
  }
  // i8 x i8 -> i32.
  out.ops.push_back([=](Frame &f) {
    int64_t *d = f.slots[r].as<int64_t>();
    matmul(f.slots[a].as<int64_t>(), f.slots[b].as<int64_t>(), f.slots[c].as<int64_t>(), d, M, N,
           K);
    for (int64_t i = 0; i < M * N; ++i)
      d[i] = wrap<32>(d[i]);
  });
  return Status::ok();
}
