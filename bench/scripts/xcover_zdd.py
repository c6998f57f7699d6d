"""Times Python's `xcover.covers_zdd` (with its memo) on a file in Knuth's
DLX format, best of RUNS; prints `seconds nodes` (the build alone, after a warm-up that
compiles numba's code). Used by `cargo run --bin zdd` when the `XCOVER`
environment variable names
(`python xcover_zdd.py FILE [RUNS]`) a Python that can import xcover:

    XCOVER=/path/to/venv/bin/python cargo run --release --bin zdd

Exits 2 on what xcover does not take (multiplicities)."""

import sys
import time

from xcover import covers_zdd


def read(path):
    primary, secondary, options = [], [], []
    header = None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("|"):
                continue
            if header is None:
                header = line.split()
                side = primary
                for tok in header:
                    if tok == "|":
                        side = secondary
                    elif "|" in tok:
                        sys.exit(2)  # multiplicities
                    else:
                        side.append(tok)
                continue
            options.append(line.split())
    return primary, secondary, options


def main():
    primary, secondary, options = read(sys.argv[1])
    colored = any(":" in t for o in options for t in o)
    # Warm-up: numba compiles on the first call.
    for _ in covers_zdd([["a"], ["b"], ["a", "b"]], use_memo_cache=True):
        pass
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        nodes = 0
        for _ in covers_zdd(options, primary=primary, secondary=secondary,
                            colored=colored, use_memo_cache=True):
            nodes += 1
        t = time.perf_counter() - start
        best = t if best is None else min(best, t)
    print(f"{best:.6f} {nodes}")


main()
