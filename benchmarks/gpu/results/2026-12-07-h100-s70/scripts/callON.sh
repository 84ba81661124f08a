#!/bin/bash
# s70: the LayerNorm ncu prelude, then session 66's call O (tessel.ops with call B's cache).
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
bash .device/s70/N/ncu_ln.sh
bash .device/s66/O/callO.sh
