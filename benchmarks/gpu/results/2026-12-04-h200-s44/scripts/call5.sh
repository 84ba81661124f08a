cd "$(dirname "$0")"; o=$OUT
sk=$(ls kernels/gemm_stream_k*.json); bp=$(ls kernels/gemm_block_ptr*.json)
sec="--section WarpStateStats --section SourceCounters --section SchedulerStats"
timeout 150 ncu $sec -k regex:gemm --launch-count 1 ./tessel-run-gpu $sk --shape 1024x1024x2048 --dtype f16 --target=cuda --opt programs=128 > $o/ncu_sk128.txt 2>&1; echo "rc $?"
timeout 150 ncu $sec -k regex:gemm --launch-count 1 ./tessel-run-gpu $sk --shape 1024x1024x2048 --dtype f16 --target=cuda --opt programs=64 > $o/ncu_sk64.txt 2>&1; echo "rc $?"
timeout 150 ncu $sec --page source --print-source sass -k regex:gemm --launch-count 1 ./tessel-run-gpu $sk --shape 1024x1024x2048 --dtype f16 --target=cuda --opt programs=128 > $o/ncu_sk128_sass.txt 2>&1; echo "rc $?"
for f in $o/ncu_sk128.txt $o/ncu_sk64.txt; do echo "== $f"; sed -n '/Warp State Statistics/,$p' $f | grep -vE "^\s*$|----" | head -60; done
ls -la $o
