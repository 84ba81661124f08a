#!/usr/bin/env bash
# Session 37 call 4: the library's cross_entropy_fused is call 3's e3 (evict_first on the
# gradient pass, no evict_last) and ops.cross_entropy_forward_backward takes 8192 on 16 warps:
# torch_ops.py's cross-entropy and fused linear cross-entropy rows (checks first), and e3
# against the hint-free kernel again.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout 380 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only cross_entropy,fused_linear_ce > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
grep -E "checks, " $o/torch.txt | tail -1
grep -E "^  cross_entropy  8192" $o/torch.txt; sed -n "/^fused linear cross-entropy, forward/,/^op /p" $o/torch.txt | head -20
V=cross_entropy_fused__bf16__BLOCK_8192__num_warps_16__div8.json
for j in kernels_new/$V kernels/$V; do
  b=$(timeout 40 ./tessel-run-gpu $j --target=cuda --shape 2048x128256 --dtype bf16 --bench --reps 30 2>&1 | grep -E "^bench: median|PASS|FAIL" | tr '\n' ' ')
  echo "$j | 2048x128256: $b" >> $o/ce_repeat.txt
done
grep -o "^[^ ]*\|median [0-9.]* ms\|FAIL" $o/ce_repeat.txt | paste - - -
