"""Statistics of the finished games, in SQLite (``data_dir()/stats.sqlite3``), per game, preset and opponent level.

One row per finished game, seen from the seat of the person who played it (:func:`record_game`): whether that seat
won (a shared win counts as a win), its score (the game's own figure, higher is better: lives left, points, minus
penalty points), and the game's own counts taken from the match's events (:func:`game_figures`, as the game's listing
names them). :func:`summary` adds them up per game, preset and opponents: games, wins, win rate, the current and
the best winning streak, the mean and best score, and each game's figures (Screw/Chase: hands paid; Big Two:
cards left when losing; Trash: turns to complete; Rank: penalty points). :func:`history` gives one group's games
in order, for charts.

A game is counted from a local table (:class:`~engine.table.Table`: the opponents are the bots' level, as
``medium``, ``mixed``) or from what a seat saw at a LAN table (:class:`~engine.records.seen.SeenRecord`: its redacted
events and the table's information, no seed and no hidden card). A LAN game's row is of kind ``lan`` and its
opponents are listed, people by name and bots by level (``people: Ben; bots: medium x2``), so LAN games are counted
apart from local ones even against the same bots. A local game in which you took moves back is of kind
``takebacks``, a group of its own ("medium, with takebacks"): never among your ordinary wins. All go through the
same figures (:func:`game_figures`), and the score and the winners of a LAN game come from its events
(:func:`game_scorer`), as the engine's own result would give them.

The database:

- ``PRAGMA user_version`` is the schema's version; :data:`MIGRATIONS` lists the steps from an empty file to the
  current schema, each applied once, in one transaction with the version it leads to. A file of a newer schema
  (written by a newer Parlour) is left alone and refused with :class:`StatsError`.
- WAL mode and a busy timeout: another Parlour process may read or write at the same time; each finished game is
  one ``BEGIN IMMEDIATE`` transaction, so two writers queue and nothing is lost. The same match recorded twice (a
  resumed save of a finished game) counts once.
- A file that is not a database is moved aside (``stats.sqlite3.bad``, never deleted, its ``-wal`` and ``-shm``
  with it) and a new one started; the one sentence that says so is returned for the player. So is a file of a
  schema this version does not know under its number (a version below 0, a migration step that does not fit the
  tables there, a ``games`` table without the columns of :data:`SCHEMA`), one larger than :data:`MAX_BYTES`, and
  anything that is not a regular file (a FIFO, a directory, a device: the database or a companion), which is
  looked at before SQLite opens it, so it is never waited on.
- Every row read is checked against the schema as a stranger's input (:func:`summary`): a row that does not fit (an
  unknown game or preset, ``counts`` that are not a JSON object of whole numbers, a score that is not a number,
  opponents' text with control characters...) is left out and said in one sentence, and the rest are shown.
- A game that cannot be written (the database locked by another process beyond the wait, a full or read-only
  directory) is not lost: its row waits in a queue file beside the database (``stats-pending.jsonl``, one JSON
  object a line, :func:`pending_path`) and is counted by the next write that succeeds (:func:`record_game`, or
  :func:`count_pending` on its own), in the same transaction as that write. A queued line that is damaged or not a
  row of the schema is skipped (logged), never counted. Something other than a file where the queue goes (a FIFO,
  a directory, a device) is never waited on: it is moved aside, and the game queued in a new file.

>>> import tempfile
>>> from engine.table import Table
>>> table = Table.create("screw", players=3, seed=5, bots=[None, "easy", "easy"])
>>> while not table.state.is_over:
...     _ = table.submit(table.state.to_move, table.state.legal_actions()[0])
>>> with tempfile.TemporaryDirectory() as where:
...     problem = record_game(table, 0, path=Path(where) / "stats.sqlite3")
...     group = summary(Path(where) / "stats.sqlite3")["groups"][0]
>>> problem, group["game"], group["level"], group["games"], sorted(group["figures"])
(None, 'screw', 'easy', 1, ['hands_paid', 'paid_per_hand'])
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NoReturn

from engine.errors import ParlourError, echo
from engine.events import Event
from engine.listing import Figure
from engine.match import final_totals
from engine.names import is_control
from engine.records.paths import (
    NotAFileError,
    UnreadableError,
    aside_path,
    check_regular,
    move_aside,
    one_line,
    open_appending,
    read_regular,
    stats_path,
    write_all,
)
from engine.records.seen import SeenRecord
from engine.registry import entries, figures_of, get_entry, listing_of_game, named
from engine.table import Table

BUSY_TIMEOUT_MS = 30_000
"""How long a writer waits for another process's transaction before giving up (unless told another ``wait``)."""

log = logging.getLogger("parlour.records")

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: one row per finished game, from the seat of the person who played it.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            match TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            game TEXT NOT NULL,
            preset TEXT NOT NULL,
            level TEXT NOT NULL,
            players INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            won INTEGER NOT NULL,
            shared INTEGER NOT NULL,
            score REAL NOT NULL,
            counts TEXT NOT NULL,
            seed INTEGER NOT NULL,
            replay TEXT,
            UNIQUE (match, seat)
        )""",
        "CREATE INDEX games_by_group ON games (game, preset, level, id)",
    ),
    # 2: where the game was played: ``local`` (at this screen) or ``lan`` (a seat at a LAN host), a group apart.
    (
        "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'local'",
        "DROP INDEX games_by_group",
        "CREATE INDEX games_by_group ON games (game, preset, kind, level, id)",
    ),
)
"""Step ``n`` (from 0) takes the schema from version ``n`` to ``n + 1``. Append, never edit a step once released."""
SCHEMA = len(MIGRATIONS)


class StatsError(ParlourError):
    """The statistics cannot be used (a newer schema, a directory that cannot be written); one sentence."""

    code = "bad_stats"


class StatsBusy(StatsError):
    """The statistics are held by another process (a Parlour counting a game, a program with the file open in a
    transaction) for longer than the reader's wait: nothing is wrong with them, they can be read a moment later."""

    code = "stats_busy"


# -- each game's figures -----------------------------------------------------------------------------------------
Counter = Callable[[Sequence[Event], int], dict[str, int]]
"""From a finished match's history and a seat: that seat's counts (added up over the games of a group)."""


def game_figures(spec: str) -> tuple[Counter | None, tuple[Figure, ...]]:
    """How a seat's counts are taken from the events of the game whose spec's key is ``spec`` (as its ``simulate``
    figures are; None: it counts nothing), and the figures made of them, as its listing names them
    (:class:`~engine.listing.Listing`). A game without them still gets games, wins, streaks and scores. A counter
    imports its game's events: a match of that game has loaded them already."""
    try:
        counter, made = figures_of(spec)
    except ParlourError:
        return None, ()
    found: Counter | None = counter
    return found, made


def opponents(table: Table, seat: int) -> str:
    """The opponents' level: the bots' one level, ``mixed`` for bots of several, ``people`` if any is a person."""
    levels = {info.level for other, info in enumerate(table.seats) if other != seat}
    if None in levels:
        return "people"
    if len(levels) == 1:
        level = levels.pop()
        assert level is not None
        return level
    return "mixed" if levels else "none"


def listed_opponents(names: Sequence[str], levels: Sequence[str | None], seat: int) -> str:
    """A LAN game's opponents listed: the people by name, the bots by level, easiest first, with how many.

    >>> listed_opponents(["Ann", "Ben", "Bot 1", "Bot 2"], [None, None, "medium", "medium"], 0)
    'people: Ben; bots: medium x2'
    >>> listed_opponents(["Ann", "Bot", "Cy", "Bot 2"], [None, "hard", None, "easy"], 2)
    'people: Ann; bots: easy, hard'
    """
    pairs = list(enumerate(zip(names, levels, strict=True)))
    people = [name for other, (name, level) in pairs if other != seat and level is None]
    bots: dict[str, int] = {}
    for other, level in enumerate(levels):
        if other != seat and level is not None:
            bots[level] = bots.get(level, 0) + 1
    order = {level: number for number, level in enumerate(_LEVELS)}
    parts = []
    if people:
        parts.append("people: " + ", ".join(people))
    if bots:
        ranked = sorted(bots, key=lambda level: (order.get(level, len(order)), level))
        parts.append("bots: " + ", ".join(level if bots[level] == 1 else f"{level} x{bots[level]}" for level in ranked))
    return "; ".join(parts) or "nobody"


_LEVELS = ("random", "easy", "medium", "hard", "expert")
"""The usual order of the levels, for listing bots (a level not here comes after them, by name)."""


# -- a LAN game's score and winners, from the events its seat saw ----------------------------------------------------
Scorer = Callable[[Sequence[Event], int, Any], float]
"""From a finished match's events (a seat's redacted ones are enough), a seat and the options: the seat's score as
the game's own result gives it (higher is better)."""


def _total_score(history: Sequence[Event], seat: int, options: Any) -> float:
    return float(final_totals(history)[seat])


def game_scorer(spec: str) -> Scorer:
    """A seat's score from the events of the game whose spec's key is ``spec``, as its listing names it (a test
    holds each to the engine's own result, from every seat's redacted events); the seat's final total if it names
    none."""
    try:
        named_scorer = listing_of_game(spec).scorer
    except ParlourError:
        return _total_score
    if named_scorer is None:
        return _total_score
    found: Scorer = named(named_scorer)
    return found


# -- the database --------------------------------------------------------------------------------------------------
class _UnknownSchema(Exception):
    """A database whose schema is none this version wrote (a version below 0, or tables that do not fit): it is
    moved aside like any file that is not a database.

    Deliberately not a :class:`~engine.errors.ParlourError`: it never leaves this module (:func:`_open` moves the
    file aside, or raises a :class:`StatsError`)."""


MAX_BYTES = 1024 * 1024 * 1024
"""A statistics file this large is not Parlour's (a game is one short row): it is moved aside, never opened."""

COMPANIONS = ("-wal", "-shm")
"""The files SQLite keeps beside the database in WAL mode."""

COLUMNS = frozenset(
    "id match finished_at game preset level players seat won shared score counts seed replay kind".split()
)
"""The columns of ``games`` at :data:`SCHEMA`: a table without one of them is of a schema this version does not
know."""


def _check_files(path: Path) -> None:
    """Before SQLite opens anything (it would wait on a FIFO): the database and its companions, where they exist,
    are regular files, the database no larger than :data:`MAX_BYTES`; UnreadableError (a clause) otherwise."""
    for name, limit in ((path.name, MAX_BYTES), *((path.name + extra, None) for extra in COMPANIONS)):
        try:
            check_regular(path.with_name(name), limit)
        except FileNotFoundError:
            continue
        except NotAFileError as err:
            if name == path.name:
                raise
            raise NotAFileError(f"its companion {name} {str(err).removeprefix('it ')}") from None


def _connect(path: Path, wait: float | None = None) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    _check_files(path)
    wait_ms = BUSY_TIMEOUT_MS if wait is None else max(0, int(wait * 1000))
    conn = sqlite3.connect(path, timeout=wait_ms / 1000, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {wait_ms}")
        version = _version(conn)
        _check_version(version, path)  # before anything is changed: a newer schema's file is left as it is
        if version < 0:
            raise _UnknownSchema(f"its schema version {version} is none Parlour ever wrote")
        _wal(conn, wait_ms)
        _migrate(conn, path)
        _check_columns(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _check_columns(conn: sqlite3.Connection) -> None:
    found = {str(row[1]) for row in conn.execute("PRAGMA table_info(games)").fetchall()}
    if not COLUMNS <= found:
        missing = ", ".join(sorted(COLUMNS - found)) if found else "the table of games"
        raise _UnknownSchema(f"its schema is none this version knows (it has no {missing})")


def _wal(conn: sqlite3.Connection, wait_ms: int = BUSY_TIMEOUT_MS) -> None:
    """Put the database in WAL mode (it stays so: the mode is kept in the file).

    Switching the mode is the one step SQLite does not wait for when another process holds a lock (two processes
    making the file at once): it is tried again, a little later each time, within the busy timeout."""
    deadline = time.monotonic() + wait_ms / 1000
    pause = 0.005
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchall()[0][0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL").fetchall()
            return
        except sqlite3.OperationalError as err:
            busy = getattr(err, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
            if not busy or time.monotonic() + pause > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


def _version(conn: sqlite3.Connection) -> int:
    # fetchall: the statement runs to its end, so no read transaction stays open (one left open could not become
    # a write transaction once another process has written, and SQLite says "locked" at once, without waiting).
    rows = conn.execute("PRAGMA user_version").fetchall()
    return int(rows[0][0])


def _check_version(version: int, path: Path) -> None:
    if version > SCHEMA:
        raise StatsError(
            f"The statistics in {path} were written by a newer version of Parlour (schema {version}, this one "
            f"knows {SCHEMA}), so they are left as they are."
        )


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema to :data:`SCHEMA`, one step at a time, each with its version in the same transaction."""
    if _version(conn) == SCHEMA:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _version(conn)  # again: another process may have migrated while this one waited
        _check_version(version, path)
        for step in range(version, SCHEMA):
            for statement in MIGRATIONS[step]:
                try:
                    conn.execute(statement)
                except sqlite3.OperationalError as err:
                    if (getattr(err, "sqlite_errorcode", 0) or 0) & 0xFF != sqlite3.SQLITE_ERROR:
                        raise  # locked, read-only, a full disk: the file may be fine, it stays
                    raise _UnknownSchema(
                        f"its schema {version} is not the one this version knows by that number ({one_line(str(err))})"
                    ) from None
            conn.execute(f"PRAGMA user_version = {step + 1}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _set_aside(path: Path, err: BaseException) -> str:
    """Move a file that is not a usable database (and its WAL files) out of the way; the sentence to tell."""
    reason = one_line(str(err)) or "it is not a database"
    try:
        if path.exists() or path.is_symlink():
            aside = move_aside(path)
        else:  # (only a companion was wrong: it goes where the database would have gone)
            aside = aside_path(path)
    except OSError as problem:
        raise StatsError(
            f"The statistics file {path} cannot be used ({reason}) nor moved aside ({problem.strerror or problem})."
        ) from None
    for extra in COMPANIONS:
        companion = path.with_name(path.name + extra)
        if companion.exists() or companion.is_symlink():
            try:
                companion.rename(aside.with_name(aside.name + extra))
            except OSError:
                pass
    return (
        f"The statistics file {path} could not be used ({reason}), so it was moved to {aside.name} "
        "and a new one was started."
    )


NOT_A_DATABASE = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
"""What moves a file aside. Any other error (locked, no permission, a full disk) leaves it where it is."""


def _open(path: Path, wait: float | None = None) -> tuple[sqlite3.Connection, str | None]:
    """A connection to the statistics at ``path`` (migrated), and the sentence to tell if a bad file went aside.
    ``wait``: seconds to wait for another process's lock (default :data:`BUSY_TIMEOUT_MS`).

    StatsError (one sentence) when they cannot be opened."""
    try:
        try:
            return _connect(path, wait), None
        except sqlite3.DatabaseError as err:
            if getattr(err, "sqlite_errorcode", None) not in NOT_A_DATABASE:
                raise
            problem = _set_aside(path, err)
        except (_UnknownSchema, UnreadableError) as err:
            problem = _set_aside(path, err)
        return _connect(path, wait), problem
    except _UnknownSchema as err:
        raise StatsError(f"The statistics file {path} cannot be used ({one_line(str(err))}).") from None
    except (sqlite3.Error, OSError) as err:
        if _is_busy(err):
            raise _Busy(_busy(path), err) from None
        raise _Unavailable(f"The statistics file {path} cannot be used ({one_line(str(err))}).", err) from None


class _Unavailable(StatsError):
    """The statistics cannot be opened now (locked, a directory that cannot be written): a write may be queued."""

    def __init__(self, message: str, cause: Exception) -> None:
        super().__init__(message)
        self.cause = cause


class _Busy(_Unavailable, StatsBusy):
    """Locked by another process beyond the wait (a write queues its game; a reader says it is busy)."""


def _is_busy(err: BaseException) -> bool:
    code = (getattr(err, "sqlite_errorcode", 0) or 0) & 0xFF
    return isinstance(err, sqlite3.OperationalError) and code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _busy(path: Path) -> str:
    return f"The statistics file {path} is busy (another program is writing it), so it cannot be read this moment."


# -- writing -------------------------------------------------------------------------------------------------------
def match_key(table: Table) -> str:
    """What tells one match from another: the same match recorded twice counts once."""
    return f"{table.entry.key}|{table.seed}|{table.started_at}"


Kind = Literal["local", "takebacks", "lan"]
KINDS: tuple[Kind, ...] = ("local", "takebacks", "lan")
"""Where and how a game was played: at this screen; at this screen with moves taken back (counted apart, never
with the ordinary games against the same opponents); at a LAN host."""


@dataclass(frozen=True)
class Played:
    """A finished match as one row counts it, from one seat: made from a local table or from a LAN seat's record."""

    match: str
    """What tells the match from another (the same match counted twice counts once)."""
    game: str
    """The registry key (``screw``, ``big2``...)."""
    preset: str
    level: str
    """The opponents: the bots' level (local), or people by name and bots by level (LAN)."""
    kind: Kind
    players: int
    seat: int
    winners: tuple[int, ...]
    score: float
    counts: dict[str, int]
    seed: int
    """The table's seed; -1 for a LAN game (a client never learns it)."""


def played_at_table(table: Table, seat: int) -> Played:
    """The finished match at ``table`` as ``seat`` played it (its result is the engine's own)."""
    result = table.state.result
    if result is None:
        raise ParlourError("only a finished match is counted")
    checked = table.state.check_seat(seat)
    assert checked is not None
    counter = game_figures(table.game.key)[0]
    return Played(
        match=match_key(table),
        game=table.entry.key,
        preset=table.preset,
        level=opponents(table, checked),
        kind="takebacks" if table.takebacks else "local",
        players=len(table.seats),
        seat=checked,
        winners=tuple(result.winners),
        score=float(result.scores[checked]),
        counts=counter(table.state.history, checked) if counter is not None else {},
        seed=table.seed,
    )


def played_seen(record: SeenRecord) -> Played:
    """The LAN match a seat saw, as that seat played it: the winners and the score from its events, the same
    figures as a local game's. ParlourError for a spectator's record or one whose match did not end."""
    header = record.header
    seat = header.seat
    if seat is None:
        raise ParlourError("a spectator's record is not counted")
    over = record.match_over
    if over is None:
        raise ParlourError("only a finished match is counted")
    spec = get_entry(header.game).game.key
    counter = game_figures(spec)[0]
    score_of = game_scorer(spec)
    events = record.events
    return Played(
        match=f"lan|{header.match}" if header.match else f"lan|{header.host}|{header.table}|{header.started_at}",
        game=header.game,
        preset=header.preset,
        level=listed_opponents(header.names, header.levels, seat),
        kind="lan",
        players=len(header.names),
        seat=seat,
        winners=tuple(over.winners),
        score=score_of(events, seat, header.options),
        counts=counter(events, seat) if counter is not None else {},
        seed=-1,
    )


def record_game(
    match: Table | SeenRecord,
    seat: int | None = None,
    *,
    replay: Path | None = None,
    path: Path | None = None,
    wait: float | None = None,
) -> str | None:
    """Count the finished match for the person at ``seat``, in one transaction: a local ``Table`` (``seat`` says
    whose), or a LAN seat's :class:`~engine.records.seen.SeenRecord` (its own seat; ``seat``, if given, must be it).
    ``wait``: seconds to wait for another process's lock on the database (default :data:`BUSY_TIMEOUT_MS`).

    None when it is counted (or was already); otherwise one sentence to tell the player (the file was not a
    database and went aside, then the game was counted in a new one; the statistics cannot be written now, so the
    game waits in the queue file to be counted later; or not even that could be written)."""
    if isinstance(match, Table):
        if seat is None:
            raise ParlourError("a table's game is counted for a seat")
        played = played_at_table(match, seat)
    else:
        if seat is not None and seat != match.header.seat:
            raise ParlourError(f"this record is seat {match.header.seat}'s, not seat {seat}'s")
        played = played_seen(match)
    return record_played(played, replay=replay, path=path, wait=wait)


_INSERT = (
    "INSERT OR IGNORE INTO games (match, finished_at, game, preset, level, kind, players, seat, won, "
    "shared, score, counts, seed, replay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_COLUMNS = (
    "match",
    "finished_at",
    "game",
    "preset",
    "level",
    "kind",
    "players",
    "seat",
    "won",
    "shared",
    "score",
    "counts",
    "seed",
    "replay",
)
"""A row's columns, in :data:`_INSERT`'s order: the keys of a queued row."""

Row = tuple[Any, ...]


def record_played(
    played: Played, *, replay: Path | None = None, path: Path | None = None, wait: float | None = None
) -> str | None:
    """Count ``played`` (see :func:`record_game`)."""
    return count_game(played, replay=replay, path=path, wait=wait).problem


@dataclass(frozen=True)
class HeldGame:
    """A finished game that could be neither counted nor kept in the queue file (a full disk, a directory that
    cannot be written): whoever holds it in memory gives it to :func:`count_held` later, and it is counted then as
    it would have been when it ended."""

    where: Path
    """The statistics it is counted in."""
    row: Row


@dataclass(frozen=True)
class Counting:
    """What became of a game given to be counted (:func:`count_game`, :func:`count_held`)."""

    problem: str | None
    """None when it is counted (or was already); else the one sentence to tell the player."""
    held: HeldGame | None = None
    """The game, when it was neither counted nor queued: to be given to :func:`count_held` later (else it is lost)."""


def count_game(
    played: Played, *, replay: Path | None = None, path: Path | None = None, wait: float | None = None
) -> Counting:
    """Count ``played`` as :func:`record_played` does, and say whether it was kept: counted, waiting in the queue
    file, or neither (then :attr:`Counting.held` is the game, to count later with :func:`count_held`)."""
    row: Row = (
        played.match,
        datetime.datetime.now(datetime.UTC).isoformat(),
        played.game,
        played.preset,
        played.level,
        played.kind,
        played.players,
        played.seat,
        int(played.seat in played.winners),
        int(played.seat in played.winners and len(played.winners) > 1),
        played.score,
        json.dumps(played.counts, sort_keys=True),
        played.seed,
        None if replay is None else str(replay),
    )
    return _count_row(stats_path() if path is None else path, row, wait)


def count_held(game: HeldGame, *, wait: float | None = None) -> Counting:
    """Try again to count a game neither counted nor queued before: counted now, queued now, or still held."""
    return _count_row(game.where, game.row, wait)


def _count_row(where: Path, row: Row, wait: float | None) -> Counting:
    try:
        return Counting(_write(where, [row], wait))
    except _Unavailable as err:
        cause = err.cause
        reason = one_line(getattr(cause, "strerror", None) or str(cause))
    except StatsError as err:  # (a newer schema: left alone, not queued for it)
        return Counting(str(err))
    except (sqlite3.Error, OSError) as err:
        reason = one_line(str(err))
    problem, queued = _queue(where, row, reason)
    return Counting(problem, None if queued else HeldGame(where, row))


def count_pending(path: Path | None = None, *, wait: float | None = None) -> str | None:
    """Count the games waiting in the queue file of the statistics at ``path`` (default the user's), if any: None
    when there were none or they are counted now, else one sentence (they still wait)."""
    where = stats_path() if path is None else path
    pending = pending_path(where)
    if not pending.exists() and not _claimed(pending):
        return None
    try:
        return _write(where, [], wait)
    except StatsError as err:
        return str(err)
    except (sqlite3.Error, OSError) as err:
        return f"The games waiting in {pending} could not be counted yet ({one_line(str(err))})."


def pending_path(path: Path) -> Path:
    """The queue file of the statistics at ``path``: ``stats-pending.jsonl`` beside ``stats.sqlite3``."""
    return path.with_name(f"{path.stem}-pending.jsonl")


def _write(where: Path, rows: list[Row], wait: float | None) -> str | None:
    """Insert ``rows`` and every queued one, in one transaction; then the queue files taken are removed."""
    conn, problem = _open(where, wait)
    with closing(conn):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for row in rows:
                conn.execute(_INSERT, row)
            # Under the database's write lock, so two processes never take the same queue; a row queued while
            # this one reads is never lost (_queue writes it again to a queue file that is still there).
            queued, taken = _queued_rows(_take_queue(pending_path(where)))
            for row in queued:
                conn.execute(_INSERT, row)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    for done in taken:
        try:
            done.unlink(missing_ok=True)
        except OSError:
            log.warning("the counted queue file %s could not be removed (its games count once)", done)
    return problem


TAKEN_SUFFIX = ".taken"
MAX_QUEUE_BYTES = 16 * 1024 * 1024
"""A queue file larger than this is not read (a game's row is a few hundred bytes)."""


def _claimed(pending: Path) -> list[Path]:
    """Queue files a write took but did not remove (it stopped before): their rows are counted again (once)."""
    try:
        return sorted(
            entry
            for entry in pending.parent.iterdir()
            if entry.name.startswith(pending.name + ".") and entry.name.endswith(TAKEN_SUFFIX)
        )
    except OSError:
        return []


def _take_queue(pending: Path) -> list[Path]:
    """The queue files to count now: the queue renamed out of the way (new games start a new one), and any left."""
    taken = _claimed(pending)
    if os.path.lexists(pending):
        target = pending.with_name(f"{pending.name}.{os.getpid()}-{time.time_ns()}{TAKEN_SUFFIX}")
        try:
            os.replace(pending, target)
        except OSError as err:  # (a read-only directory: the games wait until they can be counted)
            log.warning("the statistics queue %s could not be taken (%s)", pending, one_line(str(err)))
        else:
            taken.append(target)
    return taken


def _queued_rows(files: list[Path]) -> tuple[list[Row], list[Path]]:
    """The rows of the queue files taken, and those of the files read (to remove once the rows are counted).

    A file that is not a regular one, or larger than :data:`MAX_QUEUE_BYTES`, is moved aside (never waited on,
    never deleted); one that cannot be read now stays, to be counted by a later write."""
    rows: list[Row] = []
    read: list[Path] = []
    for file in files:
        try:
            raw = read_regular(file, MAX_QUEUE_BYTES)
        except UnreadableError as err:
            try:
                aside = move_aside(file)
            except OSError:
                aside = None
            log.warning(
                "the statistics queue %s is not a file of games (%s): %s",
                file,
                err,
                f"moved to {aside.name}" if aside else "skipped",
            )
            continue
        except OSError as err:
            log.warning("the statistics queue %s could not be read (%s)", file, one_line(str(err)))
            continue
        read.append(file)
        for number, line in enumerate(raw.split(b"\n"), start=1):
            if not line.strip():
                continue
            row = _queued_row(line)
            if row is None:
                log.warning("line %d of the statistics queue %s is not a game: skipped", number, file.name)
            else:
                rows.append(row)
    return rows, read


_TEXT = ("match", "finished_at", "game", "preset", "level")
_WHOLE = ("players", "seat", "seed")


def _queued_row(line: bytes) -> Row | None:
    """A queued line as a row, checked as input from a stranger (None when it is not one)."""
    try:
        data = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or set(data) != set(_COLUMNS):
        return None
    if not all(isinstance(data[key], str) for key in _TEXT) or data["kind"] not in KINDS:
        return None
    if not all(isinstance(data[key], int) and not isinstance(data[key], bool) for key in _WHOLE):
        return None
    if data["won"] not in (0, 1) or data["shared"] not in (0, 1) or isinstance(data["won"], bool):
        return None
    score = data["score"]
    if isinstance(score, bool) or not isinstance(score, int | float):
        return None
    counts = data["counts"]
    try:
        parsed = json.loads(counts) if isinstance(counts, str) else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in parsed.values()):
        return None
    if data["replay"] is not None and not isinstance(data["replay"], str):
        return None
    return tuple(data[key] for key in _COLUMNS)


def _queue(where: Path, row: Row, reason: str) -> tuple[str, bool]:
    """Keep ``row`` in the queue file to be counted later; the sentence that tells the player either way, and
    whether it is kept there.

    Something other than a file where the queue goes (a FIFO, a directory: :func:`open_appending` refuses it
    without waiting on it) is moved aside, and the game queued in a new file."""
    pending = pending_path(where)
    line = "\n" + json.dumps(dict(zip(_COLUMNS, row, strict=True)), ensure_ascii=False, separators=(",", ":"))
    moved = ""
    queued = False
    try:
        # The newline first: a line cut short by a full disk never runs into the next one.
        for _ in range(3):
            pending.parent.mkdir(parents=True, exist_ok=True)
            try:
                handle = open_appending(pending)
            except NotAFileError as err:
                aside = move_aside(pending)
                moved = f"; the {pending.name} there was moved to {aside.name} ({err})"
                log.warning("the statistics queue %s was moved to %s (%s)", pending, aside.name, err)
                continue
            try:
                write_all(handle, (line + "\n").encode("utf-8"))
                os.fsync(handle)
                queued = True
                written = os.fstat(handle).st_ino
            finally:
                os.close(handle)
            try:
                if os.stat(pending).st_ino == written:
                    break
            except FileNotFoundError:
                pass
            # A write took the queue meanwhile and may have read it before this line: queued again, counted once.
        if not queued:
            raise NotAFileError(f"each time it was looked at, {pending.name} was not a file")
    except OSError as err:
        return (
            f"The game could not be counted in the statistics at {where} ({reason}), "
            f"nor kept to count later ({one_line(err.strerror or str(err))}){moved}."
        ), False
    return (
        f"The statistics at {where} cannot be written now ({reason}): the game waits in {pending.name} "
        f"and is counted at the next game{moved}."
    ), True


# -- reading -------------------------------------------------------------------------------------------------------
def _group_order(row: tuple[str, str, str, str]) -> tuple[int, str, int, str]:
    """Per game and preset: the local groups, then those with takebacks, then the LAN ones."""
    keys = [entry.key for entry in entries()]
    game, preset, kind, level = row
    order = KINDS.index(kind) if kind in KINDS else len(KINDS)
    return (keys.index(game) if game in keys else len(keys), preset, order, level)


def _streaks(won: Sequence[int]) -> tuple[int, int]:
    """The current and the best run of wins, in the order the games were played."""
    best = run = 0
    for value in won:
        run = run + 1 if value else 0
        best = max(best, run)
    return run, best


def _title(game: str, preset: str) -> tuple[str, str]:
    try:
        entry = get_entry(game)
    except ParlourError:
        return game, preset
    return entry.title, entry.game.preset_name(preset)


@dataclass(frozen=True)
class _Row:
    """A row of ``games`` as read, checked against the schema."""

    game: str
    preset: str
    kind: str
    level: str
    won: int
    shared: int
    score: float
    counts: dict[str, int]
    finished_at: str


_LEVEL_LIMIT = 400
"""The longest opponents' text a row may hold (a LAN game lists its people by name)."""


def _checked_text(value: object, what: str, limit: int = 64) -> str:
    if not isinstance(value, str) or not value or len(value) > limit or any(is_control(c) for c in value):
        raise ValueError(f"its {what} is not plain text")
    return value


def _check_row(found: Sequence[Any]) -> _Row:
    """A row from ``SELECT game, preset, kind, level, won, shared, score, counts, finished_at``, checked as a
    stranger's input (the file may have been written by anything); ValueError (a clause) for what does not fit."""
    game, preset, kind, level, won, shared, score, counts, finished = found
    _checked_text(game, "game")
    try:
        entry = get_entry(game)
    except ParlourError:
        raise ValueError(f"its game {echo(game, 40)} is none this version has") from None
    if entry.key != game:
        raise ValueError(f"its game {echo(game, 40)} is not a registry key")
    if preset not in {p.key for p in entry.game.presets}:
        raise ValueError(f"its preset {echo(preset, 40)} is not one of {entry.game.name}'s")
    if kind not in KINDS:
        raise ValueError(f"its kind {echo(kind, 20)} is none of {', '.join(KINDS)}")
    _checked_text(level, "opponents", _LEVEL_LIMIT)
    for value, what in ((won, "won"), (shared, "shared")):
        if type(value) is not int or value not in (0, 1):
            raise ValueError(f"its {what} {echo(value, 20)} is neither 0 nor 1")
    if shared and not won:
        raise ValueError("it shares a win it did not win")
    if type(score) not in (int, float) or not math.isfinite(score):
        raise ValueError(f"its score {echo(score, 20)} is not a number")
    if not isinstance(counts, str):
        raise ValueError("its counts are not JSON text")
    try:
        parsed = json.loads(counts, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise ValueError("its counts are not JSON") from None
    if not isinstance(parsed, dict):
        raise ValueError("its counts are not a JSON object")
    if not all(isinstance(k, str) and type(v) is int for k, v in parsed.items()):
        raise ValueError("its counts are not whole numbers by name")
    if not isinstance(finished, str):
        raise ValueError("its finishing time is not text")
    try:
        datetime.datetime.fromisoformat(finished)
    except ValueError:
        raise ValueError(f"its finishing time {echo(finished, 40)} is not a time") from None
    return _Row(game, preset, kind, level, won, shared, float(score), parsed, finished)


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _damaged(where: Path, skipped: list[tuple[int, str]]) -> str | None:
    """The one sentence that says which rows were left out, and why the first was."""
    if not skipped:
        return None
    first, reason = skipped[0]
    rows = "1 row" if len(skipped) == 1 else f"{len(skipped)} rows"
    return (
        f"{rows} of the statistics in {where} could not be read and {'was' if len(skipped) == 1 else 'were'} "
        f"left out (row {first}: {reason}); the rest are shown."
    )


_COLUMNS_READ = "game, preset, kind, level, won, shared, score, counts, finished_at"


def summary(path: Path | None = None, *, wait: float | None = None) -> dict[str, Any]:
    """Every group's figures as JSON data: ``{"schema", "path", "games", "skipped", "problem", "groups": [...]}``.

    A group is one game, preset, kind (``local``, ``takebacks``, ``lan``) and ``level`` (its opponents);
    ``opponents`` says them in words (a LAN group's with ``LAN:`` before them, a group with takebacks with ``, with
    takebacks`` after them).

    Each row is checked against the schema first (its game and preset known, its numbers numbers, its counts a JSON
    object of whole numbers...): a row that does not fit is left out, counted in ``skipped``, and ``problem`` says
    so in one sentence (with the one that says a file that could not be used was moved aside, if it was).

    A missing file is no games (and is not created). StatsError (one sentence) when the file cannot be read;
    StatsBusy when another process holds it for longer than ``wait`` seconds (default :data:`BUSY_TIMEOUT_MS`)."""
    where = stats_path() if path is None else path
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "path": str(where),
        "games": 0,
        "skipped": 0,
        "problem": None,
        "groups": [],
    }
    if not (where.exists() or where.is_symlink()):
        return out
    try:
        conn, problem = _open(where, wait)
        with closing(conn):
            rows = conn.execute(f"SELECT id, {_COLUMNS_READ} FROM games ORDER BY id").fetchall()
    except _Busy as err:
        raise StatsBusy(str(err)) from None
    except (sqlite3.Error, OSError) as err:
        if _is_busy(err):
            raise StatsBusy(_busy(where)) from None
        raise StatsError(f"The statistics file {where} cannot be read ({one_line(str(err))}).") from None
    grouped: dict[tuple[str, str, str, str], list[tuple[int, int, float, dict[str, int]]]] = {}
    skipped: list[tuple[int, str]] = []
    for found in rows:
        try:
            row = _check_row(found[1:])
        except ValueError as err:
            skipped.append((found[0], str(err)))
            continue
        key = (row.game, row.preset, row.kind, row.level)
        grouped.setdefault(key, []).append((row.won, row.shared, row.score, row.counts))
    for key in sorted(grouped, key=_group_order):
        out["groups"].append(_group(key, grouped[key]))
    out["games"] = len(rows) - len(skipped)
    out["skipped"] = len(skipped)
    out["problem"] = " ".join(said for said in (problem, _damaged(where, skipped)) if said) or None
    return out


def _group(key: tuple[str, str, str, str], games: list[tuple[int, int, float, dict[str, int]]]) -> dict[str, Any]:
    game, preset, kind, level = key
    title, preset_name = _title(game, preset)
    won = [row[0] for row in games]
    scores = [row[2] for row in games]
    current, best = _streaks(won)
    totals: dict[str, int] = {}
    for row in games:
        for name, value in row[3].items():
            if isinstance(value, int):
                totals[name] = totals.get(name, 0) + value
    figures: dict[str, float | None] = {}
    labels: dict[str, str] = {}
    try:
        made = game_figures(get_entry(game).game.key)[1]
    except ParlourError:
        made = ()
    for figure in made:
        top = totals.get(figure.numerator, 0)
        bottom = len(games) if figure.denominator == "games" else totals.get(figure.denominator, 0)
        figures[figure.name] = round(top / bottom, 3) if bottom else None
        labels[figure.name] = figure.label
    return {
        "game": game,
        "title": title,
        "preset": preset,
        "preset_name": preset_name,
        "level": level,
        "kind": kind,
        "opponents": _opponents(kind, level),
        "games": len(games),
        "wins": sum(won),
        "shared_wins": sum(row[1] for row in games),
        "win_rate": round(sum(won) / len(games), 4),
        "streak": current,
        "best_streak": best,
        "mean_score": round(sum(scores) / len(scores), 3),
        "best_score": max(scores),
        "figures": figures,
        "labels": labels,
        "counts": totals,
    }


def _opponents(kind: str, level: str) -> str:
    """A group's opponents in words: the level, with takebacks said, or a LAN game's people and bots."""
    if kind == "lan":
        return f"LAN: {level}"
    return f"{level}, with takebacks" if kind == "takebacks" else level


def history(
    game: str,
    preset: str,
    level: str,
    path: Path | None = None,
    limit: int = 1000,
    *,
    kind: str = "local",
    wait: float | None = None,
) -> list[dict[str, Any]]:
    """One group's games, oldest first (the last ``limit``): ``finished_at``, ``won``, ``score`` and the counts —
    what a chart of the win rate over time or a histogram of results is drawn from. StatsBusy as :func:`summary`
    says."""
    where = stats_path() if path is None else path
    if not (where.exists() or where.is_symlink()):
        return []
    try:
        conn, _ = _open(where, wait)
        with closing(conn):
            rows = conn.execute(
                f"SELECT {_COLUMNS_READ} FROM games WHERE game = ? AND preset = ? AND kind = ? "
                "AND level = ? ORDER BY id DESC LIMIT ?",
                (game, preset, kind, level, limit),
            ).fetchall()
    except _Busy as err:
        raise StatsBusy(str(err)) from None
    except (sqlite3.Error, OSError) as err:
        if _is_busy(err):
            raise StatsBusy(_busy(where)) from None
        raise StatsError(f"The statistics file {where} cannot be read ({one_line(str(err))}).") from None
    games = []
    for found in reversed(rows):
        try:
            row = _check_row(found)
        except ValueError:
            continue  # (the summary says which rows were left out, and why)
        games.append({"finished_at": row.finished_at, "won": bool(row.won), "score": row.score, "counts": row.counts})
    return games
