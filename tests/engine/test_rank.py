"""Rank (RULES.md §4): one test per rule and settled point, each from a stacked deal (tests/engine/rank_helpers.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rank_helpers import (
    GAME,
    act,
    card,
    cards,
    cards_in,
    deal,
    fingerprint,
    hand_text,
    legal_text,
    move,
    names,
    of_type,
)

from engine import codec
from engine.cards import JOKER, Rank, is_conserved, standard_deck
from engine.errors import IllegalActionError, InvalidActionError, OptionError
from engine.games.rank.rules import (
    CameBack,
    DealOver,
    DealStarted,
    Draw,
    Drew,
    HandDealt,
    JokerReturned,
    Name,
    Named,
    OutForGood,
    Pass,
    Play,
    Played,
    PlayKind,
    RankOptions,
    RankPhase,
    RankState,
    StarterTurned,
    StockShuffled,
    WentOut,
    is_normal,
    neighbours,
    parse_action,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.registry import get_entry

NO_PLAY = "4D 4C 9D 10C 5H"
"""A hand with no normal play on a Queen, no Ace and no Joker."""


def refused(state: RankState, *actions: str) -> None:
    """Each action is refused as illegal and changes nothing."""
    before = fingerprint(state)
    seat = state.to_move
    assert seat is not None
    for text in actions:
        with pytest.raises(IllegalActionError):
            state.apply(seat, text)
        assert fingerprint(state) == before


# ---------------------------------------------------------------------------------------------------------------
# Ranks, the deck and the deal
# ---------------------------------------------------------------------------------------------------------------
def test_ranks_are_cyclic_and_suits_never_matter() -> None:
    assert neighbours(Rank.KING) == (Rank.QUEEN, Rank.ACE)
    assert neighbours(Rank.ACE) == (Rank.KING, Rank.TWO)
    assert all(is_normal(card(f"7{suit}"), Rank.SIX) for suit in "SHDC")
    assert not is_normal(JOKER, Rank.SIX) and not is_normal(card("6S"), Rank.SIX)


def test_registered_with_its_aliases() -> None:
    entry = get_entry("rank")
    assert entry.title == "Rank" and get_entry("ранг") is entry and get_entry("Rang") is entry
    assert (GAME.min_players, GAME.max_players, GAME.default_players) == (2, 10, 4)
    assert GAME.options() == RankOptions(deals=5)
    with pytest.raises(OptionError):
        RankOptions(deals=0)
    # Rank has no variants: asking for one says so, rather than offering an empty list to choose from.
    with pytest.raises(OptionError, match=r"unknown variant 'nope': Rank has no variants$"):
        GAME.options(variants=["nope"])


def test_a_deal_is_five_cards_each_one_at_a_time_from_the_dealers_left() -> None:
    state = deal(["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", "AD 2D 3D 4D 5D"], "QC KC", dealer=1)
    # The dealer is seat 1: seat 2 starts and is dealt first, one card at a time.
    started = of_type(state.history, DealStarted)[0]
    assert (started.dealer, started.first, started.counts) == (1, 2, (5, 5, 5))
    assert state.to_move == 2
    assert hand_text(state, 0) == ["AS", "2S", "3S", "4S", "5S"]
    view = state.view(0)
    assert (str(view.top), view.rank, view.pile, view.stock, view.phase) == (
        "QC",
        Rank.QUEEN,
        1,
        54 - 16,
        RankPhase.PLAY,
    )
    assert str(state.stock[-1]) == "KC"  # the stock's top card is drawn first


@pytest.mark.parametrize("players", [5, 10])
def test_two_decks_and_four_jokers_for_five_to_ten_players(players: int) -> None:
    state = GAME.new_match(players, GAME.options(), random.Random(players))
    full = state.full_deck()
    assert len(full) == 108 and Counter(full)[JOKER] == 4 and Counter(full)[card("5S")] == 2
    assert is_conserved(state.zones().values(), full)
    assert state.view(None).counts == (5,) * players
    assert state.view(None).stock == 108 - 5 * players - 1
    # Two copies of a card can be dealt to two seats.
    twice = deal(["5S", "5S"], "QC", players=players)
    assert "5S" in hand_text(twice, 0) and "5S" in hand_text(twice, 1)
    assert is_conserved(twice.zones().values(), full)


def test_two_to_four_players_use_one_deck_and_two_jokers() -> None:
    for players in (2, 4):
        full = GAME.new_match(players, GAME.options(), random.Random(0)).full_deck()
        assert len(full) == 54 and Counter(full)[JOKER] == 2


def test_a_starter_joker_goes_back_into_the_stock_but_not_on_top() -> None:
    places = set()
    for seed in range(40):
        state = deal([NO_PLAY, "2S 2H 9S 9H 4S"], "JK QC 7D", seed=seed)
        assert names(state.history)[-3:] == ["StarterTurned", "JokerReturned", "StarterTurned"]
        assert [str(e.card) for e in of_type(state.history, StarterTurned)] == ["JK", "QC"]
        assert of_type(state.history, JokerReturned)
        assert str(state.pile[-1]) == "QC" and str(state.stock[-1]) == "7D"
        assert state.stock.count(JOKER) == 2
        places.add(max(i for i, c in enumerate(state.stock) if c == JOKER and i != len(state.stock)))
    assert len(places) > 5, "the joker's place is random"


# ---------------------------------------------------------------------------------------------------------------
# Normal plays, Aces and Jokers
# ---------------------------------------------------------------------------------------------------------------
def test_a_normal_play_is_one_rank_up_or_down_and_must_be_made() -> None:
    state = deal(["JC KH AS JK 3D", NO_PLAY], "QC")
    assert legal_text(state) == ["JC", "KH"]
    refused(state, "AS", "JK", "draw", "pass", "3D")
    events = act(state, "KH")
    assert [(e.card, e.kind, e.left) for e in of_type(events, Played)] == [(card("KH"), PlayKind.NORMAL, 4)]
    assert state.view(1).rank == Rank.KING and state.to_move == 1


def test_the_seeds_joker_example_name_six_then_play_a_five() -> None:
    state = deal(["JK 5C 3D 3H 8S", NO_PLAY], "QC")
    assert legal_text(state) == ["JK", "draw"]
    act(state, "JK")
    assert (state.to_move, state.view(0).phase, state.view(0).named) == (0, RankPhase.NAME, None)
    assert legal_text(state) == [f"name {r.text}" for r in Rank if r is not Rank.JOKER]
    events = act(state, "name 6")
    assert of_type(events, Named)[0].rank == Rank.SIX
    view = state.view(1)
    assert (view.top, view.named, view.rank, state.view(0).phase) == (JOKER, Rank.SIX, Rank.SIX, RankPhase.FOLLOW)
    assert legal_text(state) == ["5C", "pass"]
    events = act(state, "5C")
    assert [(str(e.card), e.kind) for e in of_type(events, Played)] == [("5C", PlayKind.FOLLOW)]
    assert (state.to_move, state.view(1).rank, state.view(1).named) == (1, Rank.FIVE, None)


def test_the_follow_up_may_be_declined_and_is_never_a_joker() -> None:
    state = deal(["JK JK 5C 3D 3H", NO_PLAY], "QC")
    act(state, "JK", "name 6")
    assert legal_text(state) == ["5C", "pass"]
    refused(state, "JK", "3D", "draw", "name 4")
    events = act(state, "pass")
    assert names(events) == ["Passed"] and state.to_move == 1
    assert (state.view(1).top, state.view(1).rank) == (JOKER, Rank.SIX)


def test_no_follow_up_is_asked_without_a_normal_play_on_the_named_rank() -> None:
    state = deal(["JK 5C 3D 3H 8S", NO_PLAY], "QC")
    events = act(state, "JK", "name Q")
    assert names(events)[-1] == "Named" and state.to_move == 1 and state.view(0).phase is RankPhase.PLAY


def test_an_ace_escape_lies_as_an_ace_and_only_a_king_a_two_an_ace_or_a_joker_follows() -> None:
    state = deal(["AS 3D 3H 8S 8H", "KD 2C QS 5S 9S"], "QC")
    assert legal_text(state) == ["AS", "draw"]
    events = act(state, "AS")
    assert of_type(events, Played)[0].kind is PlayKind.ACE
    assert state.view(1).rank == Rank.ACE
    assert legal_text(state) == ["2C", "KD"]  # normal plays on an Ace: nothing else
    refused(state, "QS", "draw")
    escape = deal(["AS 3D 3H 8S 8H", "AH JK QS 5S 9S"], "QC")
    act(escape, "AS")
    assert legal_text(escape) == ["JK", "AH", "draw"]


@pytest.mark.parametrize("starter", ["KC", "2C"])
def test_an_ace_on_a_king_or_a_two_is_a_normal_play(starter: str) -> None:
    state = deal(["AS 5D 7H 8S 9H", NO_PLAY], starter)
    assert legal_text(state) == ["AS"]
    refused(state, "draw")
    assert of_type(act(state, "AS"), Played)[0].kind is PlayKind.NORMAL


# ---------------------------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------------------------
def test_a_drawn_normal_play_is_played_at_once() -> None:
    state = deal([NO_PLAY, "2S 2H 9S 9H 4S"], "QC JD")
    events = act(state, "draw")
    assert names(events) == ["Drew", "Played"]
    assert of_type(events, Played)[0].kind is PlayKind.DRAWN and str(state.view(1).top) == "JD"
    assert state.view(1).counts == (5, 5) and state.to_move == 1


@pytest.mark.parametrize("drawn", ["5D", "AD", "JK"])
def test_a_drawn_card_that_is_not_a_normal_play_is_kept_even_an_ace_or_a_joker(drawn: str) -> None:
    state = deal([NO_PLAY, "2S 2H 9S 9H 4S"], f"QC {drawn}")
    events = act(state, "draw")
    assert names(events) == ["Drew"] and of_type(events, Drew)[0].card == card(drawn)
    assert drawn in hand_text(state, 0) and state.view(1).counts == (6, 5)
    assert (state.to_move, str(state.view(1).top)) == (1, "QC")


def test_a_drawn_ace_that_is_a_normal_play_is_played_at_once() -> None:
    state = deal([NO_PLAY, "2S 2H 9S 9H 4S"], "KC AD")
    events = act(state, "draw")
    assert [(str(e.card), e.kind) for e in of_type(events, Played)] == [("AD", PlayKind.DRAWN)]


def test_an_empty_stock_is_the_pile_but_its_top_reshuffled_and_jokers_lose_their_name() -> None:
    state = deal(["JK 5C 3D 3H 8S", "2S 2H 9S 9H 8H"], "QC")
    act(state, "JK", "name 6", "5C")
    move(state, "stock", "under")  # as if every card of the stock had been played
    assert state.view(1).stock == 0 and state.view(1).pile == 54 - 8
    events = act(state, "draw")
    assert names(events)[:2] == ["StockShuffled", "Drew"]
    assert of_type(events, StockShuffled)[0].cards == 54 - 8 - 1
    view = state.view(1)
    assert (str(view.top), view.pile, view.named, view.rank) == ("5C", 1, None, Rank.FIVE)
    assert JOKER in state.stock or JOKER in state.hands[1]
    assert is_conserved(state.zones().values(), state.full_deck())


def test_no_reshuffle_until_a_card_must_be_drawn() -> None:
    state = deal(["JC 3D 3H 8S 8H", NO_PLAY], "QC")
    move(state, "stock", "under")
    assert names(act(state, "JC")) == ["Played"] and state.view(1).stock == 0


def test_a_pass_only_when_nothing_can_be_played_or_drawn() -> None:
    state = deal([NO_PLAY, "2S 2H 9S 9H 8H"], "QC")
    move(state, "stock", "hand 1")  # nothing in the stock, nothing under the pile's top
    assert legal_text(state) == ["pass"]
    assert names(act(state, "pass")) == ["Passed"] and state.to_move == 1
    for hand, must in (("AS 3H 8S 8D 9C", ["AS"]), ("JK 3H 8S 8D 9C", ["JK"])):
        held = deal([hand, "2S 2H 9S 9H 8H"], "QC")
        move(held, "stock", "hand 1")
        assert legal_text(held) == must  # an Ace or a Joker held must then be played
        refused(held, "pass", "draw")


# ---------------------------------------------------------------------------------------------------------------
# Going out and coming back
# ---------------------------------------------------------------------------------------------------------------
GOER = "7C 8C 9C 10C JC"
CLIMB = ("7C", "draw", "8C", "draw", "9C", "draw", "10C", "draw", "JC")
"""Seat 0 plays its five cards up the ranks while seat 1 draws four cards that do not fit (2D 3D 4D 4H)."""


def exit_pending(answerer: str, more: str = "", deals: int = 5, totals: tuple[int, ...] | None = None) -> RankState:
    """Two players: seat 0 has played its last card, seat 1 (holding ``answerer``) is to answer; ``more`` is next
    in the stock."""
    state = deal([GOER, answerer], f"6C 2D 3D 4D 4H {more}", deals=deals, totals=totals)
    events = act(state, *CLIMB)
    assert of_type(events, WentOut)[0].seat == 0
    return state


def test_the_last_card_leaves_an_exit_pending_and_the_deal_goes_on() -> None:
    state = exit_pending("2S 2H 3S 3H 4S")
    view = state.view(1)
    assert (view.pending, view.to_move, view.counts, view.out) == (0, 1, (0, 9), ())
    assert not of_type(state.history, DealOver)


@pytest.mark.parametrize("drawn", ["5D", "QD"])
def test_a_draw_confirms_the_exit_even_when_the_drawn_card_is_played_at_once(drawn: str) -> None:
    state = exit_pending("2S 2H 3S 3H 4S", drawn, deals=1)
    events = act(state, "draw")
    assert names(events)[:2] == ["Drew", "OutForGood"]
    assert of_type(events, OutForGood)[0].place == 1
    assert [str(e.card) for e in of_type(events, Played)] == ([drawn] if drawn == "QD" else [])
    over = of_type(events, DealOver)[0]
    assert (over.loser, over.penalties) == (1, (0, 1))
    assert over.hands[0] == () and len(over.hands[1]) == (9 if drawn == "QD" else 10)
    assert of_type(events, RoundOver)[0].deltas == (0, 1)


def test_any_play_on_a_pending_exit_brings_the_player_back_with_two_cards() -> None:
    state = exit_pending("AS 2H 3S 3H 4S", "5D 6D")
    events = act(state, "AS")
    assert names(events) == ["Played", "CameBack"]
    back = of_type(events, CameBack)[0]
    assert (back.seat, back.cards, back.count) == (0, (card("5D"), card("6D")), 2)
    view = state.view(0)
    assert (view.pending, view.counts, view.hand, view.to_move) == (None, (2, 8), tuple(cards("5D 6D")), 0)


def test_a_joker_answer_gives_the_two_cards_before_the_follow_up() -> None:
    state = exit_pending("JK 2H 3S 3H 4S", "5D 6D")
    events = act(state, "JK", "name 3")
    assert names(events) == ["Played", "CameBack", "Named"]
    assert state.view(1).phase is RankPhase.FOLLOW
    events = act(state, "2H")
    assert of_type(events, Played)[0].kind is PlayKind.FOLLOW and state.to_move == 0


def test_a_returning_player_takes_what_there_is() -> None:
    state = exit_pending("AS 2H 3S 3H 4S")
    move(state, "stock", "hand 1")
    move(state, "under", "hand 1")  # only the Jack left on the pile, nothing in the stock
    action = next(a for a in state.legal_actions() if isinstance(a, Play))
    events = state.apply(1, action)
    assert names(events) == ["Played", "StockShuffled", "CameBack"]
    back = of_type(events, CameBack)[0]
    assert (back.count, back.cards) == (1, (card("JC"),))
    assert state.view(0).counts[0] == 1 and is_conserved(state.zones().values(), state.full_deck())


def test_the_pending_player_is_answered_by_the_next_one_holding_cards() -> None:
    # Three players, dealer seat 2: seat 0 climbs, seats 1 and 2 draw; seat 1 answers the exit.
    state = deal([GOER, "2S 2H 3S 3H 4S", "2C 3C 4C 5H 5S"], "6C 2D 3D 4D 4H KS KH KD KC", players=3)
    act(state, "7C", "draw", "draw", "8C", "draw", "draw", "9C", "draw", "draw", "10C", "draw", "draw", "JC")
    assert (state.view(0).pending, state.to_move) == (0, 1)


def test_a_pass_answering_an_exit_confirms_it() -> None:
    state = deal([GOER, "2S 2H 3S 3H 4S", "2C 3C 4C 5H 5S"], "6C 2D 3D 4D 4H KS KH KD KC", players=3)
    act(state, "7C", "draw", "draw", "8C", "draw", "draw", "9C", "draw", "draw", "10C", "draw", "draw", "JC")
    move(state, "stock", "hand 2")
    move(state, "under", "hand 2")  # nothing left to draw for seat 1, which holds no play
    assert legal_text(state) == ["pass"]
    events = act(state, "pass")
    assert names(events) == ["Passed", "OutForGood"] and state.view(None).out == (0,) and state.to_move == 2


# ---------------------------------------------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("totals", "winners"), [((0, 0), (0,)), ((1, 0), (0, 1)), ((2, 0), (1,))], ids=["clear", "tie", "behind"]
)
def test_a_match_of_n_deals_fewest_points_win_and_ties_share(totals: tuple[int, int], winners: tuple[int, ...]) -> None:
    state = exit_pending("2S 2H 3S 3H 4S", "5D", deals=1, totals=totals)
    events = act(state, "draw")
    over = of_type(events, MatchOver)[0]
    assert over.winners == winners and state.result.winners == winners
    assert state.view(0).phase is RankPhase.OVER and state.legal_actions() == []
    assert state.result.scores == tuple(float(-t) for t in over.totals)


def test_the_dealer_passes_clockwise_and_the_first_dealer_is_drawn_by_lot() -> None:
    firsts = set()
    for seed in range(12):
        state = GAME.new_match(3, RankOptions(deals=4), random.Random(seed))
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(state.to_move, rng.choice(state.legal_actions()))
        dealers = [e.dealer for e in of_type(state.history, RoundStarted)]
        assert len(dealers) == 4 and all(dealers[i + 1] == (dealers[i] + 1) % 3 for i in range(3))
        starts = of_type(state.history, DealStarted)
        assert all(s.first == (s.dealer + 1) % 3 for s in starts)
        assert len(of_type(state.history, DealOver)) == 4 and sum(state.progress.totals) == 4
        firsts.add(dealers[0])
    assert firsts == {0, 1, 2}


# ---------------------------------------------------------------------------------------------------------------
# What each seat may know
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 10])
def test_views_never_show_another_hand_or_the_stock(players: int) -> None:
    state = GAME.new_match(players, GAME.options(), random.Random(3))
    rng = random.Random(4)
    for _ in range(400):
        if state.is_over:
            break
        for seat in [*range(players), None]:
            view = state.view(seat)
            allowed = Counter(state.hands[seat] if seat is not None else []) + Counter([state.pile[-1]])
            assert not Counter(cards_in(view)) - allowed, f"seat {seat} sees more than its hand and the top"
            assert view.counts == tuple(len(h) for h in state.hands) and view.stock == len(state.stock)
        state.apply(state.to_move, rng.choice(state.legal_actions()))


def test_private_events_are_redacted_for_the_others() -> None:
    state = exit_pending("AS 2H 3S 3H 4S", "5D 6D")
    dealt = of_type(state.history, HandDealt)
    assert all(e.audience == frozenset({e.seat}) for e in dealt)
    for event in dealt:
        other = 1 - event.seat
        assert event.for_seat(event.seat) == event and event.for_seat(other).cards is None
        assert event.for_seat(None).cards is None
    drew = of_type(state.history, Drew)[0]
    assert drew.for_seat(1).card is not None and drew.for_seat(0).card is None and drew.for_seat(None).card is None
    back = of_type(act(state, "AS"), CameBack)[0]
    assert back.for_seat(0).cards == tuple(cards("5D 6D"))
    assert (back.for_seat(1).cards, back.for_seat(1).count) == (None, 2)
    assert (back.for_seat(None).cards, back.for_seat(None).count) == (None, 2)
    for event in state.history:
        if isinstance(event, Played | StarterTurned | Named | WentOut | OutForGood | DealOver):
            assert event.audience is None


def test_determinize_keeps_what_the_view_shows_and_deals_the_rest() -> None:
    state = exit_pending("AS 2H 3S 3H 4S", "5D 6D")
    view = state.view(1)
    for seed in range(10):
        sample = GAME.determinize(view, random.Random(seed))
        assert sample.view(1) == view
        assert is_conserved(sample.zones().values(), sample.full_deck())
        assert sample.legal_actions() == state.legal_actions()
        sample.apply(1, sample.legal_actions()[0])


# ---------------------------------------------------------------------------------------------------------------
# Actions as text and on the wire
# ---------------------------------------------------------------------------------------------------------------
def test_actions_read_from_text_and_round_trip() -> None:
    assert parse_action("5s") == Play(card("5S")) and parse_action("JK") == Play(JOKER)
    assert parse_action("Draw") == Draw() and parse_action("pass") == Pass()
    assert parse_action("name 6") == parse_action("6") == Name(Rank.SIX)
    assert parse_action("name q") == parse_action("Queen") == Name(Rank.QUEEN) and parse_action("A") == Name(Rank.ACE)
    for bad in ("", "name", "name JK", "play", "5X", "x" * 100, "name 14"):
        with pytest.raises(InvalidActionError):
            parse_action(bad)
    for action in (Play(card("10H")), Play(JOKER), Draw(), Pass(), Name(Rank.TEN)):
        assert parse_action(str(action)) == action and codec.loads(codec.dumps(action)) == action


def test_garbage_inside_an_action_is_refused_as_invalid() -> None:
    state = deal(["JK 5C 3D 3H 8S", NO_PLAY], "QC")
    act(state, "JK")
    before = fingerprint(state)
    for garbage in (Name(6), Name(Rank.JOKER), Play("5C"), Play(None)):
        with pytest.raises(InvalidActionError):
            state.apply(0, garbage)
    assert fingerprint(state) == before


def test_views_and_events_round_trip_through_the_codec() -> None:
    state = exit_pending("JK 2H 3S 3H 4S", "5D 6D")
    act(state, "JK")
    for seat in (0, 1, None):
        view = state.view(seat)
        assert codec.loads(codec.dumps(view)) == view
    for event in state.history:
        assert codec.loads(codec.dumps(event)) == event


@pytest.mark.parametrize("players", [2, 4, 7])
def test_allows_answers_exactly_as_the_legal_list(players: int) -> None:
    """``apply`` checks one action with ``allows`` instead of listing them all: at every step of random deals, every
    well-formed action (a play of each card of the game, each name, draw, pass) is allowed exactly when it is in
    ``legal_actions()``."""
    candidates = [Play(c) for c in standard_deck(jokers=1)] + [Name(r) for r in Rank if r is not Rank.JOKER]
    candidates += [Draw(), Pass()]
    rng = random.Random(players)
    state = GAME.new_match(players, RankOptions(deals=2), random.Random(players))
    steps = 0
    seen: Counter[str] = Counter()
    while not state.is_over and steps < 1_500:
        legal = state.legal_actions()
        for action in candidates:
            assert state.allows(action) == (action in legal), (action, legal, state.phase)
        seen[state.phase.value] += 1
        seat = state.to_move
        assert seat is not None
        state.apply(seat, rng.choice(legal))
        steps += 1
    assert seen["play"] and seen["name"] and seen["follow"]
