cd "$(dirname "$0")"; o=$OUT
timeout 400 python3 codegen_ab.py > $o/ab.txt 2>&1; echo "ab rc=$?"
grep -v -i warn $o/ab.txt | grep -v "^ *_warn\|^$" | tail -40
