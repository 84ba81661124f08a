#!/bin/bash
# s59 call E: the 32-row LLM suite through tessel.ops.matmul with session 54's H200 tuning
# cache (every key tuned on an H200 but the transposed 57344x16x8192), beside cuBLAS and
# Triton, in 3 rounds per row (balanced orders, 100 ms idle before each timing); first the
# suite's five most used variants and their twins on the odd GEMM cases (verify.sh gemm: C7).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
cp tuning.json $o/tuning.json
export TESSEL_KERNEL_PATH=$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16
export TESSEL_TUNING_CACHE=$o/tuning.json
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
rm -rf /tmp/vk && mkdir -p /tmp/vk/kernels && cp verify.sh tessel-run-gpu /tmp/vk/
for v in $(python3 -c "import json,collections; d=json.load(open('tuning.json')); print(' '.join(v for v,_ in collections.Counter(e['variant'] for e in d['entries']).most_common(5)))"); do cp tune/*/*/$v.* tune/*/*/${v}__* /tmp/vk/kernels/ 2>/dev/null; done
echo "verify: $(ls /tmp/vk/kernels/*.json | wc -l) variants and twins"
SECONDS=0; VERIFY_BATCH=1 timeout 90 /tmp/vk/verify.sh gemm > $o/verify_gemm.txt 2>&1; echo "verify gemm rc=$? ${SECONDS}s: $(tail -1 $o/verify_gemm.txt)"; grep FAIL $o/verify_gemm.txt | head -5 | cut -c1-200
SECONDS=0
OUT=$o timeout ${TE:-440} python3 matmul_bench.py --shapes llm --rounds ${ROUNDS:-3} > $o/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $o/suite.txt | grep -v PASS | head
sed -n '/^do_bench medians/,$p' $o/suite.txt
