"""Big Two's move core, both ways: compiled by ``pip install`` (``hatch_build.py``) and as plain Python.

The whole Big Two suite runs on the core in use (compiled on this machine kind, which has a C compiler); these tests
check that it is compiled, and that the plain module plays the very same games, makes the same lists of actions and
refuses the same moves with the same words.
"""

from __future__ import annotations

import os
import pickle
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from big2_helpers import GAME, VARIANT_KEYS, opts, snapshot

from engine.errors import ParlourError
from engine.games.big2 import core as big2_core
from engine.games.big2 import rules as big2
from engine.games.big2.rules import Big2State

ROOT = Path(__file__).resolve().parents[2]


IN_USE = big2.CORE
"""The core the engine chose at import."""


def test_the_core_in_use_is_the_compiled_one_where_there_is_a_compiler() -> None:
    """``pip install`` compiles the core where it can (this machine kind has gcc and the Python headers); a checkout
    whose core was edited since must be installed again, and says so."""
    if os.environ.get("PARLOUR_NATIVE") == "0":  # the suite run on the plain core on purpose
        assert big2.CORE is big2_core and big2.CORE_KIND == "plain Python (PARLOUR_NATIVE=0)", big2.CORE_KIND
        return
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        assert big2.CORE is big2_core and big2.CORE_KIND.startswith("plain Python"), big2.CORE_KIND
        return
    assert big2.CORE_KIND == "compiled with mypyc", big2.CORE_KIND
    assert big2.CORE is not big2_core
    assert Path(big2.CORE.__file__ or "").suffix in (".so", ".pyd")
    assert isinstance(Big2State(4)._core, big2.CORE.MoveCore)


@pytest.fixture
def plain() -> Iterator[None]:
    """The plain module's core for the states made inside (the core in use again afterwards)."""
    in_use = big2.CORE
    big2.use_core(big2_core)
    try:
        yield
    finally:
        big2.use_core(in_use)


def _play(seed: int, players: int, variants: tuple[str, ...]) -> list[str]:
    """A two-deal match of random legal moves (and a refused move now and then): every event, action list and
    refusal as text."""
    rng = random.Random(seed)
    state = GAME.new_match(players, opts(*variants, deals=2), random.Random(seed))
    out = list(map(repr, state.history))
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        out.append(" | ".join(map(str, legal)))
        if rng.random() < 0.1:
            wrong = rng.choice(["pass", "3D 3D", "2S", "AS KS QS JS 10S", (seat + 1) % players])
            before = snapshot(state)
            try:
                events = state.apply(wrong, legal[0]) if isinstance(wrong, int) else state.apply(seat, wrong)
            except ParlourError as refused:
                out.append(f"refused: {refused}")
                assert snapshot(state) == before
                continue
            out.extend(map(repr, events))  # it was legal after all
            continue
        out.extend(map(repr, state.apply(seat, rng.choice(legal))))
    out.append(repr(state.result))
    return out


SETUPS: list[tuple[int, tuple[str, ...]]] = [
    (4, ()),
    (3, ()),  # seventeen cards a seat: Dragons are dealt now and then
    (2, ()),  # cards set aside, and the opening card may be one of them
    (4, ("standard-suits",)),
    (3, ("taiwan",)),
    (2, ("no-play-after-pass",)),
    (4, ("pagat-scoring",)),
    (3, ("standard-suits", "no-play-after-pass")),
    (4, ("taiwan", "no-play-after-pass")),
]
assert {key for _, variants in SETUPS for key in variants} == set(VARIANT_KEYS)
CASES = [(seed, players, variants) for seed, (players, variants) in enumerate(SETUPS)]


@pytest.mark.parametrize(("seed", "players", "variants"), CASES)
def test_the_plain_core_plays_the_same_games_as_the_core_in_use(
    seed: int, players: int, variants: tuple[str, ...]
) -> None:
    for game in range(6):
        in_use = _play(100 * seed + game, players, variants)
        big2.use_core(big2_core)
        try:
            alone = _play(100 * seed + game, players, variants)
        finally:
            big2.use_core(IN_USE)
        assert alone == in_use
        assert any(line.startswith("refused: ") for line in alone)


def test_a_state_keeps_the_core_it_was_made_with(plain: None) -> None:
    state = GAME.new_match(4, opts(deals=1), random.Random(3))
    assert type(state._core) is big2_core.MoveCore
    assert type(state.clone()._core) is big2_core.MoveCore


def _import_big2(env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", "import engine.games.big2.rules as b; print(b.CORE_KIND)"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_parlour_native_0_asks_for_the_plain_core(tmp_path: Path) -> None:
    assert _import_big2(dict(os.environ, PARLOUR_NATIVE="0"), tmp_path) == "plain Python (PARLOUR_NATIVE=0)"


def _engine_with_native(tmp_path: Path, native: str) -> dict[str, str]:
    """A copy of the engine (without its builds) in ``tmp_path`` whose compiled core is the Python module ``native``,
    and the environment that imports that copy."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    name = big2.NATIVE_MODULE.rsplit(".", 1)[1]
    (tmp_path / "engine" / "games" / "big2" / f"{name}.py").write_text(native)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("PARLOUR_NATIVE", None)
    return env


def test_the_compiled_core_lives_inside_the_engine_package() -> None:
    assert big2.NATIVE_MODULE.startswith("engine.games.big2.")
    if big2.CORE is not big2_core:
        assert big2.CORE.__name__ == big2.NATIVE_MODULE
        assert Path(big2.CORE.__file__ or "").parent == Path(big2.__file__).parent


def test_a_compiled_core_from_another_source_is_never_used(tmp_path: Path) -> None:
    """A compiled module whose stamp is not that of the source beside the engine (an editable install whose
    core was edited since) is left alone: the plain module plays."""
    env = _engine_with_native(tmp_path, 'SOURCE_STAMP = "00000000-0"\nMoveCore = None\n')
    kind = _import_big2(env, tmp_path)
    assert kind.startswith("plain Python (the compiled core comes from another source"), kind


def test_a_compiled_core_with_its_sources_stamp_is_used(tmp_path: Path) -> None:
    """The other side of the check above: the copy's stamp matches, so the copy is used (here a Python stand-in)."""
    stamp = big2.source_stamp((ROOT / "engine" / "games" / "big2" / "core.py").read_bytes())
    native = (ROOT / "engine" / "games" / "big2" / "core.py").read_text() + f'\nSOURCE_STAMP = "{stamp}"\n'
    env = _engine_with_native(tmp_path, native)
    assert _import_big2(env, tmp_path) == "compiled with mypyc"


@pytest.mark.parametrize("core", ["in use", "plain"])
def test_a_state_survives_pickle_and_clone_and_plays_on_alike(core: str) -> None:
    """``parlour simulate --jobs`` sends states between processes: a state pickled, and a clone, play on as the
    original does, each with a core of its own that answers to it."""
    in_use = big2.CORE
    if core == "plain":
        big2.use_core(big2_core)
    try:
        state = GAME.new_match(3, opts("no-play-after-pass", deals=2), random.Random(8))
        rng = random.Random(8)
        for _ in range(30):
            state.apply(state.to_move, rng.choice(state.legal_actions()))  # type: ignore[arg-type]
        copies = [pickle.loads(pickle.dumps(state)), state.clone()]
        for other in [state, *copies]:
            assert other._core.owner is other and type(other._core) is type(state._core)
        assert all(snapshot(other)[:2] == snapshot(state)[:2] for other in copies)
        for other in [state, *copies]:
            moves = random.Random(9)
            while not other.is_over:
                other.apply(other.to_move, moves.choice(other.legal_actions()))  # type: ignore[arg-type]
        assert all(list(map(repr, other.history)) == list(map(repr, state.history)) for other in copies)
        assert all(other.result == state.result for other in copies)
    finally:
        big2.use_core(in_use)


def test_a_compiled_core_that_fails_to_load_leaves_the_plain_one_playing(tmp_path: Path) -> None:
    env = _engine_with_native(tmp_path, 'raise RuntimeError("damaged")\n')
    assert _import_big2(env, tmp_path) == "plain Python (the compiled core could not be loaded: damaged)"
