#!/bin/bash
# s72: call L (the new layernorm against the old, odd shapes, peers); on an H200 then session
# 66's call B (issue 11's rows tuned). Carry .device/s72 and .device/s65/B, on an H200 also
# .device/s65/q1 (QuACK's first half, kept in /tmp for call C).
cd "$(dirname "$0")/../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $name"
mkdir -p $OUT/L; OUT=$OUT/L bash .device/s72/callL.sh
if [[ $name == *H200* && -d .device/s65/B ]]; then mkdir -p $OUT/B; OUT=$OUT/B bash .device/s65/B/callB.sh; fi
