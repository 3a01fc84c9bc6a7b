"""Parlour's speed, each figure beside its reference measured in the same run: one table (or one JSON object).

Run from the repository root: ``.venv/bin/python benchmarks/bench.py [--quick] [--json] [--part PART ...]``

The app's start-up and quitting on a pseudo-terminal against a one-Static Textual app, a hand's redraw against one
``Static.update``, the longest frame while bots think; random games per second of every game against its engine
loop, Big Two move generation against a naive generator; every bot's decision time; a LAN move's round trip against
a loopback echo and how many tables one host serves. What each figure is and how it is measured:
:mod:`parlour_bench.runner` and the modules it names. Several minutes; ``--quick`` has fewer rounds and smaller
samples. The current figures are in ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import sys

from parlour_bench import runner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="benchmarks/bench.py",
        description="Measure Parlour's speed, each figure beside its reference measured in the same run.",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--quick", action="store_true", help="fewer rounds and smaller samples")
    parser.add_argument(
        "--part",
        action="append",
        choices=list(runner.PART_NAMES),
        help="measure this part only (may be given more than once; default: every part)",
    )
    args = parser.parse_args(argv)
    parts = [runner.PART_NAMES[name] for name in args.part] if args.part else list(runner.PARTS)
    show = not args.json and sys.stderr.isatty()
    return runner.main(args.quick, args.json, sys.stdout, sys.stdout.isatty(), show, parts)


if __name__ == "__main__":
    raise SystemExit(main())
