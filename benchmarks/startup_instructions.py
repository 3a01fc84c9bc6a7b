"""Start-up to the first frame counted in instructions (callgrind), which the machine's load does not disturb.

Run: ``.venv/bin/python benchmarks/startup_instructions.py [GAME ...]`` (needs ``valgrind``; about 30 s a target).

The targets are ``benchmarks/bench.py``'s: the one-Static Textual app, the menu (``parlour``) and each table
(``parlour play GAME --seed 1``), on a pseudo-terminal of 80x24, each warmed first as the bench warms it (one run,
not counted, quit as a person quits: it fills Python's bytecode cache). Each is then run once under
``valgrind --tool=callgrind`` with Textual's driver chosen through ``TEXTUAL_DRIVER``
(:mod:`parlour_bench.first_frame`: Textual's Linux driver, ending the process the moment the target's marker is
written), so the count is everything from the interpreter's start to the first frame, threads included. The app
then runs with that driver rather than the one it picks on a terminal by itself; both are Textual's Linux driver up
to the first frame. The ratios against the reference are what to quote; wall-clock times (``benchmarks/bench.py``)
also depend on how well the processor runs each program (a larger program touches more memory), so their ratios are
usually a little higher.
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

from parlour_bench.app import REFERENCE_CODE, REFERENCE_MARKER, BenchError, bench_env, spawn, targets, warm_up
from parlour_bench.first_frame import DRIVER, MARKER_VARIABLE, SEEN

TIMEOUT = 300.0
"""Seconds a run under callgrind may take to its first frame (some 30 are usual) before it is given up."""
HERE = Path(__file__).resolve().parent


def count(argv: list[str], marker: str, keep: Path | None = None) -> int:
    """Instructions of ``argv`` up to its first frame (``marker`` on screen), in a home of its own (as
    ``benchmarks/bench.py`` runs each: no match left to resume, no settings of yours); with ``keep``, callgrind's
    out-files are copied there (for ``callgrind_annotate``)."""
    name = "the reference" if "-c" in argv else " ".join(["parlour", *argv[3:]])
    with tempfile.TemporaryDirectory(prefix="callgrind-") as out:
        env = bench_env(Path(out))
        env["TEXTUAL_DRIVER"] = DRIVER
        env[MARKER_VARIABLE] = marker
        env["PYTHONPATH"] = os.pathsep.join([str(HERE), env["PYTHONPATH"]])  # where parlour_bench is
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg", "--dump-instr=no", *argv]
        pid, master, slave = spawn([shutil.which("valgrind") or "valgrind", *command[1:]], env)
        seen = bytearray()
        try:
            ended = False
            deadline = time.monotonic() + TIMEOUT
            while not ended:  # read everything (a terminal that is not read blocks its writer) until it ends
                ended = os.waitpid(pid, os.WNOHANG)[0] != 0
                if not ended and time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    raise BenchError(f"{name}: no first frame within {TIMEOUT:g} s")
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
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            label = "reference" if "-c" in argv else "-".join(argv[3:4] + argv[4:5]) or "menu"
            for path in Path(out).glob("cg*"):
                shutil.copy(path, keep / f"{label}.{path.name}")
    if SEEN.strip() not in seen or not totals:
        raise BenchError(f"{name}: no first frame counted")
    return max(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="table screens to count (default: every one); the menu always")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep callgrind's out-files in DIR")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: this script counts instructions with callgrind")
    chosen = targets(args.games or None)
    python = sys.executable
    warm_up([python, "-c", REFERENCE_CODE], REFERENCE_MARKER)
    reference = count([python, "-c", REFERENCE_CODE], REFERENCE_MARKER, args.keep)
    print(f"{'target':<12} {'instructions':>14} {'x the reference':>16}")
    print(f"{'reference':<12} {reference / 1e6:>13,.0f}M {1:>15.2f}x")
    for name, argv, marker in chosen:
        warm_up(argv, marker)
        found = count(argv, marker, args.keep)
        print(f"{name:<12} {found / 1e6:>13,.0f}M {found / reference:>15.2f}x", flush=True)


if __name__ == "__main__":
    main()
