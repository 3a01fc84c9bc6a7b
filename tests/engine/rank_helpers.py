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

:func:`self_play_deals` is the seeded random self-play behind the ``test_rank_selfplay_*`` files.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance import Plug, RoundWitness
from game_helpers import act as act
from game_helpers import cards_in as cards_in
from game_helpers import of_type as of_type
from game_helpers import physical_cards

from engine import codec
from engine.cards import Card, Rank, is_conserved, parse_cards
from engine.errors import IllegalActionError
from engine.events import Event
from engine.game import Scenario
from engine.games.rank.rules import (
    RANKS,
    CameBack,
    DealOver,
    DealStarted,
    Draw,
    Name,
    Pass,
    Play,
    RankAction,
    RankGame,
    RankOptions,
    RankState,
    StockShuffled,
    deck_of,
)
from engine.match import MatchOver
from engine.registry import get_entry

_REGISTERED = get_entry("rank").game  # importing the registry registers Rank's classes with the codec
assert isinstance(_REGISTERED, RankGame)
GAME: RankGame = _REGISTERED


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


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


def fingerprint(state: RankState) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged, as JSON text."""
    views = tuple(codec.dumps(state.view(s)) for s in [*range(state.players), None])
    return views, state.version, len(state.history), codec.dumps(state.zones())


def names(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def legal_text(state: RankState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def hand_text(state: RankState, seat: int) -> list[str]:
    return [str(c) for c in state.view(seat).hand]


# ---------------------------------------------------------------------------------------------------------------
# Seeded self-play with invariants
# ---------------------------------------------------------------------------------------------------------------
WRONG: tuple[RankAction, ...] = (
    Draw(),
    Pass(),
    *(Name(rank) for rank in RANKS),
    *(Play(c) for c in deck_of(2)[::3]),
    Play(Card(Rank.JOKER, None)),
)
"""Well-formed actions (a sample of the plays): at the steps checked, those not legal must be refused."""


@dataclass
class SelfPlayTally:
    games: int = 0
    deals: int = 0
    actions: int = 0
    refusals: int = 0
    comebacks: int = 0
    shuffles: int = 0


def self_play_deals(
    games: int, seed: int, players: Sequence[int], deals: int, tally: SelfPlayTally, max_actions: int = 60_000
) -> None:
    """Play ``games`` seeded random matches of ``deals`` deals (the player count drawn from ``players``) and check
    after every action: as many cards as dealt, and (every 25th action and at each deal's end) every physical card
    exactly once (the engine moves card objects and never makes new ones, so the very same objects must be
    somewhere, each once: stronger than the multiset, which two decks need), the legal actions accepted and (now and
    then) every other well-formed action refused without a change, every deal ends, and exactly one loser per deal:
    the one seat that still holds cards, with no exit pending."""
    rng = random.Random(seed)
    for _ in range(games):
        n = rng.choice(list(players))
        state = GAME.new_match(n, RankOptions(deals=deals), random.Random(rng.getrandbits(32)))
        assert is_conserved(state.zones().values(), state.full_deck())
        physical = physical_cards(state)
        steps = 0
        deal_steps = 0
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_actions()
            assert legal, "a seat to move with nothing to do"
            assert state.hands[seat] or state.phase.value == "name", "a seat without cards is asked to play"
            if steps % 50 == 0:
                version, length = state.version, len(state.history)
                for wrong in rng.sample(WRONG, 4):
                    if wrong in legal:
                        continue
                    try:
                        state.apply(seat, wrong)
                    except IllegalActionError:
                        tally.refusals += 1
                    else:
                        raise AssertionError(f"{wrong} was accepted, legal: {legal}")
                assert (state.version, len(state.history)) == (version, length)
            before = [len(h) for h in state.hands]
            events = state.apply(seat, rng.choice(legal))
            steps += 1
            deal_steps += 1
            assert deal_steps < max_actions, "the deal did not end"
            # Every action: as many cards as ever. Every 25th action, at every deal's end and start: the very same
            # card objects, each once (a lost card and a doubled one would pass the count; not for long).
            assert len(state.stock) + len(state.pile) + sum(map(len, state.hands)) == len(physical), "cards lost"
            new_deal = deal_over = False
            for event in events:  # one pass: the kinds of event this action made
                kind = type(event)
                if kind is DealOver:
                    deal_over = True
                    assert isinstance(event, DealOver)
                    holding = [s for s, count in enumerate(before) if count]
                    assert event.hands[event.loser], "the loser holds no card"
                    assert sum(1 for hand in event.hands if hand) == 1, "more than one seat held cards at the end"
                    assert event.loser in holding
                    tally.deals += 1
                elif kind is DealStarted:
                    new_deal = True
                elif kind is CameBack:
                    tally.comebacks += 1
                elif kind is StockShuffled:
                    tally.shuffles += 1
            if new_deal or deal_over or steps % 25 == 0:
                now = physical_cards(state)
                if new_deal:
                    assert is_conserved(state.zones().values(), state.full_deck()), "cards not conserved"
                    physical = now
                    deal_steps = 0
                assert now == physical, "cards not conserved"
            pending = state.pending
            assert pending is None or not state.hands[pending], "a pending seat holds cards"
            if state.out:
                assert all(not state.hands[s] for s in state.out), "a seat out for good holds cards"
        over = [e for e in state.history if isinstance(e, MatchOver)]
        assert len(over) == 1 and state.result is not None and state.result.winners == over[0].winners
        dealt = [e for e in state.history if isinstance(e, DealOver)]
        assert len(dealt) == deals and sum(state.progress.totals) == deals
        best = min(state.progress.totals)
        assert over[0].winners == tuple(s for s, t in enumerate(state.progress.totals) if t == best)
        tally.games += 1
        tally.actions += steps


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
