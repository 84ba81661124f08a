#!/usr/bin/env bash
# Session 38 call 2: gemm_ce_backward verified (every variant and twin), fused linear
# cross-entropy with it in interleaved rounds and under torch.profiler, torch_ops.py's checks
# and FLCE rows, and layernorm_backward 16384/32 with w reloaded per row against the library's.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_FILTER='kernels/gemm_ce_backward*' VERIFY_VERBOSE=1 timeout 150 bash verify.sh library > $o/verify_gce.txt 2>&1; echo "verify rc=$? at $((SECONDS - s)) s"
timeout 240 env PYTHONPATH=/tmp/lg OUT=$o python3 flce_rounds.py 7 8192 4096 > $o/rounds.txt 2>&1; echo "rounds rc=$? at $((SECONDS - s)) s"
mv $o/smi.csv $o/smi_rounds.csv 2>/dev/null
timeout 200 env PYTHONPATH=/tmp/lg OUT=$o FLCE_ROUNDS=5 python3 torch_ops.py --only fused_linear_ce > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
for j in kernels/layernorm_backward__bf16__BLOCK_16384__num_warps_32__div8.json kernels_ln/layernorm_backward__bf16__BLOCK_16384__num_warps_32__div8.json; do
  b=$(timeout 40 ./tessel-run-gpu $j --target=cuda --shape 4096x16384 --dtype bf16 --bench --reps 30 2>&1 | grep -E "^bench: median|PASS|FAIL" | tr '\n' ' ')
  echo "$j | $b" >> $o/ln_bench.txt
done
echo "== verify"; tail -2 $o/verify_gce.txt; grep FAIL $o/verify_gce.txt | head
echo "== rounds"; grep -v "Warning\|_warn_once" $o/rounds.txt
echo "== torch"; grep -E "checks, |FAIL" $o/torch.txt | tail -5; sed -n "/^fused linear cross-entropy, forward/,/^op /p" $o/torch.txt | head -12
echo "== ln"; grep -o "^[^ ]*\|median [0-9.]* ms\|FAIL" $o/ln_bench.txt | paste - - -
