#!/usr/bin/env bash
# Session 31 call 2 (kernels of fd39c71): cumsum beside torch (call 1's 90 s bound cut it), then
# every non-GEMM library variant on odd shapes (verify.sh library, the __h0 RoPE twins on D/2
# tables), then the GEMM variants in the time left.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
t cumsum; timeout 230 python3 cumsum_bench.py > $o/cumsum.txt 2>&1; grep -v "^PASS verify" $o/cumsum.txt | tail -12 | tee -a $o/log.txt
left=$((560 - (SECONDS - s)))
t "verify library ($left s)"
timeout $left ./verify.sh library > $o/verify_library.txt 2>&1; echo "rc=$?" >> $o/verify_library.txt
tail -4 $o/verify_library.txt | tee -a $o/log.txt
left=$((575 - (SECONDS - s)))
if [[ $left -gt 30 ]]; then t "verify gemm ($left s)"; timeout $left ./verify.sh gemm > $o/verify_gemm.txt 2>&1; echo "rc=$?" >> $o/verify_gemm.txt; tail -4 $o/verify_gemm.txt | tee -a $o/log.txt; fi
t done
