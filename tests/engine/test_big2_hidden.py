"""Hidden information in Big Two: nothing a seat receives or sees names another seat's unplayed card.

A :class:`Witness` rebuilds, from the *true* events (``state.history``) and the rules alone, the cards one observer
may know: its own hand as dealt, every card played (public), the lead card of a deal (its holder must play it) and
every hand shown when a deal is over. A spectator (``None``) is dealt nothing.
"""

from __future__ import annotations

import random

import pytest
from big2_helpers import FULL_DECK, GAME, cards_in, opts, position, random_positions

from engine.cards import Card
from engine.events import Event
from engine.games.big2.rules import (
    Big2State,
    Big2View,
    DealOver,
    DealStarted,
    HandDealt,
    Played,
    encoding,
    sample_state,
)
from engine.table import Table


class Witness:
    """The cards ``observer`` may know, built from the true events by the rules."""

    def __init__(self, observer: int | None) -> None:
        self.observer = observer
        self.shown: set[Card] = set()

    def feed(self, event: Event) -> None:
        if isinstance(event, HandDealt) and event.seat == self.observer:
            assert event.cards is not None
            self.shown |= set(event.cards)
        elif isinstance(event, DealStarted):
            self.shown.add(event.lead_card)
        elif isinstance(event, Played):
            self.shown |= set(event.cards)
        elif isinstance(event, DealOver):
            for hand in event.hands:
                self.shown |= set(hand)


def check_view(state: Big2State, view: Big2View, witness: Witness) -> None:
    """The view holds its own hand, the played cards (and what the last deal showed), nothing else."""
    enc = state.enc
    seat = view.seat
    own = set(enc.cards(state.hands[seat])) if seat is not None else set()
    assert set(view.hand) == own
    assert view.played == enc.cards(state.played)
    allowed = own | set(view.played) | witness.shown
    leaked = set(cards_in(view)) - allowed
    assert not leaked, f"the view of seat {seat} names {leaked}"
    if view.last_deal is None:  # nothing shown yet: only its own hand, played cards and the lead card
        others = set(FULL_DECK) - own - set(view.played) - {view.must_include}
        assert not set(cards_in(view)) & others


MATCHES = [
    pytest.param(4, (), ["easy", "medium", "easy", "medium"], id="4-seed"),
    pytest.param(3, ("taiwan",), ["medium", "easy", "easy"], id="3-taiwan"),
    pytest.param(2, ("standard-suits",), ["easy", "medium"], id="2-standard-suits"),
    pytest.param(4, ("no-play-after-pass", "pagat-scoring"), ["easy"] * 4, id="4-no-play-after-pass-pagat"),
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("players", "variants", "bots"), MATCHES)
def test_seats_see_only_what_they_may(players: int, variants: tuple[str, ...], bots: list[str], seed: int) -> None:
    table = Table.create("big2", players=players, seed=seed, bots=bots, variants=variants, deals=2)
    state = table.state
    assert isinstance(state, Big2State)
    observers: list[int | None] = [*range(players), None]
    received: dict[int | None, list[Event]] = {obs: [] for obs in observers}
    for obs in observers:
        table.subscribe(obs, received[obs].append)
    witnesses = {obs: Witness(obs) for obs in observers}
    position_of = {obs: 0 for obs in observers}
    done = 0
    checked = 0
    while True:
        for true_event in state.history[done:]:
            for obs in observers:
                witnesses[obs].feed(true_event)
                if true_event.for_seat(obs) is None:
                    continue
                got = received[obs][position_of[obs]]
                position_of[obs] += 1
                assert type(got) is type(true_event)
                if isinstance(got, HandDealt) and got.seat != obs:
                    assert got.cards is None and got.count == true_event.count  # type: ignore[attr-defined]
                leaked = set(cards_in(got)) - witnesses[obs].shown
                assert not leaked, f"observer {obs} received {got!r} naming {leaked}"
                checked += 1
        done = len(state.history)
        for obs in observers:
            check_view(state, state.view(obs), witnesses[obs])
        if state.is_over:
            break
        table.step_bot()
    for obs in observers:
        assert position_of[obs] == len(received[obs]), "events received that the history does not explain"
    assert checked > 0


def test_hand_dealt_of_others_is_redacted() -> None:
    table = Table.create("big2", players=4, seed=3, bots=["easy"] * 4)
    got: list[Event] = []
    table.subscribe(2, got.append)
    dealt = [e for e in got if isinstance(e, HandDealt)]
    assert [e.seat for e in dealt] == [0, 1, 2, 3]
    for e in dealt:
        assert (e.cards is not None) == (e.seat == 2) and e.count == 13


# ---------------------------------------------------------------------------------------------------------------
# Determinization
# ---------------------------------------------------------------------------------------------------------------
HIDDEN_VARIANT_SETS: list[tuple[str, ...]] = [(), ("taiwan",), ("standard-suits", "no-play-after-pass")]


def check_sample(view: Big2View, sample: Big2State) -> None:
    assert view.seat is not None
    enc = encoding(view.options)
    assert sample.hands[view.seat] == enc.mask(view.hand), "the viewer's hand is kept"
    assert tuple(h.bit_count() for h in sample.hands) == view.counts, "each seat gets its count"
    played = enc.mask(view.played)
    assert sample.played == played
    union = 0
    for h in sample.hands:
        assert h & union == 0 and h & played == 0, "no card twice, no played card dealt again"
        union |= h
    assert (sample.table_seat, tuple(sample.passed), sample.to_move) == (view.table_seat, view.passed, view.to_move)
    if view.table is None:
        assert sample.table is None
    else:
        assert sample.table is not None and (sample.table.cards, sample.table.kind) == (
            view.table.cards,
            view.table.kind,
        )
    assert sample.view(view.seat) == view, "the sample looks the same from the viewer's seat"


@pytest.mark.parametrize("seed", range(3))
def test_sample_state_agrees_with_the_view(seed: int) -> None:
    for state in random_positions(40, seed, HIDDEN_VARIANT_SETS, steps=(1, 40)):
        for seat in range(state.players):
            view = state.view(seat)
            check_sample(view, sample_state(view, random.Random(seed)))
            check_sample(view, GAME.determinize(view, random.Random(seed + 1)))
        mover = state.to_move
        assert mover is not None
        sample = sample_state(state.view(mover), random.Random(seed))
        assert sample.legal_actions(), "the seat to move has a legal action in the sample"


def swap_hidden(state: Big2State, viewer: int, rng: random.Random) -> Big2State:
    """Another true state with the same view from ``viewer``: two other seats swap unplayed cards."""
    other = state.clone()
    seats = [s for s in range(state.players) if s != viewer and state.hands[s]]
    if len(seats) < 2:
        return other
    a, b = rng.sample(seats, 2)
    va = rng.choice([v for v in range(52) if state.hands[a] >> v & 1 and not state.must_include >> v & 1] or [-1])
    vb = rng.choice([v for v in range(52) if state.hands[b] >> v & 1 and not state.must_include >> v & 1] or [-1])
    if va < 0 or vb < 0:
        return other
    other.hands[a] ^= (1 << va) | (1 << vb)
    other.hands[b] ^= (1 << va) | (1 << vb)
    return other


@pytest.mark.parametrize("seed", range(3))
def test_sample_does_not_depend_on_the_hidden_truth(seed: int) -> None:
    rng = random.Random(seed)
    differed = 0
    for state in random_positions(30, seed + 100, HIDDEN_VARIANT_SETS, steps=(1, 40)):
        for viewer in range(state.players):
            twin = swap_hidden(state, viewer, rng)
            differed += twin.hands != state.hands
            view = state.view(viewer)
            assert twin.view(viewer) == view, "the twin looks the same from the viewer's seat"
            one = sample_state(view, random.Random(seed))
            two = sample_state(twin.view(viewer), random.Random(seed))
            assert one.hands == two.hands and one.rng.getstate() == two.rng.getstate()
    assert differed > 10, "the twins really hide different cards"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sample_at_the_first_lead_keeps_the_lead_card_with_the_leader(players: int) -> None:
    """At the start of a deal everybody knows the leader holds the lead card (DealStarted says so, and the view
    names it in ``must_include``). A determinization from another seat must give it to the leader; otherwise the
    seat to move in the sample holds no play including it and has no legal action at all."""
    for seed in range(10):
        state = GAME.new_match(players, opts(deals=1), random.Random(seed))
        leader = state.turn
        lead = state.must_include
        for viewer in range(players):
            if viewer == leader:
                continue
            for sample_seed in range(5):
                sample = sample_state(state.view(viewer), random.Random(sample_seed))
                assert sample.hands[leader] & lead, "the leader holds the lead card in every sample"
                assert sample.legal_actions()


def test_spectator_view_cannot_be_determinized() -> None:
    state = position(["3D 4D", "5C 6C"], turn=0)
    with pytest.raises(ValueError):
        sample_state(state.view(None), random.Random(0))


def test_two_player_samples_set_aside_only_what_the_opening_proves() -> None:
    """With two players 26 cards are set aside. The lead card (3♦ by default) opens whenever it is dealt, though by
    the seed's suit order the 3♣ is lower: then nothing is known about the set-aside cards, and the other seat may
    hold the 3♣. When another card opens, the lead card was set aside, and so was every card below the opening one
    (it is the lowest dealt): no sample may give those to anybody."""
    lead_opened = other_opened = 0
    for seed in range(60):
        state = GAME.new_match(2, opts(deals=1), random.Random(seed))
        enc = state.enc
        lead = enc.mask([state.options.lead_card])
        viewer = 1 - state.turn
        view = state.view(viewer)
        mine = state.hands[viewer]
        given = 0
        for sample_seed in range(200):
            given |= sample_state(view, random.Random(sample_seed)).hands[state.turn]
        if state.opening == lead:
            lead_opened += 1
            below = (state.opening - 1) & ~mine
            assert given & below == below, "every card below the 3♦ that the viewer lacks may be the leader's"
        else:
            other_opened += 1
            assert not given & (lead | (state.opening - 1)), "set-aside cards are never dealt in a sample"
            assert given & ~mine & ~(lead | (state.opening - 1) | state.opening), "the rest is still sampled"
    assert lead_opened and other_opened, "both cases were met"
