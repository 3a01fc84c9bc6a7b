"""The engine imports no UI and no event loop (engine/__init__.py, ARCHITECTURE): checked in a fresh interpreter.

The script plays through the public API as the app does (a table, its host, a seat's session, the bots) and then
lists what got loaded. tests/test_imports.py checks the same rule on the source; this checks what really runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from engine.registry import ENTRIES, difficulties
from engine.play.table_host import TableHost
from engine.table import Table

for entry in ENTRIES:
    game = entry.game
    players = game.default_players
    # A person at seat 0: a host, a session for that seat, a snapshot of what the seat may know.
    table = Table.create(entry.key, players=players, seed=3, bots=[None] + ["easy"] * (players - 1))
    host = TableHost(table, autostart=False)
    session = host.connect(0)
    snap = session.snapshot()
    assert snap.seat == 0 and snap.version == table.state.version, snap
    session.close()
    host.close()
    # Only bots: the table plays the whole match by itself.
    levels = list(difficulties(game))
    bots = [levels[seat % len(levels)] for seat in range(players)]
    deals = 1 if hasattr(game.options(entry.preset), "deals") else None  # a short match where it has deals
    table = Table.create(entry.key, players=players, seed=3, bots=bots, deals=deals)
    table.run()
    assert table.state.is_over, entry.key
"""
PROBE = """
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "asyncio", "tui"))
print("LOADED:" + ",".join(bad))
"""
"""What the script prints last: every module it loaded that the engine may not."""
SCRIPT += PROBE


def run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_engine_imports_neither_textual_nor_asyncio() -> None:
    done = run(SCRIPT)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("LOADED:")]
    assert lines == ["LOADED:"], f"the engine loaded: {lines}"


def test_the_check_can_see_a_loaded_module() -> None:
    """The probe is not vacuous: asyncio imported before it is reported (the probe alone: the matches above
    are not needed to show that)."""
    done = run("import sys\nimport asyncio\n" + PROBE)
    assert done.returncode == 0, done.stderr
    assert "LOADED:asyncio" in done.stdout


# -- ``import engine``: the library's front door, cheap to open ------------------------------------------------------
FRONT_DOOR = """
import sys
import engine
print("AFTER_IMPORT:" + ",".join(sorted(m for m in sys.modules if m == "engine" or m.startswith(("engine.", "typing",
    "asyncio", "sqlite3", "threading", "textual", "tui")))))
names = (engine.ENTRIES, engine.get_entry, engine.Table, engine.Scenario, engine.Card, engine.encode, engine.decode)
print("AFTER_NAMES:" + ",".join(sorted(m for m in sys.modules if m.startswith(("engine.games", "asyncio", "sqlite3")))))
table = engine.Table.create("trash", players=2, seed=1, bots=["easy", "easy"])
print("AFTER_TABLE:" + ",".join(sorted(m for m in sys.modules if m.startswith(("engine.games", "asyncio", "sqlite3")))))
"""


def _printed(done: subprocess.CompletedProcess[str], label: str) -> list[str]:
    (line,) = [line for line in done.stdout.splitlines() if line.startswith(label + ":")]
    return [name for name in line.removeprefix(label + ":").split(",") if name]


def test_import_engine_loads_nothing_but_itself() -> None:
    """``import engine`` loads no other module of the engine (so no game), nor typing, asyncio or sqlite3; naming
    the games, a table and the codec loads no game's rules (only each game's package, which holds its record); a
    table of Trash loads Trash's rules and no other game's."""
    done = run(FRONT_DOOR)
    assert done.returncode == 0, done.stderr
    assert _printed(done, "AFTER_IMPORT") == ["engine"]
    named = _printed(done, "AFTER_NAMES")
    assert "engine.games.trash" in named, named  # the records, found in the games' packages
    assert [m for m in named if m.count(".") > 2 or not m.startswith("engine.games")] == [], named
    loaded = _printed(done, "AFTER_TABLE")
    assert "engine.games.trash.rules" in loaded, loaded
    assert [m for m in loaded if m.count(".") > 2 and not m.startswith("engine.games.trash.")] == [], loaded


def test_every_public_name_of_engine_is_there() -> None:
    """Each name of ``engine.__all__`` resolves (to the object of its module of the core), ``dir`` lists it, and
    any other name is an AttributeError."""
    import engine
    from engine import errors

    for name in engine.__all__:
        assert name in dir(engine), name
        value = getattr(engine, name)
        if name != "__version__":
            where = engine._WHERE[name]
            assert where.count(".") == 1 and where.split(".")[1] not in ("play", "lan", "records"), where
            assert value is getattr(sys.modules[where], name), name
    assert set(engine._WHERE) | {"__version__"} == set(engine.__all__)
    assert engine.ParlourError is errors.ParlourError
    with pytest.raises(AttributeError, match="no attribute 'Tabel'"):
        engine.Tabel  # noqa: B018
