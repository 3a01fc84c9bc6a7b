"""Helpers for the engine tests of Screw Your Neighbor / Chase the Ace (RULES.md §1).

Stacking the deck
-----------------
:func:`deal` builds a :class:`ChaseState` directly (no ``new_match``, so the dealer and the lives are ours to
choose) and gives it a :class:`StackedRandom`. ``ChaseState.start_hand`` shuffles a fresh ``standard_deck()``
with the state's RNG and then ``pop()``s one card per seat in turn order, then the dealer's swap takes the next
``pop()``; a cut takes ``deck.pop(rng.randrange(len(deck)))``. ``StackedRandom.shuffle`` therefore shuffles as
usual and then moves the planned cards to the end of the list in the reverse order of the pops, and its
``randrange`` answers the index of the planned cut card. It reads the turn order from the state it deals for
(``rng.state``), so a plan names cards by *seat* and stays right across hands whatever the dealer and
eliminations did. When the plans run out it is an ordinary seeded ``random.Random``. Nothing in ``engine/`` is
patched: the engine code under test is exactly the code that runs in play.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import MutableSequence, Sequence
from typing import Any

from game_helpers import act as act
from game_helpers import cards_in as cards_in
from game_helpers import of_type as of_type

from engine.cards import Card, parse_cards, standard_deck
from engine.games.chase import ChaseAction, ChaseGame, ChaseOptions, ChaseState

GAME = ChaseGame()
FULL_DECK: frozenset[Card] = frozenset(standard_deck())


def card(text: str) -> Card:
    return Card.parse(text)


def opts(preset: str = "screw", *variants: str) -> ChaseOptions:
    return GAME.options(preset, variants)


@dataclasses.dataclass
class HandPlan:
    """The cards of one deal: ``cards`` by seat (only the seats still in), then what the deck gives."""

    cards: dict[int, Card]
    top: tuple[Card, ...] = ()
    """The next cards popped from the deck after the deal (the first is what a dealer's swap gets)."""
    cut: Card | None = None
    """The card a dealer's cut turns up."""


def plan(cards: str, top: str = "", cut: str | None = None) -> HandPlan:
    """``plan("3H 9C - QD")``: one card per seat in seat order, ``-`` for a seat that is out."""
    by_seat = {seat: Card.parse(text) for seat, text in enumerate(cards.split()) if text != "-"}
    return HandPlan(by_seat, tuple(parse_cards(top)), Card.parse(cut) if cut else None)


def turn_order(players: int, dealer: int, lives: Sequence[int]) -> list[int]:
    """Seats still in, starting left of the dealer (the next seat clockwise), the dealer last (RULES.md §1)."""
    return [s for step in range(1, players + 1) if lives[s := (dealer + step) % players] > 0]


class StackedRandom(random.Random):
    """A seeded Random whose ``shuffle`` stacks the next planned deal (see the module docstring)."""

    def __init__(self, plans: Sequence[HandPlan] = (), seed: int = 0) -> None:
        super().__init__(seed)
        self.plans = list(plans)
        self.state: ChaseState | None = None
        self.pending_cut: Card | None = None

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        super().shuffle(x)
        if self.state is None or not self.plans:
            return
        hand = self.plans.pop(0)
        st = self.state
        order = turn_order(st.players, st.dealer, st.lives)
        assert set(hand.cards) == set(order), f"plan deals to {sorted(hand.cards)}, seats in are {order}"
        pops = [hand.cards[s] for s in order] + list(hand.top)
        assert len(set(pops)) == len(pops), "a card planned twice"
        assert hand.cut is None or hand.cut not in pops, "the cut card is also dealt"
        rest = [c for c in x if c not in pops]
        x[:] = rest + pops[::-1]
        self.pending_cut = hand.cut

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        if self.pending_cut is not None and self.state is not None:
            wanted, self.pending_cut = self.pending_cut, None
            return self.state.deck.index(wanted)
        return super().randrange(*args, **kwargs)


def deal(
    options: ChaseOptions,
    hands: Sequence[HandPlan],
    dealer: int,
    lives: Sequence[int] | None = None,
) -> ChaseState:
    """A match whose first deals are ``hands``; seats without a card in the first plan start out (0 lives)."""
    first = hands[0]
    players = max(first.cards) + 1
    start = options.lives + (1 if options.on_honour else 0)
    if lives is None:
        lives = [start if s in first.cards else 0 for s in range(players)]
    rng = StackedRandom(hands)
    state = ChaseState(
        players=players, options=options, rng=rng, lives=list(lives), dealer=dealer, out_order=[0] * players
    )
    rng.state = state
    state.history.extend(state.start_hand())
    return state


def snapshot(state: ChaseState) -> tuple[dict[str, Any], Any]:
    """A deep copy of everything in the state except the RNG object, plus the RNG's internal state."""
    fields = {k: v for k, v in vars(state).items() if k != "rng"}
    return copy.deepcopy(fields), state.rng.getstate()


ALL_ACTIONS: tuple[ChaseAction, ...] = tuple(ChaseAction)
