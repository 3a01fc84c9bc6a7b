"""Where Parlour keeps what it records: the user data directory, and the places of each kind of file in it.

``data_dir()`` is ``$PARLOUR_DATA_DIR`` when set (the tests point it at a temporary directory, so no test writes to
the real one), else ``platformdirs.user_data_dir("parlour")``. In it:

- ``autosave.json``: the local match in progress (:mod:`engine.records.saves`), and ``autosave-2.json``,
  ``autosave-3.json`` ... those of other Parlours running at the same time: each running Parlour owns one save
  (:func:`autosave_path`), locked through its ``.lock`` file beside it for as long as the process lives;
- ``host/<CODE>.jsonl``: each table a LAN host is running, its journal under its table code (``<CODE>.json``: a
  whole-file save of an earlier version, still read); the host claims the directory for as long as it runs
  (:func:`claim_tables_dir`), and a second host started meanwhile keeps its own in ``host-2/``;
- ``host.log``: the log of a LAN host started in the background;
- ``replays/*.jsonl``: every finished match (:mod:`engine.records.replays`);
- ``stats.sqlite3``: the statistics (:mod:`engine.records.stats`), and ``stats-pending.jsonl``: games waiting to
  be counted (the database was locked or could not be written when they ended);
- ``tokens/``: a LAN player's resume token for each host it plays at (:mod:`engine.lan.tokens`);
- ``guests/<key>/``: the data directory of each SSH guest of this machine's host, one per key it logged in with
  (:func:`engine.lan.lan_host.guest_command`).

A file that cannot be used is never deleted: :func:`move_aside` renames it to ``NAME.bad`` (``.bad-2``, ... the
first free name, so an older one is never overwritten), and the player is told in one sentence.

Every reader opens its file with :func:`open_regular` (or :func:`read_regular`): only a regular file is read, and
never one larger than the reader's cap. A FIFO, a directory, a socket or a device in a file's place is refused
before a byte is read (it is opened without blocking, so a FIFO with no writer never hangs the start), with a
:class:`NotAFileError` whose message is the clause to tell; a file over the cap is a :class:`TooLargeError`.
Every file appended to (the statistics' queue, a LAN host's journals, its log) is opened with
:func:`open_appending`, which refuses the same things the same way (a FIFO with no reader never hangs the writer).

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

import errno
import itertools
import os
import re
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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
    """Where this process saves its local match in progress (after every action): a save no other running Parlour
    uses, and the one offered to go on with at the start.

    The first call claims it, and the claim lasts as long as the process (a process killed with SIGKILL lets go
    too: the lock is the system's, on the open file). Claimed is the newest save that no running Parlour owns, the
    match left unfinished by a Parlour closed or killed; when every save is owned (or there is none), the first
    free one of ``autosave.json``, ``autosave-2.json``, ... The other saves stay where they are, each one claimed,
    and so offered, by a later start. A data directory where no lock can be taken (it cannot be made, or its file
    system has no locks) gives ``autosave.json`` unclaimed, tried again at the next call."""
    where = data_dir()
    with _CLAIM_LOCK:
        global _claim
        if _claim is not None and _claim.where == where and _claim.handle is not None:
            return _claim.path
        if _claim is not None and _claim.handle is not None:
            os.close(_claim.handle)  # another data directory (the tests'): this one is let go
        _claim = _claim_save(where)
        return _claim.path


MAX_SAVES = 1000
"""Saves of Parlours running at once beyond which no other is claimed (``autosave.json`` is then used unclaimed)."""
LOCK_SUFFIX = ".lock"
_SAVE_NAME = re.compile(r"^autosave(?:-([2-9]|[1-9][0-9]+))?\.json$")


@dataclass(frozen=True)
class _Claim:
    where: Path
    """The data directory it was claimed in."""
    path: Path
    handle: int | None
    """The open lock file, locked by this process (None: no lock could be taken there)."""


_claim: _Claim | None = None
_CLAIM_LOCK = threading.Lock()


def _forget_claim() -> None:
    """In a child made by ``fork``: the parent's save stays the parent's (closing this copy keeps its lock), and a
    claim of the child's own starts afresh (the parent's lock may have been held by another thread)."""
    global _claim, _CLAIM_LOCK
    if _claim is not None and _claim.handle is not None:
        os.close(_claim.handle)
    _claim = None
    _CLAIM_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_claim)


def save_slot(where: Path, number: int) -> Path:
    """The ``number``-th save in data directory ``where``: ``autosave.json``, then ``autosave-2.json`` ..."""
    return where / (AUTOSAVE if number == 1 else f"autosave-{number}.json")


def local_saves(where: Path | None = None) -> list[Path]:
    """The saves of local matches in ``where`` (by default :func:`data_dir`), newest first; owned or not."""
    folder = data_dir() if where is None else where
    try:
        names = [name for name in os.listdir(folder) if _SAVE_NAME.match(name)]
    except OSError:
        return []

    def age(name: str) -> tuple[int, str]:
        try:
            return (-os.lstat(folder / name).st_mtime_ns, name)
        except OSError:  # gone meanwhile
            return (0, name)

    return [folder / name for name in sorted(names, key=age)]


def _claim_save(where: Path) -> _Claim:
    try:
        where.mkdir(parents=True, exist_ok=True)
        slots = (save_slot(where, number) for number in range(1, MAX_SAVES + 1))
        for path in itertools.chain(local_saves(where), slots):  # (one owned is tried again: it may be let go)
            handle = _lock(path)
            if handle is not None:
                return _Claim(where, path, handle)
    except OSError:  # no lock here: saved as before, unclaimed (the save's own writes say what is wrong)
        pass
    return _Claim(where, where / AUTOSAVE, None)


def _lock(save: Path) -> int | None:
    """The lock file of ``save``, open and locked by this process; None when another process holds it, or it is
    not a regular file (that save is left alone). OSError when no lock can be taken in its directory."""
    return _take_lock(save.with_name(save.name + LOCK_SUFFIX))


def _take_lock(path: Path) -> int | None:
    """The lock file ``path``, open and locked by this process (see :func:`_lock`)."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        handle = os.open(path, flags, 0o600)
    except OSError as err:
        if err.errno in (errno.EISDIR, errno.ELOOP, errno.ENXIO) or os.path.lexists(err.filename or ""):
            return None  # something else is there (a directory, a link, a socket, another user's file)
        raise
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode) or not _locked(handle):
            os.close(handle)
            return None
    except BaseException:
        os.close(handle)
        raise
    return handle


def _locked(handle: int) -> bool:
    """Lock the open file ``handle`` for this process, without waiting: False when another process holds it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def host_dir() -> Path:
    return data_dir() / HOST_DIR


def host_save_path(code: str) -> Path:
    """A LAN host's table, under its table code (letters only: a code can never name a path elsewhere)."""
    if not isinstance(code, str) or not _CODE.match(code):
        raise OptionError(f"a table code is a few letters, not {echo(code, 40)}")
    return host_dir() / f"{code.upper()}.json"


MAX_HOSTS = 100
"""LAN hosts running at once with one data directory beyond which no other tables' directory is claimed."""
HOST_LOCK = ".host.lock"
"""The lock file in a LAN host's tables' directory, locked by the host that keeps its tables there."""


@dataclass(frozen=True)
class TablesClaim:
    """The directory a running LAN host keeps its tables' journals in (:func:`claim_tables_dir`)."""

    path: Path
    handle: int | None
    """The open lock file, locked by this process (None: no lock could be taken there); closed by :meth:`release`."""

    def release(self) -> None:
        """Let the directory go (the host has stopped, its journals written): the next host may claim it."""
        if self.handle is not None:
            os.close(self.handle)


def claim_tables_dir(keep: Path) -> TablesClaim:
    """The directory a LAN host asked to keep its tables in ``keep`` keeps them in, claimed for as long as it runs
    (through its :data:`HOST_LOCK`; a host killed with SIGKILL lets go too), so two hosts with one data directory
    never take or overwrite each other's journals.

    Claimed is ``keep`` itself, or when another running host holds it, ``keep-2``, ``keep-3``... : the first free
    one that holds tables left by a host that stopped (so they are offered again), else the first free one. A
    directory where no lock can be taken (it cannot be made, its file system has no locks) is ``keep`` unclaimed,
    as before."""
    names = [keep, *(keep.with_name(f"{keep.name}-{number}") for number in range(2, MAX_HOSTS + 1))]
    try:
        for path in names:  # first the tables left waiting, in order
            if _holds_tables(path):
                handle = _take_lock(path / HOST_LOCK)
                if handle is not None:
                    return TablesClaim(path, handle)
        for path in names:
            path.mkdir(parents=True, exist_ok=True)
            handle = _take_lock(path / HOST_LOCK)
            if handle is not None:
                return TablesClaim(path, handle)
    except OSError:  # no lock here: kept as before, unclaimed (the journals' own writes say what is wrong)
        pass
    return TablesClaim(keep, None)


def _holds_tables(path: Path) -> bool:
    try:
        return any(
            entry.suffix in (".json", ".jsonl") and _CODE.match(entry.stem) is not None for entry in path.iterdir()
        )
    except OSError:
        return False


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
    temporary = _synced_temporary(path, text)
    try:
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _synced_temporary(path: Path, text: str) -> str:
    """``text`` in a new temporary file beside ``path`` (its directory made if missing), flushed to disk; its
    name. OSError (and no file left) if it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def write_new_file(names: Iterable[Path], text: str, link: Callable[[str, Path], None] = os.link) -> Path:
    """Write ``text`` as the first of ``names`` (all in one directory, made if missing) that no file has, and
    return its path: flushed to disk under a temporary name, then given its name by ``link`` (:func:`os.link`), in
    one step that fails when the name is taken, by another process as much as by this one, so two writers never
    share a name and a reader never sees half a file. Where the file system makes no links (``link`` raises another
    OSError than FileExistsError), the name is taken by creating the file exclusively and the text renamed over it.
    OSError if it cannot be written."""
    chosen = iter(names)
    first = next(chosen)
    temporary = _synced_temporary(first, text)
    try:
        can_link = True
        for path in itertools.chain((first,), chosen):
            if can_link:
                try:
                    link(temporary, path)
                    return path
                except FileExistsError:
                    continue
                except OSError:
                    can_link = False  # this file system makes no links: the name is taken the other way
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                continue
            os.replace(temporary, path)
            return path
        raise FileExistsError(errno.EEXIST, "every name is taken", str(first))
    finally:
        Path(temporary).unlink(missing_ok=True)


def move_aside(path: Path) -> Path:
    """Rename ``path`` to its :func:`aside_path` and return where it went; OSError if it cannot be moved."""
    aside = aside_path(path)
    os.rename(path, aside)
    return aside


class UnreadableError(OSError):
    """A file that is not read: the message (``str(err)``) is a clause for a sentence, no capital, no full stop.

    Deliberately an :class:`OSError`, not a :class:`~engine.errors.ParlourError`: a reader catches it with the
    operating system's own errors reading the same file (``except OSError``), and says the sentence itself."""


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


_APPEND_FLAGS = (
    os.O_WRONLY | os.O_APPEND | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)


def open_appending(path: Path, *, create: bool = True, mode: int = 0o644) -> int:
    """``path`` opened to append to, as a file descriptor (the caller closes it), if it is a regular file, or made
    one if nothing is there and ``create``. Every file Parlour appends to is opened here.

    Anything else (a FIFO, a directory, a socket, a device) is a :class:`NotAFileError` whose message is the clause
    to tell: it is looked at before it is opened, opened without blocking (a FIFO put there meanwhile, with nobody
    reading it, never hangs the writer) and looked at again once open, through the open file. FileNotFoundError
    when there is none and not ``create``; another OSError when it cannot be opened."""
    try:
        check_regular(path)
    except FileNotFoundError:
        if not create:
            raise
    try:
        handle = os.open(path, _APPEND_FLAGS | (os.O_CREAT if create else 0), mode)
    except OSError as err:
        if err.errno == errno.EISDIR:
            raise NotAFileError(kind_of(stat.S_IFDIR)) from None
        if err.errno in (errno.ENXIO, errno.ENODEV, errno.EOPNOTSUPP):  # (a FIFO nobody reads, a socket)
            try:
                found = os.stat(path).st_mode
            except OSError:
                raise err from None
            if not stat.S_ISREG(found):
                raise NotAFileError(kind_of(found)) from None
        raise
    try:
        _check_status(os.fstat(handle), None)
        if _APPEND_FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(handle, True)  # (a regular file never blocks; this only leaves the flag as usual)
    except BaseException:
        os.close(handle)
        raise
    return handle


def write_all(handle: int, data: bytes) -> None:
    """Write all of ``data`` to the open file ``handle``: a write cut short (the disk filled up, a file size limit)
    is followed by another, which raises the OSError that says why; never a part of it written in silence."""
    view = memoryview(data)
    while view:
        view = view[os.write(handle, view) :]


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
