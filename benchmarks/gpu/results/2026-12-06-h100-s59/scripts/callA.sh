#!/bin/bash
# s59 call A: the first half of QuACK's libraries onto the machine (kept in /tmp while warm).
bash "$(dirname "$0")/../q/part1/keep.sh" && ls -la /tmp/quack-part1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
nvidia-smi -q | grep -iE "product name|multiprocessor|Max Clocks" -A0 | head; nproc; free -g | head -2
