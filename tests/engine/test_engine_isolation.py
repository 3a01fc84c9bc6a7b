"""The engine imports no UI and no event loop (engine/__init__.py, ARCHITECTURE): checked in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
import engine, engine.table, engine.session, engine.games.chase, engine.bots.chase
from engine.session import LocalSession
from engine.table import Table

for game, bots in (("screw", ["easy", "medium", "hard"]), ("chase", ["hard", "medium", "easy", "medium"])):
    table = Table.create(game, players=len(bots), seed=3, bots=bots)
    session = LocalSession(table, 0)
    session.view()
    table.run()
    assert table.state.is_over and session.is_over
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "asyncio"))
print("LOADED:" + ",".join(bad))
"""


def test_engine_imports_neither_textual_nor_asyncio() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("LOADED:")]
    assert lines == ["LOADED:"], f"the engine loaded: {lines}"


def test_the_check_can_see_a_loaded_module() -> None:
    """The probe is not vacuous: importing asyncio in the same way is reported."""
    script = SCRIPT.replace("import sys\n", "import sys\nimport asyncio\n", 1)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "asyncio" in done.stdout
