"""Replay determinism: a seed and the bots decide a whole match, and the recorded actions reproduce it exactly.

Everything runs through :class:`Table`: the bots' choices come from RNGs the table makes for each decision (its
seed, the seat, the number of actions so far), so ``think()`` changes nothing and can be asked any number of times.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from chase_helpers import GAME, snapshot

from engine import codec
from engine.game import Action
from engine.games.chase.rules import ChaseState
from engine.table import Table

MATCHES = [
    pytest.param("screw", 4, ["easy", "medium", "easy", "medium"], (), id="screw-4"),
    pytest.param("chase", 6, ["medium", "easy", "hard", "easy", "medium", "easy"], (), id="chase-6-with-hard"),
    pytest.param("chase", 3, ["easy", "easy", "easy"], ("high-card-pays",), id="chase-high-card-pays-3"),
    pytest.param("screw", 10, ["easy"] * 10, ("on-honour",), id="screw-on-honour-10"),
]


def record(
    game: str, players: int, seed: int, bots: Sequence[str], variants: Sequence[str], extra_thinks: int = 0
) -> tuple[Table, list[tuple[int, Action]]]:
    """Play a whole match of bots, one step at a time; return the table and the (seat, action) list.

    With ``extra_thinks``, the table is asked that many more times what its bot would do before each step."""
    table = Table.create(game, players=players, seed=seed, bots=bots, variants=variants)
    actions: list[tuple[int, Action]] = []
    while not table.state.is_over:
        for _ in range(extra_thinks):
            table.think()
        seat, action = table.think()
        table.submit(seat, action)
        actions.append((seat, action))
    return table, actions


def transcript(table: Table) -> bytes:
    """The whole history as JSON text, byte for byte."""
    return "\n".join(codec.dumps(e) for e in table.state.history).encode()


@pytest.mark.parametrize(("game", "players", "bots", "variants"), MATCHES)
def test_same_seed_same_match(game: str, players: int, bots: list[str], variants: tuple[str, ...]) -> None:
    first, actions = record(game, players, 21, bots, variants)
    second, again = record(game, players, 21, bots, variants)
    assert actions == again
    assert transcript(first) == transcript(second)
    assert first.state.result == second.state.result and first.state.result is not None

    # Re-apply the recorded actions at a fresh table with the same seed (people in every seat): the history comes
    # out byte for byte.
    fresh = Table.create(game, players=players, seed=21, variants=variants)
    for seat, action in actions:
        fresh.submit(seat, action)
    assert fresh.state.is_over
    assert transcript(fresh) == transcript(first)
    assert fresh.state.result == first.state.result

    # The same through the game's own API, with the recorded actions as text.
    state = GAME.new_match(players, first.options, random.Random(21))
    for seat, action in actions:
        state.apply(seat, str(action))
    assert [codec.dumps(e) for e in state.history] == [codec.dumps(e) for e in first.state.history]

    # run() (the way the host lets bots play) gives the same match as stepping.
    ran = Table.create(game, players=players, seed=21, bots=bots, variants=variants)
    ran.run()
    assert transcript(ran) == transcript(first)


def test_think_changes_nothing_and_answers_the_same() -> None:
    table = Table.create("chase", players=4, seed=8, bots=["hard", "medium", "easy", "hard"])
    state = table.state
    assert isinstance(state, ChaseState)
    for _ in range(12):
        if state.is_over:
            break
        before = snapshot(state)
        length, version = len(state.history), state.version
        answers = {table.think() for _ in range(3)}
        assert len(answers) == 1, "asking twice gives the same action"
        assert snapshot(state) == before and (len(state.history), state.version) == (length, version)
        ((seat, action),) = answers
        table.submit(seat, action)


@pytest.mark.parametrize("extra", [1, 3])
def test_extra_thinks_change_nothing_in_the_match(extra: int) -> None:
    bots = ["hard", "easy", "medium", "easy", "medium"]
    plain, actions = record("chase", 5, 33, bots, ())
    thinking, again = record("chase", 5, 33, bots, (), extra_thinks=extra)
    assert again == actions
    assert transcript(thinking) == transcript(plain)


def test_different_seeds_differ() -> None:
    transcripts = {transcript(record("chase", 5, seed, ["easy"] * 5, ())[0]) for seed in range(6)}
    assert len(transcripts) == 6
    deals = {codec.dumps(GAME.new_match(5, GAME.options("screw"), random.Random(seed)).history) for seed in range(20)}
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
    assert [codec.dumps(e) for e in state.history] == [codec.dumps(e) for e in twin.history]
    assert state.rng is not twin.rng and state.history is not twin.history
    assert twin.version == state.version
