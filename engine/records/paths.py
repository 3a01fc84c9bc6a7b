"""Where Parlour keeps what it records: the user data directory, and the places of each kind of file in it.

``data_dir()`` is ``$PARLOUR_DATA_DIR`` when set (the tests point it at a temporary directory, so no test writes to
the real one), else ``platformdirs.user_data_dir("parlour")``. In it:

- ``autosave.json``: the local match in progress (:mod:`engine.records.saves`);
- ``host/<CODE>.jsonl``: each table a LAN host is running, its journal under its table code (``<CODE>.json``: a
  whole-file save of an earlier version, still read);
- ``host.log``: the log of a LAN host started in the background;
- ``replays/*.jsonl``: every finished match (:mod:`engine.records.replays`);
- ``stats.sqlite3``: the statistics (:mod:`engine.records.stats`).

A file that cannot be used is never deleted: :func:`move_aside` renames it to ``NAME.bad`` (``.bad-2``, ... the
first free name, so an older one is never overwritten), and the player is told in one sentence.

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as where:
...     os.environ[DATA_ENV] = where
...     try:
...         print(host_save_path("ngqc").relative_to(where), stats_path().name)
...     finally:
...         del os.environ[DATA_ENV]
host/NGQC.json stats.sqlite3
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import platformdirs

from engine.errors import OptionError, echo

DATA_ENV = "PARLOUR_DATA_DIR"
"""Set to a directory to keep saves, replays and statistics there instead of the user data directory."""
AUTOSAVE = "autosave.json"
HOST_DIR = "host"
REPLAYS_DIR = "replays"
STATS_FILE = "stats.sqlite3"

_CODE = re.compile(r"^[A-Za-z]{1,16}$")


def data_dir() -> Path:
    """``$PARLOUR_DATA_DIR`` if set, else the user data directory for Parlour (not created here)."""
    chosen = os.environ.get(DATA_ENV)
    return Path(chosen) if chosen else Path(platformdirs.user_data_dir("parlour"))


def autosave_path() -> Path:
    """The local match in progress, saved after every action."""
    return data_dir() / AUTOSAVE


def host_dir() -> Path:
    return data_dir() / HOST_DIR


def host_save_path(code: str) -> Path:
    """A LAN host's table, under its table code (letters only: a code can never name a path elsewhere)."""
    if not isinstance(code, str) or not _CODE.match(code):
        raise OptionError(f"a table code is a few letters, not {echo(code, 40)}")
    return host_dir() / f"{code.upper()}.json"


def host_saves() -> list[Path]:
    """The LAN host's saved tables, by code (what a restarted host offers again): journals (``.jsonl``) and
    whole-file saves of an earlier version (``.json``)."""
    try:
        found = [path for path in host_dir().iterdir() if path.suffix in (".json", ".jsonl")]
    except OSError:
        return []
    return sorted(path for path in found if _CODE.match(path.stem))


def replays_dir() -> Path:
    return data_dir() / REPLAYS_DIR


def stats_path() -> Path:
    return data_dir() / STATS_FILE


def aside_path(path: Path) -> Path:
    """Where a file that cannot be used goes: ``NAME.bad``, or ``.bad-2``, ``.bad-3``, ... the first free name."""
    candidate = path.with_name(path.name + ".bad")
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = path.with_name(f"{path.name}.bad-{number}")
        number += 1
    return candidate


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory, flushed to disk, then renamed
    over the old file in one step; OSError if that fails (the old file is then still whole)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def move_aside(path: Path) -> Path:
    """Rename ``path`` to its :func:`aside_path` and return where it went; OSError if it cannot be moved."""
    aside = aside_path(path)
    os.rename(path, aside)
    return aside


def one_line(text: str) -> str:
    """A reason as a clause: one line, no full stop of its own at the end."""
    return re.sub(r"\s+", " ", text).strip().rstrip(".")


HOST_LOG = "host.log"


def host_log_path() -> Path:
    """What a LAN host started in the background (``parlour host``'s quit dialog) writes: its log."""
    return data_dir() / HOST_LOG
