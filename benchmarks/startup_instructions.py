"""Start-up to the first frame counted in instructions (callgrind), which the machine's load does not disturb.

Run: ``.venv/bin/python benchmarks/startup_instructions.py [GAME ...]`` (needs ``valgrind``; about 30 s a target).

The targets are ``parlour bench``'s: the one-Static Textual app, the menu (``parlour``) and each table
(``parlour play GAME --seed 1``), on a pseudo-terminal of 80x24, each with its bytecode compiled and its files in
the disk cache (``parlour bench``'s warm-up run, quit as a person quits; the reference's too). Each is run once
under ``valgrind --tool=callgrind`` and ends the moment its marker (what ``parlour bench`` waits for) is written to
the terminal, so the count is everything from the interpreter's start to the first frame, threads included. The
ratios against the reference are what to quote; wall-clock times (``parlour bench``) also depend on how well the
processor runs each program (a larger program touches more memory), so their ratios are usually a little higher.
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from tui.bench.app import (
    REFERENCE_CODE,
    REFERENCE_MARKER,
    BenchError,
    _spawn,
    _warm,
    bench_env,
    reference_argv,
    targets,
)

TIMEOUT = 300.0
"""Seconds a run under callgrind may take to its first frame (some 30 are usual) before it is given up."""

# Runs the target in this interpreter and ends it when the marker is written: Textual's terminal driver is wrapped
# once its module is imported (an import hook, so nothing is imported before the target imports it).
HARNESS = r"""
import os, sys
marker, kind = sys.argv[1], sys.argv[2]

class Hook:
    def find_spec(self, name, path=None, target=None):
        if name == "textual.drivers.linux_driver":
            sys.meta_path.remove(self)
            import importlib.util
            spec = importlib.util.find_spec(name)
            load = spec.loader.exec_module
            def exec_module(module):
                load(module)
                write = module.LinuxDriver.write
                def written(self, data):
                    write(self, data)
                    if marker in data:  # (the driver's thread writes it out: this says it was drawn)
                        os.write(sys.__stdout__.fileno(), b"\n[first frame]\n")
                        os._exit(0)
                module.LinuxDriver.write = written
            spec.loader.exec_module = exec_module
            return spec
        return None

sys.meta_path.insert(0, Hook())
if kind == "reference":
    exec(sys.argv[3])
else:
    sys.argv = ["parlour", *sys.argv[3:]]
    from tui.launch import run
    run()
"""


def count(argv: list[str], marker: str) -> int:
    """Instructions of ``argv`` (a harness command) up to its first frame, in a home of its own (as ``parlour
    bench`` runs each: no match left to resume, no settings of yours)."""
    with tempfile.TemporaryDirectory(prefix="callgrind-") as out:
        env = bench_env(Path(out))
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg", "--dump-instr=no", *argv]
        pid, master, slave = _spawn([shutil.which("valgrind") or "valgrind", *command[1:]], env)
        seen = bytearray()
        try:
            ended = False
            deadline = time.monotonic() + TIMEOUT
            while not ended:  # read everything (a terminal that is not read blocks its writer) until it ends
                ended = os.waitpid(pid, os.WNOHANG)[0] != 0
                if not ended and time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    raise BenchError(f"{' '.join(argv[3:5])}: no first frame within {TIMEOUT:g} s")
                while select.select([master], [], [], 0.0 if ended else 0.2)[0]:
                    chunk = os.read(master, 65536)
                    if not chunk:
                        break
                    seen += chunk
        finally:
            os.close(master)
            os.close(slave)
        totals = [
            int(line.split()[1])
            for path in Path(out).glob("cg*")
            for line in path.read_text(errors="replace").splitlines()
            if line.startswith(("summary:", "totals:"))
        ]
    if b"[first frame]" not in seen or not totals:
        raise BenchError(f"{' '.join(argv[3:]) or 'the reference'}: no first frame counted")
    return max(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="table screens to count (default: every one); the menu always")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: this script counts instructions with callgrind")
    chosen = targets(args.games or None)
    python = sys.executable
    _warm(reference_argv(), REFERENCE_MARKER)  # (a cold bytecode cache would count Textual's compilation too)
    reference = count([python, "-c", HARNESS, REFERENCE_MARKER, "reference", REFERENCE_CODE], REFERENCE_MARKER)
    print(f"{'target':<12} {'instructions':>14} {'x the reference':>16}")
    print(f"{'reference':<12} {reference / 1e6:>13,.0f}M {1:>15.2f}x")
    for name, argv, marker in chosen:
        _warm(argv, marker)
        found = count([python, "-c", HARNESS, marker, "app", *argv[3:]], marker)
        print(f"{name:<12} {found / 1e6:>13,.0f}M {found / reference:>15.2f}x", flush=True)


if __name__ == "__main__":
    main()
