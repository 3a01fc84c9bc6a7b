"""Views are worked out when read, and still show the moment they were asked for (issue 12: a view is built only
when someone reads it).

Every game's ``view`` takes a snapshot and defers the rest (:class:`engine.game.Deferred`). A deferred view read
after the match has moved on must equal the view read at once; pickling it (a bot in another process) or copying
it must carry its fields, not the builder. Each decision's RNG is its own stream, made only when it is drawn from,
and the same wherever the decision is made.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import pytest

from engine import codec
from engine.bots import DecisionCancelled, DecisionRandom, decision_rng
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


def test_a_decision_rng_is_its_own_stream_made_only_when_drawn_from() -> None:
    drawn = decision_rng(42, 2, 17)
    assert type(drawn) is DecisionRandom
    assert drawn.__dict__["_words"] is None  # a decision that draws nothing makes nothing
    again = decision_rng(42, 2, 17)
    first = [drawn.random() for _ in range(3)] + [drawn.choice(range(1000)) for _ in range(3)]
    assert first == [again.random() for _ in range(3)] + [again.choice(range(1000)) for _ in range(3)]
    assert all(0.0 <= x < 1.0 for x in first[:3]) and len(set(first[:3])) == 3
    others = [decision_rng(42, seat, version).random() for seat, version in ((1, 17), (2, 16), (2, 18))]
    assert first[0] not in others and len(set(others)) == 3  # another seat or moment: another stream
    assert decision_rng(42, 2, 17, "hint").random() != first[0]


def test_a_decision_rng_goes_on_with_the_twister_of_its_text_once_the_digest_is_drawn() -> None:
    drawn = decision_rng(3, 1, 4)
    words = [drawn.getrandbits(32) for _ in range(16)]
    assert len(set(words)) == 16 and type(drawn) is DecisionRandom
    twister = random.Random("3/bot/1/4")
    assert [drawn.getrandbits(32) for _ in range(3)] == [twister.getrandbits(32) for _ in range(3)]
    assert type(drawn) is random.Random  # from then on the plain generator
    big = decision_rng(3, 1, 4)
    assert big.getrandbits(40) == random.Random("3/bot/1/4").getrandbits(40)  # more than a word: the twister


def test_a_decision_rng_copies_pickles_and_is_cancellable_on_the_same_stream() -> None:
    def stream(rng: random.Random) -> list[object]:
        deck = list(range(52))
        rng.shuffle(deck)
        return [deck, rng.random(), rng.gauss(0, 1), rng.randrange(10**12), rng.sample(range(100), 3)]

    expected = stream(decision_rng(5, 0, 9))
    assert stream(decision_rng(5, 0, 9)) == expected
    assert stream(decision_rng(5, 0, 9, cancelled=lambda: False)) == expected

    def drawn(count: int) -> random.Random:
        rng = decision_rng(5, 0, 9)
        for _ in range(count):
            rng.getrandbits(8)
        return rng

    for count in (0, 3, 40):  # before the first draw, within the digest, on the twister
        rng = drawn(count)
        reference = drawn(count)
        expected_next = [reference.getrandbits(20) for _ in range(30)]
        for made in (copy_rng(rng), pickle.loads(pickle.dumps(rng)), copy.deepcopy(rng), copy.copy(rng)):
            assert [made.getrandbits(20) for _ in range(30)] == expected_next
        assert [rng.getrandbits(20) for _ in range(30)] == expected_next  # copying drew nothing from it
    stop = decision_rng(5, 0, 9, cancelled=lambda: True)
    with pytest.raises(DecisionCancelled):
        stop.choice([1, 2])
    reseeded = decision_rng(5, 0, 9)
    reseeded.seed(7)
    assert reseeded.random() == random.Random(7).random()


class KeepsItsRng:
    """A bot that holds on to each decision's RNG (the table must then give the next decision a new one)."""

    difficulty = "easy"

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.kept: list[random.Random] = []

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        self.kept.append(rng)
        return self.inner.choose(view, legal, rng)


@pytest.mark.parametrize(("game", "players"), [("big2", 4), ("big2", 2), ("rank", 3), ("trash", 2)])
def test_run_plays_what_the_table_plays_one_decision_at_a_time(game: str, players: int) -> None:
    """Table.run (which reuses an RNG nobody kept, gives no view to a bot that reads none, and plays a forced move
    without asking the bot) makes the same decisions as think and submit, each with a fresh decision_rng and the
    seat's view."""
    for seed in (1, 2):
        ran = Table.create(game, players, seed=seed, bots=["easy"] * players)
        ran.run()
        stepped = Table.create(game, players, seed=seed, bots=["easy"] * players)
        choices = 0  # the moves with more than one legal action: run asks the bot only for these
        while not stepped.state.is_over:
            choices += len(stepped.state.legal_actions()) > 1
            stepped.submit(*stepped.think())
        assert ran.actions == stepped.actions and ran.bounds == stepped.bounds
        keeping = Table.create(game, players, seed=seed, bots=["easy"] * players)
        for info in keeping.seats:
            info.bot = KeepsItsRng(info.bot)
        keeping.run()
        assert keeping.actions == ran.actions
        kept = [rng for info in keeping.seats for rng in info.bot.kept]  # type: ignore[union-attr]
        assert len({id(rng) for rng in kept}) == len(kept) == choices
