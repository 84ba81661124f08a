#!/usr/bin/env python3
"""cache_here.py SRC DEST (on the GPU machine, in a directory staged by stage.sh): the tuning
cache SRC with every entry's device set to this machine's first CUDA device, written to DEST.
The entries' configs then launch here as on the card that timed them (the suite's H200 cache on
an H100 when no H200 comes); the driver and compiler parts of the key are left as they are."""
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
import tessel.kernels as kernels

src, dest = sys.argv[1:3]
device = kernels._device_key("cuda")[0]
cache = json.load(open(src))
for entry in cache["entries"]:
    entry["device"] = device
json.dump(cache, open(dest, "w"))
print("cache device:", device)
