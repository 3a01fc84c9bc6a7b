"""Every rejected action raises and leaves the state exactly as it was (engine/errors.py, ARCHITECTURE "Testing").

The comparison is a deep copy of every field of the state (history, cards, deck, knowledge...) except the RNG
object, whose internal state is compared through ``getstate()``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from chase_helpers import GAME, deal, opts, plan, snapshot

from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    ParlourError,
    SeatError,
)
from engine.games.chase.rules import ChaseAction, ChaseState, Stayed, parse_action
from engine.table import Table


def screw_state() -> ChaseState:
    return deal(opts("screw"), [plan("KH 3C 9D 5S")], dealer=3)


def chase_state() -> ChaseState:
    return deal(opts("chase"), [plan("3C KH 9D 5S")], dealer=3)


def over_state() -> ChaseState:
    state = deal(opts("screw"), [plan("3H 9C")], dealer=1, lives=[1, 3])
    state.apply(0, ChaseAction.STAY)
    state.apply(1, ChaseAction.STAY)
    assert state.is_over
    return state


def seeded_state() -> ChaseState:
    return GAME.new_match(5, opts("screw"), random.Random(11))


Attempt = Callable[[ChaseState], object]

ERROR_CASES = [
    pytest.param(screw_state, lambda s: s.apply(0, ChaseAction.CUT), IllegalActionError, id="cut-in-screw"),
    pytest.param(screw_state, lambda s: s.apply(0, ChaseAction.TRADE), IllegalActionError, id="trade-with-a-king"),
    pytest.param(screw_state, lambda s: s.apply(0, ChaseAction.SWAP), IllegalActionError, id="swap-by-non-dealer"),
    pytest.param(chase_state, lambda s: s.apply(0, ChaseAction.TRADE), IllegalActionError, id="trade-into-shown-king"),
    pytest.param(chase_state, lambda s: s.apply(0, ChaseAction.SWAP), IllegalActionError, id="swap-in-chase"),
    pytest.param(screw_state, lambda s: s.apply(2, ChaseAction.STAY), NotYourTurnError, id="wrong-seat"),
    pytest.param(screw_state, lambda s: s.apply(3, ChaseAction.SWAP), NotYourTurnError, id="dealer-too-early"),
    pytest.param(over_state, lambda s: s.apply(1, ChaseAction.STAY), GameOverError, id="after-match-over"),
    pytest.param(over_state, lambda s: s.apply(0, ChaseAction.STAY), GameOverError, id="eliminated-after-over"),
    pytest.param(seeded_state, lambda s: s.parse_action("fly"), InvalidActionError, id="bad-notation"),
    pytest.param(seeded_state, lambda s: s.parse_action(""), InvalidActionError, id="empty-notation"),
    pytest.param(
        seeded_state,
        lambda s: s.apply(((s.to_move or 0) + 1) % s.players, ChaseAction.STAY),
        NotYourTurnError,
        id="next-seat",
    ),
    pytest.param(screw_state, lambda s: s.check(0, ChaseAction.CUT), IllegalActionError, id="check-only"),
    pytest.param(screw_state, lambda s: s.apply(-1, ChaseAction.STAY), SeatError, id="seat-minus-one"),
    pytest.param(screw_state, lambda s: s.apply(4, ChaseAction.STAY), SeatError, id="seat-past-the-table"),
    pytest.param(screw_state, lambda s: s.apply("0", ChaseAction.STAY), SeatError, id="seat-as-text"),
    pytest.param(screw_state, lambda s: s.apply(True, ChaseAction.STAY), SeatError, id="seat-as-bool"),
    pytest.param(screw_state, lambda s: s.view(-1), SeatError, id="view-minus-one"),
    pytest.param(screw_state, lambda s: s.view(99), SeatError, id="view-99"),
    pytest.param(screw_state, lambda s: s.view("0"), SeatError, id="view-text"),
    pytest.param(screw_state, lambda s: s.view(1.0), SeatError, id="view-float"),
]

GARBAGE: list[object] = [
    None,
    5,
    -1,
    2.5,
    b"stay",
    bytearray(b"trade"),
    object(),
    ["stay"],
    ("trade",),
    {"action": "stay"},
    {"stay"},
    "x" * 1_000_000,
    "stay " * 200_000,
    "",
    "   ",
    "stay!",
    "st\x00ay",
    "🂡",
    ChaseAction,
    Stayed(seat=0),
]


@pytest.mark.parametrize("garbage", GARBAGE, ids=lambda g: type(g).__name__)
def test_garbage_action_is_invalid_short_and_changes_nothing(garbage: object) -> None:
    """Whatever object or text is sent as an action: InvalidActionError (never a TypeError or AttributeError), a
    message that echoes at most a few hundred characters of it, and nothing changed."""
    state = screw_state()
    before = snapshot(state)
    with pytest.raises(InvalidActionError) as caught:
        state.apply(0, garbage)
    assert len(str(caught.value)) < 300
    with pytest.raises(InvalidActionError) as caught:
        state.parse_action(garbage)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 300
    with pytest.raises(InvalidActionError):
        parse_action(garbage)
    assert snapshot(state) == before


def test_garbage_at_a_table_publishes_nothing() -> None:
    table = Table.create("screw", players=3, seed=2)
    received: list[object] = []
    table.subscribe(None, received.append)
    state = table.state
    assert isinstance(state, ChaseState)
    seat = state.to_move
    assert seat is not None
    count, before = len(received), snapshot(state)
    for garbage in GARBAGE:
        with pytest.raises(ParlourError):
            table.submit(seat, garbage)
    for bad_seat in (-1, 3, "1", None):
        with pytest.raises(SeatError):
            table.submit(bad_seat, "stay")  # type: ignore[arg-type]
    assert snapshot(state) == before and len(received) == count


def test_every_seat_and_a_spectator_may_view() -> None:
    state = screw_state()
    for seat in (0, 1, 2, 3, None):
        assert state.view(seat).seat == seat


@pytest.mark.parametrize(("make", "attempt", "error"), ERROR_CASES)
def test_rejected_action_changes_nothing(
    make: Callable[[], ChaseState], attempt: Attempt, error: type[Exception]
) -> None:
    state = make()
    before = snapshot(state)
    with pytest.raises(error):
        attempt(state)
    assert snapshot(state) == before


def test_error_hierarchy() -> None:
    assert issubclass(NotYourTurnError, IllegalActionError) and issubclass(GameOverError, IllegalActionError)
    assert issubclass(IllegalActionError, ParlourError) and issubclass(InvalidActionError, ParlourError)


def test_table_submit_rejections_change_nothing_and_publish_nothing() -> None:
    table = Table.create("chase", players=4, seed=5)
    received: list[object] = []
    table.subscribe(None, received.append)
    state = table.state
    assert isinstance(state, ChaseState)
    count = len(received)
    before = snapshot(state)
    seat = state.to_move
    assert seat is not None
    for bad_seat, action in ((seat + 1, ChaseAction.STAY), (seat, ChaseAction.SWAP), (seat, ChaseAction.CUT)):
        with pytest.raises(IllegalActionError):
            table.submit(bad_seat % 4, action)
    assert snapshot(state) == before and len(received) == count


@pytest.mark.parametrize("text", ["stay", "trade"])
def test_plain_string_action_is_rejected_or_means_the_same(text: str) -> None:
    """``apply`` reads a plain ``str`` as the action it names, so it must then do what that action means. A
    non-dealer's ``"stay"`` or ``"trade"`` must never take a card from the deck."""
    as_string = deal(opts("screw"), [plan("3H 9C QD", top="2S")], dealer=2)
    as_enum = deal(opts("screw"), [plan("3H 9C QD", top="2S")], dealer=2)
    expected = as_enum.apply(0, ChaseAction(text))
    before = snapshot(as_string)
    try:
        events = as_string.apply(0, text)
    except ParlourError:
        assert snapshot(as_string) == before
        return
    assert events == expected
    assert as_string.cards == as_enum.cards and as_string.deck == as_enum.deck
    if text == "stay":
        assert events == [Stayed(seat=0)]
