"""Helpers for the engine tests of Screw Your Neighbor / Chase the Ace (RULES.md §1).

Stacking the deck
-----------------
:func:`deal` starts a match through the public scenario API only: ``GAME.new_match(players, options, rng,
Scenario(decks=..., dealer=..., totals=...))``. Each :class:`HandPlan` names the card of every seat still in and,
with ``top`` or ``cut``, the next cards of the deck (the dealer's swap or cut takes the first of them: see the
docstring of :mod:`engine.games.chase.rules`); :meth:`ChaseGame.deck_for` turns it into a deck order. The first hand is
dealt by the ``dealer`` given to :func:`deal`; a later hand names its dealer (``plan(..., dealer=0)``), which the
rules decide (the next seat still in, or the same dealer after a void hand). When the plans run out, the table's
seeded RNG shuffles as usual. Nothing is patched and no private field is set.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from conformance import Plug, RoundWitness
from game_helpers import act as act
from game_helpers import cards_in as cards_in
from game_helpers import of_type as of_type
from game_helpers import snapshot as snapshot

from engine.cards import Card, parse_cards, standard_deck
from engine.events import Event
from engine.game import Scenario
from engine.games.chase.rules import ChaseAction, ChaseGame, ChaseOptions, ChaseState

GAME = ChaseGame()
FULL_DECK: frozenset[Card] = frozenset(standard_deck())


def card(text: str) -> Card:
    return Card.parse(text)


def opts(preset: str = "screw", *variants: str) -> ChaseOptions:
    return GAME.options(preset, variants)


@dataclasses.dataclass
class HandPlan:
    """The cards of one deal: ``cards`` by seat (only the seats still in), then what the deck gives next."""

    seats: int
    cards: dict[int, Card]
    next: tuple[Card, ...] = ()
    """The cards right after the dealt ones: the first is what a dealer's swap or cut gets."""
    dealer: int | None = None
    """Who deals this hand (a later hand must say; the first is dealt by :func:`deal`'s ``dealer``)."""


def plan(cards: str, top: str = "", cut: str | None = None, dealer: int | None = None) -> HandPlan:
    """``plan("3H 9C - QD")``: one card per seat in seat order, ``-`` for a seat that is out.

    ``top`` is the top of the deck after the deal (a swap takes its first card); ``cut`` the card a cut turns up.
    """
    tokens = cards.split()
    by_seat = {seat: Card.parse(text) for seat, text in enumerate(tokens) if text != "-"}
    following = parse_cards(top) + ([Card.parse(cut)] if cut else [])
    return HandPlan(len(tokens), by_seat, tuple(following), dealer)


def turn_order(players: int, dealer: int, lives: Sequence[int]) -> list[int]:
    """Seats still in, starting left of the dealer (the next seat clockwise), the dealer last (RULES.md §1)."""
    return [s for step in range(1, players + 1) if lives[s := (dealer + step) % players] > 0]


def scenario(hands: Sequence[HandPlan], dealer: int, lives: Sequence[int] | None = None) -> Scenario:
    """The Scenario that deals ``hands`` (see the module docstring)."""
    players = hands[0].seats
    decks = []
    for index, hand in enumerate(hands):
        assert hand.seats == players, "every plan names every seat"
        by = dealer if index == 0 else hand.dealer
        assert by is not None, "a later hand names its dealer"
        dealt = [[hand.cards[s]] if s in hand.cards else [] for s in range(players)]
        decks.append(GAME.deck_for(players, by, dealt, hand.next))
    return Scenario(decks=tuple(decks), dealer=dealer, totals=tuple(lives) if lives is not None else None)


def deal(
    options: ChaseOptions,
    hands: Sequence[HandPlan],
    dealer: int,
    lives: Sequence[int] | None = None,
    seed: int = 0,
) -> ChaseState:
    """A match whose first deals are ``hands``; seats without a card in the first plan start out (0 lives)."""
    first = hands[0]
    if lives is None:
        lives = [options.starting_lives if s in first.cards else 0 for s in range(first.seats)]
    state = GAME.new_match(first.seats, options, random.Random(seed), scenario(hands, dealer, lives))
    assert isinstance(state, ChaseState)
    assert state.order == tuple(turn_order(first.seats, dealer, lives))
    assert {s: state.cards[s] for s in state.order} == first.cards, "the first hand is dealt as planned"
    return state


ALL_ACTIONS: tuple[ChaseAction, ...] = tuple(ChaseAction)


# ---------------------------------------------------------------------------------------------------------------
# The game's plug into the conformance harness: what each seat may see, from RULES.md (never from the engine's
# redaction); found by the harness as ``PLUG`` of ``<key>_helpers`` (conformance.PLUGS)
# ---------------------------------------------------------------------------------------------------------------
class ChaseWitness(RoundWitness):
    """Screw Your Neighbor / Chase the Ace (RULES.md §1): a seat sees its own dealt card, both cards of a trade it
    is in, its own deck swap; everybody sees Kings shown, a cut card, every card at the reveal and the cards that
    pay. Nothing lasts past the hand."""

    def learn(self, event: Event) -> None:
        from engine.games.chase import rules as chase

        if isinstance(event, chase.CardDealt):
            self.show(event.seat, [event.card])
        elif isinstance(event, chase.KingShown):
            self.show_all([event.card])
        elif isinstance(event, chase.Traded):
            for seat in (event.seat, event.target):
                self.show(seat, [event.gave, event.got])
        elif isinstance(event, chase.DeckSwapped):
            self.show(event.seat, [event.gave, event.got])
        elif isinstance(event, chase.PackCut):
            self.show_all([event.got])
        elif isinstance(event, chase.Revealed):
            self.show_all(card for _, card in event.cards)
        elif isinstance(event, chase.Paid):
            self.show_all([event.card])


PLUG = Plug(ChaseWitness, max_actions=60, totals=lambda players: (2,) * players)
"""The game's plug into the conformance harness (:data:`conformance.PLUGS`)."""
