"""The hint in every game (issue 31, point 1): the ``hard`` computer player's choice for the seat to move, from that
seat's view only, with a reason built from the bot's own figures. Positions are stacked through the public scenario
API (``deck_for`` and ``Scenario``), and each hint is asked of the table as a session asks it (``Table.hint``).

- the hint is a legal action and the hard bot's choice on the same view and the same RNG;
- the reason names the cards and the figures of the position (checked against the bot's own estimates);
- two deals that differ only in cards the seat cannot see give the same hint, reason and all.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine import codec
from engine.bots import decision_rng
from engine.cards import Card, parse_cards
from engine.game import Scenario
from engine.games.big2.bots import HardBig2Bot
from engine.games.big2.rules import Play, classify
from engine.games.chase.bots import HardChaseBot
from engine.games.chase.hints import pays
from engine.games.chase.rules import ChaseAction
from engine.games.rank.bots import HardRankBot, keeper_choice
from engine.games.rank.rules import DRAW
from engine.games.rank.rules import Play as RankPlay
from engine.games.trash.bots import HardTrashBot
from engine.games.trash.rules import DISCARD, STOCK, PlaceKing
from engine.hints import Hint, chance_words, times_in
from engine.registry import get_entry
from engine.table import Table

SEED = 5


def table(key: str, players: int, hands: Sequence[str], rest: str = "", dealer: int | None = None) -> Table:
    """A table of people whose first deal gives seat i ``hands[i]`` (``rest`` next in the deck), dealt by
    ``dealer`` (default: the last seat, so seat 0 plays first)."""
    game = get_entry(key).game
    chosen = players - 1 if dealer is None else dealer
    order = game.deck_for(players, chosen, [parse_cards(h) for h in hands], parse_cards(rest))
    return Table.create(
        key, players, seed=SEED, bots=[None] * players, scenario=Scenario(decks=(order,), dealer=chosen)
    )


def hint_now(t: Table) -> tuple[int, Hint]:
    """The hint for the seat to move, as its session would be given it."""
    seat = t.state.to_move
    assert seat is not None
    hint = t.hint(seat, t.state.view(seat), t.state.legal_actions(), t.state.version)
    assert hint is not None and hint.action in t.state.legal_actions()
    return seat, hint


def rng_of(t: Table, seat: int) -> object:
    return decision_rng(SEED, seat, t.state.version, "hint")


def hint_text(t: Table) -> str:
    return str(hint_now(t)[1])


# -- Screw Your Neighbor / Chase the Ace ----------------------------------------------------------------------------
def test_chase_stay_with_a_high_card_says_how_often_each_choice_pays() -> None:
    t = table("screw", 4, ["9H", "2C", "JD", "5S"], rest="4D")
    seat, hint = hint_now(t)
    view, legal = t.state.view(seat), t.state.legal_actions()
    bot = HardChaseBot(t.game)
    assert hint.action == bot.choose(view, legal, decision_rng(SEED, seat, t.state.version, "hint"))
    estimate = bot.estimate(view, legal, decision_rng(SEED, seat, t.state.version, "hint"))
    assert hint.action is ChaseAction.STAY
    stay, trade = estimate.pays[ChaseAction.STAY], estimate.pays[ChaseAction.TRADE]
    assert stay < trade
    assert hint.reason.startswith(f"Stay: your 9♥ {pays(stay, trade)} here; trading ")
    assert f"gives you a worse card {times_in(estimate.worse[ChaseAction.TRADE])}" in hint.reason
    assert hint.reason.endswith(pays(trade, stay))


def test_chase_trade_with_a_low_card_compares_keeping_it_with_trading() -> None:
    t = table("chase", 4, ["2C", "9H", "JD", "5S"], rest="4D")
    seat, hint = hint_now(t)
    view, legal = t.state.view(seat), t.state.legal_actions()
    estimate = HardChaseBot(t.game).estimate(view, legal, decision_rng(SEED, seat, t.state.version, "hint"))
    assert hint.action is ChaseAction.TRADE
    keep, trade = estimate.pays[ChaseAction.STAY], estimate.pays[ChaseAction.TRADE]
    assert trade < keep
    assert hint.reason.startswith(f"Trade with the player on your left: keeping your 2♣ {pays(keep, trade)} here")
    assert f"after trading you {pays(trade, keep, verb='pay')}" in hint.reason
    # The figures are the bot's: a 2 is the second-lowest card, so it pays most hands if kept.
    assert keep > 0.5 and "hands in 10" in hint.reason


def test_chase_a_king_stays_and_says_why() -> None:
    t = table("screw", 3, ["KS", "2C", "JD"])
    assert hint_now(t)[1] == Hint(
        ChaseAction.STAY, "Stay: your K♠ is a King, which never pays, and a King cannot be traded away"
    )


# -- Trash -----------------------------------------------------------------------------------------------------------
def trash_after_a_chain(seat_1_slot_7: str = "8D") -> Table:
    """Seat 0 draws the 7♥ from the stock: it goes on slot 7 and turns up the 7♣ there, which has nowhere to go and
    is discarded; seat 1 is to move with the 7♣ on the discard pile."""
    seat_1 = f"AD 2D 3D 4D 5D 6D {seat_1_slot_7} 9D 10D JD"
    t = table("trash", 2, ["AS 2S 3S 4S 5S 6S 7C 8S 9S 10S", seat_1], rest="7H QH KH")
    seat, hint = hint_now(t)
    assert seat == 0 and hint == Hint(STOCK, "Draw from the stock: the discard pile is empty")
    t.submit(0, STOCK)
    assert t.state.to_move == 1 and str(t.state.view(1).discard[-1]) == "7C"
    return t


def test_trash_takes_the_discard_that_fills_a_slot() -> None:
    t = trash_after_a_chain()
    _, hint = hint_now(t)
    assert hint.action == DISCARD == HardTrashBot(t.game).choose(t.state.view(1), t.state.legal_actions(), rng_of(t, 1))
    assert hint.reason == "Take the discard: the 7♣ fills slot 7, a sure step where the stock is a blind draw"


def test_trash_a_king_goes_where_its_slot_is_least_likely_to_fill_itself() -> None:
    # Seat 0's chain shows the 2♥ and the 5♣ and ends on the Q♦; seat 1 cannot take a Queen, draws the K♠ and must
    # put it on one of its ten face-down slots: the 2s and the 5s have one copy in sight each, the others none.
    t = table("trash", 2, ["AS 5C 3S 4S QD 6S 7S 8S 9S 10S", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D"], rest="2H KS")
    t.submit(0, STOCK)
    assert str(t.state.view(1).discard[-1]) == "QD"
    t.submit(1, STOCK)
    seat, hint = hint_now(t)
    bot = HardTrashBot(t.game)
    view = t.state.view(seat)
    assert hint.action == PlaceKing(2) == bot.choose(view, t.state.legal_actions(), rng_of(t, seat))
    assert bot.chance_to_come(view, 2) == bot.chance_to_come(view, 5) < bot.chance_to_come(view, 3)
    assert hint.reason == (
        "Put the King on slot 2: only 3 2s are still to come, no more than for any other face-down slot, so the King "
        "takes the lowest of them"
    )


# -- Big Two ---------------------------------------------------------------------------------------------------------
def test_big2_the_hard_players_lead_with_what_it_sheds_and_keeps() -> None:
    t = table(
        "big2",
        4,
        ["3D 4D 4S 6C 7H 8C 9D 10S JH QC KD AS 2S", "3C 5D 5S 6D 7C 8D 9C 10D JD QD KC AD 2D"],
    )
    seat, hint = hint_now(t)
    view, legal = t.state.view(seat), t.state.legal_actions()
    assert seat == 0
    assert hint.action == HardBig2Bot(t.game).choose(view, legal, rng_of(t, seat))
    assert isinstance(hint.action, Play)
    combo = classify(hint.action.cards, view.options)
    assert combo is not None
    assert hint.reason.startswith(f"Play {combo.describe()}: the first play must include the 3♦; it sheds ")
    n = len(hint.action.cards)
    assert f"sheds {('one card', 'two cards', 'three cards', 'four cards', 'five cards')[n - 1]}" in hint.reason
    if not any(card.rank.text == "2" for card in hint.action.cards):
        assert "keeps your 2♠ for control" in hint.reason


def test_big2_an_answer_says_what_it_beats_or_what_beating_would_cost() -> None:
    t = table("big2", 4, ["3D 4C", "2S 2H 5C", "6C 7C", "8C 9C"])
    t.submit(0, Play((Card.parse("3D"),)))
    seat, hint = hint_now(t)
    assert seat == 1
    assert hint.action == HardBig2Bot(t.game).choose(t.state.view(1), t.state.legal_actions(), rng_of(t, 1))
    if isinstance(hint.action, Play):
        assert hint.reason.startswith("Play ") and ("beats the 3♦" in hint.reason or "beat the 3♦" in hint.reason)
        if not any(card.rank.text == "2" for card in hint.action.cards):
            assert "keeps your 2♥ and 2♠ for control" in hint.reason
    else:
        assert hint.reason.startswith("Pass: beating the 3♦ would")


# -- Rank ------------------------------------------------------------------------------------------------------------
def test_rank_a_normal_play_keeps_the_cards_that_answer_the_pile() -> None:
    t = table("rank", 3, ["7C 5H 9D 3S KH"], rest="8H")
    _, hint = hint_now(t)
    assert hint.action == RankPlay(Card.parse("7C"))
    assert hint.reason == (
        "Play the 7♣: it is one rank from the 8 on the pile (a 7 or a 9), and it keeps your 5♥ and 9♦ to answer "
        "the pile when it comes back to you"
    )


def test_rank_keeps_the_ace_for_the_finish() -> None:
    t = table("rank", 3, ["AS 5C 5D 10H 10S"], rest="7H")
    _, hint = hint_now(t)
    assert hint.action == DRAW
    assert hint.reason.startswith(
        "Draw and keep your A♠: none of your cards is one rank from the 7 on the pile (a 6 or an 8), and with 5 "
        "cards in hand you will need it later"
    )


def test_rank_near_the_end_the_reason_gives_the_playouts() -> None:
    # Played on (every seat by the hard player's own rule) until the seat to move is near the end of the deal and
    # has a choice to search: the reason counts how often each choice came out well in the bot's own playouts.
    t = Table.create("rank", 3, seed=SEED, bots=[None] * 3)
    bot = HardRankBot(t.game)
    for _ in range(400):
        seat = t.state.to_move
        assert seat is not None, "the deal ended before a search"
        view, legal = t.state.view(seat), t.state.legal_actions()
        if bot.endgame(view) and len(bot.candidates(view, legal)) > 1:
            break
        t.submit(seat, keeper_choice(view, legal))
    seat, hint = hint_now(t)
    picks = bot.candidates(view, legal)
    found = bot.search(view, legal, picks, decision_rng(SEED, seat, t.state.version, "hint"))
    assert hint.action == found.picks[found.best] == bot.choose(view, legal, rng_of(t, seat))
    assert f"in {found.rounds} deals played on from here it kept you from losing the deal" in hint.reason
    assert times_in(found.shares[found.best]) in hint.reason


# -- Hidden information ----------------------------------------------------------------------------------------------
HIDDEN = [
    # The seat to move holds the same cards in both; everything it cannot see differs.
    ("screw", 4, ["9H", "2C", "JD", "5S"], ["9H", "QC", "3D", "AS"], "4D", "KC"),
    ("chase", 3, ["6C", "2C", "JD"], ["6C", "10S", "4H"], "QS", "2D"),
    (
        "big2",
        4,
        ["3D 4D 4S 6C 7H 8C 9D 10S JH QC KD AS 2S", "3C 5D 5S 6D 7C 8D 9C 10D JD QD KC AD 2D"],
        ["3D 4D 4S 6C 7H 8C 9D 10S JH QC KD AS 2S", "3H 5H 5C 6H 7D 8H 9H 10H JC QH KH AC 2C"],
        "",
        "",
    ),
    ("rank", 3, ["7C 5H 9D 3S KH", "2C 2D 2H 2S JK"], ["7C 5H 9D 3S KH", "QC QD QH QS 4C"], "8H", "8H"),
]


@pytest.mark.parametrize(
    ("key", "players", "one", "other", "rest_one", "rest_other"), HIDDEN, ids=[row[0] for row in HIDDEN]
)
def test_the_hint_reads_only_what_the_seat_can_see(
    key: str, players: int, one: list[str], other: list[str], rest_one: str, rest_other: str
) -> None:
    first, second = table(key, players, one, rest_one), table(key, players, other, rest_other)
    seat = first.state.to_move
    assert seat is not None and seat == second.state.to_move
    assert codec.dumps(first.state.view(seat)) == codec.dumps(second.state.view(seat))
    assert first.state.zones() != second.state.zones()  # (the deals do differ)
    assert hint_now(first) == hint_now(second)


def test_the_trash_hint_reads_no_face_down_card() -> None:
    one, other = trash_after_a_chain("8D"), trash_after_a_chain("KC")  # seat 1's slot 7: face down in both
    assert codec.dumps(one.state.view(1)) == codec.dumps(other.state.view(1))
    assert hint_now(one) == hint_now(other)


def test_words_for_chances() -> None:
    assert chance_words(1 / 12) == "about 1 hand in 12"
    assert times_in(0.6) == "6 times in 10"
