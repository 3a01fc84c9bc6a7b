"""The rules of Big Two, one table case per combination, comparison, pass rule, scoring rule and variant of
RULES.md §3.

Positions are built exactly with :func:`big2_helpers.position` (hands as text) or dealt from a stacked deck with
:func:`big2_helpers.stacked_deal`. Expected results are worked out from RULES.md, not copied from the engine.
Seat ``s + 1`` plays after seat ``s``.
"""

from __future__ import annotations

import random

import pytest
from big2_helpers import (
    GAME,
    SEED,
    act,
    card,
    cards,
    combo,
    hand_of,
    mask,
    of_type,
    opts,
    position,
    snapshot,
    split_deck,
    stacked_deal,
)

from engine.cards import Card, standard_deck
from engine.errors import IllegalActionError, InvalidActionError, NotYourTurnError, OptionError, ParlourError
from engine.games.big2.rules import (
    PASS,
    Big2Options,
    Big2State,
    DealOver,
    DealStarted,
    HandDealt,
    Passed,
    Play,
    Played,
    RoundWon,
    classify,
    loss,
    parse_action,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.table import Table

STANDARD = opts("standard-suits")
TAIWAN = opts("taiwan")
NO_PLAY_AFTER_PASS = opts("no-play-after-pass")
PAGAT = opts("pagat-scoring")
DRAGON = "AS 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC KS"


# ---------------------------------------------------------------------------------------------------------------
# Combinations
# ---------------------------------------------------------------------------------------------------------------
CLASSIFY_CASES = [
    pytest.param("7H", "single", id="single"),
    pytest.param("9S 9H", "pair", id="pair"),
    pytest.param("KS KH KD", "triple", id="three-of-a-kind"),
    pytest.param("3D 4S 5H 6C 7D", "straight", id="straight"),
    pytest.param("AS 2H 3D 4C 5S", "straight", id="straight/A2345-is-a-straight"),
    pytest.param("2S 3H 4D 5C 6S", "straight", id="straight/23456-is-a-straight"),
    pytest.param("10S JH QD KC AS", "straight", id="straight/10JQKA-is-a-straight"),
    pytest.param("3H 7H 9H JH KH", "flush", id="flush/five-same-suits"),
    pytest.param("JD QD KD AD 2D", "flush", id="flush/suited-JQKA2-is-only-a-flush"),
    pytest.param("KS KH KD 4C 4D", "full_house", id="full-house/three-with-a-pair"),
    pytest.param("9S 9H 9D 9C 3C", "four", id="four-of-a-kind-with-a-single"),
    pytest.param("5C 6C 7C 8C 9C", "straight_flush", id="straight-flush"),
    pytest.param("AS 2S 3S 4S 5S", "straight_flush", id="straight-flush/A2345"),
    pytest.param("10H JH QH KH AH", "straight_flush", id="straight-flush/10JQKA"),
    pytest.param(DRAGON, "dragon", id="dragon/thirteen-ranks-A-to-K"),
    pytest.param("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "dragon", id="dragon/all-one-suit"),
    pytest.param("3D 4S", None, id="not/two-ranks"),
    pytest.param("3D 3S 4S", None, id="not/three-cards-two-ranks"),
    pytest.param("3D 4D 5D 6D", None, id="not/four-cards"),
    pytest.param("9S 9H 9D 9C", None, id="not/four-of-a-kind-without-a-single"),
    pytest.param("3D 3S 4D 4S 5C", None, id="not/two-pairs-and-a-single"),
    pytest.param("3D 5S 8H JC KD", None, id="not/five-random-cards"),
    pytest.param("JS QH KD AC 2S", None, id="not/wrap-around-JQKA2"),
    pytest.param("QS KH AD 2C 3S", None, id="not/wrap-around-QKA23"),
    pytest.param("KS AH 2D 3C 4S", None, id="not/wrap-around-KA234"),
    pytest.param("3D 4S 5H 6C 7D 8D", None, id="not/six-card-straight"),
    pytest.param("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC", None, id="not/twelve-ranks"),
    pytest.param("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC QS", None, id="not/thirteen-cards-with-a-rank-twice"),
    pytest.param("3D 3D", None, id="not/the-same-card-twice"),
    pytest.param("3D 3D 3D 4S 4H", None, id="not/duplicated-card-in-five"),
]


@pytest.mark.parametrize("suits", [SEED, STANDARD], ids=["seed-suits", "standard-suits"])
@pytest.mark.parametrize(("text", "kind"), CLASSIFY_CASES)
def test_classify(text: str, kind: str | None, suits: Big2Options) -> None:
    found = classify(cards(text), suits)
    if kind is None:
        assert found is None
    else:
        assert found is not None and found.kind == kind
        assert set(found.cards) == set(cards(text)) and found.size == len(cards(text))


# ---------------------------------------------------------------------------------------------------------------
# Comparisons: ``higher`` beats ``lower``, and ``lower`` does not beat ``higher``.
# ---------------------------------------------------------------------------------------------------------------
BEATS_CASES = [
    pytest.param("3S", "3H", SEED, id="single/suit-spade-over-heart"),
    pytest.param("3H", "3D", SEED, id="single/suit-heart-over-diamond"),
    pytest.param("3D", "3C", SEED, id="single/suit-diamond-over-club"),
    pytest.param("4C", "3S", SEED, id="single/rank-before-suit"),
    pytest.param("10C", "9S", SEED, id="single/10-over-9"),
    pytest.param("KC", "QS", SEED, id="single/K-over-Q"),
    pytest.param("AC", "KS", SEED, id="single/A-over-K"),
    pytest.param("2C", "AS", SEED, id="single/2-is-the-highest-rank"),
    pytest.param("9S 9H", "9D 9C", SEED, id="pair/same-rank-by-highest-suit"),
    pytest.param("9S 9C", "9H 9D", SEED, id="pair/highest-suit-decides-not-both"),
    pytest.param("10C 10D", "9S 9H", SEED, id="pair/rank-first"),
    pytest.param("2C 2D", "AS AH", SEED, id="pair/2s-over-Aces"),
    pytest.param("KC KD KH", "QS QH QD", SEED, id="triple/by-rank"),
    pytest.param("2C 2D 2H", "AS AH AD", SEED, id="triple/2s-over-Aces"),
    pytest.param("3H 5H 7H 9H JH", "10S JH QD KC AS", SEED, id="five/flush-over-straight"),
    pytest.param("3C 3D 3H 4C 4D", "2S AS KS QS 9S", SEED, id="five/full-house-over-flush"),
    pytest.param("3C 3D 3H 3S 4C", "2C 2D 2H AS AH", SEED, id="five/four-over-full-house"),
    pytest.param("AC 2C 3C 4C 5C", "2C 2D 2H 2S AS", SEED, id="five/straight-flush-over-four"),
    pytest.param("10S JH QD KC AH", "9S 10H JD QC KS", SEED, id="straight/10JQKA-over-9TJQK"),
    pytest.param("2C 3C 4C 5H 6D", "AS 2S 3H 4H 5S", SEED, id="straight/A2345-is-below-23456"),
    pytest.param("3C 4C 5C 6H 7D", "2S 3S 4H 5H 6S", SEED, id="straight/23456-is-below-34567"),
    pytest.param("3C 4C 5C 6C 7S", "3S 4S 5S 6S 7H", SEED, id="straight/same-sequence-by-top-card-suit"),
    pytest.param("AH 2H 3D 4D 5H", "AS 2S 3H 4H 5D", SEED, id="straight/A2345-top-card-is-the-5"),
    pytest.param("2C 3C 4C 5H 6D", "2S 3D 4D 5D 6C", SEED, id="straight/23456-top-card-is-the-6"),
    pytest.param("10H JH QH KH AH", "9S 10S JS QS KS", SEED, id="straight-flush/by-sequence-first"),
    pytest.param("3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H", SEED, id="straight-flush/same-sequence-by-suit"),
    pytest.param("2H 3H 4H 5H 6H", "AS 2S 3S 4S 5S", SEED, id="straight-flush/A2345-is-the-lowest"),
    pytest.param("3D 4D 5D 6D KD", "3S 4S 5S 6S QS", SEED, id="flush/by-highest-card-rank"),
    pytest.param("3S 4S 5S 6S AS", "3H 4H 5H 6H AH", SEED, id="flush/highest-card-then-its-suit"),
    pytest.param("2C 4C 6C 8C 10C", "3S 5S 7S 9S AS", SEED, id="flush/2-high-over-A-high"),
    pytest.param("KS KH KD 4C 4D", "QS QH QD AC AD", SEED, id="full-house/by-its-three-even-with-lower-pair"),
    pytest.param("5C 5D 5H 5S 3C", "4C 4D 4H 4S 2S", SEED, id="four/by-its-four-not-the-single"),
    pytest.param(DRAGON, "10S JS QS KS AS", SEED, id="dragon/beats-a-straight-flush"),
    pytest.param(DRAGON, "2S", SEED, id="dragon/beats-a-single-2"),
    pytest.param(DRAGON, "2S 2H", SEED, id="dragon/beats-a-pair"),
    pytest.param(DRAGON, "2S 2H 2D", SEED, id="dragon/beats-a-triple"),
    pytest.param(DRAGON, "2S 2H 2D 2C 3C", SEED, id="dragon/beats-four-of-a-kind"),
    pytest.param("3C", "3D", STANDARD, id="standard-suits/club-over-diamond"),
    pytest.param("3H", "3C", STANDARD, id="standard-suits/heart-over-club"),
    pytest.param("3S", "3H", STANDARD, id="standard-suits/spade-over-heart"),
    pytest.param("3D 4D 5D 6D 7C", "3S 4S 5H 6H 7D", STANDARD, id="standard-suits/straight-top-7C-over-7D"),
    pytest.param("3S 4S 5H 6H 7D", "3D 4D 5D 6D 7C", SEED, id="seed-suits/straight-top-7D-over-7C"),
    pytest.param("3C 4C 5C 6C AC", "3D 4D 5D 6D AD", STANDARD, id="standard-suits/flush-A-clubs-over-A-diamonds"),
    pytest.param("3D", "3C", TAIWAN, id="taiwan/seed-suit-order-kept-D-over-C"),
]


@pytest.mark.parametrize(("higher", "lower", "options"), BEATS_CASES)
def test_beats(higher: str, lower: str, options: Big2Options) -> None:
    high, low = combo(higher, options), combo(lower, options)
    assert high.beats(low)
    assert not low.beats(high)


def test_pair_of_9s_compared_by_highest_suit() -> None:
    """9C 9H (heart highest) loses to 9S 9D (spade highest)."""
    assert combo("9S 9D").beats(combo("9C 9H")) and not combo("9C 9H").beats(combo("9S 9D"))


NEVER_ACROSS_SIZES = [
    pytest.param("2S 2H", "3C", id="pair-never-beats-a-single"),
    pytest.param("3C", "3D 3H", id="single-never-beats-a-pair"),
    pytest.param("2S 2H 2D", "3C 3D", id="triple-never-beats-a-pair"),
    pytest.param("3C 3D", "2S 2H 2D", id="pair-never-beats-a-triple"),
    pytest.param("10S JS QS KS AS", "3C 3D 3H", id="straight-flush-never-beats-a-triple"),
    pytest.param("10S JS QS KS AS", "3C", id="straight-flush-never-beats-a-single"),
    pytest.param("2S 2H 2D 2C 3C", "3D 3H", id="four-of-a-kind-never-beats-a-pair"),
    pytest.param("2S", "3C 4C 5C 6C 8C", id="single-never-beats-a-five-card-hand"),
    pytest.param("2S", DRAGON, id="nothing-beats-the-dragon/single-2"),
    pytest.param("10S JS QS KS AS", DRAGON, id="nothing-beats-the-dragon/straight-flush"),
]


@pytest.mark.parametrize(("mine", "theirs"), NEVER_ACROSS_SIZES)
def test_nothing_beats_across_sizes(mine: str, theirs: str) -> None:
    assert not combo(mine).beats(combo(theirs))


def test_equal_combination_does_not_beat() -> None:
    assert not combo("9S 9H").beats(combo("9S 9H"))
    assert not combo("KS KH KD 4C 4D").beats(combo("KS KH KD 5C 5D")), "full houses: by the three only"


@pytest.mark.parametrize(
    ("options", "lowest", "order"),
    [
        pytest.param(SEED, "3C", "SHDC", id="seed/S>H>D>C-3C-lowest"),
        pytest.param(STANDARD, "3D", "SHCD", id="standard-suits/S>H>C>D-3D-lowest"),
        pytest.param(TAIWAN, "3C", "SHDC", id="taiwan/S>H>D>C-3C-lowest"),
    ],
)
def test_card_order(options: Big2Options, lowest: str, order: str) -> None:
    """Every single beats exactly the cards of lower rank, or of the same rank and a lower suit."""
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    ordered = [card(r + s) for r in ranks for s in reversed(order)]  # lowest first
    assert ordered[0] == card(lowest)
    for i, low in enumerate(ordered):
        for high in ordered[i + 1 :]:
            assert combo(str(high), options).beats(combo(str(low), options)), f"{high} beats {low}"
            assert not combo(str(low), options).beats(combo(str(high), options))


# ---------------------------------------------------------------------------------------------------------------
# Options and variants
# ---------------------------------------------------------------------------------------------------------------
def test_variant_options() -> None:
    assert (SEED.suits, SEED.lead, SEED.no_play_after_pass, SEED.scoring, SEED.deals) == (
        "seed",
        "3D",
        False,
        "seed",
        4,
    )
    assert (STANDARD.suits, STANDARD.lead) == ("standard", "3D")
    assert (TAIWAN.suits, TAIWAN.lead) == ("seed", "3C")
    assert NO_PLAY_AFTER_PASS.no_play_after_pass
    assert PAGAT.scoring == "pagat"
    assert {v.key for v in GAME.variants} == {"standard-suits", "taiwan", "no-play-after-pass", "pagat-scoring"}
    with pytest.raises(OptionError):
        GAME.options(variants=["jokers-wild"])


# ---------------------------------------------------------------------------------------------------------------
# Dealing
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_four_players_get_13_each_and_the_3D_leads(seed: int) -> None:
    state = GAME.new_match(4, SEED, random.Random(seed))
    counts = [bin(h).count("1") for h in state.hands]
    assert counts == [13, 13, 13, 13]
    assert card("3D") in hand_of(state, state.turn)
    assert state.must_include == mask("3D")
    started = of_type(state.history, DealStarted)[0]
    assert (started.leader, started.lead_card, started.counts) == (state.turn, card("3D"), (13, 13, 13, 13))


def three_player_hands(seed: int, holder: int | None) -> tuple[list[list[Card]], Card]:
    """17 cards each from a shuffled deck, the 3D given to ``holder`` (None: the 3D is the 52nd card)."""
    others = [c for part in split_deck(3, seed) for c in part if c != card("3D")]
    hands: list[list[Card]] = []
    i = 0
    for seat in range(3):
        take = 16 if seat == holder else 17
        hand = others[i : i + take]
        i += take
        hands.append([card("3D"), *hand] if seat == holder else hand)
    return hands, card("3D") if holder is None else others[i]


@pytest.mark.parametrize("holder", [0, 1, 2])
def test_three_players_17_each_and_the_last_card_goes_to_the_3D_holder(holder: int) -> None:
    hands, last = three_player_hands(holder, holder)
    state = stacked_deal(hands, rest=str(last))
    assert [bin(h).count("1") for h in state.hands] == [18 if s == holder else 17 for s in range(3)]
    assert last in hand_of(state, holder), "the 52nd card goes to the holder of the starting card"
    assert state.turn == holder and state.must_include == mask("3D")
    assert sum(bin(h).count("1") for h in state.hands) == 52


def test_three_players_the_52nd_card_is_the_3D() -> None:
    """The starting card itself is the last card: whoever it goes to holds 18 and leads with it."""
    hands, last = three_player_hands(11, None)
    state = stacked_deal(hands, rest=str(last))
    holder = state.turn
    assert card("3D") in hand_of(state, holder) and state.must_include == mask("3D")
    assert bin(state.hands[holder]).count("1") == 18 and sum(bin(h).count("1") for h in state.hands) == 52


def test_two_players_13_each_rest_set_aside() -> None:
    state = GAME.new_match(2, SEED, random.Random(5))
    assert [bin(h).count("1") for h in state.hands] == [13, 13]
    assert state.hands[0] & state.hands[1] == 0


TWO_PLAYER_LEAD = [
    # seat 0 / seat 1 (13 each); the rest is set aside
    pytest.param("3D 5C 6C 7C 8C 9C 10C JC QC KC AC 2C 4S", "4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D 5S", "3D", 0,
                 id="3D-dealt-its-holder-leads"),
    pytest.param("4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C 4S", "3H 5D 6D 7D 8D 9D 10D JD QD KD AD 2D 5S", "3H", 1,
                 id="3D-set-aside-lowest-dealt-3H-leads"),
    pytest.param("4D 5C 6C 7C 8C 9C 10C JC QC KC AC 2C 4S", "4C 5D 6D 7D 8D 9D 10D JD QD KD AD 2D 5S", "4C", 1,
                 id="all-3s-set-aside-lowest-dealt-4C-leads"),
]  # fmt: skip


@pytest.mark.parametrize(("seat0", "seat1", "lowest", "leader"), TWO_PLAYER_LEAD)
def test_two_players_lead(seat0: str, seat1: str, lowest: str, leader: int) -> None:
    state = stacked_deal([seat0, seat1])
    assert [bin(h).count("1") for h in state.hands] == [13, 13]
    assert state.turn == leader and state.must_include == mask(lowest)
    started = of_type(state.history, DealStarted)[0]
    assert started.leader == leader and started.lead_card == card(lowest)
    legal = state.legal_actions()
    assert legal and all(card(lowest) in a.cards for a in legal), "the first play must include it"
    with pytest.raises(IllegalActionError, match=card(lowest).pretty()):
        state.check(leader, Play((card("2C") if leader == 0 else card("2D"),)))


def test_taiwan_3C_leads() -> None:
    hands = split_deck(4, seed=3)[:4]
    state = stacked_deal(hands, TAIWAN)
    holder = next(s for s in range(4) if card("3C") in hands[s])
    assert state.turn == holder and state.must_include == mask("3C", TAIWAN)
    assert all(card("3C") in a.cards for a in state.legal_actions())


def test_standard_suits_3D_leads_and_is_the_lowest() -> None:
    hands = split_deck(4, seed=4)[:4]
    state = stacked_deal(hands, STANDARD)
    holder = next(s for s in range(4) if card("3D") in hands[s])
    assert state.turn == holder and state.must_include == mask("3D", STANDARD)
    for other in standard_deck():
        if other != card("3D"):
            assert combo(str(other), STANDARD).beats(combo("3D", STANDARD))


def test_hands_dealt_events() -> None:
    state = GAME.new_match(4, SEED, random.Random(2))
    dealt = of_type(state.history, HandDealt)
    assert [e.seat for e in dealt] == [0, 1, 2, 3]
    for e in dealt:
        assert set(e.cards) == hand_of(state, e.seat) and e.count == 13 and e.audience == frozenset({e.seat})


# ---------------------------------------------------------------------------------------------------------------
# The first lead, passing and rounds
# ---------------------------------------------------------------------------------------------------------------
FOUR = ["3D 3S 5C 9H", "4C 6C 7S KD", "4D 8C 10H AS", "4H 8D JC 2S"]


@pytest.mark.parametrize(
    "play",
    [pytest.param("5C", id="single-without-3D"), pytest.param("3S", id="another-3"), pytest.param("pass", id="pass")],
)
def test_first_lead_must_include_the_3D(play: str) -> None:
    state = position(FOUR, first_lead=True)
    assert state.turn == 0
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="3♦" if play != "pass" else "pass"):
        state.apply(0, parse_action(play))
    assert snapshot(state) == before


@pytest.mark.parametrize("play", [pytest.param("3D", id="single-3D"), pytest.param("3D 3S", id="pair-with-3D")])
def test_first_lead_with_the_3D(play: str) -> None:
    state = position(FOUR, first_lead=True)
    assert {str(a) for a in state.legal_actions()} == {"3D", "3D 3S"}
    events = act(state, play)
    assert [(e.seat, set(e.cards)) for e in of_type(events, Played)] == [(0, set(cards(play)))]
    assert state.must_include == 0 and state.turn == 1


def test_leader_may_not_pass_after_winning_a_round() -> None:
    state = position(FOUR, turn=0)
    act(state, "9H", "pass", "pass", "pass")
    assert state.table is None and state.turn == 0
    assert PASS not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.check(0, PASS)


def test_passing_allowed_even_with_a_legal_play() -> None:
    state = position(FOUR, turn=0)
    act(state, "5C")
    assert Play((card("KD"),)) in state.legal_actions() and PASS in state.legal_actions()
    events = act(state, "pass")
    assert of_type(events, Passed) == [Passed(seat=1)] and state.turn == 2


def test_pass_is_the_only_action_without_a_higher_play() -> None:
    state = position(["3C 2S", "4C 5C", "6C"], turn=0)
    act(state, "2S")
    assert state.legal_actions() == [PASS]


def test_passed_player_may_play_later_in_the_round() -> None:
    state = position(FOUR, turn=0)
    act(state, "5C", "pass", "8C", "pass", "9H")
    assert state.turn == 1, "default rules: seat 1 passed but gets the turn again"
    assert Play((card("KD"),)) in state.legal_actions()
    act(state, "KD")
    assert state.table_seat == 1


def test_no_play_after_pass_skips_a_passed_player() -> None:
    state = position(FOUR, NO_PLAY_AFTER_PASS, turn=0)
    act(state, "5C", "pass", "8C", "pass", "9H")
    assert state.turn == 2, "seat 1 passed and sits out the rest of the round"
    events = act(state, "10H")
    assert state.turn == 0 and not of_type(events, RoundWon)
    events = act(state, "pass")
    assert of_type(events, RoundWon) == [RoundWon(seat=2)], "every other player has passed: seat 2 leads"
    assert state.turn == 2 and state.table is None


def test_no_play_after_pass_a_player_who_has_not_passed_plays_on() -> None:
    state = position(FOUR, NO_PLAY_AFTER_PASS, turn=0)
    act(state, "5C", "pass", "pass", "8D")
    assert state.turn == 0, "seat 0 has not passed"
    act(state, "9H")
    assert state.turn == 3, "seats 1 and 2 passed: skipped"
    events = act(state, "pass")
    assert of_type(events, RoundWon) == [RoundWon(seat=0)]
    assert state.turn == 0 and state.table is None


def test_round_won_when_all_others_pass_in_a_row() -> None:
    state = position(FOUR, turn=0)
    events = act(state, "5C", "pass", "pass", "8D", "pass", "pass")
    assert not of_type(events, RoundWon), "the passes before seat 3's play do not count"
    assert state.turn == 2
    events = act(state, "pass")
    assert of_type(events, RoundWon) == [RoundWon(seat=3)]
    assert state.table is None and state.table_seat is None and state.turn == 3
    assert PASS not in state.legal_actions()
    act(state, "4H")  # any combination, even lower than what was on the table
    assert state.table == combo("4H") and state.turn == 0


def test_new_round_any_combination() -> None:
    state = position(["3D 3S 5C 9H", "4C 6C 7S", "4D 8C 10H"], turn=0)
    act(state, "5C", "pass", "pass")
    assert state.turn == 0 and state.table is None
    assert {str(a) for a in state.legal_actions()} == {"3D", "3S", "9H", "3D 3S"}
    act(state, "3D 3S")
    assert state.table is not None and state.table.kind == "pair"


# ---------------------------------------------------------------------------------------------------------------
# End of a deal, scoring and the match
# ---------------------------------------------------------------------------------------------------------------
LOSS_CASES = [
    pytest.param(SEED, "4C", 1, id="seed/1-a-card"),
    pytest.param(SEED, "2C", 2, id="seed/a-2-doubles"),
    pytest.param(SEED, "4C 5C 2S", 6, id="seed/3-cards-one-2"),
    pytest.param(SEED, "3C 4C 5C 6C 7C 8C 9C 10C JC", 9, id="seed/nine-cards-not-doubled"),
    pytest.param(SEED, "3C 4C 5C 6C 7C 8C 9C 10C 2C", 18, id="seed/nine-cards-one-2"),
    pytest.param(SEED, "3C 4C 5C 6C 7C 8C 9C 10C JC QC", 20, id="seed/ten-cards-doubled"),
    pytest.param(SEED, "3C 4C 5C 6C 7C 8C 9C 10C 2H 2S", 80, id="seed/ten-cards-two-2s"),
    pytest.param(SEED, "3C 4C 5C 6C 7C 8C 9C 10C JC 2C 2D 2H 2S", 416, id="seed/thirteen-cards-four-2s"),
    pytest.param(PAGAT, "4C 5C 2S", 3, id="pagat/no-2-doubling"),
    pytest.param(PAGAT, "3C 4C 5C 6C 7C 8C 9C 10C 2C", 9, id="pagat/nine-cards-1-each"),
    pytest.param(PAGAT, "3C 4C 5C 6C 7C 8C 9C 10C JC QC", 20, id="pagat/ten-cards-x2"),
    pytest.param(PAGAT, "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2H", 24, id="pagat/twelve-cards-x2"),
    pytest.param(PAGAT, "3C 4C 5C 6C 7C 8C 9C 10C JC 2C 2D 2H 2S", 39, id="pagat/thirteen-cards-x3"),
]


@pytest.mark.parametrize(("options", "left", "points"), LOSS_CASES)
def test_loss(options: Big2Options, left: str, points: int) -> None:
    lost = loss(cards(left), options)
    assert lost.points == points and lost.cards == len(cards(left))


def test_deal_ends_when_a_player_runs_out_and_the_winner_gains_the_losses() -> None:
    hands = [
        "KD",
        "4C 5C 2S",
        "3C 4D 5D 6C 7C 8C 9C 10C JC QC",
        "3D 4S 5S 6S 7S 8S 9S 10S 2H 2D",
    ]
    state = position(hands, opts(deals=1), turn=0)
    events = act(state, "KD")
    over = of_type(events, DealOver)
    assert len(over) == 1 and over[0].winner == 0
    assert over[0].deltas == (6 + 20 + 80, -6, -20, -80)
    assert sum(over[0].deltas) == 0 and over[0].totals == over[0].deltas == tuple(state.totals)
    assert [set(h) for h in over[0].hands] == [set(), *[set(cards(h)) for h in hands[1:]]]
    assert over[0].losses[0] is None and [lost.points for lost in over[0].losses[1:]] == [6, 20, 80]
    assert of_type(events, RoundOver) == [
        RoundOver(round=1, winners=(0,), deltas=(106, -6, -20, -80), totals=(106, -6, -20, -80), last=True)
    ]
    match = of_type(events, MatchOver)
    assert match == [MatchOver(totals=(106, -6, -20, -80), winners=(0,))]
    assert [type(e).__name__ for e in events] == ["Played", "DealOver", "RoundOver", "MatchOver"]
    assert state.is_over and state.legal_actions() == [] and state.to_move is None


def test_deal_is_not_over_while_every_hand_holds_cards() -> None:
    state = position(["KD 3C", "4C", "5C"], opts(deals=1), turn=0)
    events = act(state, "KD")
    assert not of_type(events, DealOver) and not state.is_over


def test_pagat_scoring_in_a_deal() -> None:
    state = position(["KD", "4C 5C 2S", "3C 4D 5D 6C 7C 8C 9C 10C JC QC KC AC 2C"], opts("pagat-scoring", deals=1))
    over = of_type(act(state, "KD"), DealOver)[0]
    assert over.deltas == (3 + 39, -3, -39)


def test_a_new_deal_follows_until_the_number_of_deals() -> None:
    state = position(["KD", "4C 5C"], opts(deals=2), turn=0)
    events = act(state, "KD")
    assert of_type(events, DealOver) and not of_type(events, MatchOver)
    started = of_type(events, RoundStarted)
    assert len(started) == 1 and started[0].round == 2 and len(of_type(events, DealStarted)) == 1
    assert [bin(h).count("1") for h in state.hands] == [13, 13] and state.totals == [2, -2]


@pytest.mark.parametrize("seed", [1, 2])
def test_match_runs_four_deals_by_default_with_running_totals(seed: int) -> None:
    table = Table.create("big2", players=4, seed=seed, bots=["medium"] * 4)
    table.run()
    state = table.state
    assert isinstance(state, Big2State) and state.is_over
    overs = of_type(state.history, DealOver)
    assert len(overs) == 4 and len(of_type(state.history, DealStarted)) == 4
    running = [0, 0, 0, 0]
    for over in overs:
        assert sum(over.deltas) == 0
        running = [t + d for t, d in zip(running, over.deltas, strict=True)]
        assert list(over.totals) == running
        assert over.hands[over.winner] == ()
    (match,) = of_type(state.history, MatchOver)
    best = max(running)
    assert match.totals == tuple(running) and match.winners == tuple(s for s in range(4) if running[s] == best)
    assert state.result is not None and state.result.winners == match.winners


# ---------------------------------------------------------------------------------------------------------------
# Rejected actions: the error says why in words, and nothing changes.
# ---------------------------------------------------------------------------------------------------------------
ON_NINES = ["5S 5H 7C", "9D 9C 3C", "KD KC 4D"]


def nines_on_table() -> Big2State:
    state = position(ON_NINES, turn=1)
    act(state, "9D 9C")
    assert state.turn == 2
    act(state, "pass")
    assert state.turn == 0
    return state


REJECTIONS = [
    pytest.param(0, "5S 5H", IllegalActionError, "a pair of 5s does not beat a pair of 9s", id="does-not-beat"),
    pytest.param(0, "7C", IllegalActionError, "play 2 cards", id="wrong-number-of-cards"),
    pytest.param(0, "KD KC", IllegalActionError, "do not hold", id="cards-you-do-not-hold"),
    pytest.param(0, "5S 7C", IllegalActionError, "not a combination", id="not-a-combination"),
    pytest.param(0, "5S 5S", IllegalActionError, "twice", id="same-card-twice"),
    pytest.param(2, "KD KC", NotYourTurnError, "not seat 2's turn", id="wrong-seat"),
    pytest.param(1, "pass", NotYourTurnError, "turn", id="wrong-seat-pass"),
]


@pytest.mark.parametrize(("seat", "text", "error", "words"), REJECTIONS)
def test_rejected_action_explains_and_changes_nothing(seat: int, text: str, error: type[Exception], words: str) -> None:
    state = nines_on_table()
    before = snapshot(state)
    history = len(state.history)
    with pytest.raises(error, match=words):
        state.check(seat, parse_action(text))
    with pytest.raises(error, match=words):
        state.apply(seat, parse_action(text))
    assert snapshot(state) == before and len(state.history) == history


@pytest.mark.parametrize("text", ["", "play", "3X", "11H", "3D 4", "pas", "JK JK 3"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize("text", ["JK", "3D JK"])
def test_a_joker_is_rejected_as_an_error_of_the_game(text: str) -> None:
    """There are no jokers in Big Two: naming one must raise a ParlourError (it raised KeyError)."""
    state = position(["3D 4D", "5C"], turn=0)
    before = snapshot(state)
    with pytest.raises(ParlourError):
        state.check(0, parse_action(text))
    with pytest.raises(ParlourError):
        state.apply(0, parse_action(text))
    assert snapshot(state) == before


def test_parse_action() -> None:
    assert parse_action("pass") == PASS and parse_action("P") == PASS
    assert parse_action("play 3D 3S") == Play(tuple(cards("3D 3S")))
    assert parse_action("10h") == Play((card("10H"),))


def test_after_the_match_is_over_everything_is_rejected() -> None:
    state = position(["KD", "4C"], opts(deals=1), turn=0)
    act(state, "KD")
    assert state.is_over
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(1, Play((card("4C"),)))
    assert snapshot(state) == before


def test_lead_card_named_in_every_first_lead_error() -> None:
    for options, lead in [(SEED, "3♦"), (STANDARD, "3♦"), (TAIWAN, "3♣")]:
        hands = ["3D 3C 9S", "4C 5C 6C", "4D 5D 6D"] if lead == "3♦" else ["3C 3D 9S", "4C 5C 6C", "4D 5D 6D"]
        state = position(hands, options, first_lead=True)
        with pytest.raises(IllegalActionError, match=lead):
            state.check(0, Play((card("9S"),)))


def test_card_everywhere_once_after_a_deal() -> None:
    state = GAME.new_match(4, SEED, random.Random(9))
    union = 0
    for h in state.hands:
        assert h & union == 0
        union |= h
    assert union == (1 << 52) - 1
    assert {c for s in range(4) for c in hand_of(state, s)} == set(standard_deck())
    assert isinstance(next(iter(hand_of(state, 0))), Card)
