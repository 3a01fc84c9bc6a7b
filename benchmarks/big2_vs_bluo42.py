"""Big Two random 4-player games: Parlour's engine and its ``Table`` against bluo42/big2-ai, in one run.

Run: ``.venv/bin/python benchmarks/big2_vs_bluo42.py [--games 200] [--rounds 5] [--bluo42 DIR]``

``DIR`` is a work tree of https://github.com/bluo42/big2-ai (the directory that holds ``big2/game.py``). Without
``--bluo42`` the script looks at ``$BLUO42``, then ``/tmp/bluo42``, then extracts the read-only mirror
``/work/.mirror/bluo42+big2-ai/repo`` into a temporary directory with ``git archive``. Only bluo42's
``big2.cards``, ``big2.rules``, ``big2.combos`` and ``big2.game`` are loaded (pure Python, no numpy or torch); its
code is run, never copied.

Three loops play whole one-deal games, game ``i`` from seed ``seed + i`` in every loop:

- **bluo42 engine**: ``Big2Game(num_players=4)``, then ``legal_moves()`` and ``step(move)`` until ``game_over``,
  each move drawn uniformly from the legal plays, plus ``None`` (pass) when ``can_pass()``.
- **Parlour engine**: ``Big2Game().new_match(4, deals=1)``, then ``state.legal_actions()`` and
  ``state.apply(seat, action)`` until ``state.is_over``, the same policy (``legal_actions`` holds the pass when
  one may pass).
- **Parlour engine, plain core**: the same, with Big Two's move core as plain Python
  (:mod:`engine.games.big2.core`, what runs where ``pip install`` could not compile it).
- **Parlour Table**: what ``parlour simulate`` and the app run: ``Table.create("big2", 4, seed=...,
  bots=["easy"] * 4, deals=1)`` then ``table.run()``. ``easy`` is Big Two's ``EasyBig2Bot``: a uniformly random
  play, or a pass a quarter of the time when passing is allowed; each decision gets its own seeded RNG and the
  seat's view, and every event is published.

The machine is noisy (two cores shared), so the loops are interleaved: each round times Parlour's engine,
bluo42's, Parlour's Table, bluo42's again, then the plain core; each Parlour figure is divided by the bluo42 figure
timed next to it (the plain core's by the second), and the script prints the median over the rounds of the games
per second and of those ratios. The absolute figures move with the machine's load; the ratios are the point. The
games differ between engines (their rules differ: bluo42 has no lone triples), so the moves per game are printed
too.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.games.big2 import core as big2_core
from engine.games.big2 import rules as big2
from engine.games.big2.rules import DEFAULT_OPTIONS, Big2Game
from engine.table import Table

MIRROR = Path("/work/.mirror/bluo42+big2-ai/repo")
"""A read-only git mirror of bluo42/big2-ai, if this machine has one."""

Loop = Callable[[int, int], int]
"""Plays ``games`` games from seed ``seed`` onwards; returns how many moves were made."""


def find_bluo42(given: str | None) -> Path:
    """The directory that holds bluo42's ``big2`` package (extracted from the mirror when nothing else is)."""
    for candidate in (given, os.environ.get("BLUO42"), "/tmp/bluo42"):
        if candidate and (Path(candidate) / "big2" / "game.py").is_file():
            return Path(candidate)
    if given:
        raise SystemExit(f"no big2/game.py under {given}: give a work tree of bluo42/big2-ai")
    if not MIRROR.is_dir() or shutil.which("git") is None:
        raise SystemExit("bluo42/big2-ai not found: clone it and give its directory with --bluo42")
    where = Path(tempfile.mkdtemp(prefix="bluo42-"))
    archive = subprocess.run(["git", "-C", str(MIRROR), "archive", "HEAD"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def bluo42_loop(root: Path) -> Loop:
    """bluo42's engine, driven the way its own tournaments drive it (``legal_moves`` then ``step``)."""
    sys.path.insert(0, str(root))
    try:
        from big2.game import Big2Game as TheirGame  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(root))

    def play(games: int, seed: int) -> int:
        moves = 0
        for index in range(games):
            rng = random.Random(seed + index)
            game = TheirGame(num_players=4, rng=random.Random(seed + index))
            while not game.game_over:
                legal: list[Any] = game.legal_moves()
                if game.can_pass():
                    legal.append(None)
                game.step(rng.choice(legal))
                moves += 1
        return moves

    return play


def parlour_engine_loop() -> Loop:
    """Parlour's rules alone: ``legal_actions`` and ``apply`` on a one-deal match."""
    game = Big2Game()
    options = dataclasses.replace(DEFAULT_OPTIONS, deals=1)

    def play(games: int, seed: int) -> int:
        moves = 0
        for index in range(games):
            rng = random.Random(seed + index)
            state = game.new_match(4, options, random.Random(seed + index))
            while not state.is_over:
                legal = state.legal_actions()
                state.apply(state.to_move, rng.choice(legal))
                moves += 1
        return moves

    return play


def plain_core_loop() -> Loop:
    """:func:`parlour_engine_loop` with the plain Python move core."""
    engine = parlour_engine_loop()

    def play(games: int, seed: int) -> int:
        in_use = big2.CORE
        big2.use_core(big2_core)
        try:
            return engine(games, seed)
        finally:
            big2.use_core(in_use)

    return play


def parlour_table_loop() -> Loop:
    """Parlour's ``Table``, as ``parlour simulate --bots easy`` runs it: bots, views, events and all."""

    def play(games: int, seed: int) -> int:
        moves = 0
        for index in range(games):
            table = Table.create("big2", 4, seed=seed + index, bots=["easy"] * 4, deals=1)
            table.run()
            moves += len(table.actions)
        return moves

    return play


def timed(loop: Loop, games: int, seed: int) -> tuple[float, int]:
    """Games per second and moves made."""
    start = time.perf_counter()
    moves = loop(games, seed)
    return games / (time.perf_counter() - start), moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per loop and round (default 200)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; medians are printed (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="game i of every loop is dealt from seed + i")
    parser.add_argument("--bluo42", help="a work tree of bluo42/big2-ai (the directory holding big2/)")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    theirs = bluo42_loop(find_bluo42(args.bluo42))
    engine, table, plain = parlour_engine_loop(), parlour_table_loop(), plain_core_loop()
    for loop in (engine, theirs, table, plain):  # warm up: imports, first-call caches
        loop(max(1, args.games // 10), args.seed + 10**6)

    figures: dict[str, list[float]] = {
        key: [] for key in ("engine", "bluo42", "table", "plain", "engine/bluo42", "table/bluo42", "plain/bluo42")
    }
    moves: dict[str, int] = {}
    for round_number in range(1, args.rounds + 1):
        ours, moves["engine"] = timed(engine, args.games, args.seed)
        ref_a, moves["bluo42"] = timed(theirs, args.games, args.seed)
        via_table, moves["table"] = timed(table, args.games, args.seed)
        ref_b, _ = timed(theirs, args.games, args.seed)
        in_plain, moves["plain"] = timed(plain, args.games, args.seed)
        figures["engine"].append(ours)
        figures["bluo42"] += [ref_a, ref_b]
        figures["table"].append(via_table)
        figures["engine/bluo42"].append(ours / ref_a)
        figures["table/bluo42"].append(via_table / ref_b)
        figures["plain"].append(in_plain)
        figures["plain/bluo42"].append(in_plain / ref_b)
        print(
            f"round {round_number}: engine {ours:,.0f}, bluo42 {ref_a:,.0f}, table {via_table:,.0f}, "
            f"bluo42 {ref_b:,.0f}, plain core {in_plain:,.0f} games/s",
            file=sys.stderr,
        )
    median = {key: statistics.median(values) for key, values in figures.items()}
    print(f"Big Two, random 4-player one-deal games: {args.games} games a loop, {args.rounds} interleaved rounds")
    if hasattr(os, "getloadavg"):
        print(f"load average at the end: {os.getloadavg()[0]:.2f} (absolute figures mean little on a busy machine)")
    print(f"Big Two's move core: {big2.CORE_KIND}")
    print(f"{'loop':<42}{'games/s':>10}{'moves/game':>12}{'vs bluo42':>11}")
    rows = (
        ("bluo42/big2-ai engine (legal_moves + step)", "bluo42", None),
        ("Parlour engine (legal_actions + apply)", "engine", "engine/bluo42"),
        ("Parlour engine, plain Python core", "plain", "plain/bluo42"),
        ('Parlour Table (4 "easy" bots, table.run)', "table", "table/bluo42"),
    )
    for label, key, ratio in rows:
        versus = f"{median[ratio]:.2f}x" if ratio else "1.00x"
        print(f"{label:<42}{median[key]:>10,.0f}{moves[key] / args.games:>12.1f}{versus:>11}")
    print("medians over the rounds; each ratio is taken against the bluo42 run timed next to it")


if __name__ == "__main__":
    main()
