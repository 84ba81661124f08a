cd "$(dirname "$0")"; o=$OUT
TESSEL_KERNEL_PATH=$PWD/kR SHAPES=bf16:262144x128,bf16:131072x256,bf16:65536x512,f32:65536x256 timeout 300 python3 rows_sweep.py > $o/sweep2.txt 2>&1; echo "sweep rc=$?"
grep -v -i warn $o/sweep2.txt | grep -v "^ *_warn\|^$" | tail -150
