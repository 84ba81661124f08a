set -e
cd /work/main
S=.device/s66
T0=$SECONDS
benchmarks/gpu/tune_prepare.sh $S/T --only add_rmsnorm,cross_entropy,geglu,geglu_backward,layernorm,layernorm_backward,rmsnorm,rmsnorm_backward,add_rmsnorm_backward,rope,rope_flat,rope_qk,rope_seq_out,softmax,softmax_looped,swiglu,swiglu_backward,vector_add > /tmp/s66_T.log 2>&1
echo "T done $((SECONDS-T0))s"
benchmarks/gpu/tune_prepare.sh $S/G --only gemm_split_k,gemm_block_ptr > /tmp/s66_G.log 2>&1
echo "G done $((SECONDS-T0))s"
PREPARE_GEMM=1 benchmarks/gpu/prepare.sh $S/C > /tmp/s66_C.log 2>&1
echo "C done $((SECONDS-T0))s"
du -sh $S/*
echo STAGED
# The calls' carries, cut from the above (each with the 17.6 MB tree under the device tool's
# 64 MiB; a 45.8 MB carry was refused as over it).
# X: the ops' kernels that call B tunes beside the rows (backward, geglu, rope_flat, rope_seq_out).
mkdir -p $S/X && for k in add_rmsnorm_backward geglu geglu_backward layernorm_backward rmsnorm_backward rope_flat rope_seq_out swiglu_backward; do cp -r $S/T/tune/${k}__bf16 $S/X/; done
# B: session 65's row staging (.device/s65/B), rope and rope_qk replaced by tune_prepare.sh's
# (S, D/2)-table directories from $S/T. q1/q2: QuACK in the layout quack_stage.sh now writes.
# O (call O, torch_ops.py): prepare.sh's kernels without GEMM but gemm_block_ptr (bf16, f32),
# gemm_split_k and gemm_ce_backward, the python package, torch_ops.py, the Liger-Kernel wheel.
rm -f $S/C/kernels/*.mlir
mkdir -p $S/O/kernels && (cd $S/C && cp -r bin tessel-run-gpu python verify.sh torch_ops.py flce_rounds.py llm_shapes.py flushed.py cases ../O/)
(cd $S/C/kernels && ls | grep -v '^gemm' | xargs -I{} cp {} ../../O/kernels/ && cp gemm_block_ptr__bf16* gemm_block_ptr__f32* gemm_split_k__* gemm_ce_backward__* ../../O/kernels/)
cp .device/whl/liger_kernel-0.8.5-py3-none-any.whl $S/O/
# GS (call G): the LLM suite's tuned directories, f16 GEMM kernels for matmul_bench's odd rows,
# the python package and scripts, session 54's H200 tuning cache.
mkdir -p $S/GS/kernels $S/GS/tune && (cd $S/C && cp -r python tessel-run-gpu verify.sh matmul_bench.py llm_shapes.py flushed.py triton_gemm.py ../GS/)
cp $S/C/kernels/gemm_block_ptr__f16* $S/C/kernels/gemm__f16* $S/GS/kernels/
cp -r $S/G/tune/gemm_block_ptr_llm $S/G/tune/gemm_split_k__bf16 $S/G/tune/gemm_split_k_swap $S/GS/tune/
cp benchmarks/gpu/ncu_gemm.py $S/GS/ && cp benchmarks/gpu/results/2026-12-06-h200-s64/callE-llm-suite/tuning.json $S/GS/tuning_s54.json
