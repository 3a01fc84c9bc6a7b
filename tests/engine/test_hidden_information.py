"""Hidden information (RULES.md §1 "Information"; ARCHITECTURE "Testing"): nothing a seat receives names a card
it may not see.

A :class:`Witness` rebuilds, from the *true* events (``state.history``, unredacted) and the rules alone, what one
observer may know: its own dealt card; both cards of a trade it took part in; its own deck swap; Kings shown; a
cut card; everything at the reveal and the paid cards. It follows a card it knows through trades it only watched
(a public trade of seat A with seat B moves what it knew of A to B and back). A spectator (``None``) is an observer
that is dealt nothing and takes part in nothing.

What a seat receives is checked twice: as objects, and as the JSON text the codec makes of them (what a network
session would send), where every card is its text.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence

import pytest
from chase_helpers import FULL_DECK, GAME, act, cards_in, deal, opts, plan

from engine import codec
from engine.cards import Card, Rank, sort_key
from engine.errors import InvalidActionError
from engine.events import Event
from engine.games.chase.rules import (
    CardDealt,
    ChaseState,
    ChaseView,
    DeckSwapped,
    KingShown,
    PackCut,
    Paid,
    Revealed,
    Traded,
    sample_state,
)
from engine.match import RoundStarted
from engine.table import Table


def cards_in_text(text: str) -> Iterator[Card]:
    """Every card named in JSON text: each string value that reads as a card (the codec writes cards as text)."""

    def walk(data: object) -> Iterator[Card]:
        if isinstance(data, str):
            try:
                yield Card.parse(data)
            except InvalidActionError:
                return
        elif isinstance(data, list):
            for item in data:
                yield from walk(item)
        elif isinstance(data, dict):
            for value in data.values():
                yield from walk(value)

    yield from walk(json.loads(text))


class Witness:
    """What ``observer`` may know, built from the true events by the rules."""

    def __init__(self, observer: int | None) -> None:
        self.observer = observer
        self.where: dict[int, Card] = {}
        """Seat -> the card the observer may know it holds now."""
        self.shown: set[Card] = set()
        """Every card the observer has been shown this hand (an event may name these)."""
        self.gone: set[Card] = set()
        """Cards the observer may know are out of play this hand."""

    def feed(self, event: Event) -> None:
        me = self.observer
        if isinstance(event, RoundStarted):
            self.where.clear()
            self.shown.clear()
            self.gone.clear()
        elif isinstance(event, CardDealt):
            if event.seat == me:
                assert event.card is not None
                self._learn(event.seat, event.card)
        elif isinstance(event, KingShown):
            self._learn(event.seat, event.card)
        elif isinstance(event, Traded):
            if me in (event.seat, event.target):
                assert event.gave is not None and event.got is not None
                self._learn(event.seat, event.got)
                self._learn(event.target, event.gave)
            else:
                mine, theirs = self.where.pop(event.seat, None), self.where.pop(event.target, None)
                if mine is not None:
                    self.where[event.target] = mine
                if theirs is not None:
                    self.where[event.seat] = theirs
        elif isinstance(event, DeckSwapped):
            old = self.where.pop(event.seat, None)
            if old is not None:
                self.gone.add(old)
            if event.seat == me:
                assert event.gave is not None and event.got is not None
                self.shown.add(event.gave)
                self._learn(event.seat, event.got)
        elif isinstance(event, PackCut):
            old = self.where.pop(event.seat, None)
            if old is not None:
                self.gone.add(old)
            self._learn(event.seat, event.got)
        elif isinstance(event, Revealed):
            for seat, c in event.cards:
                self._learn(seat, c)
        elif isinstance(event, Paid):
            self.shown.add(event.card)

    def _learn(self, seat: int, c: Card) -> None:
        self.where[seat] = c
        self.shown.add(c)


def check_view(state: ChaseState, view: ChaseView, witness: Witness) -> None:
    """``view`` holds only what the witness says its seat may know, and it is all true."""
    known = dict(view.known)
    for seat, c in known.items():
        assert witness.where.get(seat) == c, f"seat {view.seat} may not know that seat {seat} holds {c}"
        assert state.cards[seat] == c, "the view is wrong about a card"
    gone = set(view.gone)
    assert gone <= witness.gone, f"seat {view.seat} may not know {gone - witness.gone} are gone"
    assert list(view.gone) == sorted(gone, key=sort_key), "gone is a sorted tuple"
    in_play = {c for c in state.cards if c is not None} | set(state.deck)
    assert not gone & in_play, "a card said to be gone is still in play"
    assert gone <= set(state.zones()["set aside"])
    for seat in view.not_king:
        held = state.cards[seat]
        assert held is not None and held.rank is not Rank.KING, "not_king is wrong"
    allowed = set(known.values()) | gone
    assert set(cards_in(view)) <= allowed, "a card outside known/gone in the view"
    assert set(cards_in_text(codec.dumps(view))) <= allowed, "a card outside known/gone in the view's JSON"
    if view.seat is not None and view.seat in state.order:
        assert known.get(view.seat) == state.cards[view.seat], "a seat always knows its own card"


def check_sample(view: ChaseView, rng: random.Random) -> ChaseState:
    """A determinization agrees with everything in the view."""
    sample = sample_state(view, rng)
    known = dict(view.known)
    for seat, c in known.items():
        assert sample.cards[seat] == c, "a known card is not where the view says"
    for seat in view.not_king:
        held = sample.cards[seat]
        assert held is not None and held.rank is not Rank.KING, "a seat known to hold no King got one"
    held_cards = [sample.cards[s] for s in view.order]
    assert all(c is not None for c in held_cards)
    everything = [*held_cards, *sample.deck]
    assert len(set(everything)) == len(everything) and set(everything) <= FULL_DECK
    assert not set(everything) & set(view.gone), "a card known to be gone came back"
    assert len(everything) == 52 - len(view.gone), "every card not known to be gone is somewhere"
    assert (sample.lives, sample.dealer, sample.order, sample.turn) == (
        list(view.lives),
        view.dealer,
        view.order,
        view.turn,
    )
    if view.seat is not None and view.seat == view.to_move:
        assert tuple(sample.legal_actions()) == view.legal
        again = sample.view(view.seat)
        assert (again.known, again.not_king, again.gone) == (view.known, view.not_king, view.gone)
    return sample


MATCHES = [
    pytest.param("screw", 4, (), ["easy", "medium", "easy", "easy"], id="screw-4"),
    pytest.param("screw", 2, (), ["easy", "easy"], id="screw-2"),
    pytest.param("chase", 5, (), ["easy", "easy", "medium", "easy", "easy"], id="chase-5"),
    pytest.param("chase", 3, ("high-card-pays",), ["easy", "medium", "easy"], id="chase-high-card-pays-3"),
    pytest.param("screw", 7, ("on-honour",), ["easy"] * 7, id="screw-on-honour-7"),
    pytest.param("chase", 4, (), ["hard", "easy", "medium", "easy"], id="chase-4-hard"),
]
SEEDS = [1, 2, 3]


def play_and_watch(
    game: str, players: int, variants: Sequence[str], bots: Sequence[str], seed: int, spectator: bool
) -> tuple[int, int]:
    """Play a match of bots at a Table; after every step check what each seat (or the spectator) received and
    may see. Returns (events checked, views checked)."""
    table = Table.create(game, players=players, seed=seed, bots=bots, variants=variants)
    state = table.state
    assert isinstance(state, ChaseState)
    observers: list[int | None] = [None] if spectator else list(range(players))
    received: dict[int | None, list[Event]] = {obs: [] for obs in observers}
    for obs in observers:
        table.subscribe(obs, received[obs].append)
    witnesses = {obs: Witness(obs) for obs in observers}
    position = {obs: 0 for obs in observers}
    done = 0
    events_checked = views_checked = 0
    rng = random.Random(seed)
    while True:
        for true_event in state.history[done:]:
            for obs in observers:
                witnesses[obs].feed(true_event)
                if true_event.for_seat(obs) is None:
                    continue
                got = received[obs][position[obs]]
                position[obs] += 1
                assert type(got) is type(true_event)
                leaked = set(cards_in(got)) - witnesses[obs].shown
                assert not leaked, f"observer {obs} received {got!r} naming {leaked}"
                text = codec.dumps(got)
                leaked = set(cards_in_text(text)) - witnesses[obs].shown
                assert not leaked, f"observer {obs} received {text} naming {leaked}"
                events_checked += 1
        done = len(state.history)
        for obs in observers:
            check_view(state, state.view(obs), witnesses[obs])
            views_checked += 1
        if state.is_over:
            break
        mover = state.to_move
        if not spectator and mover is not None:
            check_sample(state.view(mover), rng)
        table.step_bot()
    for obs in observers:
        assert position[obs] == len(received[obs]), "events received that the history does not explain"
    return events_checked, views_checked


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("game", "players", "variants", "bots"), MATCHES)
def test_seats_see_only_what_they_may(
    game: str, players: int, variants: tuple[str, ...], bots: list[str], seed: int
) -> None:
    events, views = play_and_watch(game, players, variants, bots, seed, spectator=False)
    assert events > 0 and views > 0


@pytest.mark.parametrize(("game", "players", "variants", "bots"), MATCHES)
def test_spectator_sees_only_public_cards(game: str, players: int, variants: tuple[str, ...], bots: list[str]) -> None:
    for seed in SEEDS:
        events, views = play_and_watch(game, players, variants, bots, seed, spectator=True)
        assert events > 0 and views > 0


def test_own_card_is_received_and_others_are_not() -> None:
    """The checks above are not vacuous: a seat gets its own card in full and the others' redacted."""
    table = Table.create("screw", players=3, seed=4)
    log: list[Event] = []
    table.subscribe(1, log.append)
    dealt = [e for e in log if isinstance(e, CardDealt)]
    assert len(dealt) == 3
    assert all((e.card is not None) == (e.seat == 1) for e in dealt)
    spectator = [e.for_seat(None) for e in table.state.history if isinstance(e, CardDealt)]
    assert all(isinstance(e, CardDealt) and e.card is None for e in spectator)


def test_spectator_view_after_a_two_player_trade() -> None:
    """RULES.md §1: "both players in a trade see both cards of the trade; nobody else does". With two players,
    both players know both cards after a trade, but a spectator saw nothing: its view must not show them."""
    state = deal(opts("screw"), [plan("3H 9C")], dealer=1)
    act(state, "trade")
    assert dict(state.view(0).known) == {0: Card.parse("9C"), 1: Card.parse("3H")}
    assert state.view(None).known == ()


def test_spectator_view_of_a_card_followed_through_watched_trades() -> None:
    """Seat 0 trades its 3H to seat 1, which trades it on to seat 2 (the dealer): all three players know where the
    3H is, each legitimately (seat 0 followed it through a trade it watched), but a spectator was never shown it."""
    state = deal(opts("chase"), [plan("3H 9C QD")], dealer=2)
    act(state, "trade", "trade")
    assert dict(state.view(0).known)[2] == Card.parse("3H")
    assert (2, Card.parse("3H")) not in state.view(None).known


# ---------------------------------------------------------------------------------------------------------------
# Determinization does not depend on the hidden truth.
# ---------------------------------------------------------------------------------------------------------------
SAME_VIEW_DEALS = [
    pytest.param("screw", "3H 9C QD 6S", "3H 8D JC 2S", ("stay", "trade"), id="screw-watched-trade"),
    pytest.param("screw", "3H 9C QD 6S", "3H 9C 4D KS", ("trade",), id="screw-own-trade"),
    pytest.param("chase", "3H KC QD 6S", "3H KC 5D AS", ("stay", "stay"), id="chase-king-shown"),
    pytest.param("chase", "AH 9C 8D KS 2D", "AH 9C 4D KS 7H", ("trade", "trade"), id="chase-5-two-trades"),
]


@pytest.mark.parametrize(("preset", "first", "second", "actions"), SAME_VIEW_DEALS)
def test_determinization_ignores_the_hidden_truth(
    preset: str, first: str, second: str, actions: tuple[str, ...]
) -> None:
    """Two real deals that give seat 0 the same view give the same samples for the same RNG seed."""
    states = []
    for cards in (first, second):
        hand = plan(cards)
        state = deal(opts(preset), [hand], dealer=max(hand.cards))
        act(state, *actions)
        states.append(state)
    a, b = states
    assert a.cards != b.cards, "the two truths differ"
    assert a.view(0) == b.view(0), "but seat 0 sees the same"
    for seed in range(5):
        sa, sb = a.determinize(0, random.Random(seed)), b.determinize(0, random.Random(seed))
        assert (sa.cards, sa.deck) == (sb.cards, sb.deck)
        sa = GAME.determinize(a.view(0), random.Random(seed))
        sb = GAME.determinize(b.view(0), random.Random(seed))
        assert (sa.cards, sa.deck) == (sb.cards, sb.deck)
        check_sample(a.view(0), random.Random(seed))


def permuted_truth(state: ChaseState, viewer: int, rng: random.Random) -> ChaseState:
    """A copy of ``state`` whose cards hidden from ``viewer`` (at seats it does not know, and in the deck) are
    shuffled among themselves, Kings kept off the seats the viewer knows hold none."""
    view = state.view(viewer)
    known = dict(view.known)
    hidden = [s for s in state.order if s not in known]
    cards = [state.cards[s] for s in hidden] + list(state.deck)
    for _ in range(1000):
        rng.shuffle(cards)
        placed = zip(hidden, cards, strict=False)
        if all(c is not None and c.rank is not Rank.KING for s, c in placed if s in view.not_king):
            break
    else:
        raise AssertionError("no permutation found")
    other = state.clone()
    for seat, c in zip(hidden, cards, strict=False):
        other.cards[seat] = c
    other.deck = [c for c in cards[len(hidden) :] if c is not None]
    return other


@pytest.mark.parametrize("preset", ["screw", "chase"])
def test_determinization_of_random_positions_ignores_the_truth(preset: str) -> None:
    rng = random.Random(99)
    compared = 0
    for seed in range(40):
        state = GAME.new_match(5, opts(preset), random.Random(seed))
        for _ in range(rng.randrange(5)):
            seat = state.to_move
            assert seat is not None
            state.apply(seat, rng.choice(state.legal_actions()))
        viewer = state.to_move
        assert viewer is not None
        other = permuted_truth(state, viewer, rng)
        assert other.view(viewer) == state.view(viewer)
        if other.cards == state.cards:
            continue
        compared += 1
        for k in range(3):
            sa = state.determinize(viewer, random.Random(k))
            sb = other.determinize(viewer, random.Random(k))
            assert (sa.cards, sa.deck) == (sb.cards, sb.deck)
    assert compared >= 30


def test_samples_vary_over_hidden_cards() -> None:
    """The sampled card of a hidden seat is not always the true one (the sample does not copy the truth)."""
    state = GAME.new_match(4, opts("screw"), random.Random(5))
    viewer = state.to_move
    assert viewer is not None
    hidden = next(s for s in state.order if s != viewer)
    picks = {state.determinize(viewer, random.Random(k)).cards[hidden] for k in range(30)}
    assert len(picks) > 5
