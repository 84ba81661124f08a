#!/bin/bash
# s59 call H: rope_seq_out with HEAD_GROUP heads a program (grid axis 2): every variant of its
# new tuning space (95, HEAD_GROUP 0 = the library's walk over every head) verified on odd shapes
# on the GPU (verify.sh: 3 heads and 1, 5 and 3, one token, 32 and 8), tuned at B8 S4096 H32/8
# D128, then tessel.ops.rope timed (torch_ops.py --only rope) with session 59's first cache
# (its winner: 128 tokens on 8 warps, every head) and with the new one, beside torch.compile.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s59h; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
rm -rf /tmp/vr && mkdir -p /tmp/vr/kernels && cp verify.sh tessel-run-gpu /tmp/vr/ && cp tune/rope_seq_out__bf16/rope_seq_out__*.json tune/rope_seq_out__bf16/*.cubin /tmp/vr/kernels/
SECONDS=0; (cd /tmp/vr && VERIFY_BATCH=1 timeout 120 ./verify.sh library) > $o/verify_rope.txt 2>&1; echo "verify rope_seq_out rc=$? ${SECONDS}s: $(tail -1 $o/verify_rope.txt)"; grep FAIL $o/verify_rope.txt | head -5 | cut -c1-200
SECONDS=0; timeout 150 ./tessel-tune-gpu tune/rope_seq_out__bf16 --cache $o/tuning_new.json > $o/tune_rope_seq_out.txt 2>&1; echo "tune rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune_rope_seq_out.txt | grep -v "^  \[" | cut -c1-170 | sed 's/, cached in.*//'
sort -t: -k2 -n <(grep "^  \[" $o/tune_rope_seq_out.txt | sed 's/.*\] //' | awk -F': ' '{print $2 ": " $1}') | head -8
# The new cache: the row kernels' entries of call B with rope_seq_out's replaced.
python3 - $o/tuning_new.json tuning_rows.json $o/tuning_merged.json <<'PY'
import json, sys
new, rows = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
rows["entries"] = [e for e in rows["entries"] if e["kernel"] != "rope_seq_out"] + new["entries"]
json.dump(rows, open(sys.argv[3], "w"), indent=1)
PY
export TESSEL_KERNEL_PATH=$PWD/../C/kernels:$PWD/tune/rope_seq_out__bf16
for run in old new; do
  cache=$([[ $run == old ]] && echo $PWD/tuning_rows.json || echo $o/tuning_merged.json)
  SECONDS=0; TESSEL_TUNING_CACHE=$cache OUT=/tmp/s59h timeout 150 env PYTHONPATH=/tmp/lg python3 ../C/torch_ops.py --only rope > $o/torch_$run.txt 2>&1; echo "torch_ops rope ($run cache) rc=$? ${SECONDS}s: $(grep -E 'checks, ' $o/torch_$run.txt | tail -1)"
  grep -E "^  rope " $o/torch_$run.txt
done
