"""A Table runs a whole match over a game and publishes its events, redacted per seat, to subscribers.

>>> table = Table.create("screw", players=3, seed=1, bots=["medium", "medium", "medium"])
>>> log = []
>>> _ = table.subscribe(0, log.append)
>>> table.run()
>>> table.state.is_over and any(type(e).__name__ == "MatchOver" for e in log)
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bots import Bot, make_bot
from engine.errors import IllegalActionError, OptionError
from engine.events import Event
from engine.game import Action, Game, GameState
from engine.games import GameEntry, get_entry

Subscriber = Callable[[Event], None]


@dataclass
class SeatInfo:
    name: str
    bot: Bot | None = None
    """None for a person (at this screen or across the LAN)."""

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


class Table:
    def __init__(self, entry: GameEntry, options: Any, seats: Sequence[SeatInfo], seed: int) -> None:
        self.entry = entry
        self.game: Game = entry.game
        self.options = options
        self.seats = list(seats)
        self.seed = seed
        self.state: GameState = self.game.new_match(len(self.seats), options, random.Random(seed))
        self._subscribers: list[tuple[int | None, Subscriber]] = []

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
    ) -> Table:
        """A table for ``game`` (key or alias); ``bots[i]`` is seat i's difficulty, or None for a person."""
        entry = get_entry(game)
        entry.game.check_players(players)
        options = match_options(entry, preset, variants, deals)
        levels = list(bots) + [None] * (players - len(bots))
        seats = []
        for seat in range(players):
            level = levels[seat]
            bot = make_bot(entry.game, level, random.Random(f"{seed}/bot/{seat}")) if level else None
            name = names[seat] if seat < len(names) else default_name(seat, level)
            seats.append(SeatInfo(name=name, bot=bot))
        return cls(entry, options, seats, seed)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    def subscribe(self, seat: int | None, callback: Subscriber, replay: bool = True) -> Callable[[], None]:
        """Send ``callback`` every event as ``seat`` may see it (the history so far first, if ``replay``)."""
        entry = (seat, callback)
        self._subscribers.append(entry)
        if replay:
            for event in self.state.history:
                seen = event.for_seat(seat)
                if seen is not None:
                    callback(seen)
        return lambda: self._subscribers.remove(entry)

    def submit(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` (errors leave everything as it was) and publish the events."""
        events = self.state.apply(seat, action)
        for event in events:
            for watcher, callback in list(self._subscribers):
                seen = event.for_seat(watcher)
                if seen is not None:
                    callback(seen)
        return events

    @property
    def bot_to_move(self) -> bool:
        seat = self.state.to_move
        return seat is not None and self.seats[seat].is_bot

    def think(self) -> tuple[int, Action]:
        """The bot to move picks its action from its own view (nothing is changed)."""
        seat = self.state.to_move
        if seat is None or self.seats[seat].bot is None:
            raise IllegalActionError("no computer player is to move")
        bot = self.seats[seat].bot
        assert bot is not None
        return seat, bot.choose(self.state.view(seat), self.state.legal_actions())

    def step_bot(self) -> list[Event]:
        seat, action = self.think()
        return self.submit(seat, action)

    def run(self, max_steps: int = 1_000_000) -> None:
        """Let the bots play until a person must act or the match is over."""
        for _ in range(max_steps):
            if not self.bot_to_move:
                return
            self.step_bot()
        raise RuntimeError("the match did not end")


def match_options(entry: GameEntry, preset: str | None, variants: Sequence[str], deals: int | None) -> Any:
    """The typed options for a table: the preset, the variants and, for games played in deals, how many."""
    options = entry.game.options(preset or entry.preset, variants)
    if deals is not None:
        if not hasattr(options, "deals"):
            raise OptionError(f"{entry.title} is not played in a fixed number of deals")
        if deals < 1:
            raise OptionError("a match needs at least 1 deal")
        options = dataclasses.replace(options, deals=deals)
    return options


BOT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Juno")


def default_name(seat: int, level: str | None) -> str:
    if level is None:
        return "You" if seat == 0 else f"Player {seat + 1}"
    return BOT_NAMES[seat % len(BOT_NAMES)]
