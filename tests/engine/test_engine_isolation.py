"""The engine imports no UI and no event loop (engine/__init__.py, ARCHITECTURE): checked in a fresh interpreter.

The script plays through the public API as the app does (a table, its host, a seat's session, the bots) and then
lists what got loaded. tests/test_imports.py checks the same rule on the source; this checks what really runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
