"""The table host: it owns a table, runs its computer players on a thread of its own, paces them, and hands out
sessions that each see one seat.

Local play is a host with in-process sessions; LAN play puts a network connection where the local session is. The
UI never chooses, thinks for or applies a bot's move.

- The bots think outside the host's lock, from their seat's view only, each decision with an RNG made from the
  table's seed, the seat and the decision's number: the same seed and the same human moves give the same match,
  however long anyone takes.
- ``pace`` is the least time between a bot's move and the event before it, so a person can follow.
- At the end of a round the bots wait until every person connected has said :meth:`Session.ready` (they have read
  the round's summary), or has left.
- :meth:`play_once` has the bot thread make one move for a person's seat (a LAN table's turn clock ran out): the
  same thread, decider and per-decision RNG as the bots', from that seat's view only; the seat stays the person's.
- :meth:`close` stops the bot thread without waiting for a decision in progress: the decision's RNG raises at its
  next draw (:class:`~engine.bots.CancellableRandom`) and the thread, a daemon, ends; so an app quits at once.
- :meth:`take_back` (a table in this process made with ``takebacks``, whose every other seat is a computer
  player) goes back to a person's latest decision exactly as it was: the bots' seeded choices on the way forward
  are the same; a decision being worked out for the moment left behind is dropped.
- Each action applied (a person's or a bot's) is handed to every session as an :class:`~engine.session.Update`:
  its events redacted for the session's seat with the seat's snapshot, both taken under the lock right after the
  action, so a snapshot never shows a move whose events have not been handed on (:meth:`subscribe_updates`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from engine.bots import DecisionCancelled, decision_rng
from engine.errors import ParlourError
from engine.events import Event
from engine.game import Action, GameEntry
from engine.hints import Hint
from engine.match import RoundOver
from engine.play.bot_process import Decision, ProcessDecider
from engine.play.local_sessions import LocalSession
from engine.registry import check_level, make_bot
from engine.session import Snapshot, TableInfo, Update
from engine.table import Table

log = logging.getLogger("parlour.host")


class TableHost:
    def __init__(
        self,
        table: Table,
        *,
        pace: float = 0.0,
        autostart: bool = True,
        decider: ProcessDecider | None = None,
        takebacks: bool = False,
    ) -> None:
        self.table = table
        self.takebacks = takebacks
        """Whether a person may take a move back (:meth:`take_back`): a table in this process only, never a LAN
        host's."""
        self._line = 0
        """Counts the takebacks: a bot's decision worked out before one is for a line of play that is gone."""
        self._decider = decider
        """Where the bots think: a child process (a person's screen in this process stays responsive), or here."""
        self.pace = pace
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._people: dict[int, int] = {}
        """Seat -> how many sessions are connected to it."""
        self._waiting: set[int] = set()
        """People who have not yet said they have seen the end of the round."""
        self._thread: threading.Thread | None = None
        self._last_event = time.monotonic()
        self.errors: list[BaseException] = []
        """Exceptions a bot raised (a bug): kept for tests and logs, the table goes on waiting."""
        self._autostart = autostart
        self.thinking: int | None = None
        """The seat whose computer player is working out a move right now."""
        self._hurrying = False
        """The bots play without their pace until the round ends (:meth:`hurry`)."""
        self._once: tuple[int, int, str] | None = None
        """(seat, version, level): one move the bot thread makes for a person's seat at that version (play_once)."""
        self._round_ended_at = table.state.version if _ends_a_round(table) else None
        """The version at which a round ended with the table's last move before this host took it over (a match
        saved at the end of a round and resumed): the people who sit down then are waited for, as if they had been
        there when it ended, until the table moves."""
        self._followers: list[_Follower] = []
        """The sessions' update subscriptions (:meth:`subscribe_updates`), in the order they came."""
        self._outbox: deque[tuple[_Follower, Update]] = deque()
        """Updates made and not yet handed on (one callback may make the table move again: those wait their turn)."""
        self._handing_on = False
        table.subscribe(None, self._watch, replay=False)

    @classmethod
    def create(
        cls,
        game: str,
        players: int,
        *,
        seed: int,
        bots: Sequence[str | None] = (),
        names: Sequence[str] = (),
        preset: str | None = None,
        variants: Sequence[str] = (),
        pace: float = 0.0,
        bot_process: bool = False,
        autostart: bool = True,
        takebacks: bool = False,
    ) -> TableHost:
        """A host with a new table (see :meth:`Table.create`): how a screen's game is set up without the UI ever
        building a table itself. OptionError and friends for a setup that cannot be played. With ``bot_process``
        the bots think in a child process (see :mod:`engine.play.bot_process`); ``autostart`` off, they wait for
        :meth:`start`."""
        table = Table.create(game, players=players, seed=seed, bots=bots, names=names, preset=preset, variants=variants)
        decider = ProcessDecider() if bot_process else None
        return cls(table, pace=pace, decider=decider, autostart=autostart, takebacks=takebacks)

    # -- what sessions see -------------------------------------------------------------------------------------
    @property
    def entry(self) -> GameEntry:
        return self.table.entry

    def info(self, seat: int | None) -> TableInfo:
        """What a session of ``seat`` is told of the table, never its seed: the seed deals every hand (the table
        keeps it, and so does a replay of the match; the app that made a local table shows it from there)."""
        table = self.table
        return TableInfo(
            key=table.entry.key,
            options=table.options,
            names=table.names,
            bots=tuple(s.level for s in table.seats),
            seed=None,
            seat=seat,
            hints=seat is not None,
        )

    def connect(self, seat: int | None) -> LocalSession:
        """A session for ``seat`` (None: a spectator). Starts the bots the first time (unless ``autostart`` is off)."""
        with self._lock:
            checked = self.table.state.check_seat(seat, spectator=True)
            if checked is not None and self.table.seats[checked].is_bot:
                raise ParlourError("that seat is played by the computer")
            if checked is not None:
                self._people[checked] = self._people.get(checked, 0) + 1
                if self._round_ended_at == self.table.state.version:
                    self._waiting.add(checked)
        session = LocalSession(self, checked)
        if self._autostart:
            self.start()
        return session

    def snapshot(self, seat: int | None) -> Snapshot:
        with self._lock:
            state = self.table.state
            seat = state.check_seat(seat, spectator=True)  # (SeatError for anything that is no seat here)
            return Snapshot(
                version=state.version,
                seat=seat,
                view=state.view(seat),
                legal=tuple(state.legal_actions()) if seat is not None and state.to_move == seat else (),
                to_move=state.to_move,
                over=state.is_over,
            )

    @property
    def to_move(self) -> int | None:
        """The seat that must act now (None: the match is over), read under the host's lock: a cheap check before
        making a whole snapshot."""
        with self._lock:
            return self.table.state.to_move

    @property
    def position(self) -> tuple[int | None, int]:
        """(the seat to move, the version), read together under the host's lock: what a turn clock is keyed on, so
        a clock set for one moment can tell that the table has moved on."""
        with self._lock:
            state = self.table.state
            return state.to_move, state.version

    def subscribe(
        self, seat: int | None, callback: Callable[[Event], None], *, replay: bool = True
    ) -> Callable[[], None]:
        """Call ``callback`` with each event ``seat`` may see (None: a spectator's), first those so far unless
        ``replay`` is off. It runs under the host's lock, on whichever thread applied the move (a bot's, a
        person's): it must only hand the event on (queue it, post a message), never write a file or wait for
        another thread, which may be waiting for this lock (a screen drawing the table: the app's saves go
        through :class:`~engine.records.finish.Keeper`)."""
        with self._lock:
            unsubscribe = self.table.subscribe(seat, callback, replay=replay)

        def stop() -> None:
            with self._lock:
                unsubscribe()

        return stop

    def subscribe_updates(self, seat: int | None, callback: Callable[[Update], None]) -> Callable[[], None]:
        """Call ``callback`` with ``seat``'s updates (None: a spectator's): at once the history so far with the
        snapshot that shows exactly it, then one for each action applied, its events as the seat may see them (none,
        maybe) with the seat's snapshot taken right after it, both under the lock. Each update reaches every
        subscriber before the next one is handed on, in the order of the actions. The callback runs under the lock,
        as :meth:`subscribe`'s does, and must only hand the update on."""
        with self._lock:
            checked = self.table.state.check_seat(seat, spectator=True)
            follower = _Follower(checked, callback)
            history = tuple(seen for event in self.table.state.history if (seen := event.for_seat(checked)) is not None)
            self._followers.append(follower)
            self._outbox.append((follower, Update(history, self.snapshot(checked))))
            self._hand_on()

        def stop() -> None:
            with self._lock:
                if follower in self._followers:
                    self._followers.remove(follower)

        return stop

    def _applied(self, events: Sequence[Event]) -> None:
        """Under the lock, right after the table applied an action: every subscriber's update for it (one snapshot
        and one redaction per seat followed, however many sessions follow it), then handed on."""
        if not self._followers:
            return
        made: dict[int | None, Update] = {}
        for follower in self._followers:
            seat = follower.seat
            update = made.get(seat)
            if update is None:
                seen = tuple(s for event in events if (s := event.for_seat(seat)) is not None)
                update = made[seat] = Update(seen, self.snapshot(seat))
            self._outbox.append((follower, update))
        self._hand_on()

    def _hand_on(self) -> None:
        """Hand the updates made on to their subscribers, in order (under the lock). A callback that makes the table
        move again (a submit from inside it) only adds that action's updates to the queue this loop works off."""
        if self._handing_on:
            return
        self._handing_on = True
        try:
            while self._outbox:
                follower, update = self._outbox.popleft()
                if follower not in self._followers:
                    continue  # stopped meanwhile
                try:
                    follower.callback(update)
                except Exception:
                    log.exception("an update subscriber of seat %s failed", follower.seat)
        finally:
            self._handing_on = False

    def submit(self, seat: int | None, action: Action) -> None:
        """A person's move for ``seat``; a bot's seat cannot be played from a session."""
        with self._lock:
            if seat is None:
                raise ParlourError("a spectator cannot play")
            seat = self.table.state.check_seat(seat)  # (SeatError for anything that is no seat here)
            assert seat is not None
            if self.table.seats[seat].is_bot:
                raise ParlourError("that seat is played by the computer")
            events = self.table.submit(seat, action)
            self._applied(events)
            self._changed.notify_all()

    def takeback_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not take a move back now, in one sentence (None: it may). Only a person's seat at a
        table made with ``takebacks``, whose every other seat is a computer player, while the match is on and the
        person has moved."""
        with self._lock:
            table = self.table
            if seat is None:
                return "A spectator cannot take a move back."
            if not self.takebacks:
                return "Takebacks are only for a table in this process, against computer players."
            checked = table.state.check_seat(seat)  # (SeatError for anything that is no seat here)
            assert checked is not None
            if table.seats[checked].is_bot:
                return "That seat is played by the computer."
            if any(not info.is_bot for number, info in enumerate(table.seats) if number != checked):
                return "Takebacks are only for a table where every other seat is a computer player."
            if table.state.is_over:
                return "The match is over: nothing can be taken back."
            if not any(mover == checked for mover, _ in reversed(table.actions)):
                return "There is no move of yours to take back yet."
            return None

    def take_back(self, seat: int | None) -> int:
        """Go back to ``seat``'s latest decision (see :meth:`Table.take_back`); the version now. ParlourError,
        with :meth:`takeback_refusal`'s sentence, when it may not.

        Every update subscription ends (the history it followed is gone): a session subscribes again, and is handed
        the history so far, redacted for its seat, as at its first subscription. When that decision came right
        after the end of a round, the people at the table are waited for again, as they were then."""
        with self._lock:
            refusal = self.takeback_refusal(seat)
            if refusal is not None:
                raise ParlourError(refusal)
            assert seat is not None
            version = self.table.take_back(seat)
            self._line += 1
            self._once = None
            self._hurrying = False
            self._followers.clear()
            self._outbox.clear()
            ended = _ends_a_round(self.table)
            self._round_ended_at = version if ended else None
            self._waiting = set(self._people) if ended else set()
            self._last_event = time.monotonic()
            self._changed.notify_all()
            return version

    def hint(self, seat: int | None) -> Hint | None:
        """The hint for ``seat`` now (None: not its turn, or a spectator, who never gets one)."""
        if seat is None:
            return None
        snap = self.snapshot(seat)
        if not snap.legal:
            return None
        return self.table.hint(seat, snap.view, snap.legal, snap.version)

    def hold(self, seats: Sequence[int]) -> None:
        """Wait at the end of the round just ended for people not connected yet (a LAN host's table kept across a
        restart: they were at the table when it stopped): as if they had been there when it ended. Nothing once the
        table has moved on; a bot put in one of those seats is not waited for."""
        with self._lock:
            if self._round_ended_at == self.table.state.version:
                self._waiting.update(seat for seat in seats if not self.table.seats[seat].is_bot)
                self._changed.notify_all()

    def ready(self, seat: int | None) -> None:
        with self._lock:
            if seat is not None:
                self._waiting.discard(seat)
            self._changed.notify_all()

    def play_once(self, seat: int, version: int, level: str) -> None:
        """Have a bot of ``level`` make one move for the person at ``seat``, if the table is still at ``version``
        with ``seat`` to move; otherwise (the person played in time, or the table moved on) nothing happens.

        The move is made on the bot thread like any bot's (so a slow bot never blocks the caller, an event loop),
        after the end-of-round wait, from the seat's own view and with the RNG a bot of that seat would get at that
        version: the same seed and the same moves give the same match. The seat stays the person's: the next time
        it must act, the person is asked again. OptionError for a level the game has not; nothing after close."""
        clean = check_level(self.table.game, level)
        with self._lock:
            if self._stop.is_set():
                return
            state = self.table.state
            if state.version != version or state.to_move != seat or self.table.seats[seat].is_bot:
                return
            self._once = (seat, version, clean)
            self._changed.notify_all()

    def seat_bot(self, seat: int, level: str | None) -> None:
        """Put a computer player of ``level`` in ``seat`` (an away person's), or take it out again (None).

        A decision the old bot was working out for the seat is dropped (the bot thread checks the seat again)."""
        with self._lock:
            checked = self.table.state.check_seat(seat)
            assert checked is not None
            info = self.table.seats[checked]
            info.bot = make_bot(self.table.game, level) if level is not None else None
            info.level = level.strip().lower() if level is not None else None
            if level is not None:
                self._waiting.discard(checked)  # a computer player does not read the round's end
            self._changed.notify_all()

    def disconnect(self, seat: int | None) -> None:
        with self._lock:
            if seat is not None and seat in self._people:
                self._people[seat] -= 1
                if self._people[seat] <= 0:
                    del self._people[seat]
                    self._waiting.discard(seat)
            self._changed.notify_all()

    # -- the bots ----------------------------------------------------------------------------------------------
    def _watch(self, event: Event) -> None:
        """Called for every event (as a spectator sees it), under the lock when the move came through the host."""
        with self._lock:  # re-entrant: also right when someone submitted to the table directly
            self._last_event = time.monotonic()
            if isinstance(event, RoundOver):
                self._hurrying = False  # (the round a person skipped to the end of is over)
            if isinstance(event, RoundOver) and not event.last:
                self._waiting = set(self._people)
            self._changed.notify_all()

    def hurry(self) -> None:
        """Let the bots play without their pace until the round in play ends (a person out of it skips to its
        end); every move and event is the same, only sooner. The end-of-round wait still holds."""
        with self._lock:
            if not self.table.state.is_over:
                self._hurrying = True
            self._changed.notify_all()

    @property
    def hurrying(self) -> bool:
        """Whether the bots play without their pace until the round ends (:meth:`hurry`)."""
        with self._lock:
            return self._hurrying

    def last_round_end(self) -> int | None:
        """The table's version right after the action that ended its latest round that was not the match's last
        (None: none has); see :meth:`engine.session.Session.last_round_end`."""
        with self._lock:
            return last_round_end(self.table)

    @property
    def waiting_for(self) -> frozenset[int]:
        """The people the bots are waiting for at the end of a round."""
        with self._lock:
            return frozenset(self._waiting)

    def start(self) -> None:
        with self._lock:
            if self._thread is not None or self._stop.is_set():
                return
            self._thread = threading.Thread(target=self._run_bots, name="parlour-bots", daemon=True)
            self._thread.start()

    def _warm_decider(self) -> None:
        """Start the bot process now (on the bots' thread, so the first screen is drawn meanwhile): the child
        imports the engine before the first bot has to move."""
        if self._decider is not None:
            try:
                self._decider.start()
            except Exception:
                self._decider = None  # no bot process to be had here: the bots think on the host's thread

    def close(self) -> None:
        """Stop the bots now; a decision being worked out is dropped."""
        self._stop.set()
        if self._decider is not None:
            self._decider.close()
        with self._lock:
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    def _mover(self) -> tuple[int, str | None] | None:
        """Whom the bot thread plays for now (under the lock): (seat, None) for a bot's seat, (seat, level) for a
        person's seat whose one move :meth:`play_once` asked for at this very version, None for nobody (a person's
        turn, the end-of-round wait, the end of the match)."""
        state = self.table.state
        seat = state.to_move
        if seat is None or state.is_over or self._waiting:
            return None
        if self.table.seats[seat].is_bot:
            return seat, None
        once = self._once
        if once is not None and once[0] == seat and once[1] == state.version:
            return seat, once[2]
        return None

    def _bot_may_move(self) -> bool:
        return self._mover() is not None

    def _run_bots(self) -> None:
        self._warm_decider()
        table = self.table
        while not self._stop.is_set():
            with self._lock:
                mover = self._mover()
                while not self._stop.is_set() and mover is None:
                    self._changed.wait()
                    mover = self._mover()
                if self._stop.is_set() or mover is None:
                    return
                seat, once = mover
                state = table.state
                view, legal, version = state.view(seat), state.legal_actions(), state.version
                since, line = self._last_event, self._line
            self.thinking = seat
            try:
                action = self._decide(seat, view, legal, version, once)
            except DecisionCancelled:
                return  # the host is closing
            except Exception as err:  # a bug in a bot: keep it, stop moving bots, never take the app down
                with self._lock:
                    self.errors.append(err)
                    self._changed.notify_all()
                return
            finally:
                self.thinking = None
            with self._lock:
                # The pace since the table last moved, cut short by a hurry (or the host closing).
                while not self._stop.is_set() and not self._hurrying:
                    wait = self.pace - (time.monotonic() - since)
                    if wait <= 0:
                        break
                    self._changed.wait(wait)
                if self._stop.is_set():
                    return
                # Still the moment it was worked out for, and still whom it was for (a bot's seat may have become
                # a person's again; a person's seat a bot's, which then plays it itself).
                if table.state.version != version or self._waiting or self._mover() != (seat, once):
                    continue
                if self._line != line:
                    continue  # a move was taken back meanwhile: the same version, on another line of play
                if once is not None:
                    self._once = None
                try:
                    events = table.submit(seat, action)
                except ParlourError as err:
                    self.errors.append(err)
                    self._changed.notify_all()
                    return
                self._applied(events)
                self._changed.notify_all()

    def _decide(self, seat: int, view: Any, legal: Sequence[Action], version: int, once: str | None = None) -> Action:
        """The move for ``seat`` from its view: its own bot's, or (``once``) a bot of that level's for a person's
        seat. In the bot process when there is one; the same choice here otherwise."""
        table = self.table
        if self._decider is not None:
            level = once if once is not None else table.seats[seat].level
            assert level is not None
            request = Decision(table.entry.key, level, view, tuple(legal), table.seed, seat, version)
            try:
                return self._decider.decide(request)
            except Exception:
                if self._stop.is_set():
                    raise DecisionCancelled from None
                # The bot process could not start or has died: the same decision, made here, is the same choice.
                self._decider = None
        if once is None:
            return table.decide(seat, view, legal, version, cancelled=self._stop.is_set)
        # The RNG the child process uses too (decision_rng's default purpose): the choice does not depend on where
        # it is made, and it is the move a bot of that level in this seat would make at this moment.
        bot = make_bot(table.game, once)
        return bot.choose(view, legal, decision_rng(table.seed, seat, version, cancelled=self._stop.is_set))

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until no bot can move (a person's turn, the end of a round or of the match); True if it came."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._bot_may_move() and not self.errors:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True


class _Follower:
    """One :meth:`TableHost.subscribe_updates` subscription (compared by identity: the same callback may follow
    twice)."""

    __slots__ = ("callback", "seat")

    def __init__(self, seat: int | None, callback: Callable[[Update], None]) -> None:
        self.seat = seat
        self.callback = callback


def last_round_end(table: Table) -> int | None:
    """The version right after ``table``'s latest action whose events hold a :class:`RoundOver` that is not the
    match's last (None: no action's do)."""
    history, bounds = table.state.history, table.bounds
    for version in range(len(table.actions), 0, -1):
        if any(isinstance(e, RoundOver) and not e.last for e in history[bounds[version - 1] : bounds[version]]):
            return version
    return None


def _ends_a_round(table: Table) -> bool:
    """Whether the table's last move ended a round that is not the match's last (its events hold such a
    :class:`RoundOver`): the people at the table have not said yet that they have seen it."""
    if not table.actions or table.state.is_over:
        return False
    start, end = table.bounds[-2], table.bounds[-1]
    return any(isinstance(event, RoundOver) and not event.last for event in table.state.history[start:end])


def local_table(table: Table, seat: int | None = 0, *, pace: float = 0.0) -> tuple[TableHost, Any]:
    """A host for ``table`` and a session for ``seat``: how a single-player game is set up."""
    host = TableHost(table, pace=pace)
    return host, host.connect(seat)
