#!/usr/bin/env python3
"""tessel-difftest: random tile programs, run on the interpreter and on a GPU, compared.

  difftest.py gen DIR [--count N] [--seed S] [--per-module K] [--odd-blocks]
      writes DIR/modules/mNNN.mlir: N random well-typed kernels, K per module (--odd-blocks:
      blocks of 24, 48, 100 and 200 lanes too, which the GPUs pad to powers of two)
  difftest.py prepare DIR [--build BUILD] [--jobs J] [--padded]
      compiles every module for the interpreter, cuda:sm_90a (cubin) and hip:gfx942 (hsaco:
      the AMD code is compiled and checked, not run), runs each kernel on the interpreter and
      keeps what it prints as the reference (DIR/cases.json); --padded also compiles the
      modules after tile-gpu-pad-shapes for the interpreter (DIR/padded)
  difftest.py run DIR [--runner ./tessel-run-gpu] [--jobs J]
      on the GPU machine: runs every case with the same arguments and seed, compares, writes
      DIR/report.json and prints mismatches and a summary; exit 1 on a mismatch
  difftest.py compare REF OUT: one case's printed buffers (for reducing a mismatch by hand)

A program (docs/TileIR.md, "Differential testing"): a 1-D grid of G programs of BLK lanes;
2-3 input buffers of random dtypes (f32, f16, bf16, i32, i64, i16, i8) loaded through
contiguous, reversed, strided or xor-permuted offsets under random masks with `other`; 5-14
random ops (arith and math element-wise ops, casts, compare + select, integer division and
shifts made defined, a tile.reduce broadcast back, a tile.scan forward or reverse, an scf.for
carrying a value); 1-2 outputs
stored under masks. Inputs come from tessel-run's seeded `=rand` (floats in [-1, 1), integers
in [-8, 8) and never 0), so both sides see the same bits.

The comparison: integers, masks and poison (unwritten lanes) bit for bit. Floats bit for bit
where every op on the value's path is correctly rounded on both sides (+ - * / sqrt, min/max,
casts, select, floor, neg, abs), else within k * 4 ulp of the buffer's scale (the largest
magnitude in the reference, at least 1), k the number of ops on the path that may differ by
design (docs/TileIR.md, "Where targets may differ"): f32 division, math functions (exp counts
8, its bound grows with |x|), and a multiply feeding an add (possibly one fma on a GPU). Ops whose result jumps with a small change
of their input (compares, float -> int casts, floor, division by, log and sqrt of) take only
exactly computed operands, so an approximate value never reaches a discontinuity.
"""
import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FLOATS = ["f32", "f16", "bf16"]
INTS = ["i32", "i64", "i16", "i8"]
BITS = {"f32": 32, "f16": 16, "bf16": 16, "i32": 32, "i64": 64, "i16": 16, "i8": 8, "i1": 1}
MANTISSA = {"f32": 23, "f16": 10, "bf16": 7}


class Value:
    def __init__(self, name, dtype, inexact):
        self.name, self.dtype, self.inexact = name, dtype, inexact


class Program:
    """One random kernel as tile-IR text."""

    def __init__(self, rng, name, odd_blocks=False):
        self.rng, self.name = rng, name
        self.lines, self.counter = [], 0
        # --odd-blocks adds lengths the GPUs pad to the next power of two (tile-gpu-pad-shapes).
        self.blk = rng.choice([16, 32, 64, 128, 256] + [24, 48, 100, 200] * odd_blocks)
        self.grid = rng.choice([1, 2, 3, 4]) if self.blk <= 256 else 1
        while self.grid * self.blk > 512:
            self.grid -= 1
        self.warps = rng.choice([1, 2, 4])
        self.pool = []

    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    def t(self, dtype):
        return f"tensor<{self.blk}x{dtype}>"

    def emit(self, line):
        self.lines.append("  " + line)

    def const(self, dtype, value):
        v = self.fresh()
        lit = (repr(float(value)) if dtype in FLOATS else str(int(value)))
        if dtype == "i1":
            lit = "true" if value else "false"
        self.emit(f"{v} = arith.constant dense<{lit}> : {self.t(dtype)}")
        return v

    def scalar_const(self, dtype, value):
        v = self.fresh()
        self.emit(f"{v} = arith.constant {value} : {dtype}")
        return v

    # ----- building blocks -------------------------------------------------------------
    def cast(self, x, to):
        """x converted to dtype `to` (exactness kept where the cast is exact on both sides)."""
        if x.dtype == to:
            return x
        v, src, dst = self.fresh(), self.t(x.dtype), self.t(to)
        fa, fb = x.dtype in FLOATS, to in FLOATS
        if fa and fb:
            wider = to == "f32" or (x.dtype != "f32" and BITS[to] > BITS[x.dtype])
            if x.dtype in ("f16", "bf16") and to in ("f16", "bf16"):
                mid = self.cast(x, "f32")
                return self.cast(mid, to)
            op = "arith.extf" if wider else "arith.truncf"
            self.emit(f"{v} = {op} {x.name} : {src} to {dst}")
            return Value(v, to, x.inexact)
        if not fa and not fb:
            op = "arith.extsi" if BITS[to] > BITS[x.dtype] else "arith.trunci"
            self.emit(f"{v} = {op} {x.name} : {src} to {dst}")
            return Value(v, to, 0)
        if not fa and fb:
            self.emit(f"{v} = arith.sitofp {x.name} : {src} to {dst}")
            return Value(v, to, 0)
        # float -> int: only from exactly computed values (a jump at every integer)
        x = self.exact(x)
        self.emit(f"{v} = arith.fptosi {x.name} : {src} to {dst}")
        return Value(v, to, 0)

    def exact(self, x):
        """x if computed exactly on both sides, else an exact stand-in of its dtype."""
        if x.inexact == 0:
            return x
        exact = [p for p in self.pool if p.inexact == 0 and p.dtype == x.dtype]
        if exact:
            return self.rng.choice(exact)
        base = self.rng.choice([p for p in self.pool if p.inexact == 0])
        return self.cast(base, x.dtype)

    def pick(self, kinds=None, exact=False):
        cands = [p for p in self.pool if (kinds is None or p.dtype in kinds)
                 and (not exact or p.inexact == 0)]
        if not cands:
            return None
        # Prefer recent values so the program is one connected computation.
        return cands[-1] if self.rng.random() < 0.4 else self.rng.choice(cands)

    # ----- the random ops --------------------------------------------------------------
    def op_float_binary(self):
        a = self.pick(FLOATS)
        if a is None:
            return
        b = self.cast(self.pick(FLOATS) or a, a.dtype)
        op = self.rng.choice(["addf", "subf", "mulf", "divf", "maximumf", "minimumf"])
        if op == "divf":
            b = self.exact(b)
        v = self.fresh()
        self.emit(f"{v} = arith.{op} {a.name}, {b.name} : {self.t(a.dtype)}")
        inexact = a.inexact + b.inexact + (op == "divf")  # a GPU's f32 division: <= 2 ulp
        if op in ("addf", "subf") and (getattr(a, "from_mul", False) or getattr(b, "from_mul", False)):
            inexact += 1  # may be contracted with the multiply into one fma
        r = Value(v, a.dtype, inexact)
        r.from_mul = op == "mulf"
        self.pool.append(r)

    def op_math(self):
        a = self.pick(FLOATS)
        if a is None:
            return
        fn = self.rng.choice(["exp", "sin", "cos", "tanh", "erf", "log", "sqrt", "floor", "absf",
                              "negf"])
        v = self.fresh()
        if fn not in ("absf", "negf"):
            # Exact inputs: an input off by an ulp moves exp(x) by x ulps, and floor jumps.
            a = self.exact(a)
        if fn == "negf":
            self.emit(f"{v} = arith.negf {a.name} : {self.t(a.dtype)}")
            self.pool.append(Value(v, a.dtype, a.inexact))
            return
        self.emit(f"{v} = math.{fn} {a.name} : {self.t(a.dtype)}")
        # exp on a GPU may round x * log2 e first: up to |x| * 0.72 ulp more, 64 ulp near f32's
        # overflow (docs/TileIR.md); it counts as 8 ops of 4 ulp.
        weight = 0 if fn in ("sqrt", "floor", "absf") else 8 if fn == "exp" else 1
        self.pool.append(Value(v, a.dtype, a.inexact + weight))

    def op_int_binary(self):
        a = self.pick(INTS)
        if a is None:
            return
        b = self.cast(self.pick(INTS) or a, a.dtype)
        op = self.rng.choice(["addi", "subi", "muli", "andi", "ori", "xori", "divsi", "remsi",
                              "shli", "shrsi", "shrui", "maxsi", "minsi"])
        t = self.t(a.dtype)
        if op in ("divsi", "remsi"):
            # A divisor in [1, 8]: division by zero and INT_MIN / -1 are undefined.
            seven, one = self.const(a.dtype, 7), self.const(a.dtype, 1)
            m, d = self.fresh(), self.fresh()
            self.emit(f"{m} = arith.andi {b.name}, {seven} : {t}")
            self.emit(f"{d} = arith.addi {m}, {one} : {t}")
            b = Value(d, a.dtype, 0)
        elif op in ("shli", "shrsi", "shrui"):
            # Shift amounts below the width: larger ones are poison upstream.
            mask, m = self.const(a.dtype, BITS[a.dtype] - 1), self.fresh()
            self.emit(f"{m} = arith.andi {b.name}, {mask} : {t}")
            b = Value(m, a.dtype, 0)
        v = self.fresh()
        self.emit(f"{v} = arith.{op} {a.name}, {b.name} : {t}")
        self.pool.append(Value(v, a.dtype, 0))

    def op_cast(self):
        a = self.pick()
        if a is None:
            return
        to = self.rng.choice(FLOATS + INTS)
        self.pool.append(self.cast(a, to))

    def op_select(self):
        a = self.pick(exact=True)
        if a is None:
            return
        b = self.cast(self.pick(exact=True) or a, a.dtype)
        t, c = self.t(a.dtype), self.fresh()
        if a.dtype in FLOATS:
            pred = self.rng.choice(["olt", "ogt", "oeq", "une", "oge", "ule"])
            self.emit(f"{c} = arith.cmpf {pred}, {a.name}, {b.name} : {t}")
        else:
            pred = self.rng.choice(["slt", "sgt", "eq", "ne", "sge", "ult"])
            self.emit(f"{c} = arith.cmpi {pred}, {a.name}, {b.name} : {t}")
        x = self.pick() or a
        y = self.cast(self.pick() or x, x.dtype)
        v = self.fresh()
        self.emit(f"{v} = arith.select {c}, {x.name}, {y.name} : {self.t('i1')}, {self.t(x.dtype)}")
        self.pool.append(Value(v, x.dtype, max(x.inexact, y.inexact)))

    def op_reduce(self):
        a = self.pick()
        if a is None:
            return
        d = a.dtype
        if d in FLOATS:
            comb = self.rng.choice(["maximumf", "minimumf"])  # order-independent, exact
        else:
            comb = self.rng.choice(["addi", "maxsi", "minsi", "xori"])
        s, v = self.fresh(), self.fresh()
        ra, rb, rc = (s.replace("%v", f"%r{c}") for c in "abc")
        self.emit(f"{s} = tile.reduce({a.name}) axis = 0 : ({self.t(d)}) -> {d} {{")
        self.emit(f"^bb0({ra}: {d}, {rb}: {d}):")
        self.emit(f"  {rc} = arith.{comb} {ra}, {rb} : {d}")
        self.emit(f"  tile.yield {rc} : {d}")
        self.emit("}")
        self.emit(f"{v} = tile.splat {s} : {d} -> {self.t(d)}")
        self.pool.append(Value(v, d, a.inexact))

    def op_scan(self):
        a = self.pick()
        if a is None:
            return
        d = a.dtype
        # Order-independent combiners only, so every association gives the same bits.
        comb = self.rng.choice(["maximumf", "minimumf"] if d in FLOATS else
                               ["addi", "maxsi", "minsi", "xori"])
        v = self.fresh()
        ra, rb, rc = (v.replace("%v", f"%s{c}") for c in "abc")
        rev = " reverse" if self.rng.random() < 0.5 else ""
        self.emit(f"{v} = tile.scan({a.name}) axis = 0{rev} : ({self.t(d)}) -> {self.t(d)} {{")
        self.emit(f"^bb0({ra}: {d}, {rb}: {d}):")
        self.emit(f"  {rc} = arith.{comb} {ra}, {rb} : {d}")
        self.emit(f"  tile.yield {rc} : {d}")
        self.emit("}")
        self.pool.append(Value(v, d, a.inexact))

    def op_loop(self):
        a = self.pick()
        if a is None:
            return
        d, t = a.dtype, self.t(a.dtype)
        trips = self.rng.choice([1, 2, 3])
        lo, hi, st = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{lo} = arith.constant 0 : i64")
        self.emit(f"{hi} = arith.constant {trips} : i64")
        self.emit(f"{st} = arith.constant 1 : i64")
        v = self.fresh()
        iv, acc = v.replace("%v", "%i"), v.replace("%v", "%acc")
        step = self.rng.choice(["maximumf", "minimumf", "addf"] if d in FLOATS else
                               ["addi", "xori", "maxsi"])
        self.emit(f"{v} = scf.for {iv} = {lo} to {hi} step {st} "
                  f"iter_args({acc} = {a.name}) -> ({t}) : i64 {{")
        inner = self.fresh()
        self.emit(f"  {inner} = arith.{step} {acc}, {a.name} : {t}")
        self.emit(f"  scf.yield {inner} : {t}")
        self.emit("}")
        # Adding a float to itself doubles it exactly (no rounding below overflow).
        self.pool.append(Value(v, d, a.inexact))

    # ----- the whole kernel ------------------------------------------------------------
    def build(self):
        rng, blk = self.rng, self.blk
        n_in = rng.choice([2, 3])
        self.inputs = [(f"in{i}", rng.choice(FLOATS + INTS)) for i in range(n_in)]
        n_out = rng.choice([1, 2])
        args = [f"%in{i}: !tile.ptr<{d}>" for i, (_, d) in enumerate(self.inputs)]
        self.outputs = []
        self.emit("%pid = tile.program_id 0")
        self.emit("%p64 = arith.extsi %pid : i32 to i64")
        self.emit(f"%blk = arith.constant {blk} : i64")
        self.emit("%start = arith.muli %p64, %blk : i64")
        self.emit(f"%r = tile.arange 0, {blk} : {self.t('i32')}")
        self.emit(f"%r64 = arith.extsi %r : {self.t('i32')} to {self.t('i64')}")
        self.emit(f"%s = tile.splat %start : i64 -> {self.t('i64')}")
        self.emit(f"%offs = arith.addi %s, %r64 : {self.t('i64')}")
        self.emit(f"%ns = tile.splat %n : i64 -> {self.t('i64')}")
        self.emit(f"%m = arith.cmpi slt, %offs, %ns : {self.t('i64')}")
        self.pool = [Value("%r64", "i64", 0)]
        self.in_sizes = []
        for i, (name, d) in enumerate(self.inputs):
            kind = rng.choice(["contiguous", "reversed", "strided", "xor"])
            offs, size = "%offs", self.grid * blk
            if kind == "reversed":
                c, o = self.const("i64", self.grid * blk - 1), self.fresh()
                self.emit(f"{o} = arith.subi {c}, %offs : {self.t('i64')}")
                offs = o
            elif kind == "strided":
                c, o = self.const("i64", 2), self.fresh()
                self.emit(f"{o} = arith.muli %offs, {c} : {self.t('i64')}")
                offs, size = o, 2 * self.grid * blk
            elif kind == "xor":
                c, o = self.const("i64", rng.randrange(1, blk)), self.fresh()
                self.emit(f"{o} = arith.xori %offs, {c} : {self.t('i64')}")
                offs = o
                if blk & (blk - 1):  # the xor may leave a block that is not a power of two
                    size = 1 << (self.grid * blk - 1).bit_length()
            mask = "%m"
            if rng.random() < 0.5:
                c3, z, rm, mm = self.const("i64", rng.choice([1, 3, 5])), self.const("i64", 0), \
                    self.fresh(), self.fresh()
                self.emit(f"{rm} = arith.andi %r64, {c3} : {self.t('i64')}")
                self.emit(f"{mm} = arith.cmpi ne, {rm}, {z} : {self.t('i64')}")
                mask2 = self.fresh()
                self.emit(f"{mask2} = arith.andi %m, {mm} : {self.t('i1')}")
                mask = mask2
            other = self.const(d, rng.choice([0, 1, -2]) if d in INTS else
                               rng.choice([0.0, -1.5, 2.0]))
            ps, pp, lv = self.fresh(), self.fresh(), self.fresh()
            pt = f"tensor<{blk}x!tile.ptr<{d}>>"
            self.emit(f"{ps} = tile.splat %in{i} : !tile.ptr<{d}> -> {pt}")
            self.emit(f"{pp} = tile.addptr {ps}, {offs} : {pt}, {self.t('i64')}")
            self.emit(f"{lv} = tile.load {pp}, {mask}, {other} : {pt}")
            self.pool.append(Value(lv, d, 0))
            self.in_sizes.append(size)
        ops = [self.op_float_binary] * 4 + [self.op_math] * 2 + [self.op_int_binary] * 3 + \
            [self.op_cast] * 2 + [self.op_select] * 2 + [self.op_reduce, self.op_scan, self.op_loop]
        for _ in range(rng.randrange(5, 15)):
            rng.choice(ops)()
        outs = [self.pool[-1]] + ([rng.choice(self.pool[1:])] if n_out == 2 else [])
        for j, val in enumerate(outs):
            d = val.dtype
            args.append(f"%out{j}: !tile.ptr<{d}>")
            ps, pp = self.fresh(), self.fresh()
            pt = f"tensor<{blk}x!tile.ptr<{d}>>"
            self.emit(f"{ps} = tile.splat %out{j} : !tile.ptr<{d}> -> {pt}")
            self.emit(f"{pp} = tile.addptr {ps}, %offs : {pt}, {self.t('i64')}")
            self.emit(f"tile.store {pp}, {val.name}, %m : {pt}")
            self.outputs.append((f"out{j}", d, val.inexact))
        args.append("%n: i64")
        self.emit("return")
        head = (f"func.func @{self.name}({', '.join(args)})\n"
                f"    attributes {{tile.kernel, tile.num_warps = {self.warps} : i32}} {{")
        # Mostly full or nearly full grids (a ragged last program), sometimes a short one.
        total = self.grid * blk
        self.n = rng.choice([total, total - rng.randrange(blk), rng.randrange(1, total + 1)])
        return head + "\n" + "\n".join(self.lines) + "\n}\n"

    def case(self, module):
        args = ["--grid", str(self.grid)]
        for (name, d), size in zip(self.inputs, self.in_sizes):
            args += ["--arg", f"{name}@{d}[{size}]=rand"]
        for name, d, _ in self.outputs:
            args += ["--arg", f"{name}@{d}[{self.grid * self.blk}]"]
        args += ["--arg", f"n@i64={self.n}"]
        return {"kernel": self.name, "module": module, "args": args,
                "outputs": {name: {"dtype": d, "inexact": k} for name, d, k in self.outputs}}


def gen(ns):
    os.makedirs(os.path.join(ns.dir, "modules"), exist_ok=True)
    rng = random.Random(ns.seed)
    cases = []
    for m in range((ns.count + ns.per_module - 1) // ns.per_module):
        module = f"m{m:03d}"
        texts = []
        for k in range(min(ns.per_module, ns.count - m * ns.per_module)):
            p = Program(random.Random(rng.getrandbits(64)), f"p{m:03d}_{k:03d}", ns.odd_blocks)
            texts.append(p.build())
            c = p.case(module)
            c["seed"] = rng.randrange(1 << 20)
            c["args"] += ["--seed", str(c["seed"])]
            cases.append(c)
        with open(os.path.join(ns.dir, "modules", module + ".mlir"), "w") as f:
            f.write("// Generated by tools/tessel-difftest/difftest.py gen.\n" + "\n".join(texts))
    json.dump(cases, open(os.path.join(ns.dir, "cases.json"), "w"), indent=0)
    print(f"difftest: {len(cases)} programs in {m + 1} modules under {ns.dir}/modules")


def prepare(ns):
    tesselc = os.path.join(ns.build, "bin", "tesselc")
    tessel_run = os.path.join(ns.build, "bin", "tessel-run")
    cases = json.load(open(os.path.join(ns.dir, "cases.json")))
    modules = sorted({c["module"] for c in cases})

    def compile_module(module):
        src = os.path.join(ns.dir, "modules", module + ".mlir")
        out = []
        for target, emit, sub in (("interpreter", "tile", "interp"),
                                  ("cuda:sm_90a", ns.cuda_emit, "cuda")) + \
                (("hip:gfx942", "hsaco", "hip"),) * (not ns.no_hip):
            r = subprocess.run([tesselc, src, f"--target={target}", f"--emit={emit}",
                                "--specialize=false", "-o", os.path.join(ns.dir, sub)],
                               capture_output=True, text=True)
            if r.returncode:
                out.append(f"{module} {target}: tesselc failed:\n{r.stderr[-2000:]}")
        if ns.padded:
            # The GPUs' padding (tile-gpu-pad-shapes) on the interpreter: DIR/padded, for
            # `run DIR --runner tessel-run --target interpreter --variants padded`.
            padded = os.path.join(ns.dir, "padded", module + ".mlir")
            os.makedirs(os.path.dirname(padded), exist_ok=True)
            for cmd in ([os.path.join(ns.build, "bin", "tessel-opt"), src,
                         "--tile-gpu-pad-shapes", "-o", padded],
                        [tesselc, padded, "--specialize=false", "-o",
                         os.path.join(ns.dir, "padded")]):
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    out.append(f"{module} padded: {cmd[0]} failed:\n{r.stderr[-2000:]}")
                    break
        return out

    with ThreadPoolExecutor(ns.jobs) as ex:
        failures = [f for fs in ex.map(compile_module, modules) for f in fs]
    for f in failures:
        print(f)

    # The interpreter runs in --batch chunks (one process per job).
    chunks = [cases[i::ns.jobs] for i in range(ns.jobs)]

    def interp(chunk):
        run_batch(tessel_run, chunk, ["--target", "interpreter", "--threads", "1"],
                  os.path.join(ns.dir, "interp"), "expected")

    with ThreadPoolExecutor(ns.jobs) as ex:
        list(ex.map(interp, chunks))
    for c in cases:
        c["exit"] = c.pop("expected_exit")
    bad = [c for c in cases if c["exit"]]
    for c in bad[:10]:
        print(f"{c['kernel']}: interpreter exit {c['exit']}: {c.get('stderr', '')}")
    json.dump(cases, open(os.path.join(ns.dir, "cases.json"), "w"), indent=0)
    print(f"difftest: {len(cases)} programs, {len(failures)} module compile failures, "
          f"{len(bad)} interpreter failures")
    return 1 if failures or bad else 0


def run_batch(runner, chunk, extra, variant_dir, key):
    """Runs `chunk` through one `runner --batch` process; stores each case's printed output
    buffers under c[key] and its exit code under c[key + "_exit"]."""
    if not chunk:
        return
    with tempfile.NamedTemporaryFile("w", suffix=".batch", delete=False) as f:
        for c in chunk:
            words = [os.path.join(variant_dir, c["kernel"] + ".json"), *extra, *c["args"]]
            f.write(shlex.join(words) + "\n")
        path = f.name
    r = subprocess.run([runner, "--batch", path], capture_output=True, text=True, timeout=3600)
    os.unlink(path)
    blocks, cur = {}, []
    for line in r.stdout.splitlines():
        m = re.match(r"=== case (\d+) exit (\d+)$", line)
        if m:
            blocks[int(m.group(1))] = (cur, int(m.group(2)))
            cur = []
        else:
            cur.append(line)
    for i, c in enumerate(chunk):
        lines, code = blocks.get(i, ([], -1))
        c[key] = "".join(l + "\n" for l in lines if l.split(" = ")[0] in c["outputs"])
        c[key + "_exit"] = code
    if len(blocks) < len(chunk):
        chunk[len(blocks)][key + "_stderr"] = r.stderr[-2000:]


def parse_buffers(text):
    bufs = {}
    for line in text.splitlines():
        m = re.match(r"(\w+) = \[(.*)\]$", line.strip())
        if m:
            bufs[m.group(1)] = [s.strip() for s in m.group(2).split(",")] if m.group(2) else []
    return bufs


def compare_buffer(meta, ref, out):
    """A list of (index, ref, out) that differ beyond the bound."""
    if len(ref) != len(out):
        return [(-1, f"{len(ref)} elements", f"{len(out)} elements")]
    d, k = meta["dtype"], meta["inexact"]
    bad = []
    if d not in FLOATS or k == 0:
        return [(i, a, b) for i, (a, b) in enumerate(zip(ref, out)) if a != b]
    finite = [abs(float(a)) for a in ref if a != "poison" and a not in ("nan", "inf", "-inf")]
    scale = max([1.0] + finite)
    bound = k * 4 * scale * 2.0 ** -MANTISSA[d]
    for i, (a, b) in enumerate(zip(ref, out)):
        if a == b:
            continue
        if "poison" in (a, b) or "nan" in (a, b):
            bad.append((i, a, b))
            continue
        x, y = float(a), float(b)
        if x == y:
            continue
        if abs(x) == float("inf") or abs(y) == float("inf") or abs(x - y) > bound:
            bad.append((i, a, b))
    return bad


def run(ns):
    cases = json.load(open(os.path.join(ns.dir, "cases.json")))
    if ns.limit:
        cases = cases[:ns.limit]

    chunks = [cases[i::ns.jobs] for i in range(ns.jobs)]
    with ThreadPoolExecutor(ns.jobs) as ex:
        list(ex.map(lambda ch: run_batch(ns.runner, ch, [f"--target={ns.target}"],
                                         os.path.join(ns.dir, ns.variants), "gpu"), chunks))
    results = []
    for c in cases:
        res = {"kernel": c["kernel"], "exit": c["gpu_exit"]}
        if c["gpu_exit"] != c["exit"]:
            res["problem"] = (f"exit {c['gpu_exit']} (interpreter {c['exit']})"
                              + (": " + c["gpu_stderr"] if "gpu_stderr" in c else ""))
            results.append(res)
            continue
        ref, out = parse_buffers(c["expected"]), parse_buffers(c["gpu"])
        diffs = {}
        for name, meta in c["outputs"].items():
            bad = compare_buffer(meta, ref.get(name, []), out.get(name, []))
            if bad:
                diffs[name] = {"dtype": meta["dtype"], "inexact": meta["inexact"],
                               "count": len(bad), "first": bad[:5]}
        if diffs:
            res["problem"] = diffs
        results.append(res)
    bad = [r for r in results if "problem" in r]
    json.dump({"programs": len(results), "mismatches": bad},
              open(os.path.join(ns.dir, "report.json"), "w"), indent=1)
    for r in bad[:20]:
        print(f"MISMATCH {r['kernel']}: {r['problem']}")
    exact = sum(all(m["inexact"] == 0 or m["dtype"] not in FLOATS for m in c["outputs"].values())
                for c in cases)
    print(f"difftest: {len(results)} programs on {ns.target} against the interpreter "
          f"({exact} compared bit for bit), {len(bad)} mismatches")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("dir")
    g.add_argument("--count", type=int, default=1000)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--per-module", type=int, default=50)
    g.add_argument("--odd-blocks", action="store_true",
                   help="also blocks of 24, 48, 100 and 200 lanes (padded on the GPUs)")
    p = sub.add_parser("prepare")
    p.add_argument("dir")
    p.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))), "build"))
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--no-hip", action="store_true",
                   help="skip compiling every module for hip:gfx942 (verifier and codegen check)")
    p.add_argument("--padded", action="store_true",
                   help="also DIR/padded: the modules after tile-gpu-pad-shapes, for the interpreter")
    p.add_argument("--cuda-emit", default="cubin",
                   help="cubin (needs ptxas), or ptx (the driver compiles it at load)")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--runner", default="./tessel-run-gpu")
    r.add_argument("--jobs", type=int, default=os.cpu_count())
    r.add_argument("--limit", type=int, default=0)
    r.add_argument("--target", default="cuda", help="tessel-run's target (interpreter: a self-check)")
    r.add_argument("--variants", default="cuda", help="the variants' folder under DIR")
    ns = ap.parse_args()
    sys.exit({"gen": gen, "prepare": prepare, "run": run}[ns.cmd](ns) or 0)


if __name__ == "__main__":
    main()
