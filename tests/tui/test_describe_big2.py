"""describe_big2(): Big Two events in plain words."""

from __future__ import annotations

from engine.cards import Card, parse_cards
from engine.games.big2 import DealOver, DealStarted, HandDealt, MatchOver, Passed, Played, RoundWon, loss
from tui.describe_big2 import describe_big2, signed

NAMES = ("You", "Ana", "Ben", "Cleo")


def test_deal_started() -> None:
    lead = Card.parse("3D")
    assert describe_big2(DealStarted(deal=2, counts=(13,) * 4, leader=0, lead_card=lead), NAMES, 0) == (
        "Deal 2 — you hold the 3♦ and lead"
    )
    assert describe_big2(DealStarted(deal=1, counts=(13,) * 4, leader=3, lead_card=lead), NAMES, 0) == (
        "Deal 1 — Cleo holds the 3♦ and leads"
    )


def test_hands_are_not_logged() -> None:
    assert describe_big2(HandDealt(seat=0, cards=tuple(parse_cards("3D 4S")), count=2), NAMES, 0) is None


def test_played() -> None:
    pair = Played(seat=2, cards=tuple(parse_cards("9D 9S")), kind="pair", description="a pair of 9s", left=7)
    assert describe_big2(pair, NAMES, 0) == "Ben plays a pair of 9s (9♦ 9♠) — 7 left"
    single = Played(seat=0, cards=(Card.parse("2S"),), kind="single", description="the 2♠", left=1)
    assert describe_big2(single, NAMES, 0) == "You play the 2♠ — 1 card left!"
    out = Played(seat=1, cards=(Card.parse("AS"),), kind="single", description="the A♠", left=0)
    assert describe_big2(out, NAMES, 0) == "Ana plays the A♠ — out of cards!"


def test_passed_and_round_won() -> None:
    assert describe_big2(Passed(seat=3), NAMES, 0) == "Cleo passes"
    assert describe_big2(Passed(seat=0), NAMES, 0) == "You pass"
    assert describe_big2(RoundWon(seat=3), NAMES, 0) == "Cleo wins the round and leads"
    assert describe_big2(RoundWon(seat=0), NAMES, 0) == "You win the round and lead"


def test_deal_over_and_match_over() -> None:
    left = tuple(parse_cards("4C 5C 2S"))
    lost = loss(left)
    deal = DealOver(
        winner=1, hands=((), (), left, ()), losses=(None, None, lost, None), deltas=(0, 6, -6, 0), totals=(0, 6, -6, 0)
    )
    assert describe_big2(deal, NAMES, 0) == "Ana wins the deal: +6"
    assert describe_big2(MatchOver(totals=(6, 6, -12, 0), winners=(0, 1)), NAMES, 0) == (
        "You and Ana win the match with +6"
    )
    assert describe_big2(MatchOver(totals=(-1, 6, -5, 0), winners=(1,)), NAMES, 0) == "Ana wins the match with +6"
    assert signed(-4) == "−4" and signed(0) == "0"
