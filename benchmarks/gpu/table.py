#!/usr/bin/env python3
"""table.py TESSEL_BENCH.txt ANCHORS.json [QUACK.json]: Tessel beside Triton 3.6, PyTorch eager,
torch.compile and (when its JSON is given) QuACK, measured in the same session on the same GPU. Bytes per row follow the anchor
script's counts (each input read once, each output written once), so GB/s compare directly.
For each row the fastest Tessel variant is shown; ratio = Triton time / Tessel time (> 1:
Tessel faster); best = the fastest peer's time / Tessel time. Ends with the geometric means.
A file of Tessel ROW lines may be given as several, joined by commas (bench.sh's, the tuner's)."""
import json, math, sys

ours = {}
lines = [l for path in sys.argv[1].split(",") for l in open(path)]
for line in lines:
    f = line.split()
    if not f or f[0] != "ROW":
        continue
    if len(f) < 8 or not f[4]:
        continue
    kernel, shape, variant, ms, verdict = f[1], f[2], f[3], float(f[4]), f[7]
    if verdict != "PASS":
        continue
    best = ours.get((kernel, shape))
    if best is None or ms < best[0]:
        ours[(kernel, shape)] = (ms, variant)

anchors = json.load(open(sys.argv[2]))["results"]
# QuACK's rows name shapes without the dtype ("4096x16384"); its impl is "quack".
quack = json.load(open(sys.argv[3]))["rows"] if len(sys.argv) > 3 else []
def anchor(kernel, shape, impl):
    for r in anchors:
        if r["kernel"] == kernel and r["shape"] == shape and r["impl"] == impl:
            return r
    for r in quack:
        if impl == "quack" and r["kernel"] == kernel and shape.split()[0] == r["shape"]:
            return r
    return None

copy = anchor("copy", "2GiB bf16", "torch")
copy_gbps = copy["GB/s"] if copy else float("nan")
# (anchor kernel, anchor shape, our kernel, our shape)
rows = []
for k in ["softmax", "rmsnorm", "layernorm"]:
    for s in ["16384x4096", "4096x16384", "32768x1000"]:
        rows.append((k, s + " bfloat16", k, s))
rows += [("add_rmsnorm", "16384x4096 bf16", "add_rmsnorm", "16384x4096"),
         ("swiglu", "16384x14336 bf16", "swiglu", "16384x14336"),
         ("rope", "B8 S4096 H32/8 D128", "rope", "8x32x8x4096x128"),
         ("cross_entropy", "8192x128256 bf16", "cross_entropy", "8192x128256"),
         ("add", "2^28 bf16", "vector_add", "268435456")]

hdr = (f"{'kernel':14s} {'shape':22s} {'tessel us':>9s} {'GB/s':>6s} {'%copy':>6s} {'triton':>6s} "
       f"{'ratio':>6s} {'torch':>6s} {'compile':>7s} {'quack':>6s} {'best':>6s}  variant")
print(hdr)
print("-" * len(hdr))
ratios, bests = [], []
for ak, ashape, ok, oshape in rows:
    t = anchor(ak, ashape, "triton")
    mine = ours.get((ok, oshape))
    if not t or not mine:
        print(f"{ak:14s} {ashape:22s} {'missing':>9s}")
        continue
    nbytes = t["GB/s"] * t["ms"] * 1e6
    ms, variant = mine
    gbps = nbytes / ms / 1e6
    ratio = t["ms"] / ms
    ratios.append(ratio)
    eager = anchor(ak, ashape, "torch")
    comp = anchor(ak, ashape, "torch.compile")
    q = anchor(ak, ashape, "quack")
    # Peers' times at Tessel's byte count: QuACK counts bytes its own way.
    best = min(r["ms"] for r in (t, eager, comp, q) if r) / ms
    bests.append(best)
    fmt = lambda r: f"{r['GB/s']:6.0f}" if r else f"{'-':>6s}"
    print(f"{ak:14s} {ashape:22s} {ms*1e3:9.1f} {gbps:6.0f} {100*gbps/copy_gbps:5.1f}% {t['GB/s']:6.0f} "
          f"{ratio:6.3f} {fmt(eager)} {fmt(comp):>7s} {fmt(q)} {best:6.3f}  {variant}")
if ratios:
    g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"geomean Tessel/Triton speed ratio: {g:.3f} over {len(ratios)} rows; "
          f"min {min(ratios):.3f}; device copy {copy_gbps:.0f} GB/s")
    g = math.exp(sum(math.log(r) for r in bests) / len(bests))
    print(f"geomean Tessel/best-peer speed ratio: {g:.3f}; min {min(bests):.3f}")
comp = [r for r in anchors if r["kernel"] == "compile"]
if comp:
    print(f"triton cold compile + launch of softmax: {comp[0]['ms']:.0f} ms")
