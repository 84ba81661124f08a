#!/bin/bash
# s61 call G (call F cut down to what is not byte-identical to a cubin verified on the GPU before):
# LayerNorm bf16 variants whose kernel changed (d masked only in the variance) and that
# RematerializeAcrossBarriers now leaves alone (fewer than 64 values across the barrier):
# verified on odd shapes, then timed beside session 60's in alternation, two rounds.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0; VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=120 timeout 150 ./verify.sh library > $o/verify_library.txt 2>&1; echo "verify library (changed cubins) rc=$? ${SECONDS}s: $(tail -1 $o/verify_library.txt)"; grep -i fail $o/verify_library.txt | head -8 | cut -c1-200
for r in 1 2; do for m in old new; do for k in layernorm; do
  timeout 60 ./tessel-tune-gpu ab/$m/${k}__bf16 --force --cache /tmp/ab_$m$r.json > $o/ab_${m}_${k}_$r.txt 2>&1
  grep -E "^\s+\[" $o/ab_${m}_${k}_$r.txt | sed "s/^/$r $m $k /" | sed 's/   best.*//'
done; done; done > $o/ab.txt
python3 - $o/ab.txt <<'PY'
import sys, collections, statistics
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    # r m k [i/n] BLOCK=x num_warps=y (div8): T ms
    cfg = p[4] + " " + p[5]; ms = float(p[-2])
    t[(p[2], cfg, p[1])].append(ms)
print(f"{'kernel':10} {'config':30} {'old us':>8} {'new us':>8} {'old/new':>8}")
for (k, cfg, m) in sorted(t):
    if m != "old" or (k, cfg, "new") not in t: continue
    a = statistics.median(t[(k, cfg, 'old')]) * 1e3; b = statistics.median(t[(k, cfg, 'new')]) * 1e3
    print(f"{k:10} {cfg:30} {a:8.1f} {b:8.1f} {a/b:8.3f}")
PY
cd $o && tar czf /tmp/g.tgz . && rm -rf $o/* && mv /tmp/g.tgz $o/
