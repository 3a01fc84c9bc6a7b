"""Would compiling Big Two's hot methods make the engine loop faster? A probe, compiled with mypyc here and now.

Run: ``.venv/bin/python benchmarks/big2_mypyc_probe.py [--games 300] [--rounds 5]`` (needs gcc and the Python
headers, which this machine has, and mypy's ``mypyc``, which the test extras install; about 30 s).

Two things are compiled with mypyc in a temporary directory, from this checkout's own source (nothing is kept):

- **methods**: ``Big2State.legal_actions`` and ``Big2State.apply``, their source as it is, made module functions
  that take the state as their first argument. Their work is reading and writing the state's attributes and making
  events and lists, on a state that stays a Python dataclass (it must: every game's state is one, and bots, views,
  the table and the tests read its fields), so mypyc can only compile them as generic Python operations.
- **combinatorics**: ``_five_card`` and ``has_five``, the pure bitmask functions that find five-card hands.

The engine loop of ``benchmarks/big2_vs_bluo42.py`` (``legal_actions`` + ``apply`` of a uniformly random legal
action, one-deal 4-player games) is then timed three ways in interleaved rounds: as it is; with the compiled methods
patched in (through a one-line Python method each, as a class needs); and with the compiled five-card functions in
the module's place. The games must come out the same every way. The five-card functions are also timed alone, on
random hands of 7 to 13 cards.

What it showed (2026-12-01): the compiled methods run the loop no faster (0.87x–0.98x), the compiled five-card
functions 1.13x faster (themselves 2.1x and 3.6x): a compiled engine would need a state that is not a Python object.
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
    """Both modules, compiled by mypyc in ``where`` and imported."""
    sources = {"probe_methods": methods_source(), "probe_five": five_source()}
    for name, text in sources.items():
        (where / f"{name}.py").write_text(text)
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
        modules = {name: importlib.import_module(name) for name in sources}
    finally:
        sys.path.remove(str(where))
    if not all(Path(module.__file__ or "").suffix == ".so" for module in modules.values()):
        raise SystemExit("mypyc built nothing that imports: the probe would time plain Python")
    return modules


def engine_loop(games: int) -> tuple[float, list[list[int]]]:
    """Games per second of the engine loop, and each game's totals (to check the games are the same)."""
    game = big2.Big2Game()
    options = dataclasses.replace(big2.DEFAULT_OPTIONS, deals=1)
    totals = []
    start = time.perf_counter()
    for index in range(games):
        rng = random.Random(1 + index)
        state = game.new_match(4, options, random.Random(1 + index))
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(state.to_move, rng.choice(legal))
        totals.append(list(state.totals))
    return games / (time.perf_counter() - start), totals


def patched(module: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    compiled_legal, compiled_apply = module.legal_actions, module.apply

    def legal_actions(self: Any) -> Any:
        return compiled_legal(self)

    def apply(self: Any, seat: Any, action: Any) -> Any:
        return compiled_apply(self, seat, action)

    return legal_actions, apply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games a round (default 300)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        raise SystemExit("no C compiler here: mypyc needs one")
    where = Path(tempfile.mkdtemp(prefix="big2-mypyc-"))
    try:
        modules = compile_modules(where)
        five = modules["probe_five"]
        as_is = (big2.Big2State.legal_actions, big2.Big2State.apply)
        pure = {name: getattr(big2, name) for name in FIVE_NAMES}
        setups = {
            "as is": (as_is, pure),
            "compiled": (patched(modules["probe_methods"]), pure),
            "five compiled": (as_is, {name: getattr(five, name) for name in FIVE_NAMES}),
        }
        figures: dict[str, list[float]] = {label: [] for label in setups}
        games: dict[str, list[list[int]]] = {}
        try:
            for rounds, count in ((1, max(1, args.games // 10)), (args.rounds, args.games)):  # a warm-up, then the runs
                for _ in range(rounds):
                    for label, (methods, functions) in setups.items():
                        big2.Big2State.legal_actions, big2.Big2State.apply = methods
                        for name, function in functions.items():
                            setattr(big2, name, function)
                        rate, games[label] = engine_loop(count)
                        if count == args.games:
                            figures[label].append(rate)
        finally:
            big2.Big2State.legal_actions, big2.Big2State.apply = as_is
            for name, function in pure.items():
                setattr(big2, name, function)
        if not games["as is"] == games["compiled"] == games["five compiled"]:
            raise SystemExit("the compiled functions played other games: the probe is broken")

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
    print(f"Big Two engine loop, {args.games} one-deal 4-player games a round, {args.rounds} interleaved rounds")
    print(f"  legal_actions and apply as they are:     {median['as is']:8,.0f} games/s")
    print(
        f"  the same two compiled by mypyc:          {median['compiled']:8,.0f} games/s "
        f"({median['compiled'] / median['as is']:.2f}x; the same games)"
    )
    print(
        f"  the five-card functions compiled:        {median['five compiled']:8,.0f} games/s "
        f"({median['five compiled'] / median['as is']:.2f}x; the same games)"
    )
    t = {key: statistics.median(values) for key, values in timings.items()}
    print("Five-card hands alone, random hands of 7 to 13 cards (µs a hand):")
    for name in ("_five_card", "has_five"):
        before, after = t[f"{name} as is"], t[f"{name} compiled"]
        print(f"  {name:<11} as is {before:6.2f}, compiled {after:6.2f} ({before / after:.1f}x faster)")


if __name__ == "__main__":
    main()
