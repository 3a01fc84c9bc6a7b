"""Seeded random self-play of Rank: 5,000 deals over every player count, checked after every action
(:func:`self_play_deals`). Random play makes long deals (hundreds of actions with two players, thousands with ten);
two-player deals are the cheapest, so most of them are. Each case is a test of its own, so that xdist
(``--dist worksteal``) spreads them over its workers."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from game_helpers import SelfPlayTally, physical_cards, refuse_wrong, the_match_over
from rank_helpers import GAME

from engine.cards import Card, Rank, is_conserved
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
    RankOptions,
    StockShuffled,
    deck_of,
)

WRONG: tuple[RankAction, ...] = (
    Draw(),
    Pass(),
    *(Name(rank) for rank in RANKS),
    *(Play(c) for c in deck_of(2)[::3]),
    Play(Card(Rank.JOKER, None)),
)
"""Well-formed actions (a sample of the plays): at the steps checked, those not legal must be refused."""


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
                tally.refusals += refuse_wrong(state, seat, legal, rng.sample(WRONG, 4))
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
        over = the_match_over(state)
        dealt = [e for e in state.history if isinstance(e, DealOver)]
        assert len(dealt) == deals and sum(state.progress.totals) == deals
        best = min(state.progress.totals)
        assert over.winners == tuple(s for s, t in enumerate(state.progress.totals) if t == best)
        tally.games += 1
        tally.actions += steps


@pytest.mark.slow_selfplay
@pytest.mark.parametrize(
    ("games", "seed", "players", "deals"),
    [
        pytest.param(1000, 11, (2,), 1, id="two-single-deals"),
        pytest.param(1000, 12, (2,), 1, id="two-single-deals-again"),
        pytest.param(200, 13, (2,), 5, id="two-matches"),
        pytest.param(230, 14, (2,), 5, id="two-matches-again"),
        pytest.param(70, 15, (3,), 5, id="three-matches"),
        pytest.param(70, 16, (4,), 5, id="four-matches"),
        pytest.param(75, 17, (5, 6, 7, 8, 9, 10), 2, id="two-deck-matches"),
    ],
)
def test_rank_self_play(games: int, seed: int, players: tuple[int, ...], deals: int) -> None:
    """1,000 + 1,000 + 1,000 + 1,150 two-player deals, 350 three-player, 350 four-player, 150 with two decks."""
    tally = SelfPlayTally()
    self_play_deals(games, seed=seed, players=players, deals=deals, tally=tally)
    assert tally.games == games and tally.deals == games * deals
    assert tally.comebacks and tally.shuffles
