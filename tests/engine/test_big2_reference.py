"""The reference Big Two opponent of the benchmarks (``benchmarks/big2_reference.py``): it always plays a legal
action, chooses from its seat's view alone (any deal of the cards it cannot see gets the same choice), draws nothing
from its RNG, plays the heuristics it is written to play, and sits at a table like any bot."""

from __future__ import annotations

import random

import pytest
from big2_helpers import GAME, cards, opts, position, random_positions
from big2_reference import REFERENCE, ReferenceBig2Bot, make_level, seat_table, units

from engine.games.big2.bots import HardBig2Bot, MediumBig2Bot
from engine.games.big2.rules import PASS, Big2State, Play, bits, encoding, sample_state
from engine.table import Table

VARIANT_SETS: list[tuple[str, ...]] = [(), ("standard-suits",), ("taiwan", "no-play-after-pass"), ("pagat-scoring",)]
BOT = ReferenceBig2Bot()


def choice(state: Big2State, seed: int = 0) -> object:
    seat = state.to_move
    assert seat is not None
    return BOT.choose(state.view(seat), state.legal_actions(), random.Random(seed))


def test_it_always_chooses_a_legal_action() -> None:
    for state in random_positions(300, 5, VARIANT_SETS, steps=(0, 60)):
        assert choice(state) in state.legal_actions()


def test_the_choice_is_the_same_for_any_deal_of_the_unseen_cards() -> None:
    """Dealing the cards this seat cannot see otherwise (a deal its view cannot tell from the true one) never
    changes what it plays: it reads nothing but its own view."""
    rng = random.Random(3)
    for state in random_positions(60, 9, VARIANT_SETS, steps=(0, 40)):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        for _ in range(3):
            other = sample_state(view, rng)
            assert other.hands[seat] == state.hands[seat]
            assert choice(other) == choice(state)


def test_it_draws_nothing_from_its_rng() -> None:
    """Deterministic: any RNG, and the same answer as before; the RNG handed to it is left as it was."""
    for state in random_positions(60, 11, VARIANT_SETS, steps=(0, 40)):
        seat = state.to_move
        assert seat is not None
        rng = random.Random(1)
        before = rng.getstate()
        first = choice(state)
        assert BOT.choose(state.view(seat), state.legal_actions(), rng) == first
        assert rng.getstate() == before
        assert choice(state, seed=99) == first


def test_the_first_lead_holds_the_starting_card() -> None:
    for seed in range(20):
        table = seat_table([REFERENCE] * 4, seed=seed)
        state = table.state
        assert isinstance(state, Big2State)
        must = state.must_include
        seat, action = table.think()
        assert state.hands[seat] & must
        assert isinstance(action, Play)
        assert encoding(table.options).mask(action.cards) & must


def test_units_split_the_hand_into_combinations() -> None:
    """Every card in exactly one unit: the straight from the 3 to a 7 (not the weaker one from the 2 to the 6, which
    would spend the 2), the rest as singles."""
    options = opts()
    enc = encoding(options)
    hand = enc.mask(cards("3C 4D 5H 6S 7C 7D 9H JS QS 2D"))
    made = units(hand, options)
    assert sum(u.mask for u in made) == hand and sum(u.size for u in made) == hand.bit_count()
    assert sorted(u.kind for u in made) == ["single"] * 5 + ["straight"]
    straight = next(u for u in made if u.kind == "straight")
    assert {v // 4 for v in bits(straight.mask)} == {0, 1, 2, 3, 4}


def test_it_goes_out_when_it_can() -> None:
    state = position(["8C 8D", "3C 4C 5C 6C 9D"], table="5S 5H", table_seat=1)
    assert choice(state) == Play(tuple(cards("8C 8D")))


def test_it_keeps_its_2_on_a_low_single_with_a_long_hand() -> None:
    """A long hand whose only single above the 4 is a 2 passes rather than spend it; a short hand plays it."""
    long_hand = position(["3C 3D 5C 5D 7C 7D 9C 9D 2S", "4S 6H 8D JC"], table="4H", table_seat=1)
    assert choice(long_hand) == PASS
    short = position(["5C 5D 2S", "4S 6H 8D JC"], table="4H", table_seat=1)
    assert choice(short) == Play(tuple(cards("2S")))


def test_it_stops_the_last_card_with_its_highest_single() -> None:
    state = position(["3C 5D 9H KS AD", "6C"], table="4H", table_seat=1)
    assert choice(state) == Play(tuple(cards("AD")))


def test_it_leads_its_lowest_unit_and_a_larger_one_on_a_tie() -> None:
    state = position(["4C 4D 9H KS", "3C 5D 6H 7S 8C"])
    assert choice(state) == Play(tuple(cards("4C 4D")))


def test_a_table_of_levels_deals_what_table_create_deals() -> None:
    """The reference sits beside Parlour's own levels; the deal is the one ``Table.create`` makes from the seed,
    so duplicate deals are the same for every pair of levels."""
    levels = [REFERENCE, "medium", "hard", "easy"]
    table = seat_table(levels, seed=42)
    plain = Table.create("big2", 4, seed=42, bots=["medium"] * 4, deals=1)
    assert isinstance(table.state, Big2State) and isinstance(plain.state, Big2State)
    assert table.state.hands == plain.state.hands
    assert [seat.level for seat in table.seats] == levels
    assert isinstance(table.seats[0].bot, ReferenceBig2Bot)
    assert isinstance(table.seats[1].bot, MediumBig2Bot) and isinstance(table.seats[2].bot, HardBig2Bot)
    assert len(set(table.names)) == 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_of_reference_bots_plays_a_deal_out(players: int) -> None:
    table = seat_table([REFERENCE, *["medium"] * (players - 1)], seed=players)
    table.run()
    assert table.state.is_over and table.state.result is not None


def test_make_level_knows_the_reference_and_parlours_levels() -> None:
    assert isinstance(make_level(REFERENCE), ReferenceBig2Bot)
    assert make_level("medium").difficulty == "medium"
    assert GAME.key == "big2"
