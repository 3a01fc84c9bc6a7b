"""A Table runs a whole match over a game and publishes its events, redacted per seat, to subscribers.

>>> table = Table.create("screw", players=3, seed=1, bots=["medium", "medium", "medium"])
>>> log = []
>>> _ = table.subscribe(0, log.append)
>>> table.run()
>>> table.state.is_over and type(log[-1]).__name__
'MatchOver'

Events reach every subscriber in the order of the history, each exactly once, even when a subscriber submits an
action from inside its callback (those events are delivered after the current one has reached everybody). A
subscriber that raises is logged and skipped; the others still get the event, and the action stays applied.

Every applied action is kept with its seat (``table.actions``), bots' and people's alike, and where its events
lie in the history (``table.bounds``): with the seed and the setup, that is the whole match (:mod:`engine.records`
saves, rebuilds and replays it).

>>> [seat for seat, _ in table.actions[:3]], len(table.actions) == table.state.version == len(table.bounds) - 1
([1, 2, 0], True)
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from sys import getrefcount
from typing import Any

from engine.bots import Bot, DecisionRandom, decision_rng
from engine.errors import IllegalActionError, OptionError, ParlourError, echo
from engine.events import Event
from engine.game import Action, Game, GameEntry, GameState, Scenario
from engine.hints import Hint
from engine.names import name_key
from engine.registry import get_entry, hint_level, hinter_of, make_bot

Subscriber = Callable[[Event], None]
log = logging.getLogger("parlour.table")

MAX_SEED = 2**63 - 1


@dataclass
class SeatInfo:
    name: str
    level: str | None = None
    """The computer player's level, or None for a person (at this screen or across the LAN)."""
    bot: Bot | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


def check_seed(seed: object) -> int:
    """A table seed: a whole number from 0 (a negative seed would deal what its positive twin deals)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"a seed is a whole number from 0 to {MAX_SEED}, not {echo(seed)}")
    return seed


class Table:
    def __init__(
        self,
        entry: GameEntry,
        options: Any,
        seats: Sequence[SeatInfo],
        seed: int,
        scenario: Scenario | None = None,
    ) -> None:
        self.entry = entry
        self.game: Game[Any, Any, Any] = entry.game
        self.options = options
        self.seats = list(seats)
        self.seed = check_seed(seed)
        self.scenario = scenario
        self.preset: str = self.game.preset_key(options)
        self.variants: tuple[str, ...] = ()
        """The variant keys the options were made with (:meth:`create` sets them; a record shows them)."""
        self._started: float | str = time.time()
        """When the match began: the clock's seconds, written as :attr:`started_at` when first read (most tables that
        ``parlour simulate`` plays are never recorded), or the text a rebuilt table was given."""
        self.state: GameState[Any, Any, Any] = self.game.new_match(
            len(self.seats), options, random.Random(seed), scenario
        )
        self.actions: list[tuple[int, Action]] = []
        """Every applied action with its seat, in order: with the seed and the setup, the whole match."""
        self.bounds: list[int] = [len(self.state.history)]
        """Where the actions' events lie in the history: ``history[:bounds[0]]`` came with the deal, before any
        action, and ``history[bounds[i]:bounds[i + 1]]`` are the events of ``actions[i]``."""
        self._subscribers: list[tuple[int | None, Subscriber]] = []
        self._queue: deque[Event] = deque()
        self._published = len(self.state.history)
        """How many events of the history have started their delivery."""
        self._delivering = False
        self.subscriber_errors = 0
        self.takebacks = 0
        """How many times a person took a move back (:meth:`take_back`): a record and the statistics mark such a
        match, and a rebuilt one keeps the count."""

    @classmethod
    def create(
        cls,
        game: str,
        players: int,
        seed: int = 0,
        bots: Sequence[str | None] = (),
        names: Sequence[str] = (),
        preset: str | None = None,
        variants: Sequence[str] = (),
        deals: int | None = None,
        scenario: Scenario | None = None,
    ) -> Table:
        """A table for ``game`` (key or alias); ``bots[i]`` is seat i's difficulty, or None for a person."""
        entry = get_entry(game)
        entry.game.check_players(players)
        check_seed(seed)
        options = match_options(entry, preset, variants, deals)
        levels = list(bots) + [None] * (players - len(bots))
        if len(levels) > players:
            raise OptionError(f"{len(levels)} bots for {players} players")
        seats = []
        taken = {name_key(name) for name in names[:players]}
        for seat in range(players):
            level = levels[seat]
            bot = make_bot(entry.game, level) if level else None
            if seat < len(names):
                name = names[seat]
            else:
                name = default_name(seat, level, taken)
                taken.add(name_key(name))
            seats.append(SeatInfo(name=name, level=level.strip().lower() if level else None, bot=bot))
        table = cls(entry, options, seats, seed, scenario)
        table.variants = tuple(dict.fromkeys(v.strip().lower() for v in variants if isinstance(v, str)))
        return table

    @property
    def started_at(self) -> str:
        """When the match began (UTC, ISO 8601): a record keeps it, a rebuilt table gets it back."""
        started = self._started
        if not isinstance(started, str):
            started = self._started = datetime.datetime.fromtimestamp(started, datetime.UTC).isoformat()
        return started

    @started_at.setter
    def started_at(self, value: str) -> None:
        self._started = value

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    # -- events out ------------------------------------------------------------------------------------------------
    def subscribe(self, seat: int | None, callback: Subscriber, replay: bool = True) -> Callable[[], None]:
        """Send ``callback`` every event as ``seat`` may see it (the history so far first, if ``replay``)."""
        watcher = self.state.check_seat(seat, spectator=True)
        entry = (watcher, callback)
        # While the history is replayed, an action the callback submits is only queued: it is delivered (to this
        # subscriber too) once the replay is done and the subscriber is in the list, so the order holds.
        outer = self._delivering
        self._delivering = True
        try:
            if replay:
                for event in self.state.history[: self._published]:
                    seen = event.for_seat(watcher)
                    if seen is not None:
                        callback(seen)
            self._subscribers.append(entry)
        finally:
            self._delivering = outer
        if not outer and self._queue:
            self._publish(())

        def unsubscribe() -> None:
            if entry in self._subscribers:
                self._subscribers.remove(entry)

        return unsubscribe

    def _publish(self, events: Sequence[Event]) -> None:
        if not self._subscribers and not self._delivering and not self._queue:
            self._published += len(events)  # nobody to deliver to (a headless run): what the loop below would do
            return
        self._queue.extend(events)
        if self._delivering:
            return  # a subscriber submitted from its callback: the loop below delivers these in turn
        self._delivering = True
        try:
            while self._queue:
                event = self._queue.popleft()
                self._published += 1
                for watcher, callback in list(self._subscribers):
                    seen = event.for_seat(watcher)
                    if seen is None:
                        continue
                    try:
                        callback(seen)
                    except Exception:
                        self.subscriber_errors += 1
                        log.exception("a subscriber of seat %s failed on %s", watcher, type(event).__name__)
        finally:
            self._delivering = False

    # -- actions in ------------------------------------------------------------------------------------------------
    def submit(self, seat: int, action: object) -> list[Event]:
        """Apply ``action`` for ``seat`` (errors leave everything as it was) and publish the events.

        The action is kept as the game's action object (text is read first), so a record never holds text that
        would have to be read again in another state."""
        move = self._coerce(action)
        events = self.state.apply(seat, move)
        self.actions.append((seat, move))
        self.bounds.append(len(self.state.history))
        self._publish(events)
        return events

    def take_back(self, seat: int) -> int:
        """Go back to ``seat``'s latest decision, exactly as it was: the match is played again from its seed through
        every action before that one (the engine is deterministic, so the cards, the deck still to come and every
        bot's seeded choice on the way forward are the same), and :attr:`takebacks` counts one more. The version
        now (``seat`` is to move); IllegalActionError when ``seat`` has made no move, or the match is over.

        Nothing is published: the events after that decision are simply gone, and a subscriber must follow the
        table again from where it stands (:meth:`subscribe` hands it the history so far, redacted for its seat)."""
        checked = self._seat(seat)
        if self.state.is_over:
            raise IllegalActionError("the match is over: nothing can be taken back")
        if self._delivering:
            raise IllegalActionError("a move cannot be taken back while its events are being delivered")
        index = next((i for i in range(len(self.actions) - 1, -1, -1) if self.actions[i][0] == checked), None)
        if index is None:
            raise IllegalActionError("there is no move of yours to take back yet")
        kept = self.actions[:index]
        state = self.game.new_match(len(self.seats), self.options, random.Random(self.seed), self.scenario)
        bounds = [len(state.history)]
        for mover, action in kept:
            state.apply(mover, action)
            bounds.append(len(state.history))
        self.state, self.actions, self.bounds = state, kept, bounds
        self._queue.clear()
        self._published = len(state.history)
        self.takebacks += 1
        return state.version

    def _coerce(self, action: object) -> object:
        """``action`` as the game's action object, or as given when it is not one (``apply`` then refuses it, with
        the same error, in the same order of checks, as ever)."""
        try:
            return self.state.coerce_action(action)
        except ParlourError:
            return action

    @property
    def bot_to_move(self) -> bool:
        seat = self.state.to_move
        return seat is not None and self.seats[seat].is_bot

    def think(self) -> tuple[int, Action]:
        """The bot to move picks its action from its own view. Changes nothing: the bot's RNG is made for this
        decision from the seed, the seat and the number of actions so far, so asking twice gives the same answer."""
        seat = self.state.to_move
        if seat is None or self.seats[seat].bot is None:
            raise IllegalActionError("no computer player is to move")
        return seat, self.decide(seat, self.state.view(seat), self.state.legal_actions(), self.state.version)

    def decide(
        self,
        seat: int,
        view: Any,
        legal: Sequence[Action],
        version: int,
        cancelled: Callable[[], bool] | None = None,
    ) -> Action:
        """What the bot at ``seat`` plays from ``view`` at the moment ``version`` (thread-safe: reads no state).

        With ``cancelled``, the decision stops with DecisionCancelled soon after it says yes."""
        bot = self.seats[self._seat(seat)].bot
        if bot is None:
            raise IllegalActionError(f"seat {seat} is not a computer player")
        return bot.choose(view, legal, decision_rng(self.seed, seat, version, cancelled=cancelled))

    def hint(self, seat: int, view: Any, legal: Sequence[Action], version: int) -> Hint | None:
        """What the game's hint level would play for ``seat`` from ``view`` and why (None when the game gives no
        hints). Its RNG is made for the seat and the moment, so asking twice gives the same hint."""
        self._seat(seat)
        level = hint_level(self.game)
        if level is None or not legal:
            return None
        bot = make_bot(self.game, level)
        rng = decision_rng(self.seed, seat, version, "hint")
        hinter = hinter_of(self.game)
        if hinter is None:
            return Hint(bot.choose(view, legal, rng), "")
        return hinter(bot, view, legal, rng)

    def _seat(self, seat: object) -> int:
        """``seat`` as a seat of this table, SeatError if it is not one (only the number of players is read)."""
        checked = self.state.check_seat(seat)
        assert checked is not None
        return checked

    def step_bot(self) -> list[Event]:
        seat, action = self.think()
        return self.submit(seat, action)

    def run(self, max_steps: int = 1_000_000) -> None:
        """Let the bots play until a person must act or the match is over.

        Each step is :meth:`step_bot` (:meth:`think`, :meth:`decide`, :meth:`submit`) written out: ``parlour
        simulate`` runs nothing else, so the calls between them are worth saving; a move with only one legal action
        is played without asking the bot (it would play that action: the match is the same). The seat is the one to
        move, so its view needs no check, and its decision's RNG is :func:`~engine.bots.decision_rng`'s, made here."""
        seats = self.seats
        prefix = f"{self.seed}/bot/"  # decision_rng's text: seed/purpose/seat/version
        actions = self.actions
        bounds = self.bounds
        rng: DecisionRandom | None = None
        for _ in range(max_steps):
            state = self.state
            seat = state.to_move
            if seat is None:
                return
            bot = seats[seat].bot
            if bot is None:
                return
            legal = state.legal_actions()
            if len(legal) == 1:
                # A forced move (a Big Two seat with nothing to beat the table, a large share of its moves): there is
                # nothing to decide, and every bot plays it (bots keep no state between decisions, and each
                # decision has a stream of its own), so it is played without a view, a stream or the bot.
                action = legal[0]
            else:
                # A bot that reads no view (reads_view = False) is not given one: nobody would read it.
                view = state._view(seat) if getattr(bot, "reads_view", True) else None
                text = f"{prefix}{seat}/{state.version}"
                if rng is not None and rng.__class__ is DecisionRandom and getrefcount(rng) == 2:
                    # Nobody kept the last decision's RNG (this name and getrefcount's argument are its only
                    # references): it is set to this decision's stream rather than a new generator allocated.
                    rng._text = text
                    rng._words = None
                    rng.gauss_next = None
                else:
                    rng = DecisionRandom(text)
                action = bot.choose(view, legal, rng)
            # submit, written out. An action of the game's own classes is taken as it is: coerce_action would only
            # check it, and apply checks it again (refusing it with the same error)
            if action.__class__ in state.action_types:
                move = action
            else:
                try:
                    move = state.coerce_action(action)
                except ParlourError:
                    move = action  # apply refuses it, with the error submit would raise
            events = state.apply(seat, move)
            actions.append((seat, move))
            bounds.append(len(state.history))
            if self._subscribers or self._delivering or self._queue:
                self._publish(events)
            else:
                self._published += len(events)  # nobody to deliver to: what _publish would do
        raise RuntimeError("the match did not end")


def match_options(entry: GameEntry, preset: str | None, variants: Sequence[str], deals: int | None) -> Any:
    """The typed options for a table: the preset, the variants and, for games played in deals, how many.

    Options are frozen, so those of a choice made before are reused (``parlour simulate`` makes a table a game,
    each from the same choice)."""
    key = _options_key(entry, preset, variants, deals)
    options = _OPTIONS.get(key) if key is not None else None
    if options is None:
        options = _match_options(entry, preset, variants, deals)
        if key is not None:
            if len(_OPTIONS) >= 256:
                _OPTIONS.clear()
            _OPTIONS[key] = options
    return options


_OPTIONS: dict[tuple[Any, ...], Any] = {}
"""The options :func:`match_options` made, by its arguments."""


def _options_key(entry: GameEntry, preset: object, variants: object, deals: object) -> tuple[Any, ...] | None:
    """The arguments of :func:`match_options` as a key, or None for a choice that is not made of plain strings and
    whole numbers (it is not remembered: made afresh, and refused if it is wrong)."""
    if not (preset is None or type(preset) is str) or not (deals is None or type(deals) is int):
        return None
    if type(variants) not in (tuple, list) or not all(type(v) is str for v in variants):  # type: ignore[attr-defined]
        return None
    return (entry.key, preset, deals, *variants)  # type: ignore[misc]


def _match_options(entry: GameEntry, preset: str | None, variants: Sequence[str], deals: int | None) -> Any:
    options = entry.game.options(preset or entry.preset, variants)
    if deals is not None:
        if not hasattr(options, "deals"):
            raise OptionError(f"{entry.title} is not played in a fixed number of deals")
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise OptionError("a match needs at least 1 deal")
        options = dataclasses.replace(options, deals=deals)
    return options


BOT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Juno")


def default_name(seat: int, level: str | None, taken: Collection[str] = ()) -> str:
    """The name of a seat nobody named: a bot's from :data:`BOT_NAMES` (seat 1 is Ben), a person's "You" or
    "Player N". ``taken``: the :func:`~engine.names.name_key` of the names already at the table, which a bot's name
    never repeats (a player called Ben plays against Ana, Cleo… not against another Ben)."""
    if level is None:
        return "You" if seat == 0 else f"Player {seat + 1}"
    preferred = BOT_NAMES[seat % len(BOT_NAMES)]
    if name_key(preferred) not in taken:
        return preferred
    free = [name for name in BOT_NAMES if name_key(name) not in taken]
    return free[0] if free else f"Bot {seat + 1}"
