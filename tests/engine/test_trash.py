"""Trash (RULES.md §2): one test per rule and variant, each from a stacked deal (tests/engine/trash_helpers.py)."""

from __future__ import annotations

import random

import pytest
from trash_helpers import (
    CYCLE,
    GAME,
    QUIET,
    act,
    card,
    cards_in,
    deal,
    fingerprint,
    layout_text,
    names,
    of_type,
)

from engine import codec
from engine.cards import Card, is_conserved
from engine.errors import IllegalActionError, InvalidActionError, NotYourTurnError, OptionError
from engine.game import Scenario
from engine.games.trash.rules import (
    Completed,
    DealOver,
    DealStarted,
    Discarded,
    DiscardReason,
    Draw,
    Drew,
    FinalRound,
    Keep,
    KingPlaced,
    KingReplaced,
    PickedUp,
    Placed,
    PlaceKing,
    StockShuffled,
    Swap,
    TrashOptions,
    TrashPhase,
    parse_action,
)
from engine.match import MatchOver, RoundOver, RoundStarted

STOCK, DISCARD = Draw("stock"), Draw("discard")


# ---------------------------------------------------------------------------------------------------------------
# The deal and the first turn
# ---------------------------------------------------------------------------------------------------------------
def test_a_deal_gives_ten_face_down_cards_each_and_the_rest_is_the_stock() -> None:
    state = deal([CYCLE, QUIET], "AS")
    view = state.view(0)
    assert view.sizes == (10, 10) and view.stock == 32 and view.discard == ()
    assert view.layouts == ((None,) * 10, (None,) * 10)
    assert (view.first, view.to_move, view.phase, view.held) == (0, 0, TrashPhase.DRAW, None)
    assert names(state.history) == ["RoundStarted", "DealStarted"]
    assert state.history[1] == DealStarted(deal=1, sizes=(10, 10), first=0)


def test_the_very_first_turn_can_only_take_from_the_stock() -> None:
    state = deal([CYCLE, QUIET], "QC")
    assert state.legal_actions() == [STOCK]
    before = fingerprint(state)
    with pytest.raises(IllegalActionError):
        state.apply(0, DISCARD)
    assert fingerprint(state) == before


# ---------------------------------------------------------------------------------------------------------------
# Chains
# ---------------------------------------------------------------------------------------------------------------
def test_a_chain_places_each_card_on_its_slot_and_ends_on_a_jack() -> None:
    state = deal(["3H 8D 5C QS 2S 6H 7H 9H 10H JD", QUIET], "AS")
    events = act(state, "stock")
    assert events == [
        Drew(seat=0, source="stock", card=card("AS")),
        Placed(seat=0, slot=1, card=card("AS")),
        PickedUp(seat=0, slot=1, card=card("3H")),
        Placed(seat=0, slot=3, card=card("3H")),
        PickedUp(seat=0, slot=3, card=card("5C")),
        Placed(seat=0, slot=5, card=card("5C")),
        PickedUp(seat=0, slot=5, card=card("2S")),
        Placed(seat=0, slot=2, card=card("2S")),
        PickedUp(seat=0, slot=2, card=card("8D")),
        Placed(seat=0, slot=8, card=card("8D")),
        PickedUp(seat=0, slot=8, card=card("9H")),
        Placed(seat=0, slot=9, card=card("9H")),
        PickedUp(seat=0, slot=9, card=card("10H")),
        Placed(seat=0, slot=10, card=card("10H")),
        PickedUp(seat=0, slot=10, card=card("JD")),
        Discarded(seat=0, card=card("JD"), reason=DiscardReason.NO_SLOT),
    ]
    assert layout_text(state, 1)[:0] == []
    assert layout_text(state, 0) == ["AS", "2S", "3H", None, "5C", None, None, "8D", "9H", "10H"]
    view = state.view(1)
    assert (view.to_move, view.phase, view.discard, view.held) == (1, TrashPhase.DRAW, (card("JD"),), None)


def test_a_queen_drawn_is_discarded_at_once() -> None:
    state = deal([CYCLE, QUIET], "QH")
    events = act(state, "stock")
    assert events[1:] == [Discarded(seat=0, card=card("QH"), reason=DiscardReason.NO_SLOT)]
    assert state.to_move == 1


def test_a_chain_ends_on_a_number_whose_slot_is_already_face_up() -> None:
    # Slot 1 turns up the 4S; slot 4 holds another Ace, whose slot is now face up.
    state = deal(["4S 2C 3C AH 5C 6C 7C 8C 9C 10C", QUIET], "AD")
    events = act(state, "stock")
    assert events[-1] == Discarded(seat=0, card=card("AH"), reason=DiscardReason.TAKEN)
    assert layout_text(state, 0)[:4] == ["AD", None, None, "4S"]


def test_a_chain_that_fills_the_layout_discards_the_card_picked_up_and_wins_at_once() -> None:
    state = deal([CYCLE, QUIET], "AS")
    events = act(state, "stock")
    assert names(events)[-8:] == [
        "Placed",
        "PickedUp",
        "Placed",
        "Discarded",
        "Completed",
        "DealOver",
        "RoundOver",
        "MatchOver",
    ]
    assert of_type(events, PickedUp)[-1] == PickedUp(seat=0, slot=9, card=card("10C"))
    assert events[-5] == Discarded(seat=0, card=card("JC"), reason=DiscardReason.COMPLETED)
    assert events[-4] == Completed(seat=0, turn=1)
    assert events[-3] == DealOver(winners=(0,), sizes=(10, 10), next_sizes=None)
    assert events[-1].winners == (0,)
    assert state.is_over and state.to_move is None and state.legal_actions() == []
    assert state.result is not None and state.result.winners == (0,)
    view = state.view(None)
    assert view.phase is TrashPhase.OVER and view.winners == (0,) and view.held is None
    assert None not in view.layouts[0]


# ---------------------------------------------------------------------------------------------------------------
# Kings
# ---------------------------------------------------------------------------------------------------------------
def test_a_king_in_hand_must_be_placed_on_a_face_down_slot_of_the_players_choice() -> None:
    state = deal(["QS 2C 3C QH 5C 6C 7C 8C 9C 10C", QUIET], "KS")
    events = act(state, "stock")
    assert events == [Drew(seat=0, source="stock", card=card("KS"))]
    view = state.view(1)  # public: every seat sees the held King
    assert (view.phase, view.held, view.held_from, view.to_move) == (TrashPhase.KING, card("KS"), "stock", 0)
    assert state.legal_actions() == [PlaceKing(s) for s in range(1, 11)]
    for refused in (Keep(), Swap(), STOCK):
        with pytest.raises(IllegalActionError):
            state.apply(0, refused)
    events = act(state, "king 4")
    assert events == [
        KingPlaced(seat=0, slot=4, card=card("KS")),
        PickedUp(seat=0, slot=4, card=card("QH")),
        Discarded(seat=0, card=card("QH"), reason=DiscardReason.NO_SLOT),
    ]
    assert layout_text(state, 0)[3] == "KS"


def test_a_king_may_go_only_on_a_face_down_slot() -> None:
    # The Ace turns over slot 1 (a King), which must then go on a slot still face down (not slot 1).
    state = deal(["KD 2C 3C QH 5C 6C 7C 8C 9C 10C", QUIET], "AS")
    act(state, "stock")
    assert state.phase is TrashPhase.KING and state.held == card("KD") and state.held_from == "slot"
    assert PlaceKing(1) not in state.legal_actions() and len(state.legal_actions()) == 9
    before = fingerprint(state)
    with pytest.raises(IllegalActionError):
        act(state, "king 1")
    assert fingerprint(state) == before


def test_a_king_displaced_by_its_pip_card_moves_on_and_picks_up_the_card_there() -> None:
    # Turn 1: seat 0 puts a King on slot 4 (picking up a Queen). Turn 3: the 4D drawn may replace it; the King then
    # goes on slot 7, where the 2C is picked up and the chain goes on.
    state = deal(["QS 3C 8C QH 5C 6C 2C 9D 9C 10C", QUIET], "KS QC 4D")
    act(state, "stock", "king 4")
    act(state, "stock")  # seat 1: the QC, discarded
    events = act(state, "stock")
    assert events == [Drew(seat=0, source="stock", card=card("4D"))]
    assert state.phase is TrashPhase.SWAP and state.legal_actions() == [Swap(), Keep()]
    events = act(state, "swap")
    assert events == [KingReplaced(seat=0, slot=4, card=card("4D"), king=card("KS"))]
    assert (state.phase, state.held, state.held_from) == (TrashPhase.KING, card("KS"), "king")
    assert PlaceKing(4) not in state.legal_actions()
    events = act(state, "king 7")
    assert events[:4] == [
        KingPlaced(seat=0, slot=7, card=card("KS")),
        PickedUp(seat=0, slot=7, card=card("2C")),
        Placed(seat=0, slot=2, card=card("2C")),
        PickedUp(seat=0, slot=2, card=card("3C")),
    ]
    assert layout_text(state, 0)[3] == "4D" and layout_text(state, 0)[6] == "KS"


def test_replacing_a_king_is_the_players_choice() -> None:
    state = deal(["QS 3C 8C QH 5C 6C 2C 9D 9C 10C", QUIET], "KS QC 4D")
    act(state, "stock", "king 4", "stock", "stock")
    events = act(state, "pass")
    assert events[0] == Discarded(seat=0, card=card("4D"), reason=DiscardReason.DECLINED)
    assert layout_text(state, 0)[3] == "KS" and state.to_move == 1 and state.discard[-1] == card("4D")


# ---------------------------------------------------------------------------------------------------------------
# The discard pile
# ---------------------------------------------------------------------------------------------------------------
def test_the_discard_may_be_taken_only_when_it_can_be_placed() -> None:
    # Seat 1 discards a Queen: it cannot be taken. Seat 0 then discards... each case in turn.
    state = deal(["QS 2C 3C 4C 5C 6C 7C 8C 9C 10C", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"], "QC QD AS JD 2D")
    act(state, "stock")  # seat 0: QC discarded
    assert state.legal_actions() == [STOCK]  # a Queen has no slot
    act(state, "stock")  # seat 1: QD
    act(state, "stock")  # seat 0: AS on slot 1, QS picked up and discarded
    assert state.discard[-1] == card("QS")
    act(state, "stock")  # seat 1: JD discarded
    act(state, "stock")  # seat 0: 2D on slot 2, 2C picked up: slot 2 is taken, discarded
    assert state.discard[-1] == card("2C") and state.to_move == 1
    assert state.legal_actions() == [STOCK, DISCARD]  # seat 1's slot 2 is face down
    events = act(state, "discard")
    assert events[:3] == [
        Drew(seat=1, source="discard", card=card("2C")),
        Placed(seat=1, slot=2, card=card("2C")),
        PickedUp(seat=1, slot=2, card=card("2H")),
    ]
    # The 2H (slot 2 now face up for seat 1) ends seat 1's turn: seat 0 may not take it (its slot 2 is face up).
    assert state.discard[-1] == card("2H") and state.to_move == 0
    assert state.legal_actions() == [STOCK]
    before = fingerprint(state)
    with pytest.raises(IllegalActionError):
        act(state, "discard")
    assert fingerprint(state) == before


def test_a_king_on_the_discard_pile_may_be_taken_and_must_be_placed() -> None:
    # A King reaches the discard pile when it is the card picked up as a layout is completed (Last turn goes on).
    state = deal(["2C 3C 4C 5C 6C 7C 8C 9C 10C KC", QUIET], "AS", variants=("last-turn",))
    events = act(state, "stock")
    assert Discarded(seat=0, card=card("KC"), reason=DiscardReason.COMPLETED) in events
    assert state.to_move == 1 and state.legal_actions() == [STOCK, DISCARD]
    assert act(state, "discard") == [Drew(seat=1, source="discard", card=card("KC"))]
    assert state.phase is TrashPhase.KING and state.held_from == "discard"
    assert state.legal_actions() == [PlaceKing(s) for s in range(1, 11)]


def test_a_discard_taken_onto_a_king_must_replace_it() -> None:
    # Seat 0: King on slot 4 (QH picked up, discarded). Seat 1: the 4H goes round and ends as the discard.
    state = deal(["QS 2C 3C QH 5C 6C 7C 8C 9C 10C", "4H 2H 3H 4S 5H 6H 7H 8H 9H 10H"], "KS AD")
    act(state, "stock", "king 4")
    act(state, "stock")  # seat 1: AD on slot 1 picks up the 4H; slot 4 gives the 4S: slot 4 taken, discarded
    assert state.discard[-1] == card("4S") and state.to_move == 0
    assert state.legal_actions() == [STOCK, DISCARD]
    events = act(state, "discard")
    assert events == [Drew(seat=0, source="discard", card=card("4S"))]
    assert state.phase is TrashPhase.SWAP and state.legal_actions() == [Swap()]
    before = fingerprint(state)
    with pytest.raises(IllegalActionError):
        act(state, "pass")
    assert fingerprint(state) == before
    events = act(state, "swap")
    assert events == [KingReplaced(seat=0, slot=4, card=card("4S"), king=card("KS"))]
    assert state.phase is TrashPhase.KING


def test_a_king_cannot_be_swapped_out_when_no_face_down_slot_remains() -> None:
    # Unreachable in play (a layout with no face-down slot is complete, and its owner plays no more that deal), so
    # the position is set by hand: seat 0's layout all face up with a King on slot 4, a 4 on the discard pile.
    state = deal(["AC 2C 3C KS 5C 6C 7C 8C 9C 10C", QUIET], "4D")
    state.face_up[0] = [True] * 10
    assert not state.can_place(0, card("4D")) and not state.can_place(0, card("KH"))
    state.discard.append(state.stock.pop())
    assert state.legal_actions() == [STOCK]
    state.held, state.held_from = state.discard.pop(), "stock"
    events = state._chain(0)
    assert events[0] == Discarded(seat=0, card=card("4D"), reason=DiscardReason.NO_ROOM)
    assert layout_text(state, 0)[3] == "KS"


def test_when_the_stock_runs_out_the_discard_pile_but_its_top_is_shuffled_before_the_draw() -> None:
    state = deal([CYCLE, QUIET], "QC JH")
    # Move all but the two top stock cards to the discard pile (a pile built up over many turns).
    state.discard = state.stock[:-2]
    state.stock = state.stock[-2:]
    pile = len(state.discard)
    act(state, "stock")  # seat 0: the QC, discarded
    events = act(state, "stock")  # seat 1: the JH, discarded; the stock is empty
    assert events[-1] == StockShuffled(cards=pile + 1)
    view = state.view(0)
    assert view.to_move == 0 and view.phase is TrashPhase.DRAW
    assert view.discard == (card("JH"),) and view.stock == pile + 1
    assert state.legal_actions() == [STOCK]  # the Jack on the pile cannot be placed
    assert is_conserved(state.zones().values(), state.full_deck())


# ---------------------------------------------------------------------------------------------------------------
# Match
# ---------------------------------------------------------------------------------------------------------------
def test_match_the_winner_gets_one_card_fewer_and_the_first_player_moves_on() -> None:
    state = deal([CYCLE, QUIET], "AS", variants=("match",))
    events = act(state, "stock")
    over = of_type(events, DealOver)[0]
    assert over == DealOver(winners=(0,), sizes=(10, 10), next_sizes=(9, 10))
    rounds = of_type(events, RoundOver)[0]
    assert rounds.deltas == (-1, 0) and rounds.totals == (9, 10) and not rounds.last
    assert not of_type(events, MatchOver)
    started = of_type(events, RoundStarted)[0]
    assert started.round == 2
    assert of_type(events, DealStarted)[0] == DealStarted(deal=2, sizes=(9, 10), first=1)
    view = state.view(0)
    assert view.sizes == (9, 10) and [len(x) for x in view.layouts] == [9, 10]
    assert view.discard == () and view.stock == 52 - 19 and view.to_move == 1 and view.deal == 2
    assert all(card is None for layout in view.layouts for card in layout)  # a fresh deal
    assert is_conserved(state.zones().values(), state.full_deck())


def test_match_a_pip_above_the_layout_size_has_no_slot_and_cannot_be_taken() -> None:
    state = deal(["QS 2C 3C", "QH 2H 3H"], "5C", variants=("match",), sizes=(3, 3))
    assert state.view(0).sizes == (3, 3)
    events = act(state, "stock")
    assert events[-1] == Discarded(seat=0, card=card("5C"), reason=DiscardReason.NO_SLOT)
    assert state.legal_actions() == [STOCK]  # seat 1's layout has no slot 5 either


def test_match_the_discard_is_judged_by_the_takers_own_layout_size() -> None:
    state = deal(["QS 2C 3C", "QH 2H 3H 4H 5H 6H"], "5C", variants=("match",), sizes=(3, 6))
    act(state, "stock")
    assert state.legal_actions() == [STOCK, DISCARD]


def test_match_completing_a_one_card_layout_wins_the_match() -> None:
    state = deal(["9H", "QH 2H 3H 4H"], "AS", variants=("match",), sizes=(1, 4))
    events = act(state, "stock")
    assert names(events) == [
        "Drew",
        "Placed",
        "Discarded",
        "Completed",
        "DealOver",
        "RoundOver",
        "MatchOver",
    ]
    assert events[2] == Discarded(seat=0, card=card("9H"), reason=DiscardReason.COMPLETED)
    assert events[4] == DealOver(winners=(0,), sizes=(1, 4), next_sizes=None)
    assert events[-1] == MatchOver(winners=(0,), totals=(0, 4))
    assert state.result is not None and state.result.winners == (0,) and state.result.scores == (0.0, -4.0)


def test_match_a_king_completes_a_one_card_layout_too() -> None:
    state = deal(["9H", "QH 2H"], "KS", variants=("match",), sizes=(1, 2))
    act(state, "stock", "king 1")
    assert state.is_over and state.result is not None and state.result.winners == (0,)


def test_starting_totals_are_layout_sizes_in_match_and_deals_won_otherwise() -> None:
    with pytest.raises(OptionError):
        deal([CYCLE, QUIET], "AS", variants=("match",), sizes=(0, 3))
    with pytest.raises(OptionError):
        deal([CYCLE, QUIET], "AS", variants=("match",), sizes=(11, 3))
    state = GAME.new_match(2, GAME.options(), random.Random(0), Scenario(totals=(2, 2)))
    assert state.view(None).sizes == (10, 10) and state.view(None).totals == (2, 2)
    with pytest.raises(OptionError):
        GAME.new_match(2, GAME.options(), random.Random(0), Scenario(totals=(-1, 2)))


# ---------------------------------------------------------------------------------------------------------------
# Last turn
# ---------------------------------------------------------------------------------------------------------------
CYCLE_H = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH"
CYCLE_D = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD"


def test_last_turn_every_other_player_gets_one_more_turn_in_order() -> None:
    state = deal([QUIET, CYCLE, "QC KD 3S 4S 5S 6S 7S 8S 9S 10S"], "QD AS JC 7C", variants=("last-turn",))
    act(state, "stock")  # seat 0: QD
    events = act(state, "stock")  # seat 1 completes
    assert names(events)[-2:] == ["Completed", "FinalRound"]
    assert events[-1] == FinalRound(seat=1)
    view = state.view(0)
    assert view.final_round and view.completed == (1,) and view.to_move == 2
    act(state, "stock")  # seat 2: JC
    assert state.to_move == 0 and not state.is_over
    events = act(state, "stock")  # seat 0: 7C, on slot 7 ... ends its turn: the deal is over
    over = of_type(events, DealOver)[0]
    assert over.winners == (1,)
    assert of_type(events, MatchOver)[0].winners == (1,)
    assert state.is_over


def test_last_turn_players_completing_in_the_final_round_share_the_win() -> None:
    state = deal([CYCLE, CYCLE_H], "AS AH", variants=("last-turn",))
    act(state, "stock")
    assert state.final_round and state.to_move == 1
    events = act(state, "stock")
    assert of_type(events, Completed) == [Completed(seat=1, turn=1)]
    assert not of_type(events, FinalRound)
    assert of_type(events, DealOver)[0].winners == (0, 1)
    assert of_type(events, MatchOver)[0].winners == (0, 1)
    assert state.result is not None and state.result.winners == (0, 1)


def test_last_turn_only_the_first_completion_starts_the_final_round() -> None:
    state = deal([CYCLE, CYCLE_H, QUIET], "AS AH QH", variants=("last-turn",))
    events = act(state, "stock")
    assert of_type(events, FinalRound) == [FinalRound(seat=0)]
    events = act(state, "stock")  # seat 1 completes too: no new final round, seat 2 still plays
    assert not of_type(events, FinalRound) and state.to_move == 2 and not state.is_over
    events = act(state, "stock")
    assert of_type(events, DealOver)[0].winners == (0, 1)
    assert sum(1 for e in state.history if isinstance(e, FinalRound)) == 1


def test_match_with_last_turn_every_completer_wins_the_deal_and_loses_a_card() -> None:
    state = deal([CYCLE, QUIET, CYCLE_H], "AS QC AH", variants=("match", "last-turn"), sizes=(10, 10, 10))
    events = act(state, "stock", "stock", "stock")
    over = of_type(events, DealOver)[0]
    assert over == DealOver(winners=(0, 2), sizes=(10, 10, 10), next_sizes=(9, 10, 9))
    assert state.view(None).sizes == (9, 10, 9) and not state.is_over


def test_match_with_last_turn_one_card_layouts_completed_together_share_the_match() -> None:
    state = deal(["9H", "9D"], "AS AD", variants=("match", "last-turn"), sizes=(1, 1))
    act(state, "stock")
    assert not state.is_over and state.final_round
    events = act(state, "stock")
    assert of_type(events, MatchOver)[0] == MatchOver(winners=(0, 1), totals=(0, 0))


def test_match_with_last_turn_a_one_card_completer_beats_a_bigger_one() -> None:
    state = deal(["9H", "9D 2D"], "AS AD", variants=("match", "last-turn"), sizes=(1, 2))
    act(state, "stock")
    events = act(state, "stock")  # seat 1: AD on slot 1 picks up the 9D, slot 9 does not exist: discarded
    assert of_type(events, DealOver)[0].winners == (0,)
    assert of_type(events, MatchOver)[0].winners == (0,)


# ---------------------------------------------------------------------------------------------------------------
# Three and four players: two decks
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_play_with_two_decks(players: int) -> None:
    state = GAME.new_match(players, GAME.options(), random.Random(5))
    assert len(state.full_deck()) == 104
    view = state.view(None)
    assert view.stock == 104 - 10 * players and len(view.layouts) == players
    assert is_conserved(state.zones().values(), state.full_deck())


def test_two_copies_of_a_card_may_both_be_in_play() -> None:
    state = deal(["AS 2S 3S 4S 5S 6S 7S 8S 9S JS", "AS QH QD QS JH JD JC 2D 3D 4D", QUIET], "QC QC AH")
    assert [str(c) for c in state.zones()["layout 1"]][:2] == ["AS", "QH"]
    act(state, "stock", "stock")
    assert state.discard == [card("QC"), card("QC")]
    with pytest.raises(OptionError):
        GAME.deck_for(2, 1, [[card("AS"), card("AS")]])  # one deck: one AS only


def test_two_players_use_one_deck() -> None:
    state = GAME.new_match(2, GAME.options(), random.Random(1))
    assert len(state.full_deck()) == 52 and state.view(None).stock == 32


# ---------------------------------------------------------------------------------------------------------------
# What is public
# ---------------------------------------------------------------------------------------------------------------
def test_no_view_shows_a_face_down_card_and_the_held_card_is_public() -> None:
    state = deal(["QS 2C 3C 4C 5C 6C 7C 8C 9C 10C", QUIET], "KS")
    act(state, "stock")
    face_down = [
        c for seat in range(2) for c, up in zip(state.layouts[seat], state.face_up[seat], strict=True) if not up
    ]
    views = [state.view(seat) for seat in [0, 1, None]]
    for view in views:
        shown = list(cards_in(view))
        assert not set(shown) & set(face_down)
        assert view.held == card("KS") and view.held_from == "stock"
        assert view.face_down(0) == list(range(1, 11))
    # Every seat, the owner included, sees the same thing.
    assert len({codec.dumps(v.layouts) for v in views}) == 1
    act(state, "king 1")  # picks up the QS: discarded; the King shows on slot 1
    for seat in [0, 1, None]:
        view = state.view(seat)
        assert view.kings(0) == [1] and view.layouts[0][0] == card("KS") and view.face_down(0) == list(range(2, 11))


def test_every_event_is_public() -> None:
    state = GAME.new_match(3, GAME.options(variants=["match", "last-turn"]), random.Random(2))
    rng = random.Random(3)
    for _ in range(300):
        if state.is_over:
            break
        state.apply(state.to_move, rng.choice(state.legal_actions()))
    assert all(event.audience is None for event in state.history)


# ---------------------------------------------------------------------------------------------------------------
# Refused actions
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        (0, "discard", IllegalActionError),
        (0, "king 3", IllegalActionError),
        (0, "swap", IllegalActionError),
        (0, "pass", IllegalActionError),
        (1, "stock", NotYourTurnError),
        (0, "king 11", InvalidActionError),
        (0, "draw", InvalidActionError),
        (0, Draw("hand"), InvalidActionError),
        (0, PlaceKing(0), InvalidActionError),
        (0, PlaceKing(True), InvalidActionError),  # type: ignore[arg-type]
        (0, "x" * 1000, InvalidActionError),
    ],
)
def test_illegal_actions_are_refused_with_typed_errors_and_change_nothing(
    seat: int, action: object, error: type[Exception]
) -> None:
    state = deal([CYCLE, QUIET], "AS")
    before = fingerprint(state)
    with pytest.raises(error):
        state.apply(seat, action)
    assert fingerprint(state) == before


def test_actions_read_back_from_their_text() -> None:
    for action in [Draw("stock"), Draw("discard"), Swap(), Keep(), *(PlaceKing(s) for s in range(1, 11))]:
        assert parse_action(str(action)) == action
    assert parse_action("S") == Draw("stock") and parse_action("d") == Draw("discard")
    assert parse_action("w") == Swap() and parse_action("x") == Keep() and parse_action(" 3 ") == PlaceKing(3)
    for bad in ["", "king", "king 0", "king x", "stock discard", "½", "１"]:
        with pytest.raises(InvalidActionError):
            parse_action(bad)


# ---------------------------------------------------------------------------------------------------------------
# The spec: options, rules text, codec, sampling
# ---------------------------------------------------------------------------------------------------------------
def test_options_and_variants() -> None:
    assert GAME.options() == TrashOptions()
    assert GAME.options(variants=["match", "last-turn"]) == TrashOptions(match=True, last_turn=True)
    assert [v.key for v in GAME.useful_variants(None)] == ["match", "last-turn"]
    with pytest.raises(OptionError):
        TrashOptions(size=11)
    with pytest.raises(OptionError):
        GAME.options("nope")


def test_the_rules_summary_names_every_settled_point() -> None:
    plain = GAME.rules_summary()
    for words in ["stock", "discard pile", "Kings are wild", "first turn", "two decks", "compulsory", "shuffled"]:
        assert words in plain
    both = GAME.rules_summary(GAME.options(variants=["match", "last-turn"]))
    assert "*Match*" in both and "*Last turn*" in both and "one-card layout" in both
    assert "*Match*" not in plain and "*Last turn*" not in plain


def test_views_events_and_actions_round_trip_through_the_codec() -> None:
    state = deal([CYCLE, QUIET], "KS QC 4D", variants=("match", "last-turn"))
    act(state, "stock")
    values: list[object] = [*state.history, state.view(0), state.view(None), *state.legal_actions(), state.options]
    for value in values:
        assert codec.decode(codec.encode(value)) == value


def test_determinize_deals_the_unseen_cards_to_the_face_down_slots_and_the_stock() -> None:
    state = deal(["3H 8D 5C QS 2S 6H 7H 9H 10H JD", QUIET], "KS", variants=("match",))
    act(state, "stock", "king 7")
    view = state.view(1)
    seen: set[tuple[str, ...]] = set()
    for seed in range(20):
        sample = GAME.determinize(view, random.Random(seed))
        assert codec.dumps(sample.view(1)) == codec.dumps(view)
        assert is_conserved(sample.zones().values(), sample.full_deck())
        assert sample.legal_actions() == state.legal_actions()
        seen.add(tuple(str(c) for c in sample.stock))
    assert len(seen) > 1


def test_determinize_keeps_the_final_round() -> None:
    state = deal([QUIET, CYCLE, QUIET], "QD AS", players=3, variants=("last-turn",))
    act(state, "stock", "stock")
    view = state.view(2)
    sample = GAME.determinize(view, random.Random(1))
    assert sample.final_left == state.final_left == [2, 0]
    assert codec.dumps(sample.view(2)) == codec.dumps(view)


def test_a_card_is_a_card_of_the_game() -> None:
    assert all(isinstance(c, Card) for c in GAME.new_match(2, GAME.options(), random.Random(0)).full_deck())
