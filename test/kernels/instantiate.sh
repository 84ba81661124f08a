#!/bin/sh
# instantiate.sh ELT EXT TRUNC [NAME=VALUE ...] < template.mlir > kernel.mlir
# Replaces ELT, EXT, TRUNC and each NAME (whole words: BLK, BM, ...) in a kernel template.
elt=$1 ext=$2 trunc=$3
shift 3
script="s/ELT/$elt/g; s/EXT/$ext/g; s/TRUNC/$trunc/g"
for kv in "$@"; do
  script="$script; s/\b${kv%%=*}\b/${kv#*=}/g"
done
# BLKx inside tensor shapes: 'tensor<BLKxf32>' has no word boundary after BLK.
for kv in "$@"; do
  script="$script; s/\([<x]\)${kv%%=*}x/\1${kv#*=}x/g"
done
exec sed -e "$script"
