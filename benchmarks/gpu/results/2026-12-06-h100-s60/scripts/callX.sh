#!/bin/bash
# s60 call X: the exp / masked-load experiment. v0 = session 59's cubins (old compiler, old
# kernels); v1 = masked loads fill a constant `other` (no select); v2 = v1 + exp_shifted (one
# fma + ex2 per element) and softmax's reciprocal; v3 = v2 with ex2.approx.ftz.f32. Each
# variant verified (tessel-run-gpu's run) and timed (median of 200 launches), in one process
# per variant set, interleaved twice; SASS instruction counts of the CE loop.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o/r; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv,noheader
for v in v0 v3; do f=$v/cross_entropy__bf16__BLOCK_16384__num_warps_8__div8.cubin
  cuobjdump -sass $f > $o/r/sass_ce_$v.txt 2>&1
  echo "$v CE sass: $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $o/r/sass_ce_$v.txt) instr; MUFU.EX2 $(grep -c MUFU.EX2 $o/r/sass_ce_$v.txt); FSETP $(grep -c FSETP $o/r/sass_ce_$v.txt); SEL/FSEL $(grep -cE 'FSEL|SEL ' $o/r/sass_ce_$v.txt)"
done
mk() { # variant set -> batch file
  local v=$1 b=$o/r/batch_$v.txt; : > $b
  for f in $v/cross_entropy__*{16384__num_warps_8,8192__num_warps_16,16384__num_warps_16}__div8.json; do echo "$f --target=cuda --shape 8192x128256 --dtype bf16 --opt reduction=none --bench --reps 200" >> $b; done
  for f in $v/cross_entropy_fused__*{8192__num_warps_16,16384__num_warps_8}__div8.json; do echo "$f --target=cuda --shape 8192x128256 --dtype bf16 --bench --reps 100" >> $b; done
  for f in $v/softmax__*BLOCK_1024*div8.json; do echo "$f --target=cuda --shape 32768x1000 --dtype bf16 --bench --reps 300" >> $b; done
  for f in $v/softmax__*BLOCK_4096*div8.json; do echo "$f --target=cuda --shape 16384x4096 --dtype bf16 --bench --reps 300" >> $b; done
  for f in $v/softmax__*BLOCK_16384*div8.json; do echo "$f --target=cuda --shape 4096x16384 --dtype bf16 --bench --reps 300" >> $b; done
  # odd shapes: verification only
  for f in $v/cross_entropy__*16384__num_warps_8__div8.json $v/cross_entropy_fused__*8192__num_warps_16__div8.json; do echo "${f/__div8/} --target=cuda --shape 37x50001 --dtype bf16 --opt ignore=some" >> $b; done
  for f in $v/softmax__*BLOCK_1024__num_warps_4.json; do echo "$f --target=cuda --shape 33x1000 --dtype bf16" >> $b; done
}
for v in v0 v1 v2 v3; do mk $v; done
for round in 1 2; do for v in v0 v1 v2 v3; do
  SECONDS=0; timeout 200 ./tessel-run-gpu --batch $o/r/batch_$v.txt > $o/r/run_${v}_$round.txt 2>&1
  echo "$v round $round rc=$? ${SECONDS}s: $(grep -c PASS $o/r/run_${v}_$round.txt) PASS lines, $(grep -c FAIL $o/r/run_${v}_$round.txt) FAIL"
done; done
python3 - $o/r <<'PY'
import re, sys, glob, os
d = sys.argv[1]; rows = {}; fails = []
for f in sorted(glob.glob(d + "/run_v*_*.txt")):
    v = os.path.basename(f).split("_")[1]
    lines = open(d + f"/batch_{v}.txt").read().splitlines()
    block = []
    for line in open(f):
        m = re.match(r"=== case (\d+) exit (\d+)", line)
        if not m:
            block.append(line); continue
        n, rc = int(m.group(1)), int(m.group(2))
        name = os.path.basename(lines[n].split()[0]).replace(".json", "") + " " + lines[n].split()[3]
        if rc != 0 or any("FAIL" in b for b in block): fails.append(f"{v} {name} rc={rc}")
        med = [float(re.search(r"median ([0-9.]+) ms", b).group(1)) * 1000 for b in block if "median" in b]
        if med: rows.setdefault(name, {}).setdefault(v, []).append(med[0])
        block = []
print("FAILS:", fails if fails else "none")
print(f"{'variant (us, best of 2 rounds)':72s} {'v0':>8s} {'v1':>8s} {'v2':>8s} {'v3':>8s}  v0/v2  v0/v3")
for k, r in sorted(rows.items()):
    med = {v: min(r[v]) for v in r}
    g = lambda v: med.get(v, float('nan'))
    print(f"{k:72s} " + " ".join(f"{g(v):8.1f}" for v in ["v0","v1","v2","v3"]) + f"  {g('v0')/g('v2'):.3f}  {g('v0')/g('v3'):.3f}")
PY

