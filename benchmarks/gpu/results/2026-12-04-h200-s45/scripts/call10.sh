cd "$(dirname "$0")"; o=$OUT
( time timeout 300 ./tessel-tune-gpu $PWD --cache $o/tuning.json ) > $o/tune.txt 2>&1; echo "tune rc=$?"
grep -E "best|timing" $o/tune.txt
grep -E "^\s+\[" $o/tune.txt | sed 's/   best.*//' | tail -90
