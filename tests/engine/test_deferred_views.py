"""Views are worked out when read, and still show the moment they were asked for (issue 12: a view is built only
when someone reads it).

Every game's ``view`` takes a snapshot and defers the rest (:class:`engine.game.Deferred`). A deferred view read
after the match has moved on must equal the view read at once; pickling it (a bot in another process) or copying
it must carry its fields, not the builder. Each decision's RNG is seeded on first use, and gives the stream of
``random.Random`` seeded at once.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from engine import codec
from engine.bots import SeededOnUse, decision_rng
from engine.game import Deferred, copy_rng
from engine.registry import get_entry
from engine.table import Table

GAMES = [("screw", 4), ("chase", 3), ("big2", 4), ("trash", 2), ("rank", 4)]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_view_read_later_shows_the_moment_it_was_asked_for(game: str, players: int) -> None:
    table = Table.create(game, players, seed=5, bots=["easy"] * players)
    state = table.state
    seats: list[int | None] = [None, *range(players)]
    taken: list[tuple[object, str]] = []
    steps = 0
    while not state.is_over and steps < 400:
        for seat in seats:
            view = state.view(seat)
            assert isinstance(view, Deferred) and "_build" in view.__dict__  # nothing worked out yet
            taken.append((view, codec.dumps(state.view(seat))))  # the same moment, read at once
        table.step_bot()
        steps += 1
    assert steps > 3
    for view, at_once in taken:
        assert codec.dumps(view) == at_once


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_deferred_view_pickles_copies_and_compares_as_its_fields(game: str, players: int) -> None:
    table = Table.create(game, players, seed=9, bots=["easy"] * players)
    for _ in range(3):
        table.step_bot()
    state = table.state
    eager = state.view(1)
    fields = {f.name: getattr(eager, f.name) for f in dataclasses.fields(eager)}
    built = type(eager)(**fields)  # the same view made by its dataclass __init__
    for made in (pickle.loads(pickle.dumps(state.view(1))), copy.copy(state.view(1)), copy.deepcopy(state.view(1))):
        assert "_build" not in made.__dict__
        assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert state.view(1) == built and dataclasses.replace(state.view(1)) == built
    with pytest.raises(AttributeError):
        _ = state.view(1).no_such_field  # type: ignore[attr-defined]


def test_a_field_with_a_default_must_be_given_at_once() -> None:
    view_type = get_entry("trash").game.view_type
    with pytest.raises(TypeError, match="at once"):
        view_type.deferred(dict)


def test_a_decision_rng_is_seeded_on_first_use_with_the_same_stream() -> None:
    drawn = decision_rng(42, 2, 17)
    assert type(drawn) is SeededOnUse
    plain = random.Random("42/bot/2/17")
    deck = list(range(52))
    drawn.shuffle(deck)
    plain_deck = list(range(52))
    plain.shuffle(plain_deck)
    assert deck == plain_deck and type(drawn) is random.Random
    assert [drawn.random() for _ in range(5)] == [plain.random() for _ in range(5)]
    assert decision_rng(42, 2, 17).choice(range(1000)) == random.Random("42/bot/2/17").choice(range(1000))
    assert [decision_rng(1, 0, 3).gauss(0, 1) for _ in range(2)] == [random.Random("1/bot/0/3").gauss(0, 1)] * 2
    for made in (copy_rng(decision_rng(3, 1, 4)), pickle.loads(pickle.dumps(decision_rng(3, 1, 4)))):
        assert made.getrandbits(40) == random.Random("3/bot/1/4").getrandbits(40)
    never = decision_rng(3, 1, 4)
    assert "_pending" in never.__dict__  # a decision that draws nothing seeds nothing
