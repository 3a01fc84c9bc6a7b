"""The Table (engine/table.py): isolated, in-order delivery to subscribers; seats checked; think() changes nothing;
seeds checked; garbage refused with short messages."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import codec
from engine.errors import (
    IllegalActionError,
    InvalidActionError,
    OptionError,
    ParlourError,
    SeatError,
)
from engine.events import Event
from engine.registry import GAMES
from engine.table import MAX_SEED, Table, check_seed

KEYS = [g.key for g in GAMES]


def people(game: str, players: int | None = None, seed: int = 4, **kwargs: Any) -> Table:
    g = next(x for x in GAMES if x.key == game)
    return Table.create(game, players=players or g.default_players, seed=seed, **kwargs)


def play_random(table: Table, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        state = table.state
        if state.is_over:
            return
        table.submit(state.to_move, rng.choice(state.legal_actions()))


def expected_for(table: Table, seat: int | None) -> list[Event]:
    return [seen for e in table.state.history if (seen := e.for_seat(seat)) is not None]


# ---------------------------------------------------------------------------------------------------------------
# Subscribers
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", KEYS)
def test_a_subscriber_that_raises_stops_nobody(game: str) -> None:
    table = people(game)
    first: list[Event] = []
    last: list[Event] = []
    calls = 0

    def broken(event: Event) -> None:
        nonlocal calls
        calls += 1
        raise RuntimeError("a broken screen")

    table.subscribe(None, first.append)
    table.subscribe(None, broken, replay=False)
    table.subscribe(None, last.append)
    state = table.state
    version, length = state.version, len(state.history)
    seat = state.to_move
    events = table.submit(seat, state.legal_actions()[0])
    assert events, "an action gave no event"
    public = [e for e in events if e.for_seat(None) is not None]
    assert state.version == version + 1 and len(state.history) == length + len(events)  # the action stays applied
    assert first == last == expected_for(table, None)
    assert calls == len(public) and table.subscriber_errors == len(public)
    # And it goes on working for the next actions.
    play_random(table, 5, random.Random(1))
    assert first == last == expected_for(table, None)


def _eager_run(game: str, *, during_replay: bool) -> tuple[Table, dict[int | None, list[Event]], int]:
    """Seat 0's screen answers at once from its callback (subscribed first, so its submits happen before the
    others got the event); the others record."""
    table = people(game)
    watchers: list[int | None] = [*range(table.state.players), None]
    got: dict[int | None, list[Event]] = {w: [] for w in watchers}
    rng = random.Random(5)
    budget = 30
    armed = during_replay

    def eager(event: Event) -> None:
        nonlocal budget
        got[0].append(event)
        state = table.state
        if armed and budget > 0 and not state.is_over:
            budget -= 1
            table.submit(state.to_move, rng.choice(state.legal_actions()))

    table.subscribe(0, eager)
    armed = True
    for w in watchers[1:]:
        table.subscribe(w, got[w].append)
    play_random(table, 3, rng)
    return table, got, budget


@pytest.mark.parametrize("game", KEYS)
def test_a_subscriber_that_submits_does_not_reorder(game: str) -> None:
    """Every subscriber sees the history, in order, exactly once."""
    table, got, budget = _eager_run(game, during_replay=False)
    # A short match (one deal of Trash) may end before the subscriber's budget of actions is spent.
    assert budget == 0 or (budget < 30 and table.state.is_over), "the eager subscriber never submitted"
    for w in got:
        assert got[w] == expected_for(table, w), f"seat {w} saw the events out of order"


@pytest.mark.parametrize("game", KEYS)
def test_a_subscriber_that_submits_while_its_history_is_replayed(game: str) -> None:
    """The same when it starts answering during the replay of the history that subscribe() sends first."""
    table, got, budget = _eager_run(game, during_replay=True)
    assert budget == 0 or (budget < 30 and table.state.is_over)
    for w in got:
        assert got[w] == expected_for(table, w), f"seat {w} saw the events out of order"


@pytest.mark.parametrize("game", KEYS)
def test_subscribing_mid_delivery_gets_each_event_once(game: str) -> None:
    table = people(game)
    late: list[Event] = []
    done = False

    def recruiter(event: Event) -> None:
        nonlocal done
        if not done:
            done = True
            table.subscribe(1, late.append)

    table.subscribe(None, recruiter, replay=False)
    play_random(table, 6, random.Random(2))
    assert done
    assert late == expected_for(table, 1)


def test_unsubscribe_stops_events() -> None:
    table = people("big2")
    got: list[Event] = []
    stop = table.subscribe(None, got.append)
    before = len(got)
    assert before > 0  # the history so far
    stop()
    stop()  # twice is harmless
    play_random(table, 4, random.Random(3))
    assert len(got) == before


def test_subscribe_without_replay() -> None:
    table = people("chase")
    got: list[Event] = []
    table.subscribe(2, got.append, replay=False)
    assert got == []
    play_random(table, 2, random.Random(3))
    assert got and got == expected_for(table, 2)[-len(got) :]


# ---------------------------------------------------------------------------------------------------------------
# Seats
# ---------------------------------------------------------------------------------------------------------------
BAD_SEATS: list[object] = [-1, "0", True, False, 1.0, 10**20, [0], object(), "players"]
SEAT_IDS = ["-1", "text", "True", "False", "float", "huge", "list", "object", "players"]


@pytest.mark.parametrize("game", KEYS)
@pytest.mark.parametrize("seat", BAD_SEATS, ids=SEAT_IDS)
def test_seats_are_checked(game: str, seat: object) -> None:
    table = people(game)
    state = table.state
    if seat == "players":
        seat = state.players
    action = state.legal_actions()[0]
    version, length = state.version, len(state.history)
    with pytest.raises(SeatError):
        table.subscribe(seat, lambda e: None)  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        table.submit(seat, action)  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        state.view(seat)  # type: ignore[arg-type]
    assert (state.version, len(state.history)) == (version, length)


@pytest.mark.parametrize("game", KEYS)
def test_none_is_a_spectator_but_not_a_player(game: str) -> None:
    table = people(game)
    state = table.state
    state.view(None)
    table.subscribe(None, lambda e: None)
    with pytest.raises(SeatError):
        table.submit(None, state.legal_actions()[0])  # type: ignore[arg-type]


def test_view_minus_one_is_not_the_last_seat() -> None:
    """The issue's case: Big Two's view(-1) used to return seat 3's hand."""
    table = people("big2", players=4)
    with pytest.raises(SeatError):
        table.state.view(-1)


# ---------------------------------------------------------------------------------------------------------------
# think()
# ---------------------------------------------------------------------------------------------------------------
def _bots(game: str, levels: tuple[str, ...] = ("medium", "easy"), seed: int = 8) -> Table:
    g = next(x for x in GAMES if x.key == game)
    players = g.default_players
    return (
        Table.create(game, players=players, seed=seed, bots=[levels[s % len(levels)] for s in range(players)], deals=1)
        if hasattr(g.options(), "deals")
        else Table.create(game, players=players, seed=seed, bots=[levels[s % len(levels)] for s in range(players)])
    )


def _transcript(table: Table, steps: int, extra_thinks: Callable[[Table], None] | None = None) -> list[str]:
    for _ in range(steps):
        if not table.bot_to_move:
            break
        if extra_thinks:
            extra_thinks(table)
        table.step_bot()
    return [codec.dumps(e) for e in table.state.history]


@pytest.mark.parametrize("game", KEYS)
def test_think_twice_gives_the_same_action_and_changes_nothing(game: str) -> None:
    table = _bots(game)
    state = table.state
    for _ in range(10):
        table.step_bot()
    views = [codec.dumps(state.view(s)) for s in [*range(state.players), None]]
    version, length = state.version, len(state.history)
    first = table.think()
    assert table.think() == first
    assert [codec.dumps(state.view(s)) for s in [*range(state.players), None]] == views
    assert (state.version, len(state.history)) == (version, length)


@pytest.mark.parametrize("game", KEYS)
def test_extra_thinking_does_not_change_the_rest_of_a_seeded_match(game: str) -> None:
    plain = _transcript(_bots(game), 80)
    pondering = _transcript(_bots(game), 80, lambda t: [t.think() for _ in range(3)])
    assert plain == pondering
    assert _transcript(_bots(game, seed=9), 80) != plain  # the seed matters (else this proves nothing)


def test_think_refuses_when_no_bot_is_to_move() -> None:
    table = people("chase")
    with pytest.raises(IllegalActionError):
        table.think()


# ---------------------------------------------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [-1, -5, 1.5, "5", True, None, MAX_SEED + 1, 2**64], ids=repr)
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(OptionError):
        check_seed(seed)
    with pytest.raises(OptionError):
        Table.create("screw", players=3, seed=seed)  # type: ignore[arg-type]


def test_good_seeds_and_distinct_deals() -> None:
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED
    deals = {codec.dumps(Table.create("big2", players=4, seed=s).state.view(None)) for s in (0, 5, 6)}
    assert len(deals) == 3


# ---------------------------------------------------------------------------------------------------------------
# Garbage
# ---------------------------------------------------------------------------------------------------------------
class HugeRepr:
    def __repr__(self) -> str:
        return "y" * 1_000_000


MEGA = "x" * 1_000_000
HUGE: list[object] = [MEGA, "play " + MEGA, "3D " * 300_000, [MEGA], (MEGA,), {MEGA: MEGA}, HugeRepr(), MEGA.encode()]


@pytest.mark.parametrize("game", KEYS)
@pytest.mark.parametrize("garbage", HUGE, ids=range(len(HUGE)))
def test_garbage_is_refused_with_a_short_message(game: str, garbage: object) -> None:
    table = people(game)
    state = table.state
    got: list[Event] = []
    table.subscribe(None, got.append, replay=False)
    version, length = state.version, len(state.history)
    with pytest.raises(ParlourError) as caught:
        table.submit(state.to_move, garbage)
    assert isinstance(caught.value, InvalidActionError | IllegalActionError)
    assert len(str(caught.value)) <= 300
    assert (state.version, len(state.history), got) == (version, length, [])


@pytest.mark.parametrize("mine", ["Ben", "ben", "BEN", "Cleo"])
def test_no_bot_is_named_as_the_player(mine: str) -> None:
    table = Table.create("screw", players=4, seed=1, bots=[None, "easy", "easy", "easy"], names=[mine])
    names = [seat.name for seat in table.seats]
    assert names[0] == mine
    keys = [name.casefold() for name in names]
    assert len(set(keys)) == 4, names  # two Bens would make the log ambiguous


def test_bots_keep_their_usual_names_when_nobody_takes_them() -> None:
    table = Table.create("screw", players=3, seed=1, bots=[None, "easy", "easy"], names=["Ann"])
    assert [seat.name for seat in table.seats] == ["Ann", "Ben", "Cleo"]
