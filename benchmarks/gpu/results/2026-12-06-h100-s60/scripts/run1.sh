#!/bin/bash
# s60 device call 1: the exp / masked-load experiment (X), then ncu of RoPE (Y); one tarball back.
cd "$(dirname "$0")"
timeout 420 bash X/callX.sh
timeout 170 bash Y/callY.sh
cd $OUT && tar czf /tmp/out.tgz . && rm -rf $OUT/* && mv /tmp/out.tgz $OUT/
