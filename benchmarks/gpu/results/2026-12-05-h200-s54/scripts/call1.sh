#!/bin/bash
# s54 call 1: the first half of QuACK's libraries onto the machine (kept in /tmp while warm).
mkdir -p /tmp/q1 && cp "$(dirname "$0")/ir.so.xz" /tmp/q1/ && ls -la /tmp/q1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
