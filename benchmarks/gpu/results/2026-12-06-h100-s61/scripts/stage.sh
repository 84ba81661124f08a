set -e
cd /work/main
S=.device/s61
benchmarks/gpu/tune_prepare.sh $S/Bt --only softmax,softmax_looped,rmsnorm,add_rmsnorm,layernorm,rope,rope_seq_out,cross_entropy,swiglu,geglu,vector_add > /tmp/s61_tp.log 2>&1
mkdir -p $S/B && cp .device/s60/B/{quack_reference.py,table.py,triton_reference.py,tuned_rows.py} $S/B/
rm -rf $S/B/tune $S/B/bin && cp -r $S/Bt/tune $S/Bt/bin $S/B/ && cp build/bin/tessel-run-gpu $S/B/
rm -rf /tmp/build-example && cmake -S examples/tuned_softmax -B /tmp/build-example -G Ninja -DTESSEL_BUILD=$PWD/build > /tmp/s61_ex.log 2>&1 && cmake --build /tmp/build-example >> /tmp/s61_ex.log 2>&1
rm -rf $S/B/ex && mkdir -p $S/B/ex && cp -r /tmp/build-example/kernels /tmp/build-example/tuned_softmax /tmp/build-example/libtessel_launcher.so $S/B/ex/
PREPARE_GEMM=0 benchmarks/gpu/prepare.sh $S/C > /tmp/s61_prep.log 2>&1
echo STAGED
