"""describe_big2(): Big Two events in plain words; play_words() and loss_steps(): the words made from the data."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, parse_cards, standard_deck
from engine.games.big2.rules import (
    Big2Game,
    DealOver,
    DealStarted,
    HandCombos,
    HandDealt,
    Passed,
    Played,
    RoundWon,
    encoding,
    loss,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from tui.games.big2.words import describe_big2, loss_steps, play_words, signed

NAMES = ("You", "Ana", "Ben", "Cleo")
GAME = Big2Game()


def test_deal_started() -> None:
    assert describe_big2(RoundStarted(round=2, dealer=3, seats=(0, 1, 2, 3)), NAMES, 0) == "Deal 2 — Cleo deals"
    assert describe_big2(RoundStarted(round=1, dealer=0, seats=(1, 2, 3, 0)), NAMES, 0) == "Deal 1 — you deal"
    lead = Card.parse("3D")
    assert describe_big2(DealStarted(counts=(13,) * 4, leader=0, lead_card=lead), NAMES, 0) == (
        "You hold the 3♦ and lead"
    )
    assert describe_big2(DealStarted(counts=(13,) * 4, leader=3, lead_card=lead), NAMES, 0) == (
        "Cleo holds the 3♦ and leads"
    )


def test_hands_are_not_logged() -> None:
    assert describe_big2(HandDealt(seat=0, cards=tuple(parse_cards("3D 4S")), count=2), NAMES, 0) is None


def test_played() -> None:
    pair = Played(seat=2, cards=tuple(parse_cards("9D 9S")), kind="pair", left=7)
    assert describe_big2(pair, NAMES, 0) == "Ben plays a pair of 9s (9♦ 9♠) — 7 left"
    single = Played(seat=0, cards=(Card.parse("2S"),), kind="single", left=1)
    assert describe_big2(single, NAMES, 0) == "You play the 2♠ — 1 card left!"
    out = Played(seat=1, cards=(Card.parse("AS"),), kind="single", left=0)
    assert describe_big2(out, NAMES, 0) == "Ana plays the A♠ — out of cards!"


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("7H", "single", "the 7♥"),
        ("9D 9S", "pair", "a pair of 9s"),
        ("KS KH KD", "triple", "three of Kings"),
        ("4C 4D KS KH KD", "full_house", "a full house, Kings full"),
        ("2S 2H 2D 2C 3C", "four", "four 2s"),
        ("AS 2H 3D 4C 5S", "straight", "a straight to the 5♠"),
        ("2S 3H 4D 5C 6S", "straight", "a straight to the 6♠"),
        ("10S JH QD KC AH", "straight", "a straight to the A♥"),
        ("3H 7H 9H JH 2H", "flush", "a flush, 2♥ high"),
        ("10H JH QH KH AH", "straight_flush", "a straight flush to the A♥"),
        ("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H JD QC KS", "dragon", "the Dragon"),
    ],
)
def test_play_words(text: str, kind: str, words: str) -> None:
    assert play_words(parse_cards(text), kind) == words


@pytest.mark.parametrize("variants", [(), ("standard-suits",)])
def test_play_words_agree_with_the_rules_api(variants: tuple[str, ...]) -> None:
    """The UI's words for a play are the words ``Combo.describe`` gives in the engine's error messages."""
    options = GAME.options(variants=variants)
    rng = random.Random(len(variants))
    seen = set()
    for _ in range(12):
        deck = standard_deck()
        rng.shuffle(deck)
        for combo in HandCombos(encoding(options).mask(deck[:13]), options).all():
            seen.add(combo.kind)
            assert play_words(combo.cards, combo.kind) == combo.describe()
    assert {"single", "pair", "triple", "straight", "flush", "full_house"} <= seen


@pytest.mark.parametrize(
    ("variants", "left", "steps"),
    [
        ((), "4C", ("1 card: 1",)),
        ((), "4C 5C 2S", ("3 cards: 3", "a 2 left: ×2")),
        ((), "3C 4C 5C 6C 7C 8C 9C 10C 2H 2S", ("10 cards: 10", "more than nine cards: ×2", *["a 2 left: ×2"] * 2)),
        (("pagat-scoring",), "4C 5C 2S", ("3 cards: 3",)),
        (("pagat-scoring",), "3C 4C 5C 6C 7C 8C 9C 10C JC 2C 2D 2H 2S", ("13 cards: 13", "13 cards left: ×3")),
    ],
)
def test_loss_steps(variants: tuple[str, ...], left: str, steps: tuple[str, ...]) -> None:
    options = GAME.options(variants=variants)
    assert loss_steps(loss(parse_cards(left), options), options) == steps


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
    marker = RoundOver(round=1, winners=(1,), deltas=(0, 6, -6, 0), totals=(0, 6, -6, 0), last=False)
    assert describe_big2(marker, NAMES, 0) is None
    assert describe_big2(MatchOver(totals=(6, 6, -12, 0), winners=(0, 1)), NAMES, 0) == (
        "You and Ana win the match with +6"
    )
    assert describe_big2(MatchOver(totals=(-1, 6, -5, 0), winners=(1,)), NAMES, 0) == "Ana wins the match with +6"
    assert signed(-4) == "−4" and signed(0) == "0"
