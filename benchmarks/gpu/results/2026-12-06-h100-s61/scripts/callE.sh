#!/bin/bash
# s61 call E: the library compiled again after the fix to RematerializeAcrossBarriers (copies
# shared only within one value's tree; before it cumsum_looped bf16 BLOCK 4096 / 8 warps was
# wrong, the one variant whose cubin the fix changed): verify.sh library and cases on odd
# shapes; then session 60's RMSNorm / LayerNorm variants (ab/old, before the pass) and this
# session's (ab/new) timed in alternation, two rounds, on the benchmark shapes.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0; VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=230 timeout 250 ./verify.sh library > $o/verify_library.txt 2>&1; echo "verify library rc=$? ${SECONDS}s: $(tail -1 $o/verify_library.txt)"; grep -i fail $o/verify_library.txt | head -8 | cut -c1-200
SECONDS=0; VERIFY_BATCH=1 timeout 60 ./verify.sh cases > $o/verify_cases.txt 2>&1; echo "verify cases rc=$? ${SECONDS}s: $(tail -1 $o/verify_cases.txt)"; grep -i fail $o/verify_cases.txt | head -5 | cut -c1-200
for r in 1 2; do for m in old new; do for k in rmsnorm layernorm; do
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
# Short rows: the _rows kernels (ROWS rows a program) at 32768x1000, where one row a program
# runs 2-4 warps (layernorm 50.8 us in call B; torch.compile's forward 49.6 us through the op).
for k in layernorm_rows rmsnorm_rows; do
  timeout 60 ./tessel-tune-gpu rows/${k}__bf16 --cache /tmp/rows.json > $o/rows_$k.txt 2>&1
  echo "$k rc=$?"; grep -E "^\s+\[|best" $o/rows_$k.txt | sed 's/   best .*ms)$//' | cut -c1-150
done
cd $o && tar czf /tmp/e.tgz . && rm -rf $o/* && mv /tmp/e.tgz $o/
