//===- MoeRouting.cpp - MoE token routing: expert histogram and offsets ---===//
//
// counts[e] = #{i : expert_ids[i] == e}, offsets[e] = counts[0] + ... + counts[e - 1].
//
//===----------------------------------------------------------------------===//
#include "ProblemBuilder.h"

namespace tessel::harness::problems {

/// Shape NxE: n expert ids (i32, whatever --dtype says), uniform in [0, E]: E stands for a
/// token the router dropped, which no expert counts (option dropped=0 keeps them in [0, E)).
/// counts (E) starts at zero, as the kernel needs, and is compared with offsets (E) exactly;
/// lock (one i32, zero) is the kernel's. E must fit the variant's E_BLOCK.
Status moeRouting(Builder &b) {
  if (Status s = needRank(b.o, 2, "NxE (expert ids x experts)"); !s)
    return s;
  int64_t n = b.o.shape[0], experts = b.o.shape[1];
  int64_t eBlock = b.config({"E_BLOCK"}, experts);
  if (n < 1 || experts < 1 || experts > eBlock)
    return Status::error("problem moe_routing: needs n >= 1 ids and 1 <= E <= E_BLOCK (" +
                         std::to_string(eBlock) + ") experts, got " + shapeString(b.o.shape));
  std::string dropped = b.option("dropped", "1");
  if (dropped != "0" && dropped != "1")
    return Status::error("problem moe_routing: dropped must be 0 or 1, got '" + dropped + "'");
  int ids = b.input("expert_ids", DType::i32, {n});
  std::vector<double> counts(experts, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t e = b.rng.integer(0, dropped == "1" ? experts : experts - 1);
    b.p.buffers[ids].host.setInt(i, e);
    if (e < experts)
      counts[e] += 1;
  }
  std::vector<double> offsets(experts, 0.0);
  for (int64_t e = 1; e < experts; ++e)
    offsets[e] = offsets[e - 1] + counts[e - 1];
  int cnt = b.output("counts", DType::i32, {experts});
  b.p.buffers[cnt].host = HostBuffer(DType::i32, {experts}); // zeros, uploaded
  b.p.buffers[cnt].input = true;
  b.p.buffers[cnt].reference = std::move(counts);
  int off = b.output("offsets", DType::i32, {experts});
  b.p.buffers[off].reference = std::move(offsets);
  b.ptr("expert_ids", ids, {"ids", "topk_ids"});
  b.ptr("counts", cnt);
  b.ptr("offsets", off);
  b.ptr("lock", b.scratch("lock", DType::i32, {1}, /*zero=*/true));
  b.i64("n", n);
  b.i64("n_experts", experts, {"E"});
  b.p.launch.grid.x = cdiv(n, b.config({"BLOCK"}, 1024));
  b.p.elements = n;
  b.p.bytes = (n + 2 * experts) * 4;
  b.p.description =
      "moe_routing i32 [" + shapeString(b.o.shape) + "]" + (dropped == "1" ? " dropped" : "");
  return Status::ok();
}

} // namespace tessel::harness::problems
