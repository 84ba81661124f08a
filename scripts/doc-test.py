#!/usr/bin/env python3
"""doc-test.py [--root DIR] [--bin DIR] [FILE.md ...]: runs every ```sh block of README.md and
docs/*.md (or of the files given) as a user would, so a documented command that breaks fails the
test suite (test/scripts/doc-test.test).

Each file's blocks run in order, in one scratch directory per file whose `build/bin` is --bin
(and `build/python` the Python package beside it) and whose other top-level entries (dsl/,
examples/, ...) link to --root's, under `bash -e -o pipefail` with --bin first on PATH (so both
`build/bin/tesselc` and a bare `tessel-run` work) and a `python3` that has NumPy next;
what a block writes (out/, x.npy) stays in the scratch directory for the blocks after it. A
block whose fence is preceded by `<!-- doc-test: skip: REASON -->` is not run and is listed with
its reason (a GPU, the set-up commands themselves, a synopsis). Prints one line per block and
"doc-test: N run, M skipped, K failed"; exit 1 when one failed, with its output's last lines."""
import argparse, glob, os, re, shutil, subprocess, sys, tempfile, time

SKIP = re.compile(r"<!--\s*doc-test:\s*skip:\s*(.+?)\s*-->")


def blocks(path):
    """(line of the fence, text, skip reason or None) of each ```sh block of `path`."""
    out, lines = [], open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            start, body = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            if i == len(lines):
                sys.exit(f"{path}:{start}: a ```sh block is never closed")
            prev = lines[start - 2].strip() if start >= 2 else ""
            m = SKIP.fullmatch(prev)
            out.append((start, "\n".join(body) + "\n", m.group(1) if m else None))
        i += 1
    return out


def python_with_numpy():
    """The docs' .npy steps run `python3 -c "import numpy ..."`: the interpreter running this
    script when it has NumPy, else the system's (setup.sh installs python3-numpy there; a pyenv
    or venv python3 first on PATH may lack it). None when neither has it."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, "-c", "import numpy"], capture_output=True).returncode == 0:
            return exe
    return None


def scratch(root, bindir):
    d = tempfile.mkdtemp(prefix="tessel-doc-test-")
    for entry in os.listdir(root):
        if entry not in ("build", ".git"):
            os.symlink(os.path.join(root, entry), os.path.join(d, entry))
    os.makedirs(os.path.join(d, "build"))
    os.symlink(bindir, os.path.join(d, "build", "bin"))
    # The Python package beside the tools (docs/Python.md: PYTHONPATH=build/python).
    python_pkg = os.path.join(os.path.dirname(bindir), "python")
    if os.path.isdir(python_pkg):
        os.symlink(python_pkg, os.path.join(d, "build", "python"))
    os.makedirs(os.path.join(d, ".doc-test-bin"))
    python = python_with_numpy()
    if python:
        os.symlink(python, os.path.join(d, ".doc-test-bin", "python3"))
    return d


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(here), help="the source tree")
    ap.add_argument("--bin", default=None, help="the tools (default: ROOT/build/bin)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per block")
    ap.add_argument("files", nargs="*", help="markdown files (default: README.md, docs/*.md)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    bindir = os.path.abspath(args.bin or os.path.join(root, "build", "bin"))
    files = args.files or [os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs", "*.md")))
    user_path = os.environ.get("PATH", "")
    run = skipped = failed = 0
    for path in files:
        name = os.path.relpath(path, root) if path.startswith(root) else path
        found = blocks(path)
        if not found:
            continue
        work = scratch(root, bindir)
        env = dict(os.environ, PATH=os.pathsep.join(
            [bindir, os.path.join(work, ".doc-test-bin"), user_path]))
        try:
            for line, text, reason in found:
                where = f"{name}:{line}"
                if reason:
                    skipped += 1
                    print(f"SKIP {where}: {reason}")
                    continue
                run += 1
                t0 = time.time()
                try:
                    p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", text], cwd=work,
                                       env=env, capture_output=True, text=True,
                                       timeout=args.timeout)
                    rc, out = p.returncode, p.stdout + p.stderr
                except subprocess.TimeoutExpired:
                    rc, out = "timeout", f"(no exit after {args.timeout} s)"
                if rc == 0:
                    print(f"PASS {where} ({time.time() - t0:.1f} s)")
                else:
                    failed += 1
                    tail = "\n".join("    " + l for l in out.strip().split("\n")[-8:])
                    print(f"FAIL {where}: exit {rc}\n  the block:\n" +
                          "".join("    " + l + "\n" for l in text.rstrip().split("\n")) +
                          f"  its output's last lines:\n{tail}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print(f"doc-test: {run} run, {skipped} skipped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
