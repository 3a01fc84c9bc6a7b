"""Replay determinism: a seed and the bots decide a whole match, and the recorded actions reproduce it exactly."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from chase_helpers import GAME

from engine.game import Action
from engine.table import Table

MATCHES = [
    pytest.param("screw", 4, ["easy", "medium", "easy", "medium"], (), id="screw-4"),
    pytest.param("chase", 6, ["medium", "easy", "hard", "easy", "medium", "easy"], (), id="chase-6-with-hard"),
    pytest.param("chase", 3, ["easy", "easy", "easy"], ("high-card-pays",), id="chase-high-card-pays-3"),
    pytest.param("screw", 10, ["easy"] * 10, ("on-honour",), id="screw-on-honour-10"),
]


def record(
    game: str, players: int, seed: int, bots: Sequence[str], variants: Sequence[str]
) -> tuple[Table, list[tuple[int, Action]]]:
    """Play a whole match of bots, one step at a time; return the table and the (seat, action) list."""
    table = Table.create(game, players=players, seed=seed, bots=bots, variants=variants)
    actions: list[tuple[int, Action]] = []
    while not table.state.is_over:
        seat, action = table.think()
        table.submit(seat, action)
        actions.append((seat, action))
    return table, actions


def transcript(table: Table) -> bytes:
    return "\n".join(repr(e) for e in table.state.history).encode()


@pytest.mark.parametrize(("game", "players", "bots", "variants"), MATCHES)
def test_same_seed_same_match(game: str, players: int, bots: list[str], variants: tuple[str, ...]) -> None:
    first, actions = record(game, players, 21, bots, variants)
    second, again = record(game, players, 21, bots, variants)
    assert actions == again
    assert [repr(e) for e in first.state.history] == [repr(e) for e in second.state.history]
    assert first.state.result == second.state.result and first.state.result is not None

    # Re-apply the recorded actions to a fresh match with the same seed: the history comes out byte for byte.
    fresh = GAME.new_match(players, first.options, random.Random(21))
    for seat, action in actions:
        fresh.apply(seat, action)
    assert fresh.is_over
    assert "\n".join(repr(e) for e in fresh.history).encode() == transcript(first)
    assert fresh.result == first.state.result

    # run() (the way the UI lets bots play) gives the same match as stepping.
    ran = Table.create(game, players=players, seed=21, bots=bots, variants=variants)
    ran.run()
    assert transcript(ran) == transcript(first)


def test_different_seeds_differ() -> None:
    transcripts = {transcript(record("chase", 5, seed, ["easy"] * 5, ())[0]) for seed in range(6)}
    assert len(transcripts) == 6
    deals = {repr(GAME.new_match(5, GAME.options("screw"), random.Random(seed)).history) for seed in range(20)}
    assert len(deals) == 20


def test_clone_is_independent_and_plays_the_same() -> None:
    state = GAME.new_match(4, GAME.options("chase"), random.Random(3))
    twin = state.clone()
    rng = random.Random(8)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = rng.choice(state.legal_actions())
        state.apply(seat, action)
        twin.apply(seat, action)
    assert [repr(e) for e in state.history] == [repr(e) for e in twin.history]
    assert state.rng is not twin.rng and state.history is not twin.history
