"""The match layer, written once for every game: rounds (hands, deals), running totals, dealer rotation, match end.

A game's state keeps one :class:`MatchProgress` and calls it at the start and the end of each round. It publishes
the three marker events every screen keys on, whatever the game:

- :class:`RoundStarted` opens a round (a hand, a deal), naming the dealer and the seats dealt in;
- :class:`RoundOver` closes it with what each seat's total changed by, the totals and whether it was the last;
- :class:`MatchOver` ends the match with the winners (a shared win names several) and the totals.

The totals are whatever the game keeps per seat: lives (Screw/Chase), points (Big Two), penalty points (Rank).

>>> progress = MatchProgress.starting(3, MatchRule(rounds=2), dealer=2)
>>> progress.start_round(seats=(0, 1, 2)).round
1
>>> [type(e).__name__ for e in progress.end_round(winners=(0,), deltas=(4, -2, -2))]
['RoundOver']
>>> progress.dealer
0
>>> _ = progress.start_round(seats=(1, 2, 0))
>>> over = progress.end_round(winners=(1,), deltas=(-1, 2, -1))
>>> [type(e).__name__ for e in over], over[-1].winners, progress.totals
(['RoundOver', 'MatchOver'], (0,), [3, 0, -3])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import codec
from engine.errors import ParlourError
from engine.events import Event, frozen


@dataclass(frozen=True, kw_only=True)
class RoundStarted(Event):
    """A round (a hand, a deal) begins."""

    round: int
    """1 for the first round of the match."""
    dealer: int | None
    seats: tuple[int, ...]
    """The seats dealt in this round, in turn order."""


@dataclass(frozen=True, kw_only=True)
class RoundOver(Event):
    """A round is over; the game's own events before this one say how it went."""

    round: int
    winners: tuple[int, ...]
    """Who won the round (empty where a round has no winner, as in Screw/Chase)."""
    deltas: tuple[int, ...]
    """What each seat's total changed by in this round."""
    totals: tuple[int, ...]
    """Every seat's running total after it."""
    last: bool
    """True when the match ends with this round (a :class:`MatchOver` follows at once)."""
    replay: bool = False
    """True when the round does not count and is dealt again (Screw/Chase: everyone would be out)."""


@dataclass(frozen=True, kw_only=True)
class MatchOver(Event):
    winners: tuple[int, ...]
    """Every seat that won; several share the win."""
    totals: tuple[int, ...]


def final_totals(history: Sequence[Event]) -> tuple[int, ...]:
    """The totals a finished match's events end with (its :class:`MatchOver`); ParlourError if they have none."""
    for event in reversed(history):
        if isinstance(event, MatchOver):
            return event.totals
    raise ParlourError("the match has no end in these events")


@dataclass(frozen=True)
class MatchRule:
    """When a match ends and who wins it."""

    rounds: int | None = None
    """The match ends after this many rounds (None: no fixed number)."""
    low_limit: int | None = None
    """...or as soon as a total has fallen to this or below (Big Two's score limit, as a negative number)."""
    high_limit: int | None = None
    """...or as soon as a total has reached this or more."""
    last_standing: bool = False
    """...or as soon as one seat alone has a total above zero (lives): that seat wins."""
    lower_wins: bool = False
    """The lowest total wins (penalty points); otherwise the highest."""

    def is_over(self, rounds: int, totals: Sequence[int]) -> bool:
        if self.last_standing and sum(1 for t in totals if t > 0) <= 1:
            return True
        if self.rounds is not None and rounds >= self.rounds:
            return True
        if self.low_limit is not None and min(totals) <= self.low_limit:
            return True
        return self.high_limit is not None and max(totals) >= self.high_limit

    def winners(self, totals: Sequence[int]) -> tuple[int, ...]:
        if self.last_standing:
            alive = tuple(s for s, t in enumerate(totals) if t > 0)
            if alive:
                return alive
        best = min(totals) if self.lower_wins else max(totals)
        return tuple(s for s, t in enumerate(totals) if t == best)


@dataclass
class MatchProgress:
    """Where a match stands between and during rounds. Copied with the state (it holds only plain data)."""

    players: int
    rule: MatchRule
    totals: list[int]
    dealer: int = 0
    round: int = 0
    over: bool = False
    winners: tuple[int, ...] = ()
    active: list[bool] = field(default_factory=list)
    """Seats still in the match (all of them, except in an elimination game)."""

    @classmethod
    def starting(
        cls, players: int, rule: MatchRule, dealer: int = 0, totals: Sequence[int] | None = None
    ) -> MatchProgress:
        start = list(totals) if totals is not None else [0] * players
        if len(start) != players:
            raise ValueError(f"{len(start)} totals for {players} players")
        active = [t > 0 for t in start] if rule.last_standing else [True] * players
        return cls(players=players, rule=rule, totals=start, dealer=dealer, active=active)

    def copy(self) -> MatchProgress:
        return MatchProgress(
            players=self.players,
            rule=self.rule,
            totals=list(self.totals),
            dealer=self.dealer,
            round=self.round,
            over=self.over,
            winners=self.winners,
            active=list(self.active),
        )

    def start_round(self, seats: Sequence[int], *, again: bool = False) -> RoundStarted:
        """Open the next round (``again``: the same round dealt again, its number kept)."""
        if not again or self.round == 0:
            self.round += 1
        # Made without the dataclass __init__ (events.frozen): a game opens and closes rounds at the pace of
        # simulated matches.
        return frozen(RoundStarted, audience=None, round=self.round, dealer=self.dealer, seats=tuple(seats))

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise that is still in the match."""
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.active[other]:
                return other
        return seat

    def end_round(self, winners: Sequence[int], deltas: Sequence[int], *, replay: bool = False) -> list[Event]:
        """Close the round: add ``deltas`` to the totals, move the dealer on, and end the match if it is over.

        Returns the :class:`RoundOver` event, followed by the :class:`MatchOver` event when the match ends.
        """
        if len(deltas) != self.players:
            raise ValueError(f"{len(deltas)} deltas for {self.players} players")
        for seat, delta in enumerate(deltas):
            self.totals[seat] += delta
        if self.rule.last_standing:
            self.active = [t > 0 for t in self.totals]
        last = not replay and self.rule.is_over(self.round, self.totals)
        totals = tuple(self.totals)
        over = frozen(
            RoundOver,
            audience=None,
            round=self.round,
            winners=tuple(winners),
            deltas=tuple(deltas),
            totals=totals,
            last=last,
            replay=replay,
        )
        events: list[Event] = [over]
        if last:
            self.over = True
            self.winners = self.rule.winners(self.totals)
            events.append(frozen(MatchOver, audience=None, winners=self.winners, totals=totals))
        elif not replay:
            self.dealer = self.next_seat(self.dealer)
        return events


codec.register("match", RoundStarted, RoundOver, MatchOver)
