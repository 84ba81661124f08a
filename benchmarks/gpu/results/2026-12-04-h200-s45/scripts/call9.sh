cd "$(dirname "$0")"; o=$OUT
for d in rms ln; do ( time timeout 200 ./tessel-tune-gpu $PWD/$d --cache $o/tuning.json ) >> $o/tune.txt 2>&1; echo "tune $d rc=$?"; done
grep -v "^  timed \[" $o/tune.txt | tail -50
