#!/bin/bash
# After call L: the new layernorm into the staged calls B (tune/) and O (kernels/), every
# forward variant recompiled at its own config (the JSON and cubin of the same name replaced).
set -e
cd /work/main
rm -rf .device/s65/B/tune/layernorm__bf16 && cp -r .device/s72/new/tune/layernorm__bf16 .device/s65/B/tune/
k=.device/s66/O/kernels; t=$(mktemp -d)
for v in $(ls $k | grep "^layernorm__" | grep -v div8 | sed -E 's/\.(json|cubin)$//' | sort -u); do
  dt=$(cut -d_ -f3 <<<$v); B=$(sed -E 's/.*BLOCK_([0-9]+).*/\1/' <<<$v); nw=$(sed -E 's/.*num_warps_([0-9]+).*/\1/' <<<$v)
  build/bin/tesselc dsl/kernels/layernorm.cpp -k layernorm --dtype=$dt -D BLOCK=$B -D num_warps=$nw --target=cuda:sm_90a --emit=cubin -o $t >/dev/null
done
n=0; for f in $t/*; do b=$(basename $f); [[ -f $k/$b ]] || { echo "new file $b"; exit 1; }; cp $f $k/$b; n=$((n+1)); done
echo "restaged: $n files in O/kernels, B/tune/layernorm__bf16"
