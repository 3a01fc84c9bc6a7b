"""High Card, the engine's side: options, events, the view, the state, the spec and the statistics figures.

Each deal, every player is dealt one card face down from a shuffled 52-card deck; in turn, from the dealer's left,
each reveals it. The highest rank wins the deal (Aces high, suits do not count); between equal ranks the card
revealed first wins. A match is a number of deals (3 unless chosen), one point per deal won; the most points win
the match (a tie shares it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.cards import Card, Rank, standard_deck
from engine.errors import InvalidActionError, OptionError, echo
from engine.events import Event
from engine.game import Game, GameEntry, GameState, MatchResult, Preset, Scenario, Variant, copy_rng
from engine.match import MatchProgress, MatchRule, RoundStarted, final_totals
from sixth_game import LISTING

RULES = """# High Card

Each deal, every player is dealt one card face down from a shuffled 52-card deck. In turn, from the dealer's
left, each player **reveals** their card: that is the only move. The highest rank wins the deal (Aces high; suits
do not count); between cards of the same rank, the one revealed first wins. The winner scores one point.

A match is {deals}; the most points win it (a tie shares the win). The deal passes to the left.
"""


@dataclass(frozen=True)
class HighCardOptions:
    deals: int = 3
    """How many deals the match has."""


@dataclass(frozen=True, kw_only=True)
class Dealt(Event):
    """A seat is dealt its card: the card for that seat alone, a face-down card for the others."""

    seat: int
    card: Card | None

    def redacted(self) -> Event | None:
        return replace(self, audience=None, card=None)


@dataclass(frozen=True, kw_only=True)
class Shown(Event):
    """A seat reveals its card, to everyone."""

    seat: int
    card: Card


@dataclass(frozen=True, kw_only=True)
class DealWon(Event):
    seat: int
    card: Card


class HighCardAction(StrEnum):
    REVEAL = "reveal"


@dataclass(frozen=True)
class HighCardView:
    """What a seat may know: its own card, every card revealed so far, the totals."""

    seat: int | None
    players: int
    deal: int
    dealer: int
    to_move: int | None
    my_card: Card | None
    shown: tuple[Card | None, ...]
    totals: tuple[int, ...]
    deals: int


@dataclass
class HighCardState(GameState[HighCardOptions, HighCardView, HighCardAction]):
    options: HighCardOptions = field(default_factory=HighCardOptions)
    rng: random.Random = field(default_factory=random.Random)
    progress: MatchProgress | None = None
    hands: list[Card | None] | None = None
    shown: list[Card | None] | None = None
    deck: list[Card] | None = None
    turn: int | None = None
    order: list[int] | None = None

    action_types = (HighCardAction,)

    # -- the deal ------------------------------------------------------------------------------------------------
    def start(self, dealer: int) -> list[Event]:
        self.progress = MatchProgress.starting(self.players, MatchRule(rounds=self.options.deals), dealer=dealer)
        return self._deal()

    def _deal(self) -> list[Event]:
        progress = self._progress
        order = [(progress.dealer + step) % self.players for step in range(1, self.players + 1)]
        events: list[Event] = [progress.start_round(seats=tuple(order))]
        deck = self.next_deck(list(standard_deck()), self.rng)
        self.hands = [None] * self.players
        self.shown = [None] * self.players
        for seat in order:
            card = deck.pop(0)
            self.hands[seat] = card
            events.append(Dealt(audience=frozenset({seat}), seat=seat, card=card))
        self.deck = deck
        self.order = order
        self.turn = 0
        return events

    @property
    def _progress(self) -> MatchProgress:
        assert self.progress is not None
        return self.progress

    # -- what every state answers --------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        if self._progress.over or self.order is None or self.turn is None:
            return None
        return self.order[self.turn]

    def legal_actions(self) -> list[HighCardAction]:
        return [] if self.to_move is None else [HighCardAction.REVEAL]

    def _apply(self, action: HighCardAction) -> list[Event]:
        seat = self.to_move
        assert seat is not None and self.hands is not None and self.shown is not None and self.order is not None
        card = self.hands[seat]
        assert card is not None
        self.hands[seat] = None
        self.shown[seat] = card
        events: list[Event] = [Shown(seat=seat, card=card)]
        assert self.turn is not None
        self.turn += 1
        if self.turn < len(self.order):
            return events
        best = self.order[0]
        for other in self.order[1:]:
            if _rank(self.shown[other]) > _rank(self.shown[best]):
                best = other
        winning = self.shown[best]
        assert winning is not None
        events.append(DealWon(seat=best, card=winning))
        deltas = tuple(1 if other == best else 0 for other in range(self.players))
        ended = self._progress.end_round(winners=(best,), deltas=deltas)
        events += ended
        if not self._progress.over:
            events += self._deal()
        else:
            self.turn = None
        return events

    def _view(self, seat: int | None) -> HighCardView:
        progress = self._progress
        mine = self.hands[seat] if seat is not None and self.hands is not None else None
        return HighCardView(
            seat=seat,
            players=self.players,
            deal=progress.round,
            dealer=progress.dealer,
            to_move=self.to_move,
            my_card=mine,
            shown=tuple(self.shown or ()),
            totals=tuple(progress.totals),
            deals=self.options.deals,
        )

    def clone(self) -> HighCardState:
        other = HighCardState(self.players, options=self.options, rng=copy_rng(self.rng))
        self._copy_base(other)
        other.progress = self._progress.copy()
        other.hands = list(self.hands or ())
        other.shown = list(self.shown or ())
        other.deck = list(self.deck or ())
        other.turn = self.turn
        other.order = list(self.order or ())
        return other

    @property
    def result(self) -> MatchResult | None:
        progress = self._progress
        if not progress.over:
            return None
        return MatchResult(winners=progress.winners, scores=tuple(float(total) for total in progress.totals))

    def parse_action(self, text: str) -> HighCardAction:
        word = text.strip().lower() if isinstance(text, str) else None
        if word != HighCardAction.REVEAL.value:
            raise InvalidActionError(f"not a move of High Card: {echo(text)} (the only move is reveal)")
        return HighCardAction.REVEAL

    def zones(self) -> dict[str, Sequence[Card]]:
        zones: dict[str, Sequence[Card]] = {
            f"hand {seat}": [card] if card is not None else [] for seat, card in enumerate(self.hands or ())
        }
        zones["shown"] = [card for card in self.shown or () if card is not None]
        zones["deck"] = list(self.deck or ())
        return zones

    def full_deck(self) -> list[Card]:
        return list(standard_deck())


def _rank(card: Card | None) -> int:
    """Aces high."""
    assert card is not None
    return 14 if card.rank is Rank.ACE else int(card.rank)


class HighCardFigures:
    """``parlour simulate`` figures: deals won per line-up position."""

    column = "deals_won"

    def __init__(self) -> None:
        self.won: list[int] = []

    def add(self, state: GameState[Any, Any, Any], position: Sequence[int]) -> None:
        if not self.won:
            self.won = [0] * state.players
        for event in state.history:
            if isinstance(event, DealWon):
                self.won[position[event.seat]] += 1

    def report(self) -> dict[str, Any]:
        return {"deals_won": list(self.won)}


class HighCardGame(Game[HighCardOptions, HighCardView, HighCardAction]):
    key = LISTING.key
    name = "High Card"
    min_players = LISTING.players[0]
    default_players = LISTING.players[1]
    max_players = LISTING.players[2]
    view_type = HighCardView

    @property
    def presets(self) -> Sequence[Preset]:
        return (Preset("highcard", "High Card", "one card each, the highest wins the deal"),)

    @property
    def variants(self) -> Sequence[Variant]:
        return ()

    def base_options(self, preset: str | None) -> HighCardOptions:
        if preset not in (None, "highcard"):
            raise OptionError(f"unknown preset {echo(preset)}; choose one of: highcard")
        return HighCardOptions()

    def with_variant(self, options: HighCardOptions, key: str) -> HighCardOptions:
        raise OptionError(f"unknown variant {echo(key)}: High Card has no variants")

    def entries(self) -> tuple[GameEntry, ...]:
        return LISTING.game_entries(self)

    def new_match(
        self, players: int, options: HighCardOptions, rng: random.Random, scenario: Scenario | None = None
    ) -> HighCardState:
        self.check_players(players)
        if not isinstance(options, HighCardOptions):
            raise OptionError(f"not options of {self.name}: {echo(options)}")
        scenario = scenario if scenario is not None else Scenario()
        state = HighCardState(players, options=options, rng=rng)
        state.planned = list(scenario.decks)
        dealer = rng.randrange(players) if scenario.dealer is None else scenario.dealer
        state.history.extend(state.start(dealer))
        return state

    def determinize(self, view: HighCardView, rng: random.Random) -> HighCardState:
        """A state with every card the view does not show drawn at random from the rest of the deck."""
        known = {str(card) for card in view.shown if card is not None}
        if view.my_card is not None:
            known.add(str(view.my_card))
        rest = [card for card in standard_deck() if str(card) not in known]
        rng.shuffle(rest)
        state = HighCardState(view.players, options=HighCardOptions(deals=view.deals), rng=copy_rng(rng))
        progress = MatchProgress.starting(view.players, MatchRule(rounds=view.deals), dealer=view.dealer)
        progress.totals = list(view.totals)
        progress.round = view.deal
        state.progress = progress
        state.order = [(view.dealer + step) % view.players for step in range(1, view.players + 1)]
        state.shown = list(view.shown)
        state.hands = [None] * view.players
        for seat in state.order:
            if state.shown[seat] is None:
                state.hands[seat] = view.my_card if seat == view.seat else rest.pop()
        state.turn = sum(1 for card in view.shown if card is not None)
        state.deck = rest
        return state

    def rules_summary(self, options: HighCardOptions | None = None) -> str:
        deals = (options or HighCardOptions()).deals
        return RULES.format(deals=f"{deals} deal" + ("" if deals == 1 else "s"))

    def figures(self) -> HighCardFigures:
        return HighCardFigures()

    def codec_types(self) -> Sequence[type]:
        return (HighCardOptions, HighCardView, HighCardAction, Dealt, Shown, DealWon)


# -- the statistics ------------------------------------------------------------------------------------------------
def count(history: Sequence[Event], seat: int) -> dict[str, int]:
    """A seat's counts from a finished match: deals played and deals won."""
    deals = won = 0
    for event in history:
        if isinstance(event, RoundStarted):
            deals += 1
        elif isinstance(event, DealWon) and event.seat == seat:
            won += 1
    return {"deals": deals, "deals_won": won}


def score(history: Sequence[Event], seat: int, options: Any) -> float:
    """A seat's score from the events it saw: its points."""
    return float(final_totals(history)[seat])
