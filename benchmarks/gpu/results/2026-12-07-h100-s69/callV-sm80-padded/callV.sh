#!/bin/bash
# s69 call V: sm_80 PTX of GEMM tiles padded to powers of two (BLOCK_N 96 and 48, BLOCK_M 96), whose
# mma.sync now skips the repetitions that hold only padding, verified on odd shapes through
# verify.sh's GEMM cases (the driver compiles the PTX for this card).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
nvidia-smi --query-gpu=name --format=csv,noheader
SECONDS=0; GEMM_LARGE=0 timeout ${T:-200} bash verify.sh gemm > $o/verify_sm80.txt 2>&1; echo "verify rc=$? ${SECONDS}s"; tail -5 $o/verify_sm80.txt
