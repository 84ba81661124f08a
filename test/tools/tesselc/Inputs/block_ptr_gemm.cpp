// A GEMM through block pointers (the shape of dsl/kernels/gemm.cpp's K loop): make_block_ptr,
// loads with boundary checks and zero padding in an scf.for that carries and advances both
// block pointers, and a store with a boundary check.
#include <tessel/dsl.h>
using namespace tessel::dsl;
struct Config { int BM = 64; int BN = 64; int BK = 32; int num_warps = 4; int num_stages = 3; };
TESSEL_CONFIG(Config, BM, BN, BK, num_warps, num_stages)
void bp_gemm(const Config &c, Ptr<f16> a, Ptr<f16> b, Ptr<f16> out, Int M, Int N, Int K,
             Int stride_am, Int stride_ak, Int stride_bk, Int stride_bn, Int stride_cm) {
  Int pid_m = program_id(0), pid_n = program_id(1);
  BlockPtr<f16> ap = make_block_ptr(a, {M, K}, {stride_am, stride_ak}, {pid_m * c.BM, 0},
                                    {c.BM, c.BK}, {1, 0});
  BlockPtr<f16> bp = make_block_ptr(b, {K, N}, {stride_bk, stride_bn}, {0, pid_n * c.BN},
                                    {c.BK, c.BN}, {1, 0});
  Tile<f32> acc = zeros<f32>({c.BM, c.BN});
  std::tie(acc, ap, bp) = for_range(
      0, cdiv(K, c.BK), 1, std::tuple{acc, ap, bp},
      [&](Int k, Tile<f32> acc, BlockPtr<f16> ap, BlockPtr<f16> bp) {
        Tile<f16> av = load(ap, {0, 1}, Padding::zero);
        Tile<f16> bv = load(bp, {0, 1}, Padding::zero);
        return std::tuple{dot(av, bv, acc), advance(ap, {0, c.BK}), advance(bp, {c.BK, 0})};
      });
  BlockPtr<f16> cp = make_block_ptr(out, {M, N}, {stride_cm, 1}, {pid_m * c.BM, pid_n * c.BN},
                                    {c.BM, c.BN}, {1, 0});
  store(cp, cast<f16>(acc), {0, 1});
}
TESSEL_KERNEL(bp_gemm, ARGS(a, b, out, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                            stride_cm),
              CONFIGS(Config{}))
