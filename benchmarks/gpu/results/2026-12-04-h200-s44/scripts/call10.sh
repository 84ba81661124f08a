cd "$(dirname "$0")"; timeout 240 python3 fwd_gpu.py 2>&1 | grep -v Warn
