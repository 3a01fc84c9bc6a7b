"""A match in progress, saved after every action and resumed exactly where it stopped.

:func:`save_match` writes the record (:mod:`engine.records.record`) as one JSON object, atomically: the text goes
to a temporary file in the same directory, is flushed to disk, and replaces the old file in one step, so a crash,
a kill or a full disk mid-save leaves the previous save whole. The file reads::

    {"header":{"format":1,"game":"big2",...},
    "actions":[
    [0,{"game":"big2","type":"Play","cards":["3D"]}],
    [1,{"game":"big2","type":"PassTurn"}]
    ]}

Each action is encoded once per table and kept (:data:`_ENCODED`): a save encodes only the actions played since the
last one and writes the whole file again (``tests/records/test_record_saves.py`` checks that a save encodes only
the new action).

:func:`load_match` rebuilds the table from the file. A file that cannot be read, is not a saved match, was written
in another record format, or whose actions the engine no longer accepts, or that is not a regular file at all (a
FIFO, a directory, a device: never opened to be read, so never waited on), is moved aside (``autosave.json.bad``,
``.bad-2`` ...: never deleted) and the answer is a :class:`SaveProblem` whose message is the one sentence to show.

A LAN host keeps each table in play in a journal instead (:class:`Journals`, ``CODE.jsonl``): the set-up once,
then one line per action appended by a thread of its own, so a move costs the host's event loop no write;
:func:`load_saved` reads either kind.

>>> import tempfile
>>> from pathlib import Path
>>> from engine.table import Table
>>> table = Table.create("screw", players=3, seed=4, bots=[None, "easy", "easy"])
>>> table.run()  # the computer players play until it is your turn
>>> table.submit(0, "stay")
[...]
>>> with tempfile.TemporaryDirectory() as where:
...     save_match(Path(where) / "autosave.json", table)
...     again = load_match(Path(where) / "autosave.json")
>>> isinstance(again, Table) and again.actions == table.actions and again.state.to_move == table.state.to_move
True
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from engine import codec
from engine.errors import ParlourError, echo
from engine.game import Action
from engine.records.paths import (
    TooLargeError,
    UnreadableError,
    move_aside,
    one_line,
    open_appending,
    read_regular,
    size_words,
    write_all,
    write_atomically,
)
from engine.records.record import FormatError, Header, RecordError, read_action, rebuild
from engine.table import Table

log = logging.getLogger("parlour.records")

MAX_BYTES = 64 * 1024 * 1024
"""A save this large is not a match (a Rank match of 30,000 actions is about 1 MB): it is not read."""

_ENCODED: weakref.WeakKeyDictionary[Table, tuple[int, list[str]]] = weakref.WeakKeyDictionary()
"""Per table, its actions already encoded (``[seat,action]`` text), so a save encodes only the new ones; kept with
the table's number of takebacks, since a takeback replaces the actions after the one taken back."""
_LOCK = threading.Lock()


@dataclass(frozen=True)
class SaveProblem:
    """A save that could not be resumed: the sentence to show, and where the file went (None: it stayed)."""

    message: str
    aside: Path | None

    def __str__(self) -> str:
        return self.message


def dumps_match(table: Table, extra: dict[str, Any] | None = None) -> str:
    """The record of ``table`` as JSON text: the header, then one action a line. ``extra`` (JSON data) is kept
    beside them under ``"extra"``: what a LAN host needs to seat its players again."""
    count = len(table.actions)  # a bot thread may append meanwhile: a prefix of the actions is a whole match
    with _LOCK:
        line, encoded = _ENCODED.get(table, (-1, []))
        if line != table.takebacks or len(encoded) > count:
            encoded = []
            _ENCODED[table] = (table.takebacks, encoded)
        for seat, action in table.actions[len(encoded) : count]:
            encoded.append(f"[{seat},{codec.dumps(action)}]")
        lines = encoded[:count]
    header = json.dumps(Header.of(table).to_data(), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    more = "" if extra is None else ',\n"extra":' + json.dumps(extra, ensure_ascii=False, separators=(",", ":"))
    body = ",\n".join(lines) + ("\n" if lines else "")
    return '{"header":' + header + more + ',\n"actions":[\n' + body + "]}\n"


def save_match(path: Path, table: Table, extra: dict[str, Any] | None = None) -> None:
    """Save ``table`` to ``path`` atomically; OSError if it cannot be written (the previous save stays whole)."""
    write_atomically(path, dumps_match(table, extra))


def store_match(path: Path, table: Table, extra: dict[str, Any] | None = None) -> str | None:
    """:func:`save_match`, with a failure as one sentence to tell the player (None when the match was saved)."""
    try:
        save_match(path, table, extra)
    except OSError as err:
        return f"The game could not be saved to {path} ({one_line(err.strerror or str(err))})."
    except ParlourError as err:  # an action the codec cannot write: a bug, but never a crash
        log.exception("a match could not be encoded")
        return f"The game could not be saved to {path} ({one_line(str(err))})."
    return None


def loads_match(text: str) -> Table:
    """The table a saved match's text records; RecordError (FormatError for another format) when it cannot be
    used."""
    return loads_saved(text)[0]


def loads_saved(text: str) -> tuple[Table, dict[str, Any]]:
    """:func:`loads_match`, and the save's ``extra`` data (empty when it has none)."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise RecordError("it is cut short or is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list) or "header" not in data:
        raise RecordError("it is not a saved game")
    header = Header.from_data(data["header"])
    extra = data.get("extra", {})
    if not isinstance(extra, dict):
        raise RecordError("its extra data is not an object")
    actions = [read_action(item) for item in data["actions"]]
    return rebuild(header, actions), extra


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def load_match(path: Path) -> Table | SaveProblem | None:
    """The match saved in ``path``, rebuilt; None when there is no file; a :class:`SaveProblem` (one sentence) when
    the file cannot be used: it has then been moved aside, never deleted."""
    found = load_saved(path)
    return found[0] if isinstance(found, tuple) else found


def load_saved(path: Path) -> tuple[Table, dict[str, Any]] | SaveProblem | None:
    """:func:`load_match`, with the save's ``extra`` data; a LAN host's journal (``.jsonl``, :class:`Journals`) is
    read as one."""
    try:
        raw = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return None
    except TooLargeError:
        return _set_aside(path, f"it is larger than {size_words(MAX_BYTES)}, far more than a game takes")
    except UnreadableError as err:  # a FIFO, a directory, a device: never opened to be read, so never waited on
        return _set_aside(path, str(err))
    except OSError as err:
        return _set_aside(path, f"it could not be read: {err.strerror or err}")
    try:
        if path.suffix == JOURNAL_SUFFIX:
            return loads_journal(raw)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _set_aside(path, "it is not UTF-8 text")
        return loads_saved(text)
    except FormatError as err:
        return _set_aside(path, str(err))
    except RecordError as err:
        return _set_aside(path, str(err))
    except Exception as err:  # a bug met while playing the actions again: the file goes aside, the app goes on
        log.exception("a saved match could not be rebuilt")
        return _set_aside(path, f"it could not be played again ({echo(err, 80)})")


def _set_aside(path: Path, reason: str) -> SaveProblem:
    """Move the save that cannot be used out of the way; the one sentence that tells the player."""
    reason = one_line(reason)
    try:
        aside = move_aside(path)
    except OSError as err:
        return SaveProblem(
            f"The saved game {path} could not be resumed ({reason}) nor moved aside ({err.strerror or err}).", None
        )
    return SaveProblem(
        f"The saved game {path} could not be resumed ({reason}), so it was moved to {aside.name}.", aside
    )


def remove_save(path: Path) -> None:
    """Remove a save whose match is over and kept (as a replay and in the statistics); no error if it is gone."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        log.warning("the save %s could not be removed", path)


# -- a LAN host's journals: the set-up once, then one line per action, written and synced off the caller's thread --
JOURNAL_SUFFIX = ".jsonl"
JOURNAL_FORMAT = 1


def _setup_line(header: Header, extra: dict[str, Any], *, first: bool) -> str:
    """The line that says what the match was set up with (its header) and the host's data about it."""
    data: dict[str, Any] = {"journal": JOURNAL_FORMAT} if first else {}
    data["header"] = header.to_data()
    data["extra"] = extra
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"


def _action_line(seat: int, action: Action) -> str:
    return f"[{seat},{codec.dumps(action)}]\n"


def loads_journal(raw: bytes) -> tuple[Table, dict[str, Any]]:
    """The table and host data a journal records. Its first line is the set-up (``{"journal":1,"header":...,
    "extra":...}``); each line after it is an action (``[seat,action]``) or a later set-up (``{"header":...,
    "extra":...}``: who sits where changed), the last one read winning. A last line cut short (the host stopped
    mid-write) is left out; anything else wrong is a RecordError (FormatError for another format)."""
    lines = raw.split(b"\n")
    complete, torn = lines[:-1], lines[-1]  # what follows the last newline was never finished
    del torn
    if not complete:
        raise RecordError("it is empty or cut short before its set-up")
    items: list[Any] = []
    for number, line in enumerate(complete, start=1):
        try:
            items.append(json.loads(line.decode("utf-8"), parse_constant=_refuse_constant))
        except (ValueError, RecursionError):
            if number == len(complete) and number > 1:
                break  # the last line, damaged as it was written when the host stopped: the moves before it stand
            raise RecordError(f"its line {number} is not JSON") from None
    first = items[0]
    if not isinstance(first, dict) or "journal" not in first:
        raise RecordError("it is not a saved game")
    if first["journal"] != JOURNAL_FORMAT:
        raise FormatError(
            f"it was written by another version of Parlour (journal format {echo(first['journal'], 20)}, "
            f"this version reads format {JOURNAL_FORMAT})"
        )
    setup = first
    actions: list[tuple[int, Action]] = []
    for item in items:
        if isinstance(item, list):
            actions.append(read_action(item))
        elif isinstance(item, dict) and "header" in item:
            setup = item
        else:
            raise RecordError(f"{echo(item, 60)} is neither an action nor a set-up")
    extra = setup.get("extra", {})
    if not isinstance(extra, dict):
        raise RecordError("its extra data is not an object")
    return rebuild(Header.from_data(setup["header"]), actions), extra


def journal_text(table: Table, extra: dict[str, Any]) -> str:
    """A whole journal of ``table`` as it is now: how one begins."""
    return _journal_text(Header.of(table), extra, table.actions[: len(table.actions)])


def _journal_text(header: Header, extra: dict[str, Any], actions: list[tuple[int, Action]]) -> str:
    return _setup_line(header, extra, first=True) + "".join(_action_line(s, a) for s, a in actions)


_sync = getattr(os, "fdatasync", os.fsync)
"""fdatasync where there is one (Linux): the data and the size, not the times; macOS has only fsync."""


SYNC_EVERY = 0.5
"""Seconds between two syncs of the journals: each move is written at once (in the kernel's hands, so a host killed
with SIGKILL loses none) and on the disk itself within this much more (a power cut loses no more)."""


LINGER = 0.02
"""Seconds the journals' thread waits, once something is queued, for more to write with it."""


class Journals:
    """The journals of a LAN host's tables, written and synced by a thread of their own.

    Each call only queues what is to be written (cheap, safe from any thread, under a table host's lock too); the
    thread works through the queue in order, writes each batch's lines at once (one write per journal) and syncs
    the journals it wrote to at most every :data:`SYNC_EVERY` seconds, so many moves cost one sync.
    :meth:`begin` writes a journal whole (atomically: a temporary file, synced, renamed over the old one),
    :meth:`append` adds actions, :meth:`setup` a new set-up line, :meth:`remove` deletes the file. A write that
    fails is logged in one sentence and that journal takes no more appends until it is begun again (so it stays
    loadable: the moves it holds are a whole match so far)."""

    def __init__(self, sync_every: float = SYNC_EVERY, linger: float = LINGER) -> None:
        self.sync_every = sync_every
        self.linger = linger
        self._queue: deque[tuple[str, Path, Any]] = deque()
        self._changed = threading.Condition()
        self._busy = False
        self._closed = False
        self._handles: dict[Path, int] = {}
        """The journals written to since their last sync, each with its open file descriptor."""
        self._sync_now = False
        self._broken: set[Path] = set()
        self._thread: threading.Thread | None = None
        self.problems: list[str] = []
        """One sentence for each write that failed (also logged)."""

    def begin(self, path: Path, table: Table, extra: dict[str, Any], *, replaces: Path | None = None) -> None:
        """Write ``path`` anew with the set-up and every action so far (``replaces``: an older save of the same table
        to remove once it is written)."""
        self._put("begin", path, (Header.of(table), dict(extra), table.actions[: len(table.actions)], replaces))

    def append(self, path: Path, actions: list[tuple[int, Action]]) -> None:
        self._put("append", path, actions)

    def setup(self, path: Path, table: Table, extra: dict[str, Any]) -> None:
        """Who sits where changed: a set-up line with the header as it is now."""
        self._put("setup", path, (Header.of(table), dict(extra)))

    def remove(self, path: Path) -> None:
        self._put("remove", path, None)

    def _put(self, kind: str, path: Path, data: Any) -> None:
        with self._changed:
            if self._closed:
                return
            was_empty = not self._queue
            self._queue.append((kind, path, data))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="parlour-journals", daemon=True)
                self._thread.start()
            if was_empty:  # (otherwise the thread has been woken already and will take this too)
                self._changed.notify_all()

    def _settled(self) -> bool:
        return not self._queue and not self._busy and not self._handles

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued so far is written and synced; False if that took longer than ``timeout``."""
        with self._changed:
            if self._settled():
                return True
            self._sync_now = True
            self._changed.notify_all()
            return self._changed.wait_for(self._settled, timeout)

    def close(self, timeout: float = 10.0) -> bool:
        """Write and sync what is queued (bounded by ``timeout``), then take nothing more."""
        done = self.flush(timeout)
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        return done

    def _run(self) -> None:
        next_sync = time.monotonic() + self.sync_every
        while True:
            with self._changed:
                while not self._queue and not self._closed:
                    if not self._handles:
                        self._changed.wait()
                        continue
                    if self._sync_now or time.monotonic() >= next_sync:
                        break
                    self._changed.wait(max(0.0, next_sync - time.monotonic()))
                if not self._queue and not self._handles and self._closed:
                    return
                if self._queue and not (self._closed or self._sync_now):
                    # The moves of the next few milliseconds join this batch: one wake-up and one write for many.
                    self._changed.wait(self.linger)
                batch = list(self._queue)
                self._queue.clear()
                self._busy = True
            try:
                self._write(batch)
                if self._handles and (self._sync_now or self._closed or time.monotonic() >= next_sync):
                    self._sync_all()
                    next_sync = time.monotonic() + self.sync_every
            except Exception:  # a bug: logged; the host goes on (its journals may lag)
                log.exception("the host's journals could not be written")
                for handle in self._handles.values():
                    with contextlib.suppress(OSError):
                        os.close(handle)
                self._handles.clear()
            finally:
                with self._changed:
                    self._busy = False
                    if not self._handles and not self._queue:
                        self._sync_now = False
                    self._changed.notify_all()

    def _write(self, batch: list[tuple[str, Path, Any]]) -> None:
        pending: dict[Path, list[str]] = {}
        for kind, path, data in batch:
            if kind in ("begin", "remove"):
                pending.pop(path, None)  # the moves queued before: in the journal begun anew, or gone with it
                handle = self._handles.pop(path, None)
                if handle is not None:
                    os.close(handle)  # (no sync: the file is replaced or removed)
            if kind == "begin":
                header, extra, actions, replaces = data
                try:
                    write_atomically(path, _journal_text(header, extra, actions))
                except (OSError, ParlourError) as err:
                    self._failed(path, err)
                    continue
                self._broken.discard(path)
                if replaces is not None and replaces != path:
                    remove_save(replaces)
            elif kind == "remove":
                self._broken.discard(path)
                remove_save(path)
            elif path not in self._broken:
                lines = pending.setdefault(path, [])
                if kind == "append":
                    lines.extend(_action_line(seat, action) for seat, action in data)
                else:
                    header, extra = data
                    lines.append(_setup_line(header, extra, first=False))
        for path, lines in pending.items():
            self._append(path, lines)

    def _append(self, path: Path, lines: list[str]) -> None:
        if not lines or path in self._broken:
            return
        try:
            handle = self._handles.get(path)
            if handle is None:  # (no O_CREAT: a journal is made whole by begin, or not at all)
                handle = self._handles[path] = open_appending(path, create=False)
            write_all(handle, "".join(lines).encode("utf-8"))
        except OSError as err:
            self._failed(path, err)

    def _let_go(self, path: Path) -> None:
        """Sync and close ``path``'s open handle, if any (before the file is replaced or removed)."""
        handle = self._handles.pop(path, None)
        if handle is not None:
            try:
                _sync(handle)
            except OSError as err:
                self._failed(path, err)
            finally:
                os.close(handle)

    def _sync_all(self) -> None:
        """Sync every journal written to since the last time, and close its handle (one open handle per journal
        only between two syncs: a host of many tables keeps few files open)."""
        for path in list(self._handles):
            self._let_go(path)

    def _failed(self, path: Path, err: Exception) -> None:
        self._broken.add(path)
        reason = one_line(err.strerror or str(err)) if isinstance(err, OSError) else one_line(str(err))
        problem = f"The table could not be saved to {path} ({reason})."
        self.problems.append(problem)
        log.warning("%s", problem)
