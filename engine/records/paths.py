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

Every reader opens its file with :func:`open_regular` (or :func:`read_regular`): only a regular file is read, and
never one larger than the reader's cap. A FIFO, a directory, a socket or a device in a file's place is refused
before a byte is read (it is opened without blocking, so a FIFO with no writer never hangs the start), with a
:class:`NotAFileError` whose message is the clause to tell; a file over the cap is a :class:`TooLargeError`.

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
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

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


class UnreadableError(OSError):
    """A file that is not read: the message (``str(err)``) is a clause for a sentence, no capital, no full stop."""


class NotAFileError(UnreadableError):
    """Something other than a regular file (a FIFO, a directory, a socket, a device) where a file is read."""


class TooLargeError(UnreadableError):
    """A regular file larger than its reader's cap."""


def kind_of(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, as a clause: ``it is a FIFO (a named pipe), not a file``.

    >>> kind_of(stat.S_IFIFO), kind_of(stat.S_IFDIR)
    ('it is a FIFO (a named pipe), not a file', 'it is a directory, not a file')
    """
    if stat.S_ISDIR(mode):
        return "it is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "it is a FIFO (a named pipe), not a file"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a file"
    return "it is not a regular file"


def size_words(limit: int) -> str:
    """A cap in words: ``256 KB``, ``64 MB``."""
    if limit >= 1024 * 1024:
        return f"{limit // (1024 * 1024)} MB"
    return f"{max(1, limit // 1024)} KB"


def check_regular(path: Path, limit: int | None = None) -> os.stat_result:
    """The status of ``path`` (symbolic links followed) if it is a regular file of at most ``limit`` bytes;
    NotAFileError or TooLargeError otherwise (FileNotFoundError, or another OSError, when it cannot be looked at).
    Nothing is opened: what sits at ``path`` may be a FIFO or a device."""
    status = os.stat(path)
    _check_status(status, limit)
    return status


def _check_status(status: os.stat_result, limit: int | None) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise NotAFileError(kind_of(status.st_mode))
    if limit is not None and status.st_size > limit:
        raise TooLargeError(f"it is larger than {size_words(limit)}, far more than such a file takes")


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


def open_regular(path: Path, limit: int | None = None) -> BinaryIO:
    """``path`` opened for reading in binary, if it is a regular file of at most ``limit`` bytes (see
    :func:`check_regular` for the errors). It is looked at before it is opened, opened without blocking (a FIFO
    put there meanwhile cannot hang the caller) and looked at again once open, through the open file."""
    check_regular(path, limit)
    handle = os.open(path, _READ_FLAGS)
    try:
        _check_status(os.fstat(handle), limit)
        if _READ_FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(handle, True)  # (a regular file never blocks; this only leaves the flag as usual)
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them: NotAFileError for anything but a
    regular file, TooLargeError for one larger than ``limit`` (also when it grew while it was read),
    FileNotFoundError when there is none, another OSError when it cannot be read."""
    with open_regular(path, limit) as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise TooLargeError(f"it is larger than {size_words(limit)}, far more than such a file takes")
    return data


def one_line(text: str) -> str:
    """A reason as a clause: one line, no full stop of its own at the end."""
    return re.sub(r"\s+", " ", text).strip().rstrip(".")


HOST_LOG = "host.log"


def host_log_path() -> Path:
    """What a LAN host started in the background (``parlour host``'s quit dialog) writes: its log."""
    return data_dir() / HOST_LOG
