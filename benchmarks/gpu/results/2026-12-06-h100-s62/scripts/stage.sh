set -e
cd /work/main
S=.device/s62
benchmarks/gpu/tune_prepare.sh $S/Bt --only softmax,softmax_looped,rmsnorm,add_rmsnorm,layernorm,rope,rope_seq_out,rope_flat,cross_entropy,swiglu,geglu,vector_add > /tmp/s62_tp.log 2>&1
mkdir -p $S/B && cp .device/s61/B/{quack_reference.py,table.py,triton_reference.py,tuned_rows.py} $S/B/
rm -rf $S/B/tune $S/B/bin && cp -r $S/Bt/tune $S/Bt/bin $S/B/ && cp build/bin/tessel-run-gpu $S/B/
rm -rf /tmp/build-example && cmake -S examples/tuned_softmax -B /tmp/build-example -G Ninja -DTESSEL_BUILD=$PWD/build > /tmp/s62_ex.log 2>&1 && cmake --build /tmp/build-example >> /tmp/s62_ex.log 2>&1
rm -rf $S/B/ex && mkdir -p $S/B/ex && cp -r /tmp/build-example/kernels /tmp/build-example/tuned_softmax /tmp/build-example/libtessel_launcher.so $S/B/ex/
PREPARE_GEMM=0 benchmarks/gpu/prepare.sh $S/C > /tmp/s62_prep.log 2>&1
echo STAGED
cp -r .device/s60/C/kernels/gemm* $S/C/kernels/ 2>/dev/null || true
cp .device/whl/liger_kernel-0.8.5-py3-none-any.whl $S/C/
rm -f $S/C/kernels/*.mlir
du -sh $S/B $S/C
echo STAGED2
