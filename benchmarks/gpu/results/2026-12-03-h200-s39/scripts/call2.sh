#!/usr/bin/env bash
# Session 39 call 2: evict_first on the streaming forward kernels, A/B against the library and
# torch.compile in one process.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
timeout 420 python3 ab_stream.py > $o/ab_stream.txt 2>&1; echo "ab rc=$? at $((SECONDS - s)) s"
grep -E "FAIL|checks:" $o/ab_stream.txt | head
sed -n '/^op   /,$p' $o/ab_stream.txt
