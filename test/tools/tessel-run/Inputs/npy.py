#!/usr/bin/env python3
"""NumPy .npy files with the standard library only (struct), for tessel-run's lit tests: numpy
may not be installed where the tests run.

  npy.py write FILE DESCR V1,V2,... [--shape 2,3] [--version 2] [--fortran] [--tail BYTES]
                                      an array of DESCR ('<f4', '>f8', '|b1', ...; '<c8' takes
                                      pairs); the shape defaults to (count,)
  npy.py iota FILE DESCR N [SCALE]    values k * SCALE for k < N
  npy.py text FILE TEXT               a file that holds TEXT (not .npy)
  npy.py show FILE                    the header dict, then "DESCR (SHAPE) data@OFFSET:" and the
                                      values (%.9g, at most 16, then "...")
  npy.py hex FILE                     the preamble (magic, version, header length) and the data
                                      in hex
  npy.py stats FILE                   "n=N min=... max=... zeros=Z distinct=D"
  npy.py add X Y OUT                  OUT = X + Y elementwise, rounded to float32 (X, Y '<f4')
"""
import struct
import sys

CODES = {"f2": "e", "f4": "f", "f8": "d", "i1": "b", "i2": "h", "i4": "i", "i8": "q",
         "u1": "B", "u2": "H", "u4": "I", "u8": "Q", "b1": "?", "c8": "ff"}


def code(descr):
    return (">" if descr[0] == ">" else "<") + CODES[descr[1:]]


def header(descr, shape, version=1, fortran=False):
    tup = "(%d,)" % shape[0] if len(shape) == 1 else "(" + ", ".join(map(str, shape)) + ")"
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", tup)
    pre = 10 if version == 1 else 12
    d += " " * ((64 - (pre + len(d) + 1) % 64) % 64) + "\n"
    size = struct.pack("<H" if version == 1 else "<I", len(d))
    return b"\x93NUMPY" + bytes([version, 0]) + size + d.encode("latin1")


def read(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", "not a .npy file"
    if data[6] == 1:
        (n,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (n,) = struct.unpack("<I", data[8:12])
        start = 12
    d = eval(data[start:start + n].decode("latin1"))
    shape = d["shape"]
    count = 1
    for s in shape:
        count *= s
    c = code(d["descr"])
    values = struct.unpack(c[0] + c[1:] * count, data[start + n:])
    return d, start, start + n, list(values)


def parse(text, descr):
    if descr[1] in "fc":
        return float(text)
    if descr[1] == "b":
        return text in ("1", "True", "true")
    return int(text, 0)


def main(argv):
    cmd = argv[1]
    if cmd == "write":
        path, descr, vals = argv[2], argv[3], argv[4]
        opts = dict(zip(argv[5::2], argv[6::2]))
        flags = set(argv[5:])
        values = [parse(v, descr) for v in vals.split(",")] if vals else []
        per = len(CODES[descr[1:]])
        shape = ([int(s) for s in opts["--shape"].split(",") if s] if "--shape" in opts
                 else [len(values) // per])
        version = int(opts.get("--version", "1"))
        c = code(descr)
        out = header(descr, shape, version, "--fortran" in flags)
        out += struct.pack(c[0] + c[1:] * (len(values) // per), *values)
        out += b"\0" * int(opts.get("--tail", "0"))
        open(path, "wb").write(out)
    elif cmd == "iota":
        path, descr, n = argv[2], argv[3], int(argv[4])
        scale = float(argv[5]) if len(argv) > 5 else 1.0
        c = code(descr)
        vals = [k * scale if descr[1] == "f" else int(k * scale) for k in range(n)]
        open(path, "wb").write(header(descr, [n]) + struct.pack(c[0] + c[1:] * n, *vals))
    elif cmd == "text":
        open(argv[2], "w").write(argv[3])
    elif cmd == "show":
        d, start, offset, values = read(argv[2])
        print(open(argv[2], "rb").read()[start:offset].decode("latin1").rstrip())
        shown = " ".join("%.9g" % v if isinstance(v, float) else str(int(v)) for v in values[:16])
        print("%s %s data@%d: %s%s" % (d["descr"], d["shape"], offset, shown,
                                        " ..." if len(values) > 16 else ""))
    elif cmd == "hex":
        data = open(argv[2], "rb").read()
        _, start, offset, _ = read(argv[2])
        print("preamble", data[:start].hex(" "), "data", data[offset:].hex(" "))
    elif cmd == "stats":
        _, _, _, v = read(argv[2])
        print("n=%d min=%.9g max=%.9g zeros=%d distinct=%d" % (
            len(v), min(v), max(v), sum(1 for x in v if x == 0), len(set(v))))
    elif cmd == "add":
        dx, _, _, x = read(argv[2])
        dy, _, _, y = read(argv[3])
        assert dx["descr"] == dy["descr"] == "<f4" and len(x) == len(y)
        s = [a + b for a, b in zip(x, y)]  # exact in double; struct rounds to float32 once
        open(argv[4], "wb").write(header("<f4", [len(s)]) + struct.pack("<%df" % len(s), *s))
    else:
        sys.exit("npy.py: unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
