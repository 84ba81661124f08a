"""anchor_table.py TUNED_ROWS: this session's tuned rows (tuned_rows.py's ROW lines, H200) beside
the H200 anchor runs in shared/anchors (Triton 3.6, eager, torch.compile: h200-triton-3.6.json;
QuACK 0.6.5: h200-quack-0.6.5.json). Not one run: the anchors were timed on another H200 lease
with do_bench; compare with that in mind."""
import json, math, sys
anchors = "/work/shared/anchors/"
peers = {}
for r in json.load(open(anchors + "h200-triton-3.6.json"))["results"]:
    if "GB/s" in r and r["kernel"] != "copy":
        shape = r["shape"].removesuffix(" bfloat16").removesuffix(" bf16")
        peers.setdefault((r["kernel"], shape), {})[r["impl"]] = r["ms"]
for r in json.load(open(anchors + "h200-quack-0.6.5.json"))["rows"]:
    peers.setdefault((r["kernel"], r["shape"]), {})[r["impl"]] = r["ms"]
# Tessel's kernels per anchor row: softmax_looped is a second softmax; rope and rope_seq_out
# rotate q and k as the anchors' RoPE does (rope_flat's row is q alone: not comparable).
alias = {"softmax_looped": "softmax", "rope_seq_out": "rope"}
shapes = {"8x32x8x4096x128": "B8 S4096 H32/8 D128"}
print(f"{'row':34} {'tessel us':>9}  " + "  ".join(f"{p:>9}" for p in ("triton", "compile", "quack")) +
      "   best peer / tessel")
tessel = {}  # (anchor kernel, shape) -> (ms, kernel)
for line in open(sys.argv[1]):
    if not line.startswith("ROW"):
        continue
    _, kernel, shape, variant, ms, *_ = line.split()
    key = (alias.get(kernel, kernel), shapes.get(shape, shape))
    if key in peers and (key not in tessel or float(ms) < tessel[key][0]):
        tessel[key] = (float(ms), kernel)
ratios_t, ratios_b = [], []
for key, (ms, kernel) in sorted(tessel.items()):
    p = peers[key]
    cols = [p.get(k) for k in ("triton", "torch.compile", "quack")]
    best = min(c for c in cols if c)
    ratios_t.append(p["triton"] / ms)
    ratios_b.append(best / ms)
    print(f"{kernel + ' ' + key[1]:34} {ms * 1e3:9.1f}  " +
          "  ".join(f"{c * 1e3:9.1f}" if c else f"{'-':>9}" for c in cols) + f"   {best / ms:.3f}")
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f"geomean: {g(ratios_t):.3f}x Triton ({len(ratios_t)} rows), {g(ratios_b):.3f}x the best peer, "
      f"lowest {min(ratios_b):.3f}")
