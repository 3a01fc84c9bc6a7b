"""The rules of Screw Your Neighbor / Chase the Ace, one table case per rule and variant of RULES.md §1.

Every situation is dealt exactly with :func:`chase_helpers.deal` (a stacked deck through the public Scenario API,
see its module docstring).
Seats are clockwise: the player to the *left* of seat ``s`` is seat ``s + 1`` (the next seat still in); the
dealer acts last. Expected results are worked out from RULES.md, not copied from the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from chase_helpers import GAME, act, card, deal, of_type, opts, plan

from engine.errors import IllegalActionError, OptionError, UnknownGameError
from engine.events import Event
from engine.games.chase.rules import (
    CardDealt,
    ChaseAction,
    ChaseGame,
    ChaseOptions,
    ChaseState,
    DeckSwapped,
    Eliminated,
    HandVoid,
    KingShown,
    PackCut,
    Paid,
    PayReason,
    Revealed,
    Stayed,
    Traded,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.registry import game_keys, get_entry
from engine.table import Table

STAY, TRADE, SWAP, CUT = ChaseAction.STAY, ChaseAction.TRADE, ChaseAction.SWAP, ChaseAction.CUT
SCREW = opts("screw")
CHASE = opts("chase")
SCREW_HIGH = opts("screw", "high-card-pays")
CHASE_HIGH = opts("chase", "high-card-pays")


def all_stay(state: ChaseState) -> list[Event]:
    """Everyone in the current hand stays (always legal); return the events up to the end of that hand."""
    events: list[Event] = []
    for _ in range(len(state.order)):
        events.extend(act(state, "stay"))
    return events


def payments_of(events: list[Event]) -> dict[int, int]:
    return {e.seat: e.amount for e in of_type(events, Paid)}


# ---------------------------------------------------------------------------------------------------------------
# Who pays: every player stays, the dealer is the last seat; the Paid events must be exactly these.
# ---------------------------------------------------------------------------------------------------------------
PAYMENT_CASES = [
    pytest.param(SCREW, "3H 9C QD", {0: 1}, id="lowest-card-pays/screw"),
    pytest.param(CHASE, "9C 3H QD", {1: 1}, id="lowest-card-pays/chase"),
    pytest.param(SCREW, "KD AS 2C", {1: 1}, id="ace-is-lowest/screw"),
    pytest.param(CHASE, "2C KD AS", {2: 1}, id="ace-is-lowest/chase"),
    pytest.param(SCREW, "5D 5C 9H", {0: 1}, id="screw-tie-by-suit/5D-pays-vs-5C"),
    pytest.param(SCREW, "5H 5C 9D", {1: 1}, id="screw-tie-by-suit/5C-pays-vs-5H"),
    pytest.param(SCREW, "5S 5H 9D", {1: 1}, id="screw-tie-by-suit/5H-pays-vs-5S"),
    pytest.param(SCREW, "5S 5H 5C 5D", {3: 1}, id="screw-tie-by-suit/four-way-5D-pays"),
    pytest.param(CHASE, "5D 5C 9H", {0: 1, 1: 1}, id="chase-ties-all-pay/two"),
    pytest.param(CHASE, "5S 5H 5C 5D 9H", {0: 1, 1: 1, 2: 1, 3: 1}, id="chase-ties-all-pay/four"),
    pytest.param(SCREW_HIGH, "3H 9C JD", {2: 1}, id="high-card-pays/highest-pays"),
    pytest.param(SCREW_HIGH, "QH KS 7D", {0: 1}, id="high-card-pays/king-never-pays-queen-does"),
    pytest.param(SCREW_HIGH, "AH 5C 9D", {0: 2, 2: 1}, id="high-card-pays/ace-pays-2"),
    pytest.param(CHASE_HIGH, "AH AS 9D 4C", {0: 2, 1: 2, 2: 1}, id="high-card-pays/every-ace-pays-2"),
    pytest.param(SCREW_HIGH, "AH KC KD", {0: 2}, id="high-card-pays/ace-also-highest-pays-2-in-all"),
    pytest.param(SCREW_HIGH, "9H 9C 3D", {0: 1}, id="high-card-pays/screw-tie-by-suit-9H-higher"),
    pytest.param(CHASE_HIGH, "9H 9C 3D", {0: 1, 1: 1}, id="high-card-pays/chase-ties-all-pay"),
    pytest.param(SCREW_HIGH, "KH KC", {}, id="high-card-pays/only-kings-nobody-pays"),
]


@pytest.mark.parametrize(("options", "cards", "expected"), PAYMENT_CASES)
def test_who_pays(options: ChaseOptions, cards: str, expected: dict[int, int]) -> None:
    hand = plan(cards)
    state = deal(options, [hand], dealer=max(hand.cards))
    before = list(state.lives)
    events = all_stay(state)
    revealed = of_type(events, Revealed)
    assert len(revealed) == 1 and dict(revealed[0].cards) == hand.cards, "all cards are turned up at the end"
    assert payments_of(events) == expected
    for paid in of_type(events, Paid):
        assert paid.card == hand.cards[paid.seat]
        assert paid.lives_left == before[paid.seat] - paid.amount
        if not options.high_card_pays:
            assert paid.reason is PayReason.LOWEST
        else:
            assert paid.reason is (PayReason.ACE if paid.card.rank == 1 else PayReason.HIGHEST)
    assert state.lives == [before[s] - expected.get(s, 0) for s in range(state.players)]
    assert not of_type(events, HandVoid)
    (over,) = of_type(events, RoundOver)
    assert over.deltas == tuple(-expected.get(s, 0) for s in range(state.players)), "the round's deltas are the pays"
    assert over.totals == tuple(state.lives) and over.winners == () and not over.replay and not over.last


# ---------------------------------------------------------------------------------------------------------------
# What the seat to move may do. ``before`` are the actions of the seats before it (the dealer is the last seat).
# ---------------------------------------------------------------------------------------------------------------
LEGAL_CASES = [
    pytest.param(SCREW, "KH 3C 9D", (), [STAY], id="king-holder-must-stay/screw"),
    pytest.param(CHASE, "KH 3C 9D", (), [STAY], id="king-holder-must-stay/chase"),
    pytest.param(SCREW, "3C 9D 5H", (), [STAY, TRADE], id="player-may-stay-or-trade/screw"),
    pytest.param(CHASE, "3C 9D 5H", (), [STAY, TRADE], id="player-may-stay-or-trade/chase"),
    pytest.param(SCREW, "3C KH 9D", (), [STAY, TRADE], id="screw/right-of-hidden-king-may-try-to-trade"),
    pytest.param(CHASE, "3C KH 9D", (), [STAY], id="chase/right-of-shown-king-may-only-stay"),
    pytest.param(CHASE, "3C 4D KH 8S", ("stay",), [STAY], id="chase/right-of-shown-king-later-in-turn"),
    pytest.param(SCREW, "3C 9D 5H", ("stay", "stay"), [STAY, SWAP], id="dealer-stay-or-swap/screw"),
    pytest.param(CHASE, "3C 9D 5H", ("stay", "stay"), [STAY, CUT], id="dealer-stay-or-cut/chase"),
    pytest.param(SCREW, "3C 9D KH", ("stay", "stay"), [STAY], id="dealer-with-king-must-stay/screw"),
    pytest.param(CHASE, "3C 9D KH", ("stay", "stay"), [STAY], id="dealer-with-king-must-stay/chase"),
    pytest.param(CHASE, "KH 9D 5C", ("stay", "stay"), [STAY, CUT], id="chase/dealer-left-of-shown-king-may-cut"),
    pytest.param(SCREW_HIGH, "3C 9D 5H", ("stay", "stay"), [STAY, SWAP], id="high-card-pays/dealer-may-swap"),
    pytest.param(CHASE, "3C 9D", (), [STAY, TRADE], id="two-players/non-dealer-trades-with-dealer"),
]


@pytest.mark.parametrize(("options", "cards", "before", "legal"), LEGAL_CASES)
def test_legal_actions(options: ChaseOptions, cards: str, before: tuple[str, ...], legal: list[ChaseAction]) -> None:
    hand = plan(cards)
    state = deal(options, [hand], dealer=max(hand.cards))
    act(state, *before)
    seat = state.to_move
    assert seat == len(before)
    assert state.legal_actions() == legal
    assert state.view(seat).legal == tuple(legal)
    for action in ChaseAction:
        if action not in legal:
            with pytest.raises(IllegalActionError):
                state.apply(seat, action)


# ---------------------------------------------------------------------------------------------------------------
# Scenarios, one per rule.
# ---------------------------------------------------------------------------------------------------------------
def screw_trade_into_hidden_king_is_blocked() -> None:
    state = deal(SCREW, [plan("3H KS 9D")], dealer=2)
    events = act(state, "trade")
    assert events == [KingShown(seat=1, card=card("KS"), blocked=0)]
    assert events[0].is_public
    assert state.cards[0] == card("3H") and state.cards[1] == card("KS"), "the trader keeps its card"
    assert state.to_move == 1 and state.legal_actions() == [STAY], "the trader's turn is used; the King stays"
    for viewer in (0, 1, 2, None):
        assert (1, card("KS")) in state.view(viewer).known, "the King is shown to everybody"
    assert (0, card("3H")) not in state.view(2).known


def chase_kings_shown_at_deal() -> None:
    state = deal(CHASE, [plan("5H KS 9D KC")], dealer=3)
    shown = of_type(state.history, KingShown)
    assert shown == [KingShown(seat=1, card=card("KS")), KingShown(seat=3, card=card("KC"))]
    assert all(e.is_public and e.blocked is None for e in shown)
    for viewer in (0, 1, 2, 3, None):
        known = dict(state.view(viewer).known)
        assert known[1] == card("KS") and known[3] == card("KC")
    assert state.legal_actions() == [STAY], "seat 0 is right of the shown King of seat 1"
    act(state, "stay")
    assert state.legal_actions() == [STAY], "seat 1 holds a King"
    act(state, "stay")
    assert state.legal_actions() == [STAY], "seat 2 is right of the dealer's shown King"


def screw_kings_not_shown_at_deal() -> None:
    state = deal(SCREW, [plan("5H KS 9D")], dealer=2)
    assert not of_type(state.history, KingShown)
    assert (1, card("KS")) not in state.view(0).known and (1, card("KS")) not in state.view(None).known


def trade_swaps_cards_and_only_the_two_see_them() -> None:
    for options in (SCREW, CHASE):
        state = deal(options, [plan("3H 9C QD 6S")], dealer=3)
        events = act(state, "trade")
        assert events == [Traded(seat=0, target=1, gave=card("3H"), got=card("9C"), audience=frozenset({0, 1}))], (
            "a player trades with the player to the left"
        )
        assert state.cards[:2] == [card("9C"), card("3H")]
        redacted = events[0].for_seat(2)
        assert redacted == Traded(seat=0, target=1, gave=None, got=None)
        assert events[0].for_seat(None) == redacted and events[0].for_seat(3) == redacted
        assert events[0].for_seat(1) == events[0]
        for seat in (0, 1):
            assert {(0, card("9C")), (1, card("3H"))} <= set(state.view(seat).known)
        for viewer in (2, 3, None):
            known = dict(state.view(viewer).known)
            assert 0 not in known and 1 not in known


def nobody_trades_back_each_seat_acts_once_in_order() -> None:
    state = deal(SCREW, [plan("3H 9C 4D 6S")], dealer=1)
    assert state.history[0] == RoundStarted(round=1, dealer=1, seats=(2, 3, 0, 1))
    assert [e.seat for e in of_type(state.history, CardDealt)] == [2, 3, 0, 1], "dealt from the dealer's left"
    movers = []
    events: list[Event] = []
    for text in ("trade", "trade", "trade", "swap"):
        movers.append(state.to_move)
        events.extend(act(state, text))
    assert movers == [2, 3, 0, 1], "left of the dealer first, clockwise, the dealer last"
    trades = of_type(events, Traded)
    assert [(t.seat, t.target) for t in trades] == [(2, 3), (3, 0), (0, 1)], "always to the left, never back"
    assert state.hand == 2 and state.dealer == 2, "each seat acted exactly once, then the next hand began"


def dealer_swap_keeps_even_a_king() -> None:
    state = deal(SCREW, [plan("5C 9D 3H", top="KS")], dealer=2)
    events = act(state, "stay", "stay", "swap")
    swapped = of_type(events, DeckSwapped)
    assert swapped == [DeckSwapped(seat=2, gave=card("3H"), got=card("KS"), audience=frozenset({2}))]
    assert swapped[0].for_seat(0) == DeckSwapped(seat=2, gave=None, got=None)
    assert swapped[0].for_seat(None) == DeckSwapped(seat=2, gave=None, got=None)
    assert dict(of_type(events, Revealed)[0].cards) == {0: card("5C"), 1: card("9D"), 2: card("KS")}
    assert payments_of(events) == {0: 1}, "the dealer's 3H is out of play; the 5C is now the lowest"


def dealer_cut_keeps_even_a_king_and_is_public() -> None:
    state = deal(CHASE, [plan("5C 9D 3H", cut="KD")], dealer=2)
    events = act(state, "stay", "stay", "cut")
    cut = of_type(events, PackCut)
    assert cut == [PackCut(seat=2, got=card("KD"))]
    assert cut[0].is_public and cut[0].for_seat(None) == cut[0] and cut[0].for_seat(0) == cut[0]
    assert dict(of_type(events, Revealed)[0].cards)[2] == card("KD")
    assert payments_of(events) == {0: 1}


def dealer_swap_and_cut_take_the_next_card_of_the_deck() -> None:
    """The deck is dealt from its first card; the swap takes the next one, and so does a cut (a shuffled deck makes
    it a card at random; a planned deck names it: engine/games/chase/rules.py's docstring). The card given away is set
    aside, out of play."""
    state = deal(SCREW, [plan("5C 9D 3H", top="2S JH")], dealer=2)
    act(state, "stay", "stay")
    assert state.zones()["deck"][:2] == [card("2S"), card("JH")]
    events = act(state, "swap")
    assert of_type(events, DeckSwapped)[0].got == card("2S")
    assert dict(of_type(events, Revealed)[0].cards)[2] == card("2S")
    # A last hand leaves the cards where they are: the cut card is the dealer's, the card it replaced set aside.
    state = deal(CHASE, [plan("5C 3H", cut="QC")], dealer=1, lives=[1, 4])
    act(state, "stay")
    assert state.zones()["deck"][0] == card("QC")
    events = act(state, "cut")
    assert of_type(events, PackCut)[0].got == card("QC") and state.is_over
    zones = state.zones()
    assert zones["hand 1"] == [card("QC")] and zones["set aside"] == [card("3H")] and zones["hand 0"] == [card("5C")]
    assert len(zones["deck"]) == 49


def three_lives() -> None:
    for options, tokens, lives in ((SCREW, 3, 3), (CHASE, 3, 4)):
        for players in (2, 5, 10):
            state = GAME.new_match(players, options, random.Random(players))
            assert state.lives == [lives] * players
            view = state.view(0)
            assert [view.tokens(s) for s in range(players)] == [tokens] * players
            assert not any(view.on_honour(s) for s in range(players))


def chase_on_honour_then_out() -> None:
    state = deal(CHASE, [plan("3H 9C QD"), plan("2S 8C JD", dealer=0)], dealer=2, lives=[2, 4, 4])
    events = all_stay(state)
    assert payments_of(events) == {0: 1}
    assert state.lives[0] == 1 and not of_type(events, Eliminated)
    view = state.view(1)
    assert view.tokens(0) == 0 and view.on_honour(0) and view.alive(0), "no token left, still in on honour"
    assert 0 in state.order, "dealt into the next hand"
    events = all_stay(state)
    assert payments_of(events) == {0: 1}
    assert state.lives[0] == 0 and of_type(events, Eliminated) == [Eliminated(seat=0)]
    assert 0 not in state.order


def screw_out_at_zero() -> None:
    state = deal(SCREW, [plan("3H 9C QD")], dealer=2, lives=[1, 3, 3])
    events = all_stay(state)
    assert of_type(events, Eliminated) == [Eliminated(seat=0)]
    assert state.lives[0] == 0 and not state.view(1).alive(0) and 0 not in state.order
    assert state.cards[0] is None


def variant_on_honour_for_screw() -> None:
    options = opts("screw", "on-honour")
    assert options.on_honour and GAME.new_match(3, options, random.Random(1)).lives == [4, 4, 4]
    state = deal(options, [plan("3H 9C QD")], dealer=2, lives=[2, 4, 4])
    events = all_stay(state)
    assert not of_type(events, Eliminated) and state.view(0).on_honour(0) and 0 in state.order


def variant_no_honour_for_chase() -> None:
    options = opts("chase", "no-honour")
    assert not options.on_honour and GAME.new_match(3, options, random.Random(1)).lives == [3, 3, 3]
    state = deal(options, [plan("3H 9C QD")], dealer=2, lives=[1, 3, 3])
    events = all_stay(state)
    assert of_type(events, Eliminated) == [Eliminated(seat=0)] and 0 not in state.order


def dealer_moves_left() -> None:
    state = deal(SCREW, [plan("3H 9C QD 6S")], dealer=0)
    events = all_stay(state)
    assert of_type(events, RoundOver) == [
        RoundOver(round=1, winners=(), deltas=(-1, 0, 0, 0), totals=(2, 3, 3, 3), last=False)
    ]
    assert of_type(events, RoundStarted) == [RoundStarted(round=2, dealer=1, seats=(2, 3, 0, 1))]
    assert state.dealer == 1 and state.view(None).dealer == 1


def dealer_moves_left_skipping_the_eliminated() -> None:
    state = deal(SCREW, [plan("9H 3C QD 6S")], dealer=0, lives=[3, 1, 3, 3])
    events = all_stay(state)
    assert of_type(events, Eliminated) == [Eliminated(seat=1)]
    assert of_type(events, RoundStarted) == [RoundStarted(round=2, dealer=2, seats=(3, 0, 2))]
    events = all_stay(state)
    assert [e.dealer for e in of_type(events, RoundStarted)] == [3]


def dealer_eliminated_button_moves_on() -> None:
    state = deal(SCREW, [plan("3H 9C QD")], dealer=0, lives=[1, 3, 3])
    events = all_stay(state)
    assert [e.dealer for e in of_type(events, RoundStarted)] == [1]
    assert state.order == (2, 1)


def void_hand_when_everyone_would_be_out() -> None:
    state = deal(CHASE, [plan("5D 5C"), plan("3D 9S", dealer=1)], dealer=1, lives=[1, 1])
    events = all_stay(state)
    assert not of_type(events, Paid) and not of_type(events, Eliminated)
    assert of_type(events, HandVoid) == [HandVoid(would_pay=(0, 1))]
    assert of_type(events, RoundOver) == [
        RoundOver(round=1, winners=(), deltas=(0, 0), totals=(1, 1), last=False, replay=True)
    ], "the round does not count"
    assert state.lives == [1, 1] and state.winner is None
    assert of_type(events, RoundStarted) == [RoundStarted(round=1, dealer=1, seats=(0, 1))], (
        "the same hand is dealt again by the same dealer"
    )
    assert [type(e) for e in events[-4:-2]] == [RoundOver, RoundStarted]
    assert state.cards == [card("3D"), card("9S")]
    events = all_stay(state)
    assert payments_of(events) == {0: 1} and state.winner == 1


def void_hand_high_card_pays() -> None:
    state = deal(SCREW_HIGH, [plan("AH QC")], dealer=1, lives=[2, 1])
    events = all_stay(state)
    assert of_type(events, HandVoid) == [HandVoid(would_pay=(0, 1))]
    assert state.lives == [2, 1] and state.hand == 1 and state.dealer == 1
    assert len(of_type(state.history, RoundStarted)) == 2


def not_void_when_one_stays_in() -> None:
    state = deal(CHASE, [plan("5D 5C 9H")], dealer=2, lives=[1, 1, 4])
    events = all_stay(state)
    assert not of_type(events, HandVoid)
    assert of_type(events, Eliminated) == [Eliminated(seat=0), Eliminated(seat=1)]
    assert of_type(events, MatchOver) == [MatchOver(winners=(2,), totals=(0, 0, 4))]


def winner_is_last_one_in() -> None:
    state = deal(SCREW, [plan("3H 9C")], dealer=1, lives=[1, 2])
    events = all_stay(state)
    assert events[-2:] == [
        RoundOver(round=1, winners=(), deltas=(-1, 0), totals=(0, 2), last=True),
        MatchOver(winners=(1,), totals=(0, 2)),
    ], "the match ends with the hand: its RoundOver is the last, then MatchOver"
    assert state.is_over and state.to_move is None and state.legal_actions() == []
    assert state.result is not None and state.result.winners == (1,)
    assert state.result.scores[1] > state.result.scores[0]
    assert state.view(0).winner == 1 and state.view(None).winner == 1


def chase_pot_holds_every_token_paid_no_honour() -> None:
    state = deal(opts("chase", "no-honour"), [plan("3H 9C 5D"), plan("- 2S 9H", dealer=1)], dealer=2, lives=[1, 1, 3])
    events = all_stay(state)  # seat 0 pays its last token
    events += all_stay(state)  # seat 1 pays its last token
    assert of_type(events, MatchOver) == [MatchOver(winners=(2,), totals=(0, 0, 3))]
    assert state.pot == 2 and state.view(2).pot == 2 and state.view(None).pot == 2


def chase_pot_holds_only_tokens_not_honour_lives() -> None:
    """RULES.md §1: 3 tokens, then an extra life *on honour* after the last token; the winner takes the pot.

    A player on honour has no token left, so paying the life on honour puts nothing in the pot: the pot is the
    tokens paid. Here seat 0 (1 token + honour) pays its token, then pays on honour and is out: pot = 1 token.
    """
    state = deal(CHASE, [plan("3H 9C"), plan("2S 9H", dealer=0)], dealer=1, lives=[2, 4])
    all_stay(state)
    assert state.pot == 1 and state.view(1).on_honour(0)
    events = all_stay(state)
    assert of_type(events, MatchOver) == [MatchOver(winners=(1,), totals=(0, 4))]
    assert state.pot == 1 and state.view(0).pot == 1


def player_counts() -> None:
    for players in (2, 10):
        for options in (SCREW, CHASE, CHASE_HIGH):
            state = GAME.new_match(players, options, random.Random(4))
            assert len(state.order) == players and state.order[-1] == state.dealer
        assert Table.create("chase", players=players, seed=1).state.players == players
    for players in (0, 1, 11):
        with pytest.raises(OptionError):
            GAME.new_match(players, SCREW, random.Random(4))
        with pytest.raises(OptionError):
            Table.create("screw", players=players, seed=1)


def unknown_preset_or_variant() -> None:
    with pytest.raises(OptionError):
        GAME.options("poker")
    with pytest.raises(OptionError):
        GAME.options("chase", ["jokers-wild"])
    with pytest.raises(OptionError):
        Table.create("chase", players=3, variants=["nope"])
    assert GAME.options(None) == SCREW
    assert GAME.options("CHASE", ["High-Card-Pays"]) == CHASE_HIGH


def presets_match_the_rules_table() -> None:
    assert (SCREW.lives, SCREW.on_honour, SCREW.ties_all_pay, SCREW.kings_face_up, SCREW.dealer_cuts) == (
        3,
        False,
        False,
        False,
        False,
    )
    assert (CHASE.lives, CHASE.on_honour, CHASE.ties_all_pay, CHASE.kings_face_up, CHASE.dealer_cuts) == (
        3,
        True,
        True,
        True,
        True,
    )
    assert not SCREW.high_card_pays and not CHASE.high_card_pays and CHASE_HIGH.high_card_pays
    assert {v.key for v in ChaseGame().variants} == {"high-card-pays", "on-honour", "no-honour"}


def registry_keys_and_aliases() -> None:
    assert game_keys()[:2] == ["screw", "chase"]
    for name, preset in (
        ("screw", "screw"),
        ("screw-your-neighbor", "screw"),
        ("chase", "chase"),
        ("chase-the-ace", "chase"),
        ("  Chase-The-Ace ", "chase"),
        ("syn", "screw"),
        ("cta", "chase"),
    ):
        entry = get_entry(name)
        assert isinstance(entry.game, ChaseGame) and entry.preset == preset and entry.key == preset
    assert get_entry("screw").title == "Screw Your Neighbor" and get_entry("chase").title == "Chase the Ace"
    assert Table.create("chase-the-ace", players=3).options == CHASE
    assert Table.create("screw-your-neighbor", players=3).options == SCREW
    for bad in ("poker", "", "chase the ace"):
        with pytest.raises(UnknownGameError):
            get_entry(bad)
    with pytest.raises(UnknownGameError):
        Table.create("poker", players=3)


def stay_is_public_and_changes_no_card() -> None:
    state = deal(SCREW, [plan("3H 9C QD")], dealer=2)
    events = act(state, "stay")
    assert events == [Stayed(seat=0)] and events[0].is_public
    assert state.cards[:3] == [card("3H"), card("9C"), card("QD")]


RULE_SCENARIOS: list[Callable[[], None]] = [
    screw_trade_into_hidden_king_is_blocked,
    chase_kings_shown_at_deal,
    screw_kings_not_shown_at_deal,
    trade_swaps_cards_and_only_the_two_see_them,
    nobody_trades_back_each_seat_acts_once_in_order,
    stay_is_public_and_changes_no_card,
    dealer_swap_keeps_even_a_king,
    dealer_cut_keeps_even_a_king_and_is_public,
    dealer_swap_and_cut_take_the_next_card_of_the_deck,
    three_lives,
    chase_on_honour_then_out,
    screw_out_at_zero,
    variant_on_honour_for_screw,
    variant_no_honour_for_chase,
    dealer_moves_left,
    dealer_moves_left_skipping_the_eliminated,
    dealer_eliminated_button_moves_on,
    void_hand_when_everyone_would_be_out,
    void_hand_high_card_pays,
    not_void_when_one_stays_in,
    winner_is_last_one_in,
    chase_pot_holds_every_token_paid_no_honour,
    chase_pot_holds_only_tokens_not_honour_lives,
    player_counts,
    unknown_preset_or_variant,
    presets_match_the_rules_table,
    registry_keys_and_aliases,
]


@pytest.mark.parametrize("scenario", RULE_SCENARIOS, ids=lambda f: f.__name__.replace("_", "-"))
def test_rule(scenario: Callable[[], None]) -> None:
    scenario()
