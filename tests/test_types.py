"""``mypy --strict`` is clean on the engine and the UI (the engine's generics are real types, not ``Any`` in
disguise), in one run: the UI imports the engine, so checking ``tui`` alone reads the engine too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# mypy checks for Python 3.11 (pyproject.toml's [tool.mypy] python_version) whichever Python runs it.
pytestmark = pytest.mark.same_on_every_python

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_on_the_engine_and_the_ui_is_clean(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "engine", "tui"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
    checked = int(done.stdout.split(" in ")[-1].split()[0])  # "Success: no issues found in N source files"
    modules = sum(1 for package in ("engine", "tui") for _ in (ROOT / package).rglob("*.py"))
    assert checked == modules, (checked, modules)
