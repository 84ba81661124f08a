cd "$(dirname "$0")"; o=$OUT
timeout 150 ./tessel-run-gpu --batch batch_rows.txt > $o/verify.txt 2>&1
echo "verify: $(wc -l < batch_rows.txt) runs, $(grep -c '^=== case .* exit 0' $o/verify.txt) exit 0, $(grep -c '^=== case .* exit [1-9]' $o/verify.txt) failed"
grep -B3 '^=== case .* exit [1-9]' $o/verify.txt | head -20
timeout 300 python3 rows_sweep.py > $o/sweep.txt 2>&1; echo "sweep rc=$?"
grep -v Warn $o/sweep.txt | tail -120
mkdir -p /tmp/ind; timeout 200 env TORCHINDUCTOR_CACHE_DIR=/tmp/ind python3 inductor_dump.py 2>&1 | grep -v Warn | tail -3
