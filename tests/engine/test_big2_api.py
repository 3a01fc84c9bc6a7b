"""Big Two's spec and state against the engine's contract: options and variants, the scenario API and ``deck_for``,
the match layer's marker events, typed errors for any garbage, seats checked, ``clone``, zones, the codec and the
simulate figures."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest
from big2_helpers import GAME, SEED, act, card, cards, hand_of, of_type, opts, snapshot, split_deck, stacked_deal

from engine import codec
from engine.cards import JOKER, Card, Rank, is_conserved, parse_cards, standard_deck
from engine.errors import ECHO_LIMIT, InvalidActionError, OptionError, ParlourError, SeatError
from engine.events import Event
from engine.game import Scenario
from engine.games.big2.rules import (
    PASS,
    Big2Options,
    Big2State,
    Big2View,
    DealOver,
    DealStarted,
    HandDealt,
    Play,
    Played,
    TablePlay,
    parse_action,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.registry import difficulties, get_entry
from engine.simulate import simulate

DRAGON_WITH_3D = "AS 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC KS"


# ---------------------------------------------------------------------------------------------------------------
# The spec
# ---------------------------------------------------------------------------------------------------------------
def test_registered_under_its_key_and_aliases() -> None:
    for name in ("big2", "Big-Two", "bigtwo", "deuces", "capsa"):
        entry = get_entry(name)
        assert (entry.key, entry.title, entry.preset, entry.game.key) == ("big2", "Big Two", None, "big2")
    assert get_entry("big2").aliases == ("big-two", "bigtwo", "deuces", "capsa")


@pytest.mark.parametrize("pair", [("standard-suits", "taiwan"), ("taiwan", "standard-suits")])
def test_standard_suits_and_taiwan_are_refused_together(pair: tuple[str, str]) -> None:
    with pytest.raises(OptionError) as refused:
        GAME.options(variants=pair)
    assert "standard-suits" in str(refused.value) and "taiwan" in str(refused.value)


def test_variants_combine_and_repeat() -> None:
    options = GAME.options(variants=["taiwan", "no-play-after-pass", "pagat-scoring", "Taiwan"])
    assert (options.suits, options.lead, options.no_play_after_pass, options.scoring) == ("seed", "3C", True, "pagat")
    assert GAME.base_options(None) == GAME.base_options("seed") == SEED
    with pytest.raises(OptionError):
        GAME.options("chase")
    with pytest.raises(OptionError):
        GAME.options(variants=["jokers-wild"])


@pytest.mark.parametrize(
    "changes",
    [{"suits": "red"}, {"scoring": "x"}, {"lead": "JK"}, {"lead": "3X"}, {"deals": 0}, {"score_limit": -1}],
    ids=str,
)
def test_bad_options_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        dataclasses.replace(SEED, **changes)  # type: ignore[arg-type]


def test_bots_and_figures() -> None:
    assert list(difficulties(GAME)) == ["easy", "medium", "hard"]
    assert GAME.figures().column == "deal_win_rate"


def test_simulate_reports_the_same_stats_as_before() -> None:
    report = simulate("big2", players=3, games=2, seed=3, bots=["easy", "medium", "easy"], deals=2)
    stats = report["stats"]
    assert set(stats) == {"rotated", "deals", "score", "seats"}
    assert stats["deals"] == 4 and stats["score"] == "match points (running total)"
    assert [set(s) for s in stats["seats"]] == [{"seat", "deals_won", "deal_win_rate"}] * 3
    assert sum(s["deals_won"] for s in stats["seats"]) == 4
    assert [s["deal_win_rate"] for s in stats["seats"]] == [s["deals_won"] / 4 for s in stats["seats"]]


# ---------------------------------------------------------------------------------------------------------------
# Scenarios and deck_for
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("dealer_offset", [0, 1])
def test_deck_for_deals_each_seat_its_cards(players: int, dealer_offset: int) -> None:
    dealer = (players - 1 + dealer_offset) % players
    parts = split_deck(players, seed=players)
    hands, rest = parts[:players], parts[players]
    order = GAME.deck_for(players, dealer, hands, rest)
    assert sorted(map(str, order)) == sorted(map(str, standard_deck()))
    state = GAME.new_match(players, SEED, random.Random(1), Scenario(decks=(order,), dealer=dealer))
    for seat in range(players):
        expected = set(hands[seat])
        if players == 3 and seat == state.to_move:
            expected.add(rest[0])  # the 52nd card goes to the holder of the starting card
        assert hand_of(state, seat) == expected
    started = of_type(state.history, RoundStarted)
    seats = tuple((dealer + 1 + i) % players for i in range(players))
    assert started == [RoundStarted(round=1, dealer=dealer, seats=seats)]
    if players == 2:
        assert set(state.zones()["set aside"]) == set(rest)


def test_deck_for_fills_short_hands_with_cards_not_named() -> None:
    order = GAME.deck_for(4, 3, [cards("2S 2H"), [], cards("3D")])
    state = GAME.new_match(4, SEED, random.Random(0), Scenario(decks=(order,), dealer=3))
    assert {card("2S"), card("2H")} <= hand_of(state, 0) and card("3D") in hand_of(state, 2)
    assert state.to_move == 2
    assert is_conserved(state.zones().values(), state.full_deck())


@pytest.mark.parametrize(
    ("hands", "rest"),
    [
        pytest.param([["3D", "3D"]], [], id="a-card-twice"),
        pytest.param([["3D"]], ["3D"], id="a-card-in-a-hand-and-the-rest"),
        pytest.param([["JK"]], [], id="a-joker"),
        pytest.param([standard_deck()[:14]], [], id="too-many-cards-for-a-seat"),
        pytest.param([[]] * 5, [], id="more-hands-than-seats"),
    ],
)
def test_deck_for_refuses_impossible_deals(hands: list[list[str]], rest: list[str]) -> None:
    as_cards = [[c if isinstance(c, Card) else Card.parse(c) for c in hand] for hand in hands]
    with pytest.raises(OptionError):
        GAME.deck_for(4, 0, as_cards, [Card.parse(c) for c in rest])


@pytest.mark.parametrize(
    "scenario",
    [
        pytest.param(Scenario(decks=(tuple(standard_deck()[:51]),)), id="51-cards"),
        pytest.param(Scenario(decks=((*standard_deck()[:51], JOKER),)), id="a-joker"),
        pytest.param(Scenario(decks=((*standard_deck()[:51], standard_deck()[0]),)), id="a-card-twice"),
        pytest.param(Scenario(dealer=4), id="dealer-not-a-seat"),
        pytest.param(Scenario(dealer=-1), id="negative-dealer"),
        pytest.param(Scenario(totals=(0, 0, 0)), id="three-totals-for-four"),
    ],
)
def test_bad_scenarios_are_refused(scenario: Scenario) -> None:
    with pytest.raises(OptionError):
        GAME.new_match(4, SEED, random.Random(0), scenario)


def test_scenario_plans_several_deals_then_shuffles() -> None:
    first = GAME.deck_for(4, 1, split_deck(4, 1)[:4])
    second = GAME.deck_for(4, 2, split_deck(4, 2)[:4])
    state = GAME.new_match(4, opts(deals=3), random.Random(0), Scenario(decks=(first, second), dealer=1))
    for number in (1, 2):
        assert state.deal == number and state.view(None).dealer == number
        for seat, hand in enumerate(split_deck(4, number)[:4]):
            assert hand_of(state, seat) == set(hand), (number, seat)
        finish_deal(state)
    assert state.deal == 3 and state.planned == []
    assert is_conserved(state.zones().values(), state.full_deck())


def finish_deal(state: Big2State) -> list[Event]:
    """Play the current deal out with the first legal action each time."""
    deal = state.deal
    events: list[Event] = []
    while not state.is_over and state.deal == deal:
        seat = state.to_move
        assert seat is not None
        events += state.apply(seat, state.legal_actions()[0])
    return events


def dragon_deal(options: Big2Options = SEED, totals: Sequence[int] | None = None) -> Big2State:
    """Seat 0 holds a Dragon with the 3♦ and leads; seat 1 holds three 2s."""
    dragon = cards(DRAGON_WITH_3D)
    rest = [c for c in standard_deck() if c not in dragon]
    twos = [c for c in rest if c.rank is Rank.TWO]
    others = [c for c in rest if c.rank is not Rank.TWO]
    hands = [dragon, twos + others[:10], others[10:23], others[23:36]]
    return stacked_deal(hands, options, totals=totals)


def test_scenario_totals_are_the_starting_points_and_a_score_limit_ends_the_match() -> None:
    state = dragon_deal(dataclasses.replace(SEED, score_limit=150), totals=(10, -20, 5, 5))
    assert state.to_move == 0 and state.totals == [10, -20, 5, 5]
    events = act(state, DRAGON_WITH_3D)
    names = [type(e).__name__ for e in events]
    assert names == ["Played", "DealOver", "RoundOver", "MatchOver"]
    (over,) = of_type(events, DealOver)
    # 13 cards left: doubled (more than nine), doubled again for each 2 (seat 1 holds three).
    assert over.deltas == (26 * 8 + 26 + 26, -26 * 8, -26, -26)
    assert over.totals == (10 + 260, -20 - 208, 5 - 26, 5 - 26) == tuple(state.totals)
    (round_over,) = of_type(events, RoundOver)
    assert round_over == RoundOver(round=1, winners=(0,), deltas=over.deltas, totals=over.totals, last=True)
    assert of_type(events, MatchOver) == [MatchOver(winners=(0,), totals=over.totals)]
    assert state.is_over and state.result is not None and state.result.winners == (0,)


def test_the_next_deal_opens_with_round_started_and_the_dealer_moves_on() -> None:
    state = dragon_deal(opts(deals=2))
    events = act(state, DRAGON_WITH_3D)
    names = [type(e).__name__ for e in events]
    assert names[:5] == ["Played", "DealOver", "RoundOver", "RoundStarted", "DealStarted"]
    assert names[5:] == ["HandDealt"] * 4
    (started,) = of_type(events, RoundStarted)
    assert started == RoundStarted(round=2, dealer=0, seats=(1, 2, 3, 0))
    (big2_start,) = of_type(events, DealStarted)
    assert big2_start.leader == state.to_move and big2_start.lead_card == card("3D")
    assert big2_start.counts == (13, 13, 13, 13) and not of_type(events, MatchOver)
    assert state.view(0).dealer == 0 and state.view(0).deal == 2


# ---------------------------------------------------------------------------------------------------------------
# Garbage in: a typed error, a short message, nothing changed
# ---------------------------------------------------------------------------------------------------------------
class Weird:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def forged_card(rank: object, suit: object) -> Card:
    """A card with wrong fields, set past its constructor (which refuses them: tests/engine/test_public_edges.py)."""
    card = object.__new__(Card)
    object.__setattr__(card, "rank", rank)
    object.__setattr__(card, "suit", suit)
    return card


GARBAGE_ACTIONS: list[object] = [
    Play(None),  # type: ignore[arg-type]
    Play(5),  # type: ignore[arg-type]
    Play(("3D",)),  # type: ignore[arg-type]
    Play((Card.parse("3D"), None)),  # type: ignore[arg-type]
    Play(()),
    Play([Card.parse("3D")]),  # type: ignore[arg-type]
    Play((JOKER,)),
    Play((forged_card(5, "x"),)),
    Play((forged_card([], None),)),
    Play(tuple(standard_deck()[:14])),
    Play((Weird(),)),  # type: ignore[arg-type]
    None,
    5,
    b"pass",
    3.5,
    ["3D"],
    {"cards": ["3D"]},
    object(),
    Weird(),
    PASS.__class__,
    "",
    "3X",
    "x" * 1_000_000,
    "3D " * 100_000,
]


@pytest.mark.parametrize("action", GARBAGE_ACTIONS, ids=lambda a: type(a).__name__)
def test_garbage_actions_raise_invalid_action_and_change_nothing(action: object) -> None:
    state = GAME.new_match(4, SEED, random.Random(2))
    seat = state.to_move
    assert seat is not None
    before = snapshot(state)
    with pytest.raises(InvalidActionError) as refused:
        state.apply(seat, action)
    assert len(str(refused.value)) < ECHO_LIMIT + 120
    assert snapshot(state) == before


@pytest.mark.parametrize("text", [None, b"pass", 5, "x" * 1_000_000, "3D " * 100_000, ["pass"]], ids=repr)
def test_parse_action_refuses_what_is_not_text_or_too_long(text: object) -> None:
    with pytest.raises(InvalidActionError) as refused:
        parse_action(text)  # type: ignore[arg-type]
    assert len(str(refused.value)) < ECHO_LIMIT + 120
    state = GAME.new_match(2, SEED, random.Random(0))
    with pytest.raises(InvalidActionError):
        state.parse_action(text)  # type: ignore[arg-type]


def test_check_refuses_garbage_with_the_same_typed_error() -> None:
    state = GAME.new_match(4, SEED, random.Random(2))
    seat = state.to_move
    assert seat is not None
    for action in (Play(None), Play((Card.parse("3D"), None))):  # type: ignore[arg-type]
        with pytest.raises(InvalidActionError):
            state.check(seat, action)


@pytest.mark.parametrize("seat", [-1, 4, 5, True, "0", 1.0, None])
def test_views_and_actions_check_the_seat(seat: object) -> None:
    state = GAME.new_match(4, SEED, random.Random(2))
    before = snapshot(state)
    if seat is not None:
        with pytest.raises(SeatError):
            state.view(seat)  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        state.apply(seat, PASS)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_view_minus_one_is_not_the_last_seat() -> None:
    state = GAME.new_match(4, SEED, random.Random(2))
    with pytest.raises(SeatError):
        state.view(-1)
    with pytest.raises(SeatError):
        state.view(4)
    assert state.view(None).hand == () and state.view(3).hand


# ---------------------------------------------------------------------------------------------------------------
# State: clone, zones, views at every moment
# ---------------------------------------------------------------------------------------------------------------
class CountingRandom(random.Random):
    """An injected RNG of its own class, with a state of its own (the number of shuffles)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.shuffles = 0

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        self.shuffles += 1
        super().shuffle(x)


def test_clone_keeps_an_injected_rng_of_its_own_class_and_state() -> None:
    state = GAME.new_match(3, opts(deals=2), CountingRandom(4))
    act(state, str(state.legal_actions()[0]))
    twin = state.clone()
    assert isinstance(twin.rng, CountingRandom) and twin.rng is not state.rng
    assert twin.rng.shuffles == state.rng.shuffles == 1
    assert twin.rng.getstate() == state.rng.getstate()
    assert (twin.history, twin.version, twin.planned) == (state.history, state.version, state.planned)
    assert twin.history is not state.history and twin.version == 1
    assert twin.progress == state.progress and twin.progress is not state.progress
    # Both play on identically, and independently.
    finish_deal(state)
    assert twin.deal == 1
    finish_deal(twin)
    assert [str(c) for c in twin.zones()["hand 0"]] == [str(c) for c in state.zones()["hand 0"]]
    assert twin.rng.shuffles == state.rng.shuffles == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_and_zones_at_every_moment(players: int) -> None:
    state = GAME.new_match(players, opts(deals=2), random.Random(players))
    rng = random.Random(players)
    moments = 0
    while True:
        for seat in [*range(players), None]:
            view = state.view(seat)
            assert isinstance(view, Big2View) and view.seat == seat
            assert view.played == tuple(sorted(view.played, key=lambda c: state.enc.to_int[c]))
            assert view.table is None or isinstance(view.table, TablePlay)
        assert is_conserved(state.zones().values(), state.full_deck())
        moments += 1
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions()))
    assert state.view(0).over and state.view(None).to_move is None and moments > 10


def test_view_table_and_log_hold_cards_and_kinds() -> None:
    state = stacked_deal(split_deck(4, 6)[:4])
    leader = state.to_move
    assert leader is not None
    lead = next(a for a in state.legal_actions() if isinstance(a, Play) and len(a.cards) == 1)
    act(state, str(lead), "pass")
    view = state.view(leader)
    assert view.table == TablePlay(cards=lead.cards, kind="single")
    assert view.log == ((leader, lead.cards), ((leader + 1) % 4, None))
    assert view.played == lead.cards


# ---------------------------------------------------------------------------------------------------------------
# The codec: every view and every event, whole and redacted, as data and as JSON text
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "variants", "seed"),
    [(4, (), 1), (3, ("taiwan", "pagat-scoring"), 2), (2, ("standard-suits", "no-play-after-pass"), 3)],
)
def test_codec_round_trip_of_views_events_actions_and_options(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    options = opts(*variants, deals=2)
    assert codec.decode(codec.encode(options)) == options
    state = GAME.new_match(players, options, random.Random(seed))
    rng = random.Random(seed)
    kinds: set[str] = set()
    checked = 0
    while True:
        for seat in [*range(players), None]:
            view = state.view(seat)
            assert codec.decode(codec.encode(view)) == view
            assert codec.loads(codec.dumps(view)) == view
        legal = state.legal_actions()
        assert codec.decode(codec.encode(legal)) == tuple(legal)
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        state.apply(seat, rng.choice(legal))
    for event in state.history:
        kinds.add(type(event).__name__)
        for seat in [*range(players), None]:
            seen = event.for_seat(seat)
            if seen is not None:
                assert codec.decode(codec.encode(seen)) == seen
                assert codec.loads(codec.dumps(seen)) == seen
                checked += 1
    assert {"RoundStarted", "DealStarted", "HandDealt", "Played", "Passed", "DealOver", "RoundOver"} <= kinds
    assert "MatchOver" in kinds and checked > 50


def test_encoded_views_and_events_carry_no_masks_or_keys() -> None:
    state = stacked_deal(split_deck(4, 6)[:4])
    leader = state.to_move
    assert leader is not None
    events = act(state, str(state.legal_actions()[0]))
    (played,) = of_type(events, Played)
    assert codec.encode(played) == {
        "game": "big2",
        "type": "Played",
        "audience": None,
        "seat": leader,
        "cards": [str(c) for c in played.cards],
        "kind": played.kind,
        "left": 13 - len(played.cards),
    }
    table = codec.encode(state.view(leader))["table"]
    assert table == {"game": "big2", "type": "TablePlay", "cards": [str(c) for c in played.cards], "kind": played.kind}
    dealt = codec.encode(of_type(state.history, HandDealt)[0].for_seat(None))
    assert dealt["cards"] is None and dealt["count"] == 13


def test_codec_refuses_a_play_of_garbage() -> None:
    data = {"game": "big2", "type": "Play", "cards": ["3D", "JK"]}
    assert codec.decode(data) == Play((card("3D"), JOKER))  # a joker is a card; the rules refuse it
    with pytest.raises(ParlourError):
        codec.decode({"game": "big2", "type": "Play", "cards": ["3D", 5]})
    with pytest.raises(ParlourError):
        codec.decode({"game": "big2", "type": "Big2Options", "suits": "red"})
    state = GAME.new_match(4, SEED, random.Random(0))
    seat = state.to_move
    assert seat is not None
    with pytest.raises(InvalidActionError):
        state.apply(seat, codec.decode(data))
    assert parse_cards("3D") == [card("3D")]
