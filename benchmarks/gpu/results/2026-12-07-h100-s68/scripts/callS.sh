#!/bin/bash
# s68 call S: issue 10's LLM suite in one process. PHASE=tune (or all): session 54's H200 tuning
# cache (device renamed to this card), its four M = 256 keys re-timed by tessel-tune-gpu --force
# over gemm_split_k's and gemm_block_ptr's spaces as they are now (128x96 tiles, wgmma m64n96), and
# gemm_persistent tuned at the suite's 16 M >= 256 keys (every winner verified); the cache is
# kept in /tmp for the suite phase on the same machine. PHASE=suite (or all): matmul_bench.py
# --shapes llm, the 32 rows through tessel.ops.matmul beside cuBLAS (Triton with TRITON=1), each
# verified first; decode rows also against a copy of their own bytes.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
phase=${PHASE:-all}
if [[ $phase != suite || ! -f /tmp/tuning_here.json ]]; then
  python3 -c "import sys,json; sys.path.insert(0,'python'); import tessel.kernels as k; d=k._device_key('cuda')[0]; c=json.load(open('tuning_s54.json')); [e.__setitem__('device',d) for e in c['entries']]; json.dump(c,open('/tmp/tuning_here.json','w')); print('cache device:', d)"
fi
if [[ $phase != suite ]]; then
  SECONDS=0; timeout ${TT:-150} bin/tessel-tune-gpu tune256 --cache /tmp/tuning_here.json --force --reps 20 --warmup 3 > $o/tune256.txt 2>&1
  echo "tune256 rc=$? ${SECONDS}s"; grep -E "best|FAIL|error|verif" $o/tune256.txt | sed 's/gemm_split_k__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200 | head -12
  SECONDS=0; timeout ${TP:-300} bin/tessel-tune-gpu tunep --cache /tmp/tuning_here.json --reps 20 --warmup 3 > $o/tunep.txt 2>&1
  echo "tunep rc=$? ${SECONDS}s"; grep -E "best|FAIL|error|verif" $o/tunep.txt | sed 's/gemm_persistent__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200 | head -20
  cp /tmp/tuning_here.json $o/tuning.json
fi
if [[ $phase != tune ]]; then
  export TESSEL_TUNING_CACHE=/tmp/tuning_here.json
  # kf16/ (when present): session 66 call G's f16 gemm_block_ptr variants, for f16 rows in
  # SHAPES (C7's 1000x999x1001); _pick chooses among them (the cache has no f16 entry).
  export TESSEL_KERNEL_PATH=$PWD/kf16:$PWD/tune256/gemm_block_ptr__bf16:$PWD/tune256/gemm_split_k__bf16:$PWD/tunep/gemm_persistent__bf16:$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16
  SECONDS=0; OUT=$o timeout ${TS:-400} python3 matmul_bench.py $([[ ${TRITON:-0} == 1 ]] || echo --no-triton) --rounds ${ROUNDS:-2} --shapes ${SHAPES:-llm} > $o/suite.txt 2>&1
  echo "suite rc=$? ${SECONDS}s"
  grep -E "rel_err" $o/suite.txt | grep -v PASS | head -5
  grep -E "^bf16.*\(" $o/suite.txt | grep -o "gemm_[a-z_]*__bf16__BLOCK_M_[0-9]*__BLOCK_N_[0-9]*[^ ]*" | sed 's/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | sort | uniq -c | sort -rn | head -12
  sed -n '/^do_bench medians/,$p' $o/suite.txt
fi
cd $o && tar czf /tmp/s.tgz . && rm -rf $o/* && mv /tmp/s.tgz $o/
