#!/usr/bin/env bash
cd "$(dirname "$0")"; o=$OUT
timeout 300 python3 ab_norms.py > $o/ab_norms.txt 2>&1; echo "rc=$?"; cat $o/ab_norms.txt | grep -v Warn
