cd "$(dirname "$0")"; o=$OUT
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_BATCH=1 VERIFY_FILTER='kernels/*rmsnorm*backward*' timeout 120 ./verify.sh library > $o/verify.txt 2>&1; echo "verify rc=$?"
grep -E "^FAIL|variants:|gpu verify|passed" $o/verify.txt | head -8
timeout 150 env PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/lg OUT=$o python3 norm_step_profile.py --shapes 4096x16384,16384x4096,32768x1000,131072x256 --ops add_rms_norm --compile > $o/step_add.txt 2>&1; echo "step add rc=$?"
grep -E "step .* us" $o/step_add.txt
for d in tune/*; do timeout 60 ./bin/tessel-tune-gpu $PWD/$d --cache $o/tuning.json > $o/tune_$(basename $d).txt 2>&1; echo "tune $d rc=$?"; grep -E "best|winner|->|fastest" $o/tune_$(basename $d).txt | tail -6; done
timeout 100 env PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/lg OUT=$o python3 norm_step_profile.py --shapes 131072x256 --ops rms_norm --compile > $o/step_rms.txt 2>&1; echo "step rms rc=$?"
grep -E "step .* us|^      " $o/step_rms.txt | head -30
timeout 200 env PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only add_rms_norm,rms_norm > $o/torch.txt 2>&1; echo "torch rc=$?"
grep -E "checks, |FAIL" $o/torch.txt | tail -6
sed -n '/speed-up of Tessel/,$p' $o/torch.txt | head -30
