#!/usr/bin/env bash
# Issue 12's ops (carry the staged ops/, on the machine that ran rows.sh; about 280 s on an
# H100): the ops' other kernels (backward, geglu, rope_flat, rope_seq_out, add_rmsnorm_out)
# tuned into rows.sh's cache; torch_ops.py with that cache and every tuned variant on the kernel
# path: each op's outputs and gradients against float64 PyTorch, then forward and forward +
# backward against eager, torch.compile and Liger-Kernel 0.8.5 (by do_bench and by CUDA-graph
# replay), and fused linear cross-entropy's
# time and peak memory in interleaved rounds (plot_torch_ops.py draws its JSON, here). VERIFY=1 first runs verify.sh
# library (every non-GEMM library variant on odd shapes, batched, 100 s); torch_ops.py gets what
# is left of 560 s.
cd "$(dirname "$0")" || exit 1
[[ -f payload.tgz ]] && tar xzf payload.tgz # the staged files, packed by stage.sh
o=$OUT && s=/tmp/acc && mkdir -p "$o" $s/tune
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
if [[ ${VERIFY:-0} == 1 ]]; then
  t=$SECONDS
  VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=100 timeout 150 bash verify.sh library >"$o/verify.txt" 2>&1
  echo "verify.sh library rc=$? $((SECONDS - t))s: $(tail -1 "$o/verify.txt")"
  grep -E "^FAIL" "$o/verify.txt" | head -5
fi
# rows.sh's cache: on this machine, else carried here (tuning.json from rows.sh's tarball).
[[ -f $s/tuning.json ]] || cp tuning.json $s/ 2>/dev/null ||
  echo "no tuning cache from rows.sh: the row kernels' ops run their default configs"
t=$SECONDS
timeout 200 bin/tessel-tune-gpu tune --cache $s/tuning.json >"$o/tune_ops.txt" 2>&1
echo "tune ops rc=$? $((SECONDS - t))s"
grep -E "best|FAIL|error" "$o/tune_ops.txt" | grep -v "^  \[" | cut -c1-150 | sed 's/, cached in.*//'
cp -r tune/* $s/tune/
# rows.sh's tuned variants: on this machine, else carried beside (DEST/rows).
if [[ ! -d $s/tune/rope__bf16 && -d ../rows ]]; then
  [[ -d ../rows/tune ]] || (cd ../rows && tar xzf payload.tgz)
  cp -r ../rows/tune/* $s/tune/
fi
tuned=$(ls -d $s/tune/*__bf16 | tr '\n' ':')
export TESSEL_TUNING_CACHE=$s/tuning.json TESSEL_KERNEL_PATH=$PWD/kernels:${tuned%:}
cp $s/tuning.json "$o/"
t=$SECONDS
timeout "$((560 - SECONDS))" env PYTHONPATH=/tmp/lg OUT="$o" python3 torch_ops.py --graph >"$o/torch.txt" 2>&1
echo "torch_ops rc=$? $((SECONDS - t))s"
grep -E "checks, |FAIL" "$o/torch.txt" | tail -6
sed -n '/speed-up of Tessel/,$p' "$o/torch.txt" | head -60
cd "$o" && tar czf /tmp/ops.tgz . && rm -rf "${o:?}"/* && mv /tmp/ops.tgz "$o/"
