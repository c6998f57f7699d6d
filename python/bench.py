#!/usr/bin/env python3
"""Speed of the `exactly` Python package against its PyPI peers.

Not run in CI. Every figure is measured in this run, in this process (the
CLI in a subprocess), warm, and printed as a ratio: how many times longer
the peer takes than `exactly`.

    python3 python/bench.py --setup      # once: a venv with exactly and the peers
    python3 python/bench.py              # then (re-runs itself in that venv)

Inputs: queens-12 (generated), langford-11 and 6x10 pentominoes with the
symmetry broken (testdata/), counted; top95 (python/tests/data), first
solutions. Peers: xcover 0.2.6 (dancing cells compiled by numba),
exact-cover (C; no secondary items, so not on queens), and a pure-Python
dictionary Algorithm X written here. The summary's ratios come from
rounds that take turns (exactly, then each compiled peer): the median of
the rounds' ratios, which a passing load sways less than a ratio of two
separate medians. The last table is the Python
overhead over `exactly count --threads 1` (the whole CLI process), which
needs `cargo build --release -p exactly-cli` first (or --cli PATH).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VENV = REPO / "target" / "python-bench-venv"
PEERS = ["xcover==0.2.6", "exact-cover", "numpy"]


def setup() -> None:
    """Creates the benchmark's own venv with exactly and its peers."""
    import venv

    print(f"creating {VENV}", flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    py = VENV / "bin" / "python"
    subprocess.run([py, "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q", str(HERE), *PEERS], check=True)


# ---------------------------------------------------------------------------
# Inputs, as plain lists shared by every solver.


class Instance:
    """Options (lists of item names), primary and secondary items."""

    def __init__(self, name, options, primary, secondary, path):
        self.name = name
        self.options = options
        self.primary = primary
        self.secondary = secondary
        self.path = path


def read_dlx(path: Path) -> tuple:
    """A small DLX reader for the benchmark's peers (no colors, no costs)."""
    lines = [l.split() for l in path.read_text().splitlines() if l.strip() and not l.lstrip().startswith("|")]
    head = lines[0]
    if "|" in head:
        bar = head.index("|")
        primary, secondary = head[:bar], head[bar + 1 :]
    else:
        primary, secondary = head, []
    return [l for l in lines[1:]], primary, secondary


def queens_dlx(n: int) -> str:
    rows = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    diags = [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)]
    out = [" ".join(rows) + " | " + " ".join(diags)]
    for r in range(n):
        for c in range(n):
            out.append(f"r{r} c{c} a{r + c} b{r - c + n - 1}")
    return "\n".join(out) + "\n"


def instances(tmp: Path) -> list:
    q = tmp / "queens-12.dlx"
    q.write_text(queens_dlx(12))
    out = []
    for name, path in [
        ("queens-12", q),
        ("langford-11", REPO / "testdata" / "langford-11.dlx"),
        ("pentomino-6x10", REPO / "testdata" / "pentomino-6x10-symbreak.dlx"),
    ]:
        out.append(Instance(name, *read_dlx(path), path))
    return out


def sudoku_options(puzzle: str) -> tuple:
    """The 9x9 sudoku as exact cover, only the options the givens allow."""
    options = []
    for cell, ch in enumerate(puzzle):
        r, c = divmod(cell, 9)
        b = 3 * (r // 3) + c // 3
        values = [int(ch)] if ch in "123456789" else range(1, 10)
        for v in values:
            options.append([f"p{r}{c}", f"r{r}v{v}", f"c{c}v{v}", f"b{b}v{v}"])
    items = sorted({i for o in options for i in o})
    return options, items


# ---------------------------------------------------------------------------
# The pure-Python dictionary Algorithm X.


def dict_x(options, primary, secondary, first=False):
    """Counts (or finds the first) exact cover, with sets in dicts."""
    X = {i: set() for i in list(primary) + list(secondary)}
    for k, o in enumerate(options):
        for i in o:
            X[i].add(k)
    prim = set(primary)

    def select(r):
        cols = []
        for j in options[r]:
            for i in X[j]:
                for k in options[i]:
                    if k != j:
                        X[k].remove(i)
            cols.append(X.pop(j))
        return cols

    def deselect(r, cols):
        for j in reversed(options[r]):
            X[j] = cols.pop()
            for i in X[j]:
                for k in options[i]:
                    if k != j:
                        X[k].add(i)

    chosen = []

    def search():
        best = None
        for j in X:
            if j in prim and (best is None or len(X[j]) < len(X[best])):
                best = j
        if best is None:
            return 1
        total = 0
        for r in list(X[best]):
            chosen.append(r)
            cols = select(r)
            total += search()
            deselect(r, cols)
            if first and total:
                return total
            chosen.pop()
        return total

    n = search()
    return list(chosen) if first else n


# ---------------------------------------------------------------------------


#: The clock: wall time, or with --cpu the CPU time of this process and its
#: children (the CLI), which other work on a shared machine disturbs far
#: less. Runs on several threads are timed on the wall clock either way.
CPU = False


def cpu_clock() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def best_time(f, repeat, warm=True, wall=False):
    """The median of `repeat` runs, after one warm-up run (unless `warm`
    is false: for the slow pure-Python solver, where there is nothing to
    warm up); and the result. The median, not the best: on a machine
    shared with other work the best run is luck."""
    result = f() if warm else None
    times = []
    clock = time.perf_counter if wall or not CPU else cpu_clock
    for _ in range(repeat):
        t = clock()
        again = f()
        times.append(clock() - t)
        assert result is None or again == result, (again, result)
        result = again
    return statistics.median(times), result


def paired(first, others, repeat, wall=False):
    """The ratio of the fastest of `others`' times to `first`'s (exactly's,
    against its peers), timed in `repeat` rounds that take turns (`first`,
    then each of `others`), after one warm-up round: the median of the
    rounds' ratios. A load that comes and goes falls on both sides of a
    round alike, where separate medians can catch it on one side only."""
    clock = time.perf_counter if wall or not CPU else cpu_clock
    first()
    for f in others:
        f()
    ratios = []
    for _ in range(repeat):
        t = clock()
        first()
        mine = clock() - t
        theirs = []
        for f in others:
            t = clock()
            f()
            theirs.append(clock() - t)
        ratios.append(min(theirs) / mine)
    return statistics.median(ratios)


def row(name, seconds, base, note=""):
    if seconds is None:
        print(f"  {name:<28} {'-':>10}  {note}")
    else:
        print(f"  {name:<28} {seconds:10.4f} s  x{seconds / base:7.1f}  {note}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setup", action="store_true", help="create the venv with the peers, then run")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per entry (the median is shown)")
    ap.add_argument("--no-pure", action="store_true", help="leave out the pure-Python Algorithm X")
    ap.add_argument("--cli", default=str(REPO / "target" / "release" / "exactly"), help="the exactly binary")
    ap.add_argument("--only", help="comma-separated inputs to run (default: all): queens-12,langford-11,pentomino-6x10,top95")
    ap.add_argument("--cpu", action="store_true", help="time CPU, not wall, where one thread runs (a shared machine)")
    args = ap.parse_args()
    global CPU
    CPU = args.cpu
    if args.setup:
        setup()
    if VENV.exists() and Path(sys.prefix).resolve() != VENV.resolve():
        py = VENV / "bin" / "python"
        rest = [a for a in sys.argv[1:] if a != "--setup"]
        os.execv(py, [str(py), __file__, *rest])

    # The script's folder holds the package's sources without the compiled
    # module: import the installed package, not them.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE.resolve()]
    import exactly
    from exactly import sudoku

    try:
        import xcover
    except ImportError:
        xcover = None
    try:
        import exact_cover
        import numpy as np
    except ImportError:
        exact_cover = None
    cores = os.cpu_count()
    print(f"exactly {exactly.__version__}; xcover {getattr(xcover, '__version__', 'not installed')}; "
          f"exact-cover {'installed' if exact_cover else 'not installed'}; {cores} cores; "
          f"median of {args.repeat} warm runs ({'CPU' if CPU else 'wall'} time; several threads: wall); xN = that many times exactly's one-thread time; "
          f"load average {os.getloadavg()[0]:.1f}")
    if xcover is None or exact_cover is None:
        print("(run with --setup to install the peers)")

    one_thread_ratios = {}
    many_ratios = {}
    with tempfile.TemporaryDirectory() as tmp:
        cases = instances(Path(tmp))
        overhead = []
        only = set(args.only.split(",")) if args.only else None
        for inst in cases:
            if only is not None and inst.name not in only:
                continue
            print(f"\n{inst.name}: count")
            p = exactly.Problem.read(inst.path)
            t1, n = best_time(lambda: p.count(threads=1), args.repeat)
            tn, n2 = best_time(lambda: p.count(), args.repeat, wall=True)
            assert n == n2
            row("exactly, 1 thread", t1, t1, f"{n} solutions")
            row(f"exactly, {cores} threads", tn, t1)
            peers = {}
            compiled = []  # the compiled peers' runs, for the paired ratios
            if xcover:
                opts, prim, sec = inst.options, inst.primary, inst.secondary

                def run_xcover(opts=opts, prim=prim, sec=sec):
                    return sum(1 for _ in xcover.covers(opts, primary=prim, secondary=sec))

                t, m = best_time(run_xcover, args.repeat)
                assert m == n, (m, n)
                peers["xcover"] = t
                compiled.append(run_xcover)
                row("xcover", t, t1)
            if exact_cover and not inst.secondary:
                items = {i: k for k, i in enumerate(inst.primary)}
                matrix = np.zeros((len(inst.options), len(items)), dtype=bool)
                for r, o in enumerate(inst.options):
                    for i in o:
                        matrix[r, items[i]] = True

                def run_exact_cover(matrix=matrix):
                    return int(exact_cover.get_solution_count(matrix))

                t, m = best_time(run_exact_cover, args.repeat)
                assert m == n, (m, n)
                peers["exact-cover"] = t
                compiled.append(run_exact_cover)
                row("exact-cover", t, t1)
            elif exact_cover:
                row("exact-cover", None, t1, "no secondary items")
            if not args.no_pure:
                t, m = best_time(lambda: dict_x(inst.options, inst.primary, inst.secondary), 1, warm=False)
                assert m == n, (m, n)
                peers["dict Algorithm X"] = t
                row("dict Algorithm X (Python)", t, t1)
            if compiled:
                one_thread_ratios[inst.name] = paired(lambda: p.count(threads=1), compiled, args.repeat)
                many_ratios[inst.name] = paired(lambda: p.count(), compiled, args.repeat, wall=True)
            elif peers:
                fastest = min(peers.values())
                one_thread_ratios[inst.name] = fastest / t1
                many_ratios[inst.name] = fastest / tn
            # Python against the CLI, both reading the file.
            if Path(args.cli).exists():
                cmd = [args.cli, "count", "--threads", "1", str(inst.path)]
                cli, out = best_time(lambda: subprocess.run(cmd, capture_output=True, text=True).stdout.strip(), args.repeat)
                assert out == str(n), (out, n)
                py, _ = best_time(lambda: exactly.Problem.read(inst.path).count(threads=1), args.repeat)
                # The same two, taking turns: Python's time over the CLI's.
                ratio = paired(
                    lambda: subprocess.run(cmd, capture_output=True, check=True),
                    [lambda: exactly.Problem.read(inst.path).count(threads=1)],
                    args.repeat,
                )
                overhead.append((inst.name, cli, py, ratio))

        if only is None or "top95" in only:
            print("\ntop95: first solutions (95 puzzles)")
            puzzles = (HERE / "tests" / "data" / "top95.txt").read_text().split()
            encoded = [sudoku_options(p) for p in puzzles]

            def exactly_first():
                return [len(exactly.Problem(o).first()) for o, _ in encoded]

            t1, _ = best_time(exactly_first, args.repeat)
            row("exactly Problem.first()", t1, t1, "built from the same lists")
            ts, answers = best_time(lambda: [a.verdict for a in sudoku.solve_many(puzzles, threads=1)], args.repeat)
            assert answers == ["unique"] * 95
            row("exactly sudoku, 1 thread", ts, t1, "uniqueness checked too")
            tn, _ = best_time(lambda: [a.verdict for a in sudoku.solve_many(puzzles)], args.repeat, wall=True)
            row(f"exactly sudoku, {cores} threads", tn, t1, "uniqueness checked too")
            fast1 = min(t1, ts)
            peers = {}
            compiled = []

            def run_sudoku(threads=None):
                return [a.verdict for a in sudoku.solve_many(puzzles, threads=threads)]

            if xcover:

                def run_xcover():
                    return [len(next(xcover.covers(o, primary=i))) for o, i in encoded]

                t, _ = best_time(run_xcover, args.repeat)
                peers["xcover"] = t
                compiled.append(run_xcover)
                row("xcover", t, t1)
            if exact_cover:
                mats = []
                for o, items in encoded:
                    idx = {i: k for k, i in enumerate(items)}
                    m = np.zeros((len(o), len(items)), dtype=bool)
                    for r, opt in enumerate(o):
                        for i in opt:
                            m[r, idx[i]] = True
                    mats.append(m)

                def run_exact_cover():
                    return [len(exact_cover.get_exact_cover(m)) for m in mats]

                t, _ = best_time(run_exact_cover, args.repeat)
                peers["exact-cover"] = t
                compiled.append(run_exact_cover)
                row("exact-cover", t, t1)
            if not args.no_pure:
                t, _ = best_time(lambda: [len(dict_x(o, i, [], first=True)) for o, i in encoded], 1, warm=False)
                peers["dict Algorithm X"] = t
                row("dict Algorithm X (Python)", t, t1)
            if compiled:
                mine = (lambda: run_sudoku(threads=1)) if ts <= t1 else exactly_first
                one_thread_ratios["top95"] = paired(mine, compiled, args.repeat)
                many_ratios["top95"] = paired(run_sudoku, compiled, args.repeat, wall=True)
            elif peers:
                fastest = min(peers.values())
                one_thread_ratios["top95"] = fastest / fast1
                many_ratios["top95"] = fastest / tn

    print("\nfastest peer's time / exactly's time, the median of rounds taking turns "
          "(goal: >= 5 on one thread, >= 10 on the default threads)")
    for name in one_thread_ratios:
        print(f"  {name:<16} one thread x{one_thread_ratios[name]:6.1f}   default threads x{many_ratios[name]:6.1f}")
    if overhead:
        print(f"\nPython over the CLI ({args.cli} count --threads 1, whole process; goal: at most +10%)")
        print("  (medians of each, and Python's time over the CLI's: the median of rounds taking turns)")
        for name, cli, py, ratio in overhead:
            print(f"  {name:<16} CLI {cli:8.4f} s   Python read+count {py:8.4f} s   {100 * (ratio - 1):+6.1f}%")
    else:
        print(f"\n(no CLI at {args.cli}: build it with cargo build --release -p exactly-cli for the overhead table)")


if __name__ == "__main__":
    main()
