"""The Trash bots: each decision on a made-up table, legality over many games, and the strength figures (seeded,
so the same every run; docs/performance.md quotes the larger runs)."""

from __future__ import annotations

import random

import pytest

from engine.bots import RandomBot
from engine.cards import Card
from engine.games.trash.bots import HardTrashBot, MediumTrashBot
from engine.games.trash.rules import (
    DISCARD,
    KEEP,
    STOCK,
    SWAP,
    PlaceKing,
    TrashGame,
    TrashOptions,
    TrashPhase,
    TrashView,
)

GAME = TrashGame()


def c(text: str) -> Card:
    return Card.parse(text)


def view(
    mine: list[str | None],
    theirs: list[str | None],
    *,
    discard: tuple[str, ...] = (),
    held: str | None = None,
    held_from: str | None = None,
    phase: TrashPhase = TrashPhase.DRAW,
) -> TrashView:
    """Seat 0 to move at a two-player table; layouts by slot (None: face down)."""
    layouts = tuple(tuple(c(x) if x else None for x in row) for row in (mine, theirs))
    return TrashView(
        seat=0,
        players=2,
        deal=1,
        first=0,
        sizes=(10, 10),
        layouts=layouts,
        stock=20,
        discard=tuple(c(x) for x in discard),
        held=c(held) if held else None,
        held_from=held_from,
        to_move=0,
        phase=phase,
        final_round=False,
        completed=(),
        turns=(3, 3),
    )


DOWN: list[str | None] = [None] * 10


def test_medium_takes_a_placeable_discard_and_hard_too() -> None:
    table = view(DOWN, DOWN, discard=("9S", "4H"))
    for bot in (MediumTrashBot(GAME), HardTrashBot(GAME)):
        assert bot.choose(table, [STOCK, DISCARD], random.Random(1)) == DISCARD
        assert bot.choose(table, [STOCK], random.Random(1)) == STOCK


def test_medium_swaps_for_the_card_it_drew_but_not_mid_chain_and_hard_always() -> None:
    mine: list[str | None] = ["KS", None, None, None, None, None, None, None, None, None]
    drawn = view(mine, DOWN, held="AH", held_from="stock", phase=TrashPhase.SWAP)
    turned_up = view(mine, DOWN, held="AH", held_from="slot", phase=TrashPhase.SWAP)
    medium, hard = MediumTrashBot(GAME), HardTrashBot(GAME)
    assert medium.choose(drawn, [SWAP, KEEP], random.Random(1)) == SWAP
    assert medium.choose(turned_up, [SWAP, KEEP], random.Random(1)) == KEEP
    assert medium.choose(drawn, [SWAP], random.Random(1)) == SWAP  # from the discard: forced
    for table in (drawn, turned_up):
        assert hard.choose(table, [SWAP, KEEP], random.Random(1)) == SWAP


def test_medium_puts_a_king_on_the_most_used_up_rank() -> None:
    # Three 7s are out (two face up, one discarded); 3s: one. The King goes on slot 7.
    mine: list[str | None] = [None, None, None, None, None, None, None, None, None, None]
    theirs: list[str | None] = [None, None, "3C", None, None, None, "7D", None, None, None]
    table = view(mine, theirs, discard=("7H", "7S"), held="KD", held_from="stock", phase=TrashPhase.KING)
    legal = [PlaceKing(slot) for slot in range(1, 11)]
    assert MediumTrashBot(GAME).choose(table, legal, random.Random(1)) == PlaceKing(7)
    assert HardTrashBot(GAME).choose(table, legal, random.Random(1)) == PlaceKing(7)


def test_hard_counts_what_the_others_will_keep() -> None:
    """Two 5s and two 8s unseen each; the other player still needs an 8 (slot 8 face down) but has its 5: an 8 is
    less likely to reach this player, so the King goes on slot 8."""
    mine: list[str | None] = ["AS", "2S", "3S", "4S", None, "6S", "7S", None, "9S", "10S"]
    theirs: list[str | None] = [None, None, None, None, "5C", None, None, None, None, None]
    table = view(mine, theirs, discard=("5D", "8D", "8C"), held="KD", held_from="stock", phase=TrashPhase.KING)
    hard = HardTrashBot(GAME)
    assert hard.chance_to_come(table, 8) < hard.chance_to_come(table, 5)
    assert hard.choose(table, [PlaceKing(5), PlaceKing(8)], random.Random(1)) == PlaceKing(8)


@pytest.mark.parametrize("options", [TrashOptions(), TrashOptions(match=True, last_turn=True)], ids=["one", "match"])
@pytest.mark.parametrize("players", [2, 4])
def test_every_bot_choice_is_legal(players: int, options: TrashOptions) -> None:
    bots = [RandomBot(GAME), MediumTrashBot(GAME), HardTrashBot(GAME)]
    for number in range(30):
        state = GAME.new_match(players, options, random.Random(number))
        rng = random.Random(number)
        steps = 0
        while state.to_move is not None:
            seat = state.to_move
            legal = state.legal_actions()
            action = bots[(seat + number) % 3].choose(state.view(seat), legal, rng)
            assert action in legal
            state.apply(seat, action)
            steps += 1
            assert steps < 5000
        assert state.result is not None and state.result.winners


def rate(a: type, b: type, games: int, seed: int) -> float:
    """Seat-rotated two-player games: the share of wins of ``a`` (a shared win counts its share)."""
    won = 0.0
    for number in range(games):
        state = GAME.new_match(2, TrashOptions(), random.Random(seed * 100_003 + number))
        seat_a = number % 2
        bots = {seat_a: a(GAME), 1 - seat_a: b(GAME)}
        rng = random.Random(number)
        while state.to_move is not None:
            seat = state.to_move
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(), rng))
        assert state.result is not None
        winners = state.result.winners
        if seat_a in winners:
            won += 1 / len(winners)
    return won / games


def test_hard_beats_medium_and_medium_beats_easy() -> None:
    """Seeded games (400 and 1,000; docs/performance.md quotes 2,000-game runs of `parlour simulate`)."""
    assert rate(HardTrashBot, MediumTrashBot, 400, seed=1) > 0.55
    assert rate(MediumTrashBot, RandomBot, 1000, seed=2) > 0.53
