"""Fixtures for every test: none of them may read or write the real user's settings.

Each test gets a settings directory of its own (``$PARLOUR_CONFIG_DIR``, read by :mod:`tui.settings.file`) and a data
directory of its own (``$PARLOUR_DATA_DIR``: saves, replays, statistics), under
pytest's temporary directory and made only if a test writes there, so a test that saves settings (or changes the
theme, which is saved too) leaves nothing behind for the next test or for the person running the suite. The card
faces are one switch for the whole process (:mod:`tui.words.faces`): it is put back to suit symbols after each test.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_numbers = itertools.count()

# The suite's own processes (xdist's workers, and the apps, hosts and guests that tests start) write and reuse
# bytecode caches (__pycache__, git-ignored) even where the environment running pytest sets PYTHONDONTWRITEBYTECODE:
# without them every worker compiles each test module and the whole of engine/ and tui/ from source again at
# collection, and so does every Python a test starts. This file is read before xdist starts its workers, which
# inherit the environment; this process keeps the flag it started with.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
"""The benchmarks' own modules (``parlour_bench``), imported by the tests of the benchmark code as the scripts of
``benchmarks/`` import them: from that directory (they are not part of the package)."""
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))


@pytest.fixture(autouse=True)
def own_settings_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point ``$PARLOUR_CONFIG_DIR`` at a fresh directory (not created: the first save makes it), and
    ``$PARLOUR_DATA_DIR`` (saves, replays, statistics: :mod:`engine.records.paths`) at another."""
    number = next(_numbers)
    path = tmp_path_factory.getbasetemp() / "parlour-config" / str(number)
    monkeypatch.setenv("PARLOUR_CONFIG_DIR", str(path))
    # The bots of a test's table think on a thread of the test's process: a child process per table is a fresh
    # interpreter each time (tests of the bot process itself ask for one: tests/tui/test_robustness.py).
    monkeypatch.setenv("PARLOUR_BOT_PROCESS", "0")
    monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path_factory.getbasetemp() / "parlour-data" / str(number)))
    yield path
    faces = sys.modules.get("tui.words.faces")
    if faces is not None:
        faces.set_faces()
