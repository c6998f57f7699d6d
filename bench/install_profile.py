#!/usr/bin/env python3
"""What the workspace's release profile is worth to an installed binary.

Builds `exactly` three ways into target/install-profile/ and times them
taking turns, round after round (CPU seconds of user + system time, so that
other load on the machine weighs less than in wall-clock time):

- `cargo build --release` (the binary README.md's Performance section uses);
- `cargo install --path crates/exactly-cli` (what a clone installs);
- `cargo install --path crates/exactly-cli` with cargo's default release
  profile (no fat LTO, 16 codegen units, unwinding panics), which is what
  `cargo install exactly-cli` from crates.io gets without `--config` flags.

Usage, from the repository root: python3 bench/install_profile.py [ROUNDS]
"""

import hashlib
import os
import resource
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "install-profile")
INSTANCES = [
    "testdata/langford-12.dlx",
    "testdata/pentomino-6x10-symbreak.dlx",
    "testdata/queens-14.dlx",
]


def build():
    os.makedirs(OUT, exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "-p", "exactly-cli"], cwd=ROOT, check=True)
    release = os.path.join(OUT, "build-release")
    shutil.copy(os.path.join(ROOT, "target", "release", "exactly"), release)
    installs = {"install --path": [], "default profile": [
        "--config", "profile.release.lto=false",
        "--config", "profile.release.codegen-units=16",
        "--config", 'profile.release.panic="unwind"',
    ]}
    bins = {"build --release": release}
    for name, flags in installs.items():
        root = os.path.join(OUT, name.replace(" ", "-").replace("--", ""))
        subprocess.run(
            ["cargo", "install", "--path", "crates/exactly-cli", "--root", root, "--force"] + flags,
            cwd=ROOT, check=True,
        )
        bins[name] = os.path.join(root, "bin", "exactly")
    return bins


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    bins = build()
    for name, path in bins.items():
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:16]
        print(f"{name:16} {os.path.getsize(path):>9} bytes  sha256 {digest}")
    for instance in INSTANCES:
        args = ["count", "--threads", "1", instance]
        times = {name: [] for name in bins}
        answers = set()
        for _ in range(rounds):
            for name, path in bins.items():
                before = cpu()
                out = subprocess.run([path] + args, cwd=ROOT, capture_output=True, text=True, check=True)
                times[name].append(cpu() - before)
                answers.add(out.stdout)
        assert len(answers) == 1, f"the binaries disagree on {instance}"
        base = statistics.median(times["build --release"])
        print(f"exactly {' '.join(args)} ({rounds} rounds, median CPU seconds)")
        for name, t in times.items():
            m = statistics.median(t)
            print(f"  {name:16} {m:.3f} s  ratio {m / base:.3f}")


if __name__ == "__main__":
    main()
