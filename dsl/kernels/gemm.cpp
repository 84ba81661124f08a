//===- gemm.cpp - matrix multiply with a fused bias + activation epilogue -===//
//
// c (M, N) = act(a (M, K) @ b (K, N) + bias (N)), accumulated in f32. One program per
// (BLOCK_M, BLOCK_N) tile of c, in GROUP_M order: programs walk GROUP_M rows of tiles before
// the next column, so a group of programs reuses the same columns of b from L2.
// grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),). K need not be a multiple of BLOCK_K: the last
// step masks the tail of K (case C7). Strides are in elements.
//
// gemm_block_ptr computes the same through block pointers, whose boundary checks read zeros
// outside a and b: on sm_90a its loads become TMA bulk copies (one descriptor per operand,
// built by the runtime) where the strides allow (a stride of 1, 16-byte multiples: the __div8
// twins); elsewhere they are masked loads.
//
// gemm_persistent is gemm_block_ptr run by num_programs(0) programs (one per SM: the harness's
// gemm_persistent problem launches min(tiles, SMs)) that each walk the tiles pid,
// pid + num_programs(0), ... in GROUP_M order. On sm_90a with warp_specialize, its producer warp
// copies the next tile's operands while the consumers store this one.
//
// gemm_stream_k is gemm_block_ptr as stream-K: num_programs(0) programs take equal spans of the
// tiles' K-blocks (the gemm_stream_k problem: one per SM, spans aligned to a row of tiles), and
// the last program on a shared tile sums the f32 partials of a workspace.
//
// gemm_residual is gemm_block_ptr with a residual added after the activation:
// c = act(a @ b + bias) + residual (M, N), as a transformer block's output projections add
// their result to the residual stream. residual may be c itself (an in-place add): each element
// is read and written by the same thread.
//
//===----------------------------------------------------------------------===//
#include <tessel/dsl.h>

#include <optional>

using namespace tessel::dsl;

TESSEL_ENUM(Activation, none, relu, gelu, silu)

struct GemmConfig {
  int BLOCK_M = 128;
  int BLOCK_N = 128;
  int BLOCK_K = 64;
  int GROUP_M = 8;
  bool HAS_BIAS = false;
  Activation ACT = Activation::none;
  int num_warps = 4;
  int num_stages = 3;
  // 1: on sm_90a, a TMA-pipelined K loop (gemm_block_ptr's TMA twins) gets a producer
  // warpgroup of its own on top of num_warps (tile-nv-warp-specialize); named in variants only
  // when set. Elsewhere (and on the interpreter) the same kernel.
  int warp_specialize = 0;
  // 2: with warp_specialize on sm_90a, programs 2c and 2c + 1 run as a cluster whose TMA copies
  // of a shared tile (B, for two rows of tiles in one GROUP_M column) are read from L2 once and
  // multicast (tile-nv-cluster-multicast); the grid must then be even. Named only when above 1.
  int cluster_size = 1;
  // 1: the tile is stored through a block pointer, which sm_90a copies out of shared memory
  // with TMA where it can (tile.tma_store; on the H200 within 1.5% of st.global either way,
  // so no library config sets it). Named in variants only when set; elsewhere the same masked
  // stores as without it.
  int tma_store = 0;
};
TESSEL_CONFIG(GemmConfig, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, HAS_BIAS, ACT, num_warps,
              num_stages, warp_specialize, cluster_size, tma_store)

/// The epilogue activation, chosen at trace time.
inline Tile<f32> activate(Activation act, const Tile<f32> &x) {
  switch (act) {
  case Activation::relu:
    return maximum(x, 0.0);
  case Activation::gelu:
    return 0.5 * x * (1.0 + erf(x * 0.7071067811865476));
  case Activation::silu:
    return x * sigmoid(x);
  case Activation::none:
    break;
  }
  return x;
}

/// The (pid_m, pid_n) tile of program `pid` in GROUP_M order.
template <class Config> std::pair<Int, Int> tileOf(const Config &cfg, Int pid, Int M, Int N) {
  Int num_pid_m = cdiv(M, cfg.BLOCK_M);
  Int num_pid_n = cdiv(N, cfg.BLOCK_N);
  Int in_group = cfg.GROUP_M * num_pid_n;
  Int first_m = pid / in_group * cfg.GROUP_M;
  Int group_size = minimum(num_pid_m - first_m, cfg.GROUP_M);
  return {first_m + pid % in_group % group_size, pid % in_group / group_size};
}

/// The rows and columns of c that tile (pid_m, pid_n) covers.
template <class Config>
std::pair<Tile<i64>, Tile<i64>> rowsCols(const Config &cfg, Int pid_m, Int pid_n) {
  return {pid_m * cfg.BLOCK_M + arange(0, cfg.BLOCK_M),                       // (BLOCK_M)
          pid_n * cfg.BLOCK_N + arange(0, cfg.BLOCK_N)};                      // (BLOCK_N)
}

/// c[cm, cn] = value, masked to the (M, N) matrix.
template <class T>
void storeC(const Tile<f32> &value, Ptr<T> c, Int M, Int N, const Tile<i64> &cm,
            const Tile<i64> &cn, Int stride_cm, Int stride_cn) {
  Ptr<T> cp = c + cm(_, None) * stride_cm + cn(None, _) * stride_cn;          // (BLOCK_M, BLOCK_N)
  Mask cmask = (cm(_, None) < M) & (cn(None, _) < N);                         // (BLOCK_M, BLOCK_N)
  store(cp, cast<T>(value), cmask);
}

/// c[tile] = act(acc + bias), masked to the matrix; with tma_store through a block pointer
/// whose boundary check skips what lies outside it.
template <class Config, class T>
void storeTile(const Config &cfg, Tile<f32> acc, Ptr<T> c, Ptr<T> bias, Int M, Int N,
               Int pid_m, Int pid_n, Int stride_cm, Int stride_cn) {
  auto [cm, cn] = rowsCols(cfg, pid_m, pid_n);
  if (cfg.HAS_BIAS)
    acc += cast<f32>(load(bias + cn % N))(None, _);                           // (BLOCK_M, BLOCK_N)
  if constexpr (requires { cfg.tma_store; }) {
    if (cfg.tma_store) {
      BlockPtr<T> cb = make_block_ptr(c, {M, N}, {stride_cm, stride_cn},
                                      {pid_m * cfg.BLOCK_M, pid_n * cfg.BLOCK_N},
                                      {cfg.BLOCK_M, cfg.BLOCK_N}, {1, 0});
      store(cb, cast<T>(activate(cfg.ACT, acc)), {0, 1});
      return;
    }
  }
  storeC(activate(cfg.ACT, acc), c, M, N, cm, cn, stride_cm, stride_cn);
}

template <class T>
void gemm(const GemmConfig &cfg, Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<T> bias, Int M, Int N, Int K,
          Int stride_am, Int stride_ak, Int stride_bk, Int stride_bn, Int stride_cm,
          Int stride_cn) {
  auto [pid_m, pid_n] = tileOf(cfg, program_id(0), M, N);

  // Rows and columns wrap around (% M, % N) so loads need no mask on M and N.
  Tile<i64> rm = (pid_m * cfg.BLOCK_M + arange(0, cfg.BLOCK_M)) % M;          // (BLOCK_M)
  Tile<i64> rn = (pid_n * cfg.BLOCK_N + arange(0, cfg.BLOCK_N)) % N;          // (BLOCK_N)
  Tile<i32> rk = arange(0, cfg.BLOCK_K);                                      // (BLOCK_K)
  Ptr<T> ap = a + rm(_, None) * stride_am + rk(None, _) * stride_ak;          // (BLOCK_M, BLOCK_K)
  Ptr<T> bp = b + rk(_, None) * stride_bk + rn(None, _) * stride_bn;          // (BLOCK_K, BLOCK_N)
  Tile<f32> acc = zeros<f32>({cfg.BLOCK_M, cfg.BLOCK_N});                     // (BLOCK_M, BLOCK_N)

  std::tie(acc, ap, bp) = for_range(
      0, cdiv(K, cfg.BLOCK_K), 1, std::tuple{acc, ap, bp},
      [&](Int k, Tile<f32> acc, Ptr<T> ap, Ptr<T> bp) {
        Int k_left = K - k * cfg.BLOCK_K;
        Tile<T> av = load(ap, rk(None, _) < k_left, 0.0);                     // (BLOCK_M, BLOCK_K)
        Tile<T> bv = load(bp, rk(_, None) < k_left, 0.0);                     // (BLOCK_K, BLOCK_N)
        return std::tuple{dot(av, bv, acc),                                   // (BLOCK_M, BLOCK_N)
                          ap + cfg.BLOCK_K * stride_ak, bp + cfg.BLOCK_K * stride_bk};
      });
  storeTile(cfg, acc, c, bias, M, N, pid_m, pid_n, stride_cm, stride_cn);
}

/// The K loop of gemm_block_ptr: a (M, K) @ b (K, N) for tile (pid_m, pid_n), in f32, over
/// K-blocks [k_begin, k_end) (all of them unless given: stream-K's programs take spans).
template <class T>
Tile<f32> mainLoop(const GemmConfig &cfg, Ptr<T> a, Ptr<T> b, Int M, Int N, Int K, Int pid_m,
                   Int pid_n, Int stride_am, Int stride_ak, Int stride_bk, Int stride_bn,
                   std::optional<std::pair<Int, Int>> span = std::nullopt) {
  // Without a span, the K offsets are literal zeros: the same IR as before spans existed.
  Int k0 = span ? span->first * cfg.BLOCK_K : Int(0);
  BlockPtr<T> ap = make_block_ptr(a, {M, K}, {stride_am, stride_ak}, {pid_m * cfg.BLOCK_M, k0},
                                  {cfg.BLOCK_M, cfg.BLOCK_K}, {1, 0});
  BlockPtr<T> bp = make_block_ptr(b, {K, N}, {stride_bk, stride_bn}, {k0, pid_n * cfg.BLOCK_N},
                                  {cfg.BLOCK_K, cfg.BLOCK_N}, {1, 0});
  Tile<f32> acc = zeros<f32>({cfg.BLOCK_M, cfg.BLOCK_N});                     // (BLOCK_M, BLOCK_N)

  std::tie(acc, ap, bp) = for_range(
      span ? span->first : Int(0), span ? span->second : cdiv(K, cfg.BLOCK_K), 1,
      std::tuple{acc, ap, bp},
      [&](Int k, Tile<f32> acc, BlockPtr<T> ap, BlockPtr<T> bp) {
        Tile<T> av = load(ap, {0, 1}, Padding::zero);                         // (BLOCK_M, BLOCK_K)
        Tile<T> bv = load(bp, {0, 1}, Padding::zero);                         // (BLOCK_K, BLOCK_N)
        return std::tuple{dot(av, bv, acc),                                   // (BLOCK_M, BLOCK_N)
                          advance(ap, {0, cfg.BLOCK_K}), advance(bp, {cfg.BLOCK_K, 0})};
      });
  return acc;
}

template <class T>
void gemm_block_ptr(const GemmConfig &cfg, Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<T> bias, Int M,
                    Int N, Int K, Int stride_am, Int stride_ak, Int stride_bk, Int stride_bn,
                    Int stride_cm, Int stride_cn) {
  auto [pid_m, pid_n] = tileOf(cfg, program_id(0), M, N);
  Tile<f32> acc = mainLoop(cfg, a, b, M, N, K, pid_m, pid_n, stride_am, stride_ak, stride_bk,
                           stride_bn);                                        // (BLOCK_M, BLOCK_N)
  storeTile(cfg, acc, c, bias, M, N, pid_m, pid_n, stride_cm, stride_cn);
}

/// gemm_block_ptr as a persistent kernel: grid = (P,), P <= the tiles (one program per SM);
/// program pid computes tiles pid, pid + P, ... in GROUP_M order, each through the same K loop
/// and epilogue. tile-gpu-pipeline keeps one TMA ring for all of a program's tiles (Passes.td).
template <class T>
void gemm_persistent(const GemmConfig &cfg, Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<T> bias, Int M,
                     Int N, Int K, Int stride_am, Int stride_ak, Int stride_bk, Int stride_bn,
                     Int stride_cm, Int stride_cn) {
  Int tiles = cdiv(M, cfg.BLOCK_M) * cdiv(N, cfg.BLOCK_N);
  for_range(program_id(0), tiles, num_programs(0), std::tuple{}, [&](Int tile) {
    auto [pid_m, pid_n] = tileOf(cfg, tile, M, N);
    Tile<f32> acc = mainLoop(cfg, a, b, M, N, K, pid_m, pid_n, stride_am, stride_ak, stride_bk,
                             stride_bn);                                      // (BLOCK_M, BLOCK_N)
    storeTile(cfg, acc, c, bias, M, N, pid_m, pid_n, stride_cm, stride_cn);
    return std::tuple{};
  });
}

/// gemm_block_ptr as stream-K (Osama et al., "Stream-K: Work-centric Parallel Decomposition for
/// Dense Matrix Multiplication on the GPU", PPoPP 2023): the tiles x K-blocks iterations are cut
/// into num_programs(0) equal spans (one program per SM), so a grid of fewer tiles than SMs
/// (M = 256: 48 to 96 tiles on 132 SMs) still keeps every SM busy. Program p runs iterations
/// [p * per, (p + 1) * per) tile by tile.
///
/// The tiles go in row order (pid_m = tile / num_pid_n), not GROUP_M's. When per divides a row
/// of tiles' iterations (num_pid_n x K-blocks; the gemm_stream_k problem picks such a P by
/// default), programs p and p + row / per read the same K-block of the same columns of b at the
/// same step, so b comes from DRAM once, as in a data-parallel wave. With spans out of step,
/// each row of tiles reads b again long after the last.
///
/// A tile a program covers whole is stored as gemm_block_ptr stores it. Of a tile shared by
/// several programs, each stores its partial sum in f32 to its slot of workspace
/// (num_programs(0) x 2 x BLOCK_M x BLOCK_N: slot 0 holds the program's first tile, slot 1 its
/// last) and counts itself in locks[tile] (i32, zero before the first launch). The last to
/// arrive adds the partials in program order (the same bits whoever arrives last, as
/// gemm_split_k), applies the epilogue, stores c and zeroes the lock.
template <class T>
void gemm_stream_k(const GemmConfig &cfg, Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<T> bias,
                   Ptr<f32> workspace, Ptr<i32> locks, Int M, Int N, Int K, Int stride_am,
                   Int stride_ak, Int stride_bk, Int stride_bn, Int stride_cm, Int stride_cn) {
  Int pid = program_id(0);
  Int k_blocks = cdiv(K, cfg.BLOCK_K);
  Int iters = cdiv(M, cfg.BLOCK_M) * cdiv(N, cfg.BLOCK_N) * k_blocks;
  Int per = cdiv(iters, num_programs(0));
  Int begin = minimum(pid * per, iters);
  Int end = minimum(begin + per, iters);
  Int first_tile = begin / k_blocks;
  Int slot_size = cfg.BLOCK_M * cfg.BLOCK_N;
  Int num_pid_n = cdiv(N, cfg.BLOCK_N);
  for_range(first_tile, cdiv(end, k_blocks), 1, [&](Int tile) {
    Int pid_m = tile / num_pid_n, pid_n = tile % num_pid_n;
    Int tile_begin = tile * k_blocks;
    Int k_begin = maximum(begin, tile_begin) - tile_begin;
    Int k_end = minimum(end, tile_begin + k_blocks) - tile_begin;
    Tile<f32> acc = mainLoop(cfg, a, b, M, N, K, pid_m, pid_n, stride_am, stride_ak, stride_bk,
                             stride_bn, std::pair{k_begin, k_end});           // (BLOCK_M, BLOCK_N)
    // A partial tile: to this program's workspace slot, counted on the tile's lock; the
    // last of the programs whose spans meet the tile (first_p .. last_p) sums their slots.
    auto shareTile = [&] {
      // The slot's offsets, (BLOCK_M, BLOCK_N) row-major. Made here, not before the tile loop:
      // held across the K loop they would take a register per element.
      Tile<i32> at = arange(0, cfg.BLOCK_M)(_, None) * cfg.BLOCK_N +
                     arange(0, cfg.BLOCK_N)(None, _);                         // (BLOCK_M, BLOCK_N)
      Int slot = pid * 2 + cast<i64>(tile != first_tile);
      store(workspace + slot * slot_size + at, acc);
      Int first_p = tile_begin / per;
      Int last_p = (tile_begin + k_blocks - 1) / per;
      Tile<i32> arrived = atomic_add(locks + tile, 1);                        // scalar
      when(arrived == cast<i32>(last_p - first_p), [&] {
        Tile<f32> sum = zeros<f32>({cfg.BLOCK_M, cfg.BLOCK_N});               // (BLOCK_M, BLOCK_N)
        std::tie(sum) =
            for_range(first_p, last_p + 1, 1, std::tuple{sum}, [&](Int p, Tile<f32> sum) {
              // Slot 0 when this tile is program p's first, else slot 1.
              Int p_slot = p * 2 + cast<i64>(tile != p * per / k_blocks);
              Tile<f32> part =
                  load(workspace + p_slot * slot_size + at, LoadHints{.cache = Cache::cg});
              return std::tuple{sum + part};
            });
        storeTile(cfg, sum, c, bias, M, N, pid_m, pid_n, stride_cm, stride_cn);
        store(locks + tile, 0);
      });
    };
    Tile<i1> whole = (k_begin == 0) & (k_end == k_blocks);
    if_then_else(
        whole, [&] { storeTile(cfg, acc, c, bias, M, N, pid_m, pid_n, stride_cm, stride_cn); },
        shareTile);
  });
}

/// c = act(a @ b + bias) + residual, through block pointers (TMA on sm_90a where legal).
template <class T>
void gemm_residual(const GemmConfig &cfg, Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<T> bias,
                   Ptr<T> residual, Int M, Int N, Int K, Int stride_am, Int stride_ak,
                   Int stride_bk, Int stride_bn, Int stride_cm, Int stride_cn, Int stride_rm,
                   Int stride_rn) {
  auto [pid_m, pid_n] = tileOf(cfg, program_id(0), M, N);
  Tile<f32> acc = mainLoop(cfg, a, b, M, N, K, pid_m, pid_n, stride_am, stride_ak, stride_bk,
                           stride_bn);                                        // (BLOCK_M, BLOCK_N)
  auto [cm, cn] = rowsCols(cfg, pid_m, pid_n);
  if (cfg.HAS_BIAS)
    acc += cast<f32>(load(bias + cn % N))(None, _);                           // (BLOCK_M, BLOCK_N)
  Ptr<T> rp = residual + cm(_, None) * stride_rm + cn(None, _) * stride_rn;   // (BLOCK_M, BLOCK_N)
  Mask cmask = (cm(_, None) < M) & (cn(None, _) < N);                         // (BLOCK_M, BLOCK_N)
  Tile<f32> out = activate(cfg.ACT, acc) + cast<f32>(load(rp, cmask, 0.0));   // (BLOCK_M, BLOCK_N)
  storeC(out, c, M, N, cm, cn, stride_cm, stride_cn);
}

/// Fused linear cross-entropy's backward window: the logits of columns [col_offset,
/// col_offset + N) of M rows, a (M, K) @ b (K, N) in f32 (a = x, b = a slice of the weight
/// transposed), turned into their gradient in the epilogue:
///   c[i, j] = (exp(logit[i, j] - lse[i]) - [col_offset + j == labels[i]]) * grad_scale[0],
/// rounded once to T; rows whose label is ignore_index get exactly 0. lse (M) is each whole
/// row's logsumexp (f32, from cross_entropy_fused), labels (M) i64, grad_scale (1) f32. The
/// logits never reach memory: gemm_block_ptr followed by cross_entropy_backward_lse writes
/// them and reads them back (two passes over the window more). The exponent takes the f32
/// logits, where the separate kernel reads them rounded to T.
template <class T>
void gemm_ce_backward(const GemmConfig &cfg, Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<i64> labels,
                      Ptr<f32> lse, Ptr<f32> grad_scale, Int M, Int N, Int K, Int col_offset,
                      Int ignore_index, Int stride_am, Int stride_ak, Int stride_bk,
                      Int stride_bn, Int stride_cm, Int stride_cn) {
  auto [pid_m, pid_n] = tileOf(cfg, program_id(0), M, N);
  auto [cm, cn] = rowsCols(cfg, pid_m, pid_n);
  // The rows' labels and lse are loaded before the K loop, so that their latency hides behind
  // it rather than opening the epilogue. Masked rather than wrapped (% M): a 64-bit remainder
  // per row costs more than the loads.
  Mask rows = cm < M;                                                         // (BLOCK_M)
  Tile<i64> label = load(labels + cm, rows, ignore_index);                    // (BLOCK_M)
  Tile<f32> row_lse = load(lse + cm, rows, 0.0);                              // (BLOCK_M)
  Float g = load(grad_scale);
  Tile<f32> acc = mainLoop(cfg, a, b, M, N, K, pid_m, pid_n, stride_am, stride_ak, stride_bk,
                           stride_bn);                                        // (BLOCK_M, BLOCK_N)
  // The label as a column of this tile, in 32 bits (labels and columns are below 2^31), so
  // that each element compares two i32 rather than two i64.
  Tile<i32> label_col = cast<i32>(label - col_offset - pid_n * cfg.BLOCK_N);  // (BLOCK_M)
  Tile<i32> col = arange(0, cfg.BLOCK_N);                                     // (BLOCK_N)
  Tile<f32> p = exp(acc - row_lse(_, None));                                  // (BLOCK_M, BLOCK_N)
  Tile<f32> hit = cast<f32>(col(None, _) == label_col(_, None));              // (BLOCK_M, BLOCK_N)
  Tile<f32> grad = where(label(_, None) == ignore_index, 0.0, (p - hit) * g); // (BLOCK_M, BLOCK_N)
  storeC(grad, c, M, N, cm, cn, stride_cm, stride_cn);
}

/// A split-K launch's config: SPLIT_K is read by the launcher, not the kernel (which sees the
/// split count as num_programs(1)): 0 lets the gemm problem's heuristic choose it from the shape
/// (lib/Harness/Problems/Gemm.cpp), N > 0 asks for N slices of K.
struct SplitKConfig {
  int BLOCK_M = 64;
  int BLOCK_N = 64;
  int BLOCK_K = 128;
  int GROUP_M = 8;
  int SPLIT_K = 0;
  bool HAS_BIAS = false;
  Activation ACT = Activation::none;
  int num_warps = 4;
  int num_stages = 4;
};
TESSEL_CONFIG(SplitKConfig, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, SPLIT_K, HAS_BIAS, ACT, num_warps,
              num_stages)

/// gemm_block_ptr with K cut into num_programs(1) slices, for products with too few (BLOCK_M,
/// BLOCK_N) tiles to fill the GPU (decode: M = 1..64, and small M x N with a long K).
/// grid = (tiles, SPLIT_K). Program (tile, s) sums its slice of K-blocks, stores that partial
/// product in f32 to workspace[s] (SPLIT_K x M x N, row-major), then counts itself in
/// locks[tile] (i32, zero before the first launch). The last program of a tile to arrive reads
/// the SPLIT_K partials back in slice order, so the sum is the same bits whichever program
/// arrives last (deterministic, unlike atomic adds into c), applies the epilogue, stores c and
/// sets the lock back to zero for the next launch (one slice stores c directly, touching neither
/// workspace nor locks). The count is an acq_rel atomic at gpu scope behind a CTA barrier
/// (CUTLASS's serial-reduction semaphore); the partials are read with .cg, past the SM's L1.
template <class T>
void gemm_split_k(const SplitKConfig &cfg, Ptr<T> a, Ptr<T> b, Ptr<T> c, Ptr<T> bias,
                  Ptr<f32> workspace, Ptr<i32> locks, Int M, Int N, Int K, Int stride_am,
                  Int stride_ak, Int stride_bk, Int stride_bn, Int stride_cm, Int stride_cn) {
  Int tile = program_id(0), split = program_id(1), splits = num_programs(1);
  auto [pid_m, pid_n] = tileOf(cfg, tile, M, N);
  // Slice `split` of the K-blocks: `per` each, the last ones shorter or empty.
  Int k_blocks = cdiv(K, cfg.BLOCK_K);
  Int per = cdiv(k_blocks, splits);
  Int k_begin = minimum(split * per, k_blocks);
  Int k_end = minimum(k_begin + per, k_blocks);
  BlockPtr<T> ap = make_block_ptr(a, {M, K}, {stride_am, stride_ak},
                                  {pid_m * cfg.BLOCK_M, k_begin * cfg.BLOCK_K},
                                  {cfg.BLOCK_M, cfg.BLOCK_K}, {1, 0});
  BlockPtr<T> bp = make_block_ptr(b, {K, N}, {stride_bk, stride_bn},
                                  {k_begin * cfg.BLOCK_K, pid_n * cfg.BLOCK_N},
                                  {cfg.BLOCK_K, cfg.BLOCK_N}, {1, 0});
  Tile<f32> acc = zeros<f32>({cfg.BLOCK_M, cfg.BLOCK_N});                     // (BLOCK_M, BLOCK_N)
  std::tie(acc, ap, bp) = for_range(
      k_begin, k_end, 1, std::tuple{acc, ap, bp},
      [&](Int k, Tile<f32> acc, BlockPtr<T> ap, BlockPtr<T> bp) {
        Tile<T> av = load(ap, {0, 1}, Padding::zero);                         // (BLOCK_M, BLOCK_K)
        Tile<T> bv = load(bp, {0, 1}, Padding::zero);                         // (BLOCK_K, BLOCK_N)
        return std::tuple{dot(av, bv, acc),                                   // (BLOCK_M, BLOCK_N)
                          advance(ap, {0, cfg.BLOCK_K}), advance(bp, {cfg.BLOCK_K, 0})};
      });

  // One slice (a tuned count of 1: 32-wide decode tiles fill the GPU unsplit) stores c
  // directly: no partial's round trip through the workspace and no lock.
  when(splits == 1, [&] { storeTile(cfg, acc, c, bias, M, N, pid_m, pid_n, stride_cm, stride_cn); });
  when(splits > 1, [&] {
    auto [cm, cn] = rowsCols(cfg, pid_m, pid_n);
    Mask in_c = (cm(_, None) < M) & (cn(None, _) < N);                        // (BLOCK_M, BLOCK_N)
    Tile<i64> at = cm(_, None) * N + cn(None, _);                             // (BLOCK_M, BLOCK_N)
    store(workspace + split * M * N + at, acc, in_c);
    Tile<i32> arrived = atomic_add(locks + tile, 1);                          // scalar
    when(arrived == cast<i32>(splits) - 1, [&] {
      auto [sum] = for_range(0, splits, 1, std::tuple{zeros<f32>({cfg.BLOCK_M, cfg.BLOCK_N})},
                             [&](Int s, Tile<f32> sum) {
                               Tile<f32> part = load(workspace + s * M * N + at, in_c, 0.0,
                                                     LoadHints{.cache = Cache::cg});
                               return std::tuple{sum + part};
                             });
      storeTile(cfg, sum, c, bias, M, N, pid_m, pid_n, stride_cm, stride_cn);
      store(locks + tile, 0);
    });
  });
}

struct SwigluConfig {
  int BLOCK_M = 128;
  int BLOCK_N = 128;
  int BLOCK_K = 64;
  int GROUP_M = 8;
  int num_warps = 8;
  int num_stages = 3;
};
TESSEL_CONFIG(SwigluConfig, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages)

/// out (M, N) = silu(x w_gate^T) * (x w_up^T): an LLM MLP's SwiGLU up-projection without writing
/// the two products. x (M, K) row-major; w_gate and w_up (N, K) row-major (nn.Linear's weights),
/// read as (K, N) blocks of w^T; one x block feeds both dots. On sm_90a the three operands are
/// TMA copies where the strides allow (the __a16 twin).
template <class T>
void gemm_swiglu(const SwigluConfig &cfg, Ptr<T> x, Ptr<T> w_gate, Ptr<T> w_up, Ptr<T> out,
                 Int M, Int N, Int K, Int stride_xm, Int stride_wn, Int stride_om) {
  auto [pid_m, pid_n] = tileOf(cfg, program_id(0), M, N);
  Int n0 = pid_n * cfg.BLOCK_N;
  BlockPtr<T> xp = make_block_ptr(x, {M, K}, {stride_xm, 1}, {pid_m * cfg.BLOCK_M, 0},
                                  {cfg.BLOCK_M, cfg.BLOCK_K}, {1, 0});
  BlockPtr<T> gp = make_block_ptr(w_gate, {K, N}, {1, stride_wn}, {0, n0},
                                  {cfg.BLOCK_K, cfg.BLOCK_N}, {0, 1});
  BlockPtr<T> up = make_block_ptr(w_up, {K, N}, {1, stride_wn}, {0, n0},
                                  {cfg.BLOCK_K, cfg.BLOCK_N}, {0, 1});
  Tile<f32> g = zeros<f32>({cfg.BLOCK_M, cfg.BLOCK_N});                       // (BLOCK_M, BLOCK_N)
  Tile<f32> u = zeros<f32>({cfg.BLOCK_M, cfg.BLOCK_N});                       // (BLOCK_M, BLOCK_N)

  std::tie(g, u, xp, gp, up) = for_range(
      0, cdiv(K, cfg.BLOCK_K), 1, std::tuple{g, u, xp, gp, up},
      [&](Int k, Tile<f32> g, Tile<f32> u, BlockPtr<T> xp, BlockPtr<T> gp, BlockPtr<T> up) {
        Tile<T> xv = load(xp, {0, 1}, Padding::zero);                         // (BLOCK_M, BLOCK_K)
        Tile<T> gv = load(gp, {0, 1}, Padding::zero);                         // (BLOCK_K, BLOCK_N)
        Tile<T> uv = load(up, {0, 1}, Padding::zero);                         // (BLOCK_K, BLOCK_N)
        return std::tuple{dot(xv, gv, g), dot(xv, uv, u), advance(xp, {0, cfg.BLOCK_K}),
                          advance(gp, {cfg.BLOCK_K, 0}), advance(up, {cfg.BLOCK_K, 0})};
      });
  auto [om, on] = rowsCols(cfg, pid_m, pid_n);
  storeC(g * sigmoid(g) * u, out, M, N, om, on, stride_om, 1);
}

/// Both kernels' configs (GROUP_M = 8): Triton's tutorial tiles and the fused epilogues.
#define GEMM_CONFIGS                                                                               \
  GemmConfig{.BLOCK_M = 128, .BLOCK_N = 256, .BLOCK_K = 64, .num_warps = 8, .num_stages = 3}, \
  GemmConfig{.BLOCK_M = 128, .BLOCK_N = 128, .BLOCK_K = 64, .num_warps = 4, .num_stages = 4}, \
  GemmConfig{.BLOCK_M = 64, .BLOCK_N = 64, .BLOCK_K = 64, .num_warps = 4, .num_stages = 4}, \
  GemmConfig{.BLOCK_M = 128, .BLOCK_N = 128, .BLOCK_K = 64, .HAS_BIAS = true, .ACT = Activation::relu, .num_warps = 4, .num_stages = 4}, \
  GemmConfig{.BLOCK_M = 128, .BLOCK_N = 128, .BLOCK_K = 64, .HAS_BIAS = true, .ACT = Activation::gelu, .num_warps = 4, .num_stages = 4}, \
  GemmConfig{.BLOCK_M = 128, .BLOCK_N = 128, .BLOCK_K = 64, .HAS_BIAS = true, .ACT = Activation::silu, .num_warps = 4, .num_stages = 4}

TESSEL_KERNEL(gemm, DTYPES(f16, bf16, f32),
              ARGS(a, b, c, bias, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                   stride_cm, stride_cn),
              CONFIGS(GEMM_CONFIGS))
/// The plain GEMM's tiles (no bias, no activation: the epilogue fields keep their defaults).
/// On cuda:sm_90a, 48 of the 216 need more shared memory and 30 more registers than a program
/// has; the rest compile (docs/Autotuning.md).
TESSEL_TUNE(gemm, Space<GemmConfig>()
                      .field(&GemmConfig::BLOCK_M, {64, 128, 256})
                      .field(&GemmConfig::BLOCK_N, {64, 128, 256})
                      .field(&GemmConfig::BLOCK_K, {32, 64, 128})
                      .field(&GemmConfig::num_warps, {4, 8})
                      .field(&GemmConfig::num_stages, {2, 3, 4, 5})
                      .key("M", Bucket::pow2)
                      .key("N", Bucket::pow2)
                      .key("K", Bucket::pow2)
                      .grid("cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)"))
TESSEL_KERNEL(gemm_block_ptr, DTYPES(f16, bf16, f32),
              ARGS(a, b, c, bias, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                   stride_cm, stride_cn),
              CONFIGS(GEMM_CONFIGS))
/// The block-pointer GEMM, whose __div8 twin reads A and B through TMA on cuda:sm_90a: the
/// tiles and the ring depths the benchmark found best (stop 24: 6 to 8 stages for the skinny
/// and small rows), 64-wide K steps (one 128-byte swizzle row of bf16).
TESSEL_TUNE(gemm_block_ptr, Space<GemmConfig>()
                                .field(&GemmConfig::BLOCK_M, {64, 128, 256})
                                .field(&GemmConfig::BLOCK_N, {64, 96, 128, 256})
                                .field(&GemmConfig::num_warps, {4, 8})
                                .field(&GemmConfig::num_stages, {3, 4, 5, 6, 8})
                                // A producer warpgroup for the TMA twin's copies (sm_90a;
                                // 1024x1024x2048: 12.4 against 13.3 us for 128x64 tiles).
                                .field(&GemmConfig::warp_specialize, {0, 1})
                                .where([](const GemmConfig &c) {
                                  // Warpgroups stack along M, 64 rows each (else no wgmma);
                                  // 96 columns (padded to 128; the matrix unit skips the
                                  // padding) on 128 rows: the M = 256 rows' 128 programs for 132
                                  // SMs (256x6144x4096: 24.7 against 26.0 us for 128x128,
                                  // docs/Performance.md, session 68).
                                  return c.BLOCK_M >= 16 * c.num_warps &&
                                         (c.BLOCK_N != 96 || c.BLOCK_M == 128);
                                })
                                .key("M", Bucket::pow2)
                                .key("N", Bucket::pow2)
                                .key("K", Bucket::pow2)
                                .grid("cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)"))
TESSEL_KERNEL(gemm_persistent, DTYPES(f16, bf16, f32),
              ARGS(a, b, c, bias, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                   stride_cm, stride_cn),
              // With a producer warpgroup on sm_90a (its copies run into the next tile while
              // the consumers store this one). 128x256 keeps 2 stages: its ring and the
              // epilogue's 64 KiB of scratch share 227 KiB.
              CONFIGS(GemmConfig{.BLOCK_M = 128, .BLOCK_N = 256, .BLOCK_K = 64, .num_warps = 8,
                                 .num_stages = 2, .warp_specialize = 1},
                      GemmConfig{.BLOCK_M = 128, .BLOCK_N = 128, .BLOCK_K = 64, .num_warps = 4,
                                 .num_stages = 4, .warp_specialize = 1}))
/// The persistent GEMM's tiles for the large products it is tuned on (tessel.ops.matmul takes
/// its entry where it is the fastest one of the shape): a producer warpgroup always (its
/// copies of the next tile overlap this tile's epilogue, the point of the kernel), with and
/// without the TMA-store epilogue (bf16 8192^3, 128x256 on 2 stages: 1349.6 against 1405.9 us,
/// docs/Performance.md, session 64), and 64x128 on deep rings (the M = 256 rows, session 43). One program per SM: n_programs is the launcher's SM count.
TESSEL_TUNE(gemm_persistent,
            Space<GemmConfig>()
                .field(&GemmConfig::BLOCK_M, {64, 128})
                .field(&GemmConfig::BLOCK_N, {128, 256})
                .field(&GemmConfig::num_warps, {4, 8})
                .field(&GemmConfig::num_stages, {2, 3, 4, 6})
                .field(&GemmConfig::warp_specialize, {1})
                .field(&GemmConfig::tma_store, {0, 1})
                .where([](const GemmConfig &c) {
                  // One consumer warpgroup, but two for 128x256 (its f32 accumulator would be
                  // 256 registers a thread on one); no 64x256.
                  bool wide = c.BLOCK_M == 128 && c.BLOCK_N == 256;
                  return (c.num_warps == 8) == wide && (c.BLOCK_M == 128 || c.BLOCK_N == 128);
                })
                .key("M", Bucket::pow2)
                .key("N", Bucket::pow2)
                .key("K", Bucket::pow2)
                .grid("min(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), n_programs)"))
TESSEL_KERNEL(gemm_stream_k, DTYPES(f16, bf16),
              ARGS(a, b, c, bias, workspace, locks, M, N, K, stride_am, stride_ak, stride_bk,
                   stride_bn, stride_cm, stride_cn),
              // Tiles that fit every target beside the f32 epilogue scratch that the kept
              // rings cannot share (128x256 does not on sm_86's 99 KiB).
              CONFIGS(GemmConfig{.BLOCK_M = 128, .BLOCK_N = 128, .BLOCK_K = 64, .num_warps = 4,
                                 .num_stages = 4},
                      GemmConfig{.BLOCK_M = 64, .BLOCK_N = 128, .BLOCK_K = 64, .num_warps = 4,
                                 .num_stages = 4}))
TESSEL_KERNEL(gemm_residual, DTYPES(f16, bf16, f32),
              ARGS(a, b, c, bias, residual, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                   stride_cm, stride_cn, stride_rm, stride_rn),
              CONFIGS(GemmConfig{}, GemmConfig{.HAS_BIAS = true}))
TESSEL_KERNEL(gemm_ce_backward, DTYPES(f16, bf16, f32),
              ARGS(a, b, c, labels, lse, grad_scale, M, N, K, col_offset, ignore_index,
                   stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn),
              // 128x128 tiles: the epilogue converts the f32 tile's layout through shared
              // memory (64 KiB here), which must fit every target's program. prepare.sh adds
              // the 128x256 tile (128 KiB) that fused linear cross-entropy runs on the benchmark GPU.
              CONFIGS(GemmConfig{.BLOCK_M = 128, .BLOCK_N = 128, .BLOCK_K = 64, .num_warps = 4,
                                 .num_stages = 4}))
TESSEL_KERNEL(gemm_split_k, DTYPES(f16, bf16),
              ARGS(a, b, c, bias, workspace, locks, M, N, K, stride_am, stride_ak, stride_bk,
                   stride_bn, stride_cm, stride_cn),
              CONFIGS(SplitKConfig{},
                      SplitKConfig{.BLOCK_N = 128, .num_stages = 3},
                      SplitKConfig{.BLOCK_N = 128, .BLOCK_K = 64, .num_stages = 6}))
/// Split-K's tiles, rings and slice counts for the products it is for (decode, M = 1..64, and
/// M = 128..256 with a long K), keyed like gemm_block_ptr. SPLIT_K only sets the launch's second
/// grid dimension: the tuner times each count as its own variant (tessel.ops.matmul launches the
/// tuned entry's count; a generated C++ launcher runs the untuned SPLIT_K = 0 as one slice, the
/// caller passing workspace and locks). Slices keep at least 4 K-blocks each (a shorter slice
/// is mostly its ring's fill), 64-row tiles serve M <= 64, and a tile is no wider than N's
/// bucket. 32-wide tiles give a decode row at N = 4096 its 128 programs without a split (no
/// partials to write and read back) at the cost of reading its few rows of A once per tile.
/// 16-wide tiles serve N <= 64: the decode product transposed, c^T = W x^T (the weight's rows
/// fill wgmma's 64-row M, the tokens its N; tessel.ops.matmul launches it so when its entry is
/// the fastest), the layout cuBLAS runs there (a 64x8 tile on 16 stages, session 44's ncu).
/// Their stages are small (64 x BLOCK_K of the weight and 16 x BLOCK_K of the tokens: 10 KiB at
/// BLOCK_K = 64), so the space lets them go to 16 stages and 16 slices. A tile is no wider than
/// N's bucket (at least 16): N <= 16 gets only 16-wide tiles, N = 32 16- and 32-wide ones.
/// 96-wide tiles (padded to 128 on the GPU; the matrix unit skips the padding) make tile counts
/// that fit 132 SMs where powers of two leave a quarter idle: 128x96 at 256x6144x4096 gives 128
/// programs where 128x128 gives 96 (the tiling cuBLAS runs there); 64x96 at a decode row's
/// N = 6144 gives 64 tiles, 128 programs in 2 slices (64x128: 96), and at N = 4096 43 tiles,
/// 129 programs in 3.
TESSEL_TUNE(gemm_split_k, Space<SplitKConfig>()
                              .field(&SplitKConfig::BLOCK_M, {64, 128})
                              .field(&SplitKConfig::BLOCK_N, {16, 32, 64, 96, 128, 256})
                              .field(&SplitKConfig::BLOCK_K, {64, 128})
                              .field(&SplitKConfig::num_warps, {4, 8})
                              .field(&SplitKConfig::num_stages, {3, 4, 6, 8, 12, 16})
                              .field(&SplitKConfig::SPLIT_K, {1, 2, 3, 4, 6, 8, 12, 16})
                              .where([](const SplitKConfig &c) {
                                // One warpgroup per 64 rows (wgmma's M); rings deeper than 8
                                // and splits beyond 8 for the 16-wide tiles only.
                                return c.num_warps * 16 == c.BLOCK_M &&
                                       (c.BLOCK_N == 16 || (c.num_stages <= 8 && c.SPLIT_K <= 8));
                              })
                              .where([](const SplitKConfig &c, const Keys &k) {
                                return (c.BLOCK_M == 64 || k["M"] > 64) &&
                                       c.BLOCK_N <= std::max<int64_t>(16, k["N"]) &&
                                       (c.BLOCK_N > 16 || k["N"] <= 64) &&
                                       (c.SPLIT_K == 1 || c.SPLIT_K * 4 * c.BLOCK_K <= k["K"]);
                              })
                              .key("M", Bucket::pow2)
                              .key("N", Bucket::pow2)
                              .key("K", Bucket::pow2)
                              .grid("cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), max(SPLIT_K, 1)"))
TESSEL_KERNEL(gemm_swiglu, DTYPES(f16, bf16),
              ARGS(x, w_gate, w_up, out, M, N, K, stride_xm, stride_wn, stride_om),
              CONFIGS(SwigluConfig{},
                      SwigluConfig{.BLOCK_M = 64, .BLOCK_N = 64, .num_warps = 4, .num_stages = 4}))
