"""The spec of Screw Your Neighbor / Chase the Ace on the engine's contract: options and variants, the scenario
API, clone, zones, the codec, the registry entries and simulate's figures."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from chase_helpers import GAME, act, card, deal, of_type, opts, plan, snapshot

from engine import codec
from engine.cards import is_conserved, parse_cards, standard_deck
from engine.errors import OptionError
from engine.events import Event
from engine.game import Scenario
from engine.games.chase.rules import (
    Acted,
    CardDealt,
    ChaseAction,
    ChaseOptions,
    ChaseState,
    ChaseView,
    KingShown,
    PayReason,
    Revealed,
    Traded,
)
from engine.match import RoundStarted
from engine.registry import difficulties, get_entry, hint_level
from engine.simulate import simulate
from engine.table import Table


# ---------------------------------------------------------------------------------------------------------------
# Options: contradictory or inapplicable variants are refused, naming both.
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "variants", "named"),
    [
        pytest.param("screw", ["on-honour", "no-honour"], ("on-honour", "no-honour"), id="screw-both-honours"),
        pytest.param("chase", ["no-honour", "on-honour"], ("no-honour", "on-honour"), id="chase-both-honours"),
        pytest.param("screw", ["no-honour"], ("no-honour", "screw"), id="no-honour-in-screw"),
        pytest.param("chase", ["on-honour"], ("on-honour", "chase"), id="on-honour-in-chase"),
        pytest.param("chase", ["high-card-pays", "on-honour"], ("on-honour", "chase"), id="after-a-good-one"),
    ],
)
def test_contradictory_or_inapplicable_variants_are_refused(
    preset: str, variants: list[str], named: tuple[str, str]
) -> None:
    with pytest.raises(OptionError) as caught:
        GAME.options(preset, variants)
    message = str(caught.value)
    assert all(word in message for word in named), message
    with pytest.raises(OptionError):
        Table.create(preset, players=3, variants=variants)


def test_variants_that_apply() -> None:
    assert GAME.options("screw", ["on-honour"]).on_honour
    assert not GAME.options("chase", ["no-honour"]).on_honour
    assert GAME.options("chase", ["high-card-pays", "HIGH-CARD-PAYS"]) == opts("chase", "high-card-pays")
    assert [v.key for v in GAME.useful_variants("screw")] == ["high-card-pays", "on-honour"]
    assert [v.key for v in GAME.useful_variants("chase")] == ["high-card-pays", "no-honour"]
    assert GAME.base_options(None) == GAME.base_options("screw") == GAME.options()
    for bad in ("poker", "", 5):
        with pytest.raises(OptionError):
            GAME.base_options(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------------------------
# Scenarios: decks, dealer and lives respected; bad scenarios refused.
# ---------------------------------------------------------------------------------------------------------------
def test_scenario_dealer_and_lives_are_respected() -> None:
    options = opts("chase")
    state = GAME.new_match(4, options, random.Random(3), Scenario(dealer=1, totals=(2, 3, 0, 1)))
    assert state.lives == [2, 3, 0, 1] and state.dealer == 1
    assert state.history[0] == RoundStarted(round=1, dealer=1, seats=(3, 0, 1))
    view = state.view(None)
    assert view.lives == (2, 3, 0, 1) and view.dealer == 1 and not view.alive(2) and view.on_honour(3)
    assert state.cards[2] is None and "hand 2" not in state.zones()


def test_scenario_through_a_table() -> None:
    hands = [parse_cards("QS"), parse_cards("2H"), parse_cards("9D")]
    order = GAME.deck_for(3, dealer=0, hands=hands, rest=parse_cards("KC"))
    table = Table.create("screw", players=3, seed=4, scenario=Scenario(decks=(order,), dealer=0, totals=(1, 2, 3)))
    state = table.state
    assert isinstance(state, ChaseState)
    assert [state.cards[s] for s in range(3)] == [card("QS"), card("2H"), card("9D")]
    assert state.lives == [1, 2, 3] and state.to_move == 1
    table.submit(1, "stay")
    table.submit(2, "stay")
    events = table.submit(0, "swap")
    assert dict(of_type(events, Revealed)[0].cards) == {1: card("2H"), 2: card("9D"), 0: card("KC")}
    assert state.lives == [1, 1, 3], "the 2H paid; the dealer swapped the Queen for the King"


def test_deck_for_deals_from_the_first_card_left_of_the_dealer() -> None:
    hands = [parse_cards("2C"), [], parse_cards("9H"), parse_cards("KD")]
    order = GAME.deck_for(4, dealer=3, hands=hands, rest=parse_cards("5S 6S"))
    assert [str(c) for c in order[:5]] == ["2C", "9H", "KD", "5S", "6S"]
    assert sorted(map(str, order)) == sorted(map(str, standard_deck()))
    for bad_hands, dealer in (([parse_cards("2C 3C"), parse_cards("9H")], 1), ([parse_cards("2C"), []], 1)):
        with pytest.raises(OptionError):
            GAME.deck_for(2, dealer, bad_hands)
    with pytest.raises(OptionError):
        GAME.deck_for(2, 1, [parse_cards("2C"), parse_cards("2C")])


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(Scenario(dealer=5), id="dealer-not-a-seat"),
        pytest.param(Scenario(dealer=1, totals=(3, 0, 3)), id="dealer-out"),
        pytest.param(Scenario(totals=(3, 3)), id="too-few-totals"),
        pytest.param(Scenario(totals=(3, 0, 0)), id="one-player-in"),
        pytest.param(Scenario(totals=(3, -1, 3)), id="negative-lives"),
        pytest.param(Scenario(decks=(tuple(standard_deck()[:51]),)), id="short-deck"),
        pytest.param(Scenario(decks=((*standard_deck()[:51], standard_deck()[0]),)), id="a-card-twice"),
    ],
)
def test_bad_scenarios_are_refused(bad: Scenario) -> None:
    with pytest.raises(OptionError):
        GAME.new_match(3, opts("screw"), random.Random(1), bad)


def test_later_planned_decks_deal_later_hands() -> None:
    state = deal(opts("screw"), [plan("3H 9C QD"), plan("JS 2D 8H", dealer=0)], dealer=2)
    act(state, "stay", "stay", "stay")
    assert state.cards == [card("JS"), card("2D"), card("8H")] and state.dealer == 0
    act(state, "stay", "stay", "stay")
    assert state.hand == 3, "the third hand is shuffled by the RNG"


# ---------------------------------------------------------------------------------------------------------------
# Clone, zones, views at every moment.
# ---------------------------------------------------------------------------------------------------------------
class LoudRandom(random.Random):
    """An injected RNG of a class of its own, with a required argument and fields of its own."""

    def __init__(self, seed: int, label: str) -> None:
        super().__init__(seed)
        self.label = label
        self.calls: list[str] = []

    def shuffle(self, x: Any) -> None:
        self.calls.append("shuffle")
        super().shuffle(x)


def test_clone_keeps_an_injected_rng_of_its_own_class_and_state() -> None:
    state = GAME.new_match(4, opts("chase"), LoudRandom(9, "loud"))
    act(state, "stay")
    twin = state.clone()
    rng_copy, original = twin.rng, state.rng
    assert (
        isinstance(original, LoudRandom)
        and isinstance(rng_copy, LoudRandom)
        and type(rng_copy) is LoudRandom
        and rng_copy is not state.rng
    )
    assert rng_copy.label == "loud" and rng_copy.calls == ["shuffle"] and rng_copy.calls is not original.calls
    assert rng_copy.getstate() == state.rng.getstate()
    assert (twin.version, twin.history, twin.planned) == (state.version, state.history, state.planned)
    assert twin.history is not state.history and twin.progress is not state.progress
    assert snapshot(twin) == snapshot(state)
    rng = random.Random(1)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = rng.choice(state.legal_actions())
        state.apply(seat, action)
        twin.apply(seat, action)
    assert twin.history == state.history and twin.result == state.result


def test_zones_hold_every_card_once_and_views_work_at_every_moment() -> None:
    for preset, seed in (("screw", 1), ("chase", 2), ("screw", 3)):
        state = GAME.new_match(5, opts(preset), random.Random(seed))
        rng = random.Random(seed)
        while True:
            zones = state.zones()
            assert is_conserved(zones.values(), state.full_deck())
            assert set(zones) >= {"deck", "set aside"}
            assert all(len(cards) == 1 for name, cards in zones.items() if name.startswith("hand "))
            for seat in [*range(state.players), None]:
                assert isinstance(state.view(seat), ChaseView)
            if state.is_over:
                break
            seat = state.to_move
            assert seat is not None
            state.apply(seat, rng.choice(state.legal_actions()))


# ---------------------------------------------------------------------------------------------------------------
# The codec: every view and event, as every seat gets them, round-trips through JSON text.
# ---------------------------------------------------------------------------------------------------------------
def round_trips(value: object) -> None:
    data = codec.encode(value)
    text = json.dumps(data)
    assert codec.decode(json.loads(text)) == value, value
    assert codec.loads(codec.dumps(value)) == value


def seeded_matches() -> Iterator[Table]:
    yield Table.create("screw", players=4, seed=1, bots=["easy", "medium", "easy", "hard"])
    yield Table.create("chase", players=3, seed=2, bots=["easy", "medium", "easy"])
    yield Table.create("chase", players=5, seed=3, bots=["easy"] * 5, variants=["high-card-pays"])
    yield Table.create("screw", players=2, seed=4, bots=["easy", "easy"], variants=["on-honour"])


def test_codec_round_trip_of_every_view_and_event() -> None:
    kinds: set[str] = set()
    for table in seeded_matches():
        state = table.state
        round_trips(table.options)
        while True:
            for seat in [*range(state.players), None]:
                round_trips(state.view(seat))
            round_trips(tuple(state.legal_actions()))
            if state.is_over:
                break
            table.step_bot()
        for event in state.history:
            kinds.add(type(event).__name__)
            for seat in [*range(state.players), None]:
                seen = event.for_seat(seat)
                if seen is not None:
                    round_trips(seen)
    assert {"RoundStarted", "CardDealt", "Stayed", "Traded", "Revealed", "Paid", "RoundOver", "MatchOver"} <= kinds


def test_codec_of_every_enum_and_event_kind() -> None:
    for value in [*ChaseAction, *Acted, *PayReason]:
        round_trips(value)
    round_trips(KingShown(seat=1, card=card("KS"), blocked=0))
    round_trips(Traded(seat=0, target=1, gave=card("3H"), got=card("9C"), audience=frozenset({0, 1})))
    dealt = CardDealt(seat=2, card=card("10D"), audience=frozenset({2}))
    assert codec.encode(dealt)["card"] == "10D" and codec.encode(dealt)["game"] == "chase"
    assert codec.encode(opts("chase"))["type"] == "ChaseOptions"


def test_views_and_events_hold_data_not_sentences() -> None:
    """No frozenset of cards and no English in a view; the acted field holds codes."""
    state = deal(opts("screw"), [plan("3H KS 9D 5C")], dealer=3)
    act(state, "trade")
    assert state.view(0).acted == (Acted.BLOCKED, Acted.SHOWED_KING, None, None)
    act(state, "stay", "trade")
    view = state.view(0)
    assert view.acted == (Acted.BLOCKED, Acted.STAYED, Acted.TRADED, Acted.TRADED_WITH)
    assert isinstance(view.gone, tuple)
    for value in codec.encode(view).values():
        assert not isinstance(value, str) or " " not in value


# ---------------------------------------------------------------------------------------------------------------
# The registry and simulate.
# ---------------------------------------------------------------------------------------------------------------
def test_registry_entries_and_bots() -> None:
    keys = [(e.key, e.preset, e.title, e.aliases) for e in GAME.entries()]
    assert keys == [
        ("screw", "screw", "Screw Your Neighbor", ("screw-your-neighbor", "syn")),
        ("chase", "chase", "Chase the Ace", ("chase-the-ace", "cta")),
    ]
    assert list(difficulties(GAME)) == ["easy", "medium", "hard"]
    assert GAME.view_type is ChaseView and hint_level(GAME) == "hard"
    assert get_entry("cta").game is get_entry("syn").game
    assert isinstance(GAME.options("chase"), ChaseOptions)


def test_simulate_figures_keep_their_json_fields() -> None:
    report = simulate("chase", players=3, games=4, seed=2, bots=["easy", "medium", "medium"])
    stats = report["stats"]
    assert list(stats) == ["rotated", "hands", "hands_per_game", "score", "seats"]
    assert stats["score"] == "opponents outlasted"
    assert [list(s) for s in stats["seats"]] == [["seat", "hands_played", "paid", "pays_per_hand", "lives_paid"]] * 3
    assert stats["hands_per_game"] == round(stats["hands"] / 4, 3)
    assert GAME.figures().column == "pays_per_hand"
    # Every hand dealt is counted (a hand dealt again too), and every Paid event.
    table = Table.create("chase", players=3, seed=2 * 1_000_003, bots=["easy", "medium", "medium"])
    table.run()
    history: list[Event] = table.state.history
    first = simulate("chase", players=3, games=1, seed=2, bots=["easy", "medium", "medium"])["stats"]
    assert first["hands"] == sum(1 for e in history if isinstance(e, RoundStarted))
    assert sum(s["paid"] for s in first["seats"]) == sum(1 for e in history if type(e).__name__ == "Paid")
