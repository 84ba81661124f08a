#!/usr/bin/env bash
cd "$(dirname "$0")"
start=$(date +%s.%N)
./tune.sh 2>&1 | tee $OUT/tune-first.txt | tail -25
echo "first run wall: $(echo "$(date +%s.%N) - $start" | bc) s"
start=$(date +%s.%N)
./tune.sh 2>&1 | tee $OUT/tune-second.txt | tail -6
echo "second run wall: $(echo "$(date +%s.%N) - $start" | bc) s"
cp tuning.json $OUT/
bash ../c5/permulticast.sh 2>&1 | tee $OUT/permulticast.txt
