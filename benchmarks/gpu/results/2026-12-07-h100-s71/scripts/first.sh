#!/bin/bash
# s71: on an H200, session 66's call B (issue 11's rows tuned) and then call 1; elsewhere call 1.
cd "$(dirname "$0")/../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $name"
if [[ $name == *H200* ]]; then mkdir -p $OUT/B; OUT=$OUT/B bash .device/s65/B/callB.sh; fi
OUT=$OUT/s71 bash .device/s71/call1.sh
