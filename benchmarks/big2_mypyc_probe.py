"""What would compiling buy Big Two's engine loop? A probe, compiled with mypyc here and now.

Run: ``.venv/bin/python benchmarks/big2_mypyc_probe.py [--games 300] [--rounds 5] [--bluo42 DIR]`` (needs gcc and
the Python headers, which this machine has, and mypy's ``mypyc``, which the test extras install; about 30 s).

Three things are compiled with mypyc in a temporary directory (nothing is kept):

- **methods**: ``Big2State.legal_actions`` and ``Big2State.apply``, their source as it is in this checkout, made
  module functions that take the state as their first argument. Their work is reading and writing the state's
  attributes and making events and lists on a state that is a Python dataclass, so mypyc can only compile them as
  generic Python operations.
- **five-card functions**: ``_five_card``, ``has_five`` and their helpers, from this checkout's source, with typed
  tables: pure bitmask work.
- **a native core** (:data:`CORE_PROTOTYPE`, written for this probe): the moves of one deal held in a compiled class
  of its own (hands, table, passes and turn as native fields), with legal actions and ``apply`` written against
  those fields. It returns the engine's own action and event objects and keeps the state's history, but covers only
  what the timed games need (four players, the seed's rules, no Dragon); the deal and its end are the engine's.

The engine loop of ``benchmarks/big2_vs_bluo42.py`` (``legal_actions`` + ``apply`` of a uniformly random legal
action, one-deal 4-player games) is then timed in interleaved rounds: as it is; with the compiled methods patched
in (through a one-line Python method each, as a class needs); with the compiled five-card functions in the module's
place; and with the native core, compiled and not. Every way must play the same games, event for event. With
bluo42/big2-ai's sources (``--bluo42``, or where ``big2_vs_bluo42.py`` finds them) its loop is timed in the same
rounds, for the ratio the issue asks.

What it showed (2026-12-01, two runs): the compiled methods run the loop no faster (0.93x–0.98x), the compiled
five-card functions 1.13x–1.17x faster, and the native core 1.98x–2.28x faster compiled (11.3x bluo42's games per
second, against 4.9x–5.7x as the engine is) and 1.11x–1.24x not compiled. So 8x takes Big Two's moves held in a
compiled object of their own; compiling the engine's code as it is does not get there.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.games import big2

NAMES = (
    "PASS Play PassTurn Played _PASSED _ROUND_WON _PASS_ENTRIES _HAND_CACHE HANDS _SMALL_PLAYS _lead_actions "
    "has_five _hand_combos _five_card _COMBO_KEY play_of _ranks_with _new_object"
).split()
"""What the two methods read from the module: handed over untyped (Any), as a compiled copy must."""

FIVE_NAMES = ("_ranks_with", "_has_straight", "has_five", "_lows", "_five_card")
"""The five-card functions, compiled from their source as it is (with typed tables)."""

TABLES = {
    "_LOW_BITS": "int",
    "_SUIT_MASKS": "tuple[int, int, int, int]",
    "_NIBBLE_BITS": "tuple[tuple[tuple[int, ...], ...], ...]",
    "_STRAIGHT_RUNS": "tuple[tuple[int, int, tuple[int, int, int, int, int]], ...]",
    "_STRAIGHT_BASE": "int",
    "_FLUSH_BASE": "int",
    "_FULL_HOUSE_BASE": "int",
    "_FOUR_BASE": "int",
    "_STRAIGHT_FLUSH_BASE": "int",
    "_RUN_STARTS": "int",
    "_WRAPPED_RUNS": "tuple[int, ...]",
}
"""The tables the five-card functions read, with their types (so mypyc compiles their arithmetic natively)."""


CORE_PROTOTYPE = '''from __future__ import annotations

from typing import Any

import engine.games.big2 as _b  # type: ignore
from FIVE import _five_card, has_five

_SMALL: Any = _b._SMALL_PLAYS["seed"]
SINGLES: list[Any] = list(_SMALL.singles)
SB: list[tuple[tuple[Any, ...], ...]] = list(_SMALL.single_bytes)
PB: list[tuple[tuple[Any, ...], ...]] = list(_SMALL.set_bytes[2])
TB: list[tuple[tuple[Any, ...], ...]] = list(_SMALL.set_bytes[3])
SETS: dict[int, list[tuple[tuple[tuple[int, Any], ...], ...]]] = {2: list(_SMALL.sets[2]), 3: list(_SMALL.sets[3])}
PASS: Any = _b.PASS
PLAYED: Any = _b.Played
PASSED: list[Any] = list(_b._PASSED)
ROUND_WON: list[Any] = list(_b._ROUND_WON)
PASS_ENTRIES: list[Any] = list(_b._PASS_ENTRIES)
new_object: Any = object.__new__
COMBO_KEY: Any = _b._COMBO_KEY
play_of: Any = _b.play_of


def small_lead(mask: int) -> list[Any]:
    """A lead's singles, pairs and triples, a byte of the hand at a time (as the engine's tables list them)."""
    out: list[Any] = []
    for table in (SB, PB, TB):
        for i in range(7):
            out.extend(table[i][mask >> (8 * i) & 255])
    return out


class Core:
    """One deal's moves (four players, the seed's rules), on native fields."""

    def __init__(self, hands: list[int], turn: int, must: int, history: list[Any]) -> None:
        self.hands = hands
        self.turn = turn
        self.must = must
        self.passed = [False, False, False, False]
        self.has_table = False
        self.t_kind = ""
        self.t_key = 0
        self.t_size = 0
        self.table_seat = -1
        self.played = 0
        self.over = False
        self.winner = -1
        self.history = history
        self.log: list[Any] = []
        self.version = 0

    def legal_actions(self) -> list[Any]:
        if self.over:
            return []
        mask = self.hands[self.turn]
        if not self.has_table:
            must = self.must
            if must:
                value = must.bit_length() - 1
                rank = value >> 2
                nibble = mask >> 4 * rank & 15
                out: list[Any] = [SINGLES[value]]
                for size in (2, 3):
                    for k, play in SETS[size][rank][nibble]:
                        combo: tuple[str, int, int, int, str] = play._combo
                        if combo[1] & must:
                            out.append(play)
                if mask.bit_count() >= 5 and has_five(mask):
                    combos: list[Any] = _five_card(mask, "seed", must, -1)
                    combos.sort(key=COMBO_KEY)
                    for c in combos:
                        out.append(play_of(c))
                return out
            out = small_lead(mask)
            if mask.bit_count() >= 5 and has_five(mask):
                combos = _five_card(mask, "seed", 0, -1)
                combos.sort(key=COMBO_KEY)
                for c in combos:
                    out.append(play_of(c))
            return out
        key = self.t_key
        size = self.t_size
        out = []
        if size == 1:
            above = mask >> (key + 1) << (key + 1)
            while above:
                low = above & -above
                out.append(SINGLES[low.bit_length() - 1])
                above ^= low
        elif size <= 3:
            rank = key >> 2
            for k, play in SETS[size][rank][mask >> 4 * rank & 15]:
                if k > key:
                    out.append(play)
            upper = mask >> (4 * rank + 4) << (4 * rank + 4)
            table = PB if size == 2 else TB
            for i in range(7):
                out.extend(table[i][upper >> (8 * i) & 255])
        elif size == 5:
            if mask.bit_count() >= 5 and has_five(mask):
                combos = _five_card(mask, "seed", 0, key)
                combos.sort(key=COMBO_KEY)
                for c in combos:
                    out.append(play_of(c))
        out.append(PASS)
        return out

    def apply(self, seat: int, action: Any) -> list[Any]:
        if seat != self.turn or self.over:
            raise ValueError("not your turn")
        events: list[Any]
        if action is PASS:
            if not self.has_table:
                raise ValueError("you lead")
            passed = self.passed
            passed[seat] = True
            self.log.append(PASS_ENTRIES[seat])
            ts = self.table_seat
            count = 0
            for i in range(4):
                if passed[i] and i != ts:
                    count += 1
            if count == 3:
                self.has_table = False
                self.table_seat = -1
                self.passed = [False, False, False, False]
                self.turn = ts
                events = [PASSED[seat], ROUND_WON[ts]]
            else:
                self.turn = (seat + 1) % 4
                events = [PASSED[seat]]
        else:
            combo: tuple[str, int, int, int, str] = action.__dict__["_combo"]
            name, mask, key, size, suits = combo
            before = self.hands[seat]
            if before & mask != mask or (self.must and not mask & self.must):
                raise ValueError("illegal")
            if self.has_table and not (size == self.t_size and key > self.t_key):
                raise ValueError("does not beat")
            cards = action.cards
            after = before ^ mask
            self.hands[seat] = after
            self.played |= mask
            self.log.append((seat, cards))
            self.must = 0
            self.has_table = True
            self.t_kind = name
            self.t_key = key
            self.t_size = size
            self.table_seat = seat
            if True in self.passed:
                self.passed = [False, False, False, False]
            played = new_object(PLAYED)
            played.__dict__.update(audience=None, seat=seat, cards=cards, kind=name, left=after.bit_count())
            events = [played]
            if after:
                self.turn = (seat + 1) % 4
            else:
                self.over = True
                self.winner = seat
        self.version += 1
        self.history.extend(events)
        return events
'''
"""The native core's source (``FIVE`` is replaced by the module its five-card functions come from)."""


def methods_source() -> str:
    """``legal_actions`` and ``apply`` as module functions of the state (their annotations made ``Any``)."""
    lines = [
        "from __future__ import annotations",
        "from typing import Any",
        "import engine.games.big2 as _b  # type: ignore",
        "",
    ]
    lines += [f"{name}: Any = _b.{name}" for name in NAMES]
    lines.append("_LOW_BITS: int = _b._LOW_BITS")
    legal = textwrap.dedent(inspect.getsource(big2.Big2State.legal_actions))
    legal = legal.replace("def legal_actions(self) -> list[Big2Action]:", "def legal_actions(self: Any) -> list[Any]:")
    apply = textwrap.dedent(inspect.getsource(big2.Big2State.apply))
    apply = apply.replace(
        "def apply(self, seat: int, action: object) -> list[Event]:",
        "def apply(self: Any, seat: Any, action: Any) -> list[Any]:",
    )
    apply = apply.replace("combo: Combo | None = ", "combo: Any = ").replace("table_seat: int = ", "table_seat: Any = ")
    return "\n".join(lines) + "\n\n\n" + legal + "\n\n" + apply


def five_source() -> str:
    """``_ranks_with``, ``_has_straight``, ``has_five``, ``_lows`` and ``_five_card`` with typed tables."""
    lines = [
        "from __future__ import annotations",
        "from itertools import combinations",
        "from typing import Any",
        "import engine.games.big2 as _b  # type: ignore",
        "",
        "Combo: Any = _b.Combo",
        "_SET_MASKS: Any = _b._SET_MASKS",
        "_new_tuple: Any = tuple.__new__",
    ]
    lines += [f"{name}: {kind} = _b.{name}" for name, kind in TABLES.items()]
    functions = [getattr(big2, name) for name in FIVE_NAMES]
    return "\n".join(lines) + "\n\n\n" + "\n\n".join(inspect.getsource(f) for f in functions)


def compile_modules(where: Path) -> dict[str, Any]:
    """The three modules, compiled by mypyc in ``where`` and imported, and the native core's source imported as it
    is (``probe_core_pure``, on the engine's own five-card functions)."""
    sources = {
        "probe_methods": methods_source(),
        "probe_five": five_source(),
        "probe_core": CORE_PROTOTYPE.replace("from FIVE import", "from probe_five import"),
    }
    for name, text in sources.items():
        (where / f"{name}.py").write_text(text)
    pure = CORE_PROTOTYPE.replace("from FIVE import", "from engine.games.big2 import")
    (where / "probe_core_pure.py").write_text(pure)
    (where / "setup.py").write_text(
        "from setuptools import setup\nfrom mypyc.build import mypycify\n"
        f"setup(name='probe', ext_modules=mypycify({[f'{n}.py' for n in sources]!r}, opt_level='3'))\n"
    )
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=where,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(Path(__file__).resolve().parent.parent), "PATH": "/usr/bin:/bin"},
    )
    if done.returncode:
        raise SystemExit(f"mypyc failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    sys.path.insert(0, str(where))  # the modules and the shared library mypyc built beside them
    try:
        modules = {name: importlib.import_module(name) for name in [*sources, "probe_core_pure"]}
    finally:
        sys.path.remove(str(where))
    if not all(Path(modules[name].__file__ or "").suffix == ".so" for name in sources):
        raise SystemExit("mypyc built nothing that imports: the probe would time plain Python")
    return modules


Loop = Callable[[int], "tuple[float, list[int]]"]
"""Plays games 1 to N (each from its seed): games per second, and a fingerprint of each game's events."""


def engine_loop(core: Any = None) -> Loop:
    """The engine loop; with ``core`` (a ``Core`` class), the deal's moves are the core's and its end the engine's."""
    game = big2.Big2Game()
    options = dataclasses.replace(big2.DEFAULT_OPTIONS, deals=1)

    def play(games: int) -> tuple[float, list[int]]:
        prints = []
        aside = 0.0  # the time spent taking fingerprints, left out of the figure
        start = time.perf_counter()
        for index in range(games):
            rng = random.Random(1 + index)
            state = game.new_match(4, options, random.Random(1 + index))
            if core is None:
                while not state.is_over:
                    legal = state.legal_actions()
                    state.apply(state.to_move, rng.choice(legal))
            else:
                moves = core(list(state.hands), state.turn, state.must_include, state.history)
                while not moves.over:
                    legal = moves.legal_actions()
                    moves.apply(moves.turn, rng.choice(legal))
                state.hands = moves.hands
                state.history += state._end_deal(moves.winner)
            before = time.perf_counter()
            prints.append(hash(tuple(map(repr, state.history))))
            aside += time.perf_counter() - before
        return games / (time.perf_counter() - start - aside), prints

    return play


def patched(module: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    compiled_legal, compiled_apply = module.legal_actions, module.apply

    def legal_actions(self: Any) -> Any:
        return compiled_legal(self)

    def apply(self: Any, seat: Any, action: Any) -> Any:
        return compiled_apply(self, seat, action)

    return legal_actions, apply


def with_patches(loop: Loop, methods: tuple[Callable[..., Any], ...] | None, functions: dict[str, Any]) -> Loop:
    """``loop`` with Big2State's two methods and the module's five-card functions replaced while it runs."""

    def play(games: int) -> tuple[float, list[int]]:
        saved_methods = (big2.Big2State.legal_actions, big2.Big2State.apply)
        saved = {name: getattr(big2, name) for name in functions}
        try:
            if methods is not None:
                big2.Big2State.legal_actions, big2.Big2State.apply = methods
            for name, function in functions.items():
                setattr(big2, name, function)
            return loop(games)
        finally:
            big2.Big2State.legal_actions, big2.Big2State.apply = saved_methods
            for name, function in saved.items():
                setattr(big2, name, function)

    return play


def reference_loop(given: str | None) -> Loop | None:
    """bluo42/big2-ai's loop from ``big2_vs_bluo42.py``, if its sources can be found (else None)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from big2_vs_bluo42 import bluo42_loop, find_bluo42

        theirs = bluo42_loop(find_bluo42(given))
    except SystemExit as missing:
        print(f"(no bluo42 ratio: {missing})", file=sys.stderr)
        return None
    finally:
        sys.path.pop(0)

    def play(games: int) -> tuple[float, list[int]]:
        start = time.perf_counter()
        theirs(games, 1)
        return games / (time.perf_counter() - start), []

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games a round (default 300)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--bluo42", help="a work tree of bluo42/big2-ai, for the ratio against its engine")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        raise SystemExit("no C compiler here: mypyc needs one")
    reference = reference_loop(args.bluo42)
    where = Path(tempfile.mkdtemp(prefix="big2-mypyc-"))
    try:
        modules = compile_modules(where)
        five = modules["probe_five"]
        plain = engine_loop()
        loops: dict[str, Loop] = {
            "the engine as it is": plain,
            "legal_actions and apply compiled": with_patches(plain, patched(modules["probe_methods"]), {}),
            "the five-card functions compiled": with_patches(
                plain, None, {name: getattr(five, name) for name in FIVE_NAMES}
            ),
            "the native core, compiled": engine_loop(modules["probe_core"].Core),
            "the native core, not compiled": engine_loop(modules["probe_core_pure"].Core),
        }
        if reference is not None:
            loops["bluo42/big2-ai"] = reference
        figures: dict[str, list[float]] = {label: [] for label in loops}
        games: dict[str, list[int]] = {}
        for loop in loops.values():  # a warm-up
            loop(max(1, args.games // 10))
        for _ in range(args.rounds):
            for label, loop in loops.items():
                rate, games[label] = loop(args.games)
                figures[label].append(rate)
        ours = [games[label] for label in loops if label != "bluo42/big2-ai"]
        if any(other != ours[0] for other in ours):
            raise SystemExit("some way played other games: the probe is broken")

        rng = random.Random(5)
        hands = [sum(1 << v for v in rng.sample(range(52), rng.choice((7, 9, 11, 13)))) for _ in range(3000)]
        if any(five._five_card(h, "seed") != big2._five_card(h, "seed") for h in hands):
            raise SystemExit("the compiled _five_card finds other hands: the probe is broken")
        timings: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            for label, module in (("as is", big2), ("compiled", five)):
                start = time.perf_counter()
                for h in hands:
                    module._five_card(h, "seed")
                middle = time.perf_counter()
                for h in hands:
                    module.has_five(h)
                end = time.perf_counter()
                timings.setdefault(f"_five_card {label}", []).append((middle - start) / len(hands) * 1e6)
                timings.setdefault(f"has_five {label}", []).append((end - middle) / len(hands) * 1e6)
    finally:
        shutil.rmtree(where, ignore_errors=True)

    median = {key: statistics.median(values) for key, values in figures.items()}
    base = median["the engine as it is"]
    theirs = median.get("bluo42/big2-ai")
    print(f"Big Two engine loop, {args.games} one-deal 4-player games a round, {args.rounds} interleaved rounds")
    print(f"{'':<36}{'games/s':>10}{'x as it is':>12}{'x bluo42':>10}")
    for label, rate in median.items():
        versus = f"{rate / theirs:.2f}x" if theirs else "-"
        print(f"{label:<36}{rate:>10,.0f}{rate / base:>11.2f}x{versus:>10}")
    print("every way of the engine played the same games, event for event")
    t = {key: statistics.median(values) for key, values in timings.items()}
    print("Five-card hands alone, random hands of 7 to 13 cards (µs a hand):")
    for name in ("_five_card", "has_five"):
        before, after = t[f"{name} as is"], t[f"{name} compiled"]
        print(f"  {name:<11} as is {before:6.2f}, compiled {after:6.2f} ({before / after:.1f}x faster)")


if __name__ == "__main__":
    main()
