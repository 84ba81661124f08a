"""ab.py LOGDIR: per config, old against new (the faster of two rounds each), from
tessel-tune-gpu's per-variant lines (tune_<side>_<kernel>_r<round>.txt)."""
import collections, glob, os, re, sys
d = sys.argv[1]
t = collections.defaultdict(dict)  # (kernel, shape, config) -> side -> ms
for f in sorted(glob.glob(os.path.join(d, "tune_*_r*.txt"))):
    side, kernel = re.match(r"tune_(old|new)_(.+)_r\d+\.txt", os.path.basename(f)).groups()
    shape = "?"
    for line in open(f):
        m = re.match(r"\S+ bf16 \[(\S+)\].*: timing", line)
        if m:
            shape = m.group(1)
        m = re.match(r"\s+\[\d+/\d+\] (.+?)( \(div8\))?: ([0-9.]+) ms", line)
        if m:
            k = (kernel, shape, m.group(1))
            t[k][side] = min(t[k].get(side, 1e9), float(m.group(3)))
best = collections.defaultdict(dict)
print(f"{'kernel':14} {'shape':12} {'config':28} {'old ms':>8} {'new ms':>8} {'old/new':>7}")
for (kernel, shape, cfg), v in sorted(t.items()):
    o, n = v.get("old"), v.get("new")
    for side, ms in v.items():
        b = best[(kernel, shape)].get(side)
        if b is None or ms < b[0]:
            best[(kernel, shape)][side] = (ms, cfg)
    print(f"{kernel:14} {shape:12} {cfg:28} {o or 0:8.4f} {n or 0:8.4f} "
          f"{(o / n if o and n else 0):7.3f}")
print("\nbest per shape (old -> new):")
for (kernel, shape), v in sorted(best.items()):
    o, n = v.get("old"), v.get("new")
    if o and n:
        print(f"{kernel:14} {shape:12} {o[0]:.4f} ({o[1]}) -> {n[0]:.4f} ({n[1]}): {o[0] / n[0]:.3f}x")
