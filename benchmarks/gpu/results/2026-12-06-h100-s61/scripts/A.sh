#!/bin/bash
# s61 calls A1 and A2: the first half of QuACK's libraries onto the machine in two pieces (the
# tree grew past what one 48 MB piece leaves of the carry limit), joined in /tmp while warm.
mkdir -p /tmp/quack-part1
for p in .device/q1a/ir.so.xz.00 .device/q1b/ir.so.xz.01; do [[ -f $p ]] && cp $p /tmp/quack-part1/; done
ls -la /tmp/quack-part1
if [[ -f /tmp/quack-part1/ir.so.xz.00 && -f /tmp/quack-part1/ir.so.xz.01 ]]; then
  cat /tmp/quack-part1/ir.so.xz.0? > /tmp/quack-part1/ir.so.xz && xz -t /tmp/quack-part1/ir.so.xz && echo joined
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
