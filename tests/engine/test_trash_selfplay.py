"""Seeded random self-play of Trash, checked after every action (:func:`self_play_games`): 2,200 two-player games
and 1,600 for three and four players (two decks), one deal a game; 120 *Match* games played down to a one-card
layout (some 1,800 deals); and 1,240 games from worn stocks, so that the stock runs out and is reshuffled. Each
case is a test of its own, so that xdist (``--dist worksteal``) spreads them over its workers."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from game_helpers import SelfPlayTally, physical_cards, refuse_wrong, the_match_over
from trash_helpers import GAME

from engine.cards import is_conserved
from engine.games.trash.rules import Completed, DealOver, DealStarted, Draw, Keep, PlaceKing, Swap, TrashAction

WRONG: tuple[TrashAction, ...] = (
    Draw("stock"),
    Draw("discard"),
    *(PlaceKing(slot) for slot in range(1, 11)),
    Swap(),
    Keep(),
)
"""Every well-formed action: at each step those not legal must be refused."""


def self_play_games(
    count: int,
    seed: int,
    players: int,
    variants: Sequence[str],
    tally: SelfPlayTally,
    max_actions: int = 5000,
    worn: bool = False,
) -> None:
    """Play ``count`` seeded random games and check after every action: every card exactly once (a multiset), the
    exact legal set accepted (every other well-formed action refused without a change, now and then), every game
    ends, and every deal's winners are exactly the seats that completed, all face up.

    ``worn``: each game starts as if many turns had been played, all but one to three stock cards on the discard
    pile, so the stock runs out and is reshuffled (random play rarely empties a full stock in one deal)."""
    options = GAME.options(variants=variants)

    rng = random.Random(seed)
    for _ in range(count):
        state = GAME.new_match(players, options, random.Random(rng.getrandbits(32)))
        if worn:
            keep = rng.randrange(1, 4)
            state.discard, state.stock = state.stock[:-keep], state.stock[-keep:]
        assert is_conserved(state.zones().values(), state.full_deck())
        # The engine moves card objects and never makes new ones, so after every action the very same objects must
        # be somewhere, each exactly once: a stronger check than the multiset (two copies are told apart), and far
        # cheaper than hashing cards. A new deal deals new objects: the check starts again from its deal.
        physical = physical_cards(state)
        completed: list[int] = []
        steps = 0
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            legal = state.legal_actions()
            assert legal, "a seat to move with nothing to do"
            if steps % 7 == 0:
                tally.refusals += refuse_wrong(state, seat, legal, WRONG)
            events = state.apply(seat, rng.choice(legal))
            steps += 1
            assert steps < max_actions, "the game did not end"
            now = physical_cards(state)
            if any(isinstance(e, DealStarted) for e in events):
                assert is_conserved(state.zones().values(), state.full_deck()), "cards not conserved"
                physical = now
            assert now == physical, "cards not conserved"
            for event in events:
                assert event.audience is None, "every Trash event is public"
                if isinstance(event, Completed):
                    completed.append(event.seat)
                elif isinstance(event, DealOver):
                    assert tuple(completed) == event.winners and event.winners, (completed, event)
                    tally.deals += 1
                    completed = []
                elif type(event).__name__ == "StockShuffled":
                    tally.shuffles += 1
            for winner in completed:  # this deal's completers so far (Last turn: the deal goes on)
                assert all(state.face_up[winner]), "a seat completed with a face-down card"
        over = the_match_over(state)
        last_deal = [e for e in state.history if isinstance(e, DealOver)][-1]
        assert set(over.winners) <= set(last_deal.winners)
        for winner in last_deal.winners:
            assert all(state.face_up[winner]), "a winner of the last deal has a face-down card"
        tally.games += 1
        tally.actions += steps


@pytest.mark.parametrize("variants", [(), ("last-turn",)], ids=["plain", "last-turn"])
def test_two_player_self_play(variants: tuple[str, ...]) -> None:
    tally = SelfPlayTally()
    self_play_games(1100, seed=2, players=2, variants=variants, tally=tally)
    assert tally.games == tally.deals == 1100
    assert tally.refusals > 10 * tally.games


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("variants", [(), ("last-turn",)], ids=["plain", "last-turn"])
def test_three_and_four_player_self_play(players: int, variants: tuple[str, ...]) -> None:
    tally = SelfPlayTally()
    self_play_games(400, seed=players * 10 + len(variants), players=players, variants=variants, tally=tally)
    assert tally.games == tally.deals == 400


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", [("match",), ("match", "last-turn")], ids=["match", "match+last-turn"])
def test_match_self_play(players: int, variants: tuple[str, ...]) -> None:
    """A match is some 15 deals, so there are fewer games here than in the one-deal tests."""
    tally = SelfPlayTally()
    self_play_games(20, seed=players * 100 + len(variants), players=players, variants=variants, tally=tally)
    assert tally.games == 20 and tally.deals > 20 * 5


@pytest.mark.parametrize(
    ("players", "variants", "count"),
    [(2, (), 400), (3, ("last-turn",), 400), (4, (), 400), (2, ("match", "last-turn"), 20), (3, ("match",), 20)],
)
def test_worn_stock_self_play(players: int, variants: tuple[str, ...], count: int) -> None:
    tally = SelfPlayTally()
    self_play_games(count, seed=players + 7, players=players, variants=variants, tally=tally, worn=True)
    assert tally.games == count and tally.shuffles > count // 2
