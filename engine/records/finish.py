"""What the app does when a match ends: keep the replay, count the game, remove the save (:func:`finish_match`);
and what a LAN client does when the match at its seat ends (:func:`finish_seen`).

:class:`Keeper` does all of a local table's writing (its save after every move, :func:`finish_match` at its end) on
a thread of its own, so no write ever runs under a table host's lock or holds up a screen."""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ParlourError
from engine.records.paths import one_line, write_atomically
from engine.records.replays import keep_replay
from engine.records.saves import dumps_match, remove_save
from engine.records.seen import SeenRecord, keep_seen
from engine.table import Table

if TYPE_CHECKING:
    from engine.records.stats import HeldGame

__all__ = ["Finished", "Keeper", "finish_match", "finish_seen"]

log = logging.getLogger("parlour.records")


@dataclass(frozen=True)
class Finished:
    """What :func:`finish_match` did: the replay kept (None if it could not be written) and one sentence per
    problem, for the player."""

    replay: Path | None
    problems: list[str] = field(default_factory=list)
    counted: bool = True
    """False when the statistics said a problem (the game may wait in their queue file, :mod:`engine.records.stats`)."""
    held: HeldGame | None = None
    """The game, when it could be neither counted nor kept in the statistics' queue file (a full disk): whoever
    holds it counts it later (:func:`~engine.records.stats.count_held`), or it is lost."""


def finish_match(
    table: Table, seat: int | None, save: Path | None = None, *, count: bool = True, wait: float | None = None
) -> Finished:
    """A finished match: keep its replay, count it for the person at ``seat`` (None, or ``count`` off: nobody's,
    as a LAN host's table of guests), then remove ``save`` (the match is safe elsewhere). Never raises for a disk
    problem: each is one sentence in ``problems``; the save stays when the replay could not be written.

    It writes files and may wait for the statistics' database (``wait`` seconds at most, see
    :func:`~engine.records.stats.record_game`): call it on a thread that holds no table host's lock and that no
    screen waits for (the app's :class:`Keeper`)."""
    problems: list[str] = []
    try:
        replay: Path | None = keep_replay(table)
    except OSError as err:
        replay = None
        problems.append(f"The replay of this game could not be kept ({one_line(err.strerror or str(err))}).")
    counted = True
    held = None
    if seat is not None and count:
        from engine.records.stats import count_game, played_at_table

        counting = count_game(played_at_table(table, seat), replay=replay, wait=wait)
        if counting.problem is not None:
            problems.append(counting.problem)
            counted = False
            held = counting.held
    if save is not None and replay is not None:
        remove_save(save)
    return Finished(replay, problems, counted, held)


def finish_seen(record: SeenRecord, directory: Path | None = None, stats: Path | None = None) -> Finished:
    """A LAN match seen to its end at a seat: keep what the seat saw (in ``directory``, default the replays) and,
    for a player (not a spectator), count the match in the statistics (at ``stats``, default the user's). Never
    raises for a disk problem: each is one sentence in ``problems``."""
    problems: list[str] = []
    try:
        replay: Path | None = keep_seen(record, directory)
    except OSError as err:
        replay = None
        problems.append(f"The replay of this game could not be kept ({one_line(err.strerror or str(err))}).")
    if record.header.seat is not None:
        from engine.records.stats import record_game

        problem = record_game(record, replay=replay, path=stats)
        if problem is not None:
            problems.append(problem)
    return Finished(replay, problems)


# -- a local table's records: the save after every move, the replay and statistics at its end, off every lock --
STATS_WAIT = 1.0
"""Seconds a :class:`Keeper` waits for another process's lock on the statistics before it queues the game."""

RETRY_EVERY = 5.0
"""Seconds between two tries of a write that failed and could be made later (a replay, games waiting in the
statistics' queue), while the keeper has nothing else to do."""


class Keeper:
    """A local table's records, written by a thread of their own: never on the thread of the caller, which may be a
    bot's holding its table host's lock, or the screen's.

    :meth:`save` asks for the match to be saved (the table as it is when the thread writes: asks made while a save
    waits are the same save); :meth:`finish` keeps the replay and counts the game
    (:func:`finish_match`, the statistics waited for :data:`STATS_WAIT` seconds at most,
    then the game queued), and removes the save. Each call only queues, cheap and safe under any lock.

    ``tell(sentence)`` is called on the keeper's thread (holding no lock; it must not wait for a screen either) the
    first time a kind of write fails (the save, the replay, the statistics) and again only once that kind has worked
    since: a full or read-only data directory is said once, not at every move. A save that failed is written again
    at the next move; a replay that could not be kept, games waiting in the statistics' queue, and games that could
    be neither counted nor queued (a full disk: the keeper holds them in memory) are tried again every
    :data:`RETRY_EVERY` seconds and at :meth:`close`. ``write(path, text)`` writes a save (by default
    :func:`~engine.records.paths.write_atomically`; a test gives one that fails as a full disk would)."""

    def __init__(
        self,
        tell: Callable[[str], object] | None = None,
        *,
        write: Callable[[Path, str], None] = write_atomically,
        stats_wait: float = STATS_WAIT,
        retry_every: float = RETRY_EVERY,
    ) -> None:
        self.tell = tell
        self.write = write
        self.stats_wait = stats_wait
        self.retry_every = retry_every
        self._queue: deque[tuple[str, Path | None, Table, int]] = deque()
        self._changed = threading.Condition()
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None
        self._failing: set[str] = set()
        self._retries: list[tuple[Table, int]] = []
        """Finished matches whose replay could not be kept yet (with the seat to count them for)."""
        self._stats_waiting = False
        """Games wait in the statistics' queue file (written there by this keeper)."""
        self._held: list[HeldGame] = []
        """Finished games that could be neither counted nor queued (a full disk): held here, tried again."""
        self.problems: list[str] = []
        """Every sentence told, in order (also logged)."""

    def save(self, path: Path, table: Table) -> None:
        with self._changed:
            if any(kind == "save" and where == path and what is table for kind, where, what, _ in self._queue):
                return  # the save already asked for writes the table as it is then
            self._put(("save", path, table, 0))

    def finish(self, table: Table, seat: int, save: Path | None = None) -> None:
        with self._changed:
            self._put(("finish", save, table, seat))

    def _put(self, job: tuple[str, Path | None, Table, int]) -> None:
        if self._closed:
            return
        self._queue.append(job)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="parlour-keeper", daemon=True)
            self._thread.start()
        self._changed.notify_all()

    def _settled(self) -> bool:
        return not self._queue and not self._busy

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything asked so far is written (or has failed); False if that took longer than
        ``timeout``."""
        with self._changed:
            return self._changed.wait_for(self._settled, timeout)

    def close(self, timeout: float = 2.0) -> bool:
        """Write what is asked (one more try of what waits to be retried), within ``timeout``; then take nothing
        more. False if the writes were not done by then (the thread, a daemon, never keeps a process alive)."""
        with self._changed:
            if not self._closed and self._waiting():
                self._queue.append(("retry", None, _NO_TABLE, 0))
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="parlour-keeper", daemon=True)
                    self._thread.start()
                self._changed.notify_all()
            self._closed = True
        return self.flush(timeout)

    def _waiting(self) -> bool:
        """Is a write waiting to be tried again (a replay, a game to count)?"""
        return bool(self._retries or self._stats_waiting or self._held)

    @property
    def failing(self) -> frozenset[str]:
        """The kinds of write failing now: ``save``, ``replay``, ``stats``."""
        with self._changed:
            return frozenset(self._failing)

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._queue:
                    if self._closed:
                        return
                    if self._waiting():
                        if not self._changed.wait(self.retry_every) and not self._queue:
                            self._queue.append(("retry", None, _NO_TABLE, 0))
                    else:
                        self._changed.wait()
                job = self._queue.popleft()
                self._busy = True
            try:
                self._do(job)
            except Exception:  # a bug: logged; play goes on (the records may lag)
                log.exception("a match's records could not be written")
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()

    def _do(self, job: tuple[str, Path | None, Table, int]) -> None:
        kind, path, table, seat = job
        if kind == "save":
            assert path is not None
            try:
                self.write(path, dumps_match(table))
            except OSError as err:
                self._failed("save", f"The game could not be saved to {path} ({one_line(err.strerror or str(err))}).")
            except ParlourError as err:  # an action the codec cannot write: a bug, but never a crash
                log.exception("a match could not be encoded")
                self._failed("save", f"The game could not be saved to {path} ({one_line(str(err))}).")
            else:
                self._worked("save")
        elif kind == "finish":
            self._finish(table, seat, path)
        else:
            self._retry()

    def _finish(self, table: Table, seat: int, save: Path | None, *, count: bool = True) -> None:
        done = finish_match(table, seat, save=save, count=count, wait=self.stats_wait)
        problems = list(done.problems)
        if done.replay is None:
            self._retries.append((table, seat))
            self._failed("replay", problems.pop(0))
        else:
            self._worked("replay")
        if not done.counted:
            from engine.records.paths import stats_path
            from engine.records.stats import pending_path

            self._stats_waiting = pending_path(stats_path()).exists()  # (else nothing to count later)
            problem = problems[-1]
            if done.held is not None:
                self._held.append(done.held)
                problem = f"{problem.removesuffix('.')}; Parlour holds it and tries again while it runs."
            self._failed("stats", problem)
        elif count:
            self._worked("stats")

    def _retry(self) -> None:
        retries, self._retries = self._retries, []
        for table, seat in retries:
            # Counted already (or queued) the first time; the save is not touched again: it may be the next match's.
            self._finish(table, seat, None, count=False)
        from engine.records.stats import count_held, count_pending

        held, self._held = self._held, []
        was_waiting = bool(held) or self._stats_waiting
        for game in held:
            counting = count_held(game, wait=self.stats_wait)
            if counting.held is not None:
                self._held.append(counting.held)  # (still neither counted nor queued: held on)
            elif counting.problem is not None:
                self._stats_waiting = True  # queued now: counted with the others
        if self._stats_waiting and count_pending(wait=self.stats_wait) is None:
            self._stats_waiting = False
        if was_waiting and not self._held and not self._stats_waiting:
            self._worked("stats")

    def _failed(self, kind: str, sentence: str) -> None:
        with self._changed:
            if kind in self._failing:
                log.debug("%s", sentence)
                return
            self._failing.add(kind)
            self.problems.append(sentence)
        log.warning("%s", sentence)
        if self.tell is not None:
            try:
                self.tell(sentence)
            except Exception:  # the screen is gone (the app is closing): the sentence is logged
                log.exception("a write problem could not be told")

    def _worked(self, kind: str) -> None:
        with self._changed:
            self._failing.discard(kind)


_NO_TABLE: Any = None
"""(The table slot of a job that has none: a retry.)"""
