//===- moe_routing.cpp - MoE token routing: expert histogram and offsets --===//
//
// counts[e] = #{i < n : expert_ids[i] == e} and offsets[e] = counts[0] + ... + counts[e - 1]
// (torch.bincount(ids, minlength=E) and its exclusive cumsum): where each expert's tokens
// start in the expert-sorted order that an MoE layer's grouped GEMM reads. expert_ids are the
// router's top-k choices flattened (n = tokens * k), i32; ids outside [0, n_experts) are not
// counted. One program per BLOCK of ids: it adds its (E_BLOCK,) histogram to `counts` with
// atomics, then takes a ticket on `lock` (acq_rel, as gemm_split_k's); the last program to
// arrive scans the counts into offsets (tile.scan) and resets the lock. counts and lock must
// start at zero. grid = (cdiv(n, BLOCK),); E_BLOCK is a power of two >= n_experts.
// moe_routing_atomics computes the same with one atomic per id instead of the (E_BLOCK, BLOCK)
// one-hot tile, whose compares and reduction make moe_routing compute-bound for many experts
// (0.80x torch.bincount at 524288 ids over 256 experts on the H200).
//
//===----------------------------------------------------------------------===//
#include <tessel/dsl.h>

using namespace tessel::dsl;

struct MoeRoutingConfig {
  int BLOCK = 1024;
  int E_BLOCK = 64;
  int num_warps = 4;
};
TESSEL_CONFIG(MoeRoutingConfig, BLOCK, E_BLOCK, num_warps)

/// After this program's atomics on `counts`: take a ticket on `lock`; the last program to
/// arrive writes the exclusive prefix sums of counts[experts] (where `real`) to offsets and
/// resets the lock. A plain C++ function: its ops are emitted inline.
void scanOnLastArrival(Ptr<i32> counts, Ptr<i32> offsets, Ptr<i32> lock,
                       const Tile<i32> &experts, const Mask &real) {
  Tile<i32> arrived = atomic_add(lock, 1);                                    // scalar
  when(arrived == cast<i32>(num_programs(0)) - 1, [&] {
    Tile<i32> total = load(counts + experts, real, 0, LoadHints{.cache = Cache::cg}); // (E_BLOCK)
    store(offsets + experts, cumsum(total, 0) - total, real);
    store(lock, 0);
  });
}

void moe_routing(const MoeRoutingConfig &c, Ptr<i32> expert_ids, Ptr<i32> counts,
                 Ptr<i32> offsets, Ptr<i32> lock, Int n, Int n_experts) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK);              // (BLOCK)
  Tile<i32> ids = load(expert_ids + offs, offs < n, -1);                      // (BLOCK)
  Tile<i32> experts = arange(0, c.E_BLOCK);                                   // (E_BLOCK)
  Mask hit = ids(None, _) == experts(_, None);                                // (E_BLOCK, BLOCK)
  Tile<i32> partial = sum(cast<i32>(hit), 1);                                 // (E_BLOCK)
  Mask real = experts < cast<i32>(n_experts);                                 // (E_BLOCK)
  atomic_add(counts + experts, partial, real & (partial > 0));
  scanOnLastArrival(counts, offsets, lock, experts, real);
}
TESSEL_KERNEL(moe_routing, ARGS(expert_ids, counts, offsets, lock, n, n_experts),
              CONFIGS(MoeRoutingConfig{},
                      MoeRoutingConfig{.BLOCK = 512, .E_BLOCK = 256, .num_warps = 16}))

void moe_routing_atomics(const MoeRoutingConfig &c, Ptr<i32> expert_ids, Ptr<i32> counts,
                         Ptr<i32> offsets, Ptr<i32> lock, Int n, Int n_experts) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK);              // (BLOCK)
  Tile<i32> ids = load(expert_ids + offs, offs < n, -1);                      // (BLOCK)
  Mask counted = (ids >= 0) & (ids < cast<i32>(n_experts));                   // (BLOCK)
  // Relaxed: the barrier and the acq_rel ticket below order them before the scan.
  atomic_add(counts + ids, cast<i32>(counted), counted, Sem::relaxed);
  Tile<i32> experts = arange(0, c.E_BLOCK);                                   // (E_BLOCK)
  Mask real = experts < cast<i32>(n_experts);                                 // (E_BLOCK)
  scanOnLastArrival(counts, offsets, lock, experts, real);
}
TESSEL_KERNEL(moe_routing_atomics, ARGS(expert_ids, counts, offsets, lock, n, n_experts),
              CONFIGS(MoeRoutingConfig{.BLOCK = 1024, .E_BLOCK = 256, .num_warps = 4},
                      MoeRoutingConfig{.BLOCK = 4096, .E_BLOCK = 256, .num_warps = 8}))
