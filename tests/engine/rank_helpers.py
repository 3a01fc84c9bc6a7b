"""Helpers for the engine tests of Rank (RULES.md §4).

:func:`deal` starts a real match through the public scenario API: ``RankGame.deck_for`` lays out a deck that deals
each seat the planned hand, turns the first card of ``rest`` as the starter and puts the others on top of the stock
(the first of them drawn first); ``RankGame.new_match(..., Scenario(decks=..., dealer=..., totals=...))`` deals it.
Seat 0 plays first unless ``dealer`` says otherwise (the player left of the dealer starts). Cards a hand or the
stock does not name come from the rest of the deck in :func:`~engine.cards.standard_deck` order (Spades Ace first,
the jokers last), so a test names every card it relies on.

A few rules need a stock or a pile that only many turns would produce (an empty stock, a short pile): tests then
move cards between places with :func:`move`, which keeps every card somewhere exactly once, as the trash tests do
with a worn stock.

The seeded random self-play is in ``test_rank_selfplay.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from conformance import Plug, RoundWitness
from game_helpers import act as act
from game_helpers import card as card
from game_helpers import cards as cards
from game_helpers import cards_in as cards_in
from game_helpers import fingerprint as fingerprint
from game_helpers import names as names
from game_helpers import of_type as of_type

from engine.cards import Card, is_conserved
from engine.events import Event
from engine.game import Scenario
from engine.games.rank.rules import RankGame, RankOptions, RankState
from engine.registry import get_entry

_REGISTERED = get_entry("rank").game  # importing the registry registers Rank's classes with the codec
assert isinstance(_REGISTERED, RankGame)
GAME: RankGame = _REGISTERED


def deal(
    hands: Sequence[str],
    rest: str = "",
    players: int | None = None,
    dealer: int | None = None,
    deals: int = 5,
    totals: Sequence[int] | None = None,
    seed: int = 0,
) -> RankState:
    """A match whose first deal gives seat i the hand ``hands[i]``, turns ``rest``'s first card as the starter and
    puts the others on top of the stock; seat 0 plays first unless ``dealer`` is given."""
    n = players if players is not None else len(hands)
    chosen = n - 1 if dealer is None else dealer
    order = GAME.deck_for(n, chosen, [cards(text) for text in hands], cards(rest))
    scenario = Scenario(decks=(order,), dealer=chosen, totals=tuple(totals) if totals is not None else None)
    return GAME.new_match(n, RankOptions(deals=deals), random.Random(seed), scenario)


def move(state: RankState, source: str, target: str, count: int | None = None) -> None:
    """Move ``count`` cards (all, by default) from the bottom of one place to another, keeping every card once.

    Places: ``stock``, ``under`` (the pile below its top card, kept on top) or ``hand S``."""

    def place(name: str) -> list[Card]:
        if name == "stock":
            return state.stock
        if name == "under":
            return state.pile
        return state.hands[int(name.split()[1])]

    taken_from = place(source)
    limit = len(taken_from) - (1 if source == "under" else 0)
    n = limit if count is None else count
    moved, rest = taken_from[:n], taken_from[n:]
    taken_from[:] = rest
    into = place(target)
    if target == "under":
        into[:0] = moved
    else:
        into.extend(moved)
    assert is_conserved(state.zones().values(), state.full_deck())


def legal_text(state: RankState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def hand_text(state: RankState, seat: int) -> list[str]:
    return [str(c) for c in state.view(seat).hand]


# ---------------------------------------------------------------------------------------------------------------
# The game's plug into the conformance harness: what each seat may see, from RULES.md (never from the engine's
# redaction); found by the harness as ``PLUG`` of ``<key>_helpers`` (conformance.PLUGS)
# ---------------------------------------------------------------------------------------------------------------
class RankWitness(RoundWitness):
    """Rank (RULES.md §4): a seat sees its own dealt hand, the cards it draws and the two cards it takes coming
    back; everybody sees the starter (a joker turned up too), every card played and the hands shown at the end of a
    deal. The stock is hidden from everybody. Nothing lasts past the deal, except that a view may keep the last
    deal's hands shown."""

    def learn(self, event: Event) -> None:
        from engine.games.rank import rules as rank

        if isinstance(event, rank.HandDealt | rank.CameBack):
            self.show(event.seat, event.cards or ())
        elif isinstance(event, rank.Drew):
            self.show(event.seat, [event.card])
        elif isinstance(event, rank.StarterTurned | rank.Played):
            self.show_all([event.card])
        elif isinstance(event, rank.DealOver):
            shown = [card for hand in event.hands for card in hand]
            self.show_all(shown)
            self.carry = {str(c) for c in shown}


PLUG = Plug(RankWitness, max_actions=150, deals=1)
"""The game's plug into the conformance harness (:data:`conformance.PLUGS`)."""
