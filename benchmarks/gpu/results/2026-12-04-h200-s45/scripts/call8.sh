cd "$(dirname "$0")"; o=$OUT
timeout 240 python3 fwd_gpu.py 2>&1 | grep -v -i warn | grep -v "^ *_warn\|^$"
