cd "$(dirname "$0")"; o=$OUT
timeout 200 ./tessel-run-gpu --batch batch.txt > $o/verify.txt 2>&1
echo "verify: $(wc -l < batch.txt) runs, $(grep -c '^=== case .* exit 0' $o/verify.txt) exit 0, $(grep -c '^=== case .* exit [1-9]' $o/verify.txt) failed"
grep -B3 '^=== case .* exit [1-9]' $o/verify.txt | head -20
