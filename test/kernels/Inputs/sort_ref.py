#!/usr/bin/env python3
"""Inputs and expected outputs of the 1024-element sort and topk tests (sort.test, topk.test),
computed with Python's own stable sort: the reference never comes from Tessel.

  sort_ref.py input N SEED              N f32 values, comma-separated: multiples of 0.25 in
                                        [-64, 64) from an LCG (many duplicates), with NaN at 5
                                        and 700, -0.0 at 100, 0.0 at 900, inf at 33, -inf at 34
  sort_ref.py sort N SEED PREFIX        FileCheck lines 'PREFIX: out = [...]' and
                                        'PREFIX: idx = [...]' of the ascending stable sort
  sort_ref.py topk N SEED K PREFIX      'PREFIX: v = [...]' and 'PREFIX: i = [...]': the first
                                        K of the stable descending sort
The order: NaN after every number (first when descending), -0.0 == 0.0, ties in input order.
"""
import math
import sys


def values(n, seed):
    state, xs = seed, []
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2**31
        xs.append(((state >> 8) % 512 - 256) / 4)
    for pos, v in [(5, math.nan), (700, math.nan), (100, -0.0), (900, 0.0), (33, math.inf),
                   (34, -math.inf)]:
        if pos < n:
            xs[pos] = v
    return xs


def text(v):
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, int):
        return str(v)
    return "%.9g" % v


def order(xs, descending):
    # sorted() is stable, also with reverse=True: equal keys keep their input order.
    key = lambda i: (1, 0.0) if math.isnan(xs[i]) else (0, xs[i])
    return sorted(range(len(xs)), key=key, reverse=descending)


def main(argv):
    mode, n, seed = argv[1], int(argv[2]), int(argv[3])
    xs = values(n, seed)
    if mode == "input":
        print(",".join(text(v) for v in xs))
    elif mode == "sort":
        o = order(xs, False)
        print("%s: out = [%s]" % (argv[4], ", ".join(text(xs[i]) for i in o)))
        print("%s: idx = [%s]" % (argv[4], ", ".join(map(str, o))))
    elif mode == "topk":
        o = order(xs, True)[: int(argv[4])]
        print("%s: v = [%s]" % (argv[5], ", ".join(text(xs[i]) for i in o)))
        print("%s: i = [%s]" % (argv[5], ", ".join(map(str, o))))
    else:
        sys.exit("usage: sort_ref.py input|sort|topk N SEED [K] [PREFIX]")


if __name__ == "__main__":
    main(sys.argv)
