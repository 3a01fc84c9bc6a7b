"""Screw Your Neighbor's and Chase the Ace's walkthrough: what the generic test does not check (the cards its
sentences name are the ones dealt, the two presets' steps on the same deal end differently, its table's lines)."""

from __future__ import annotations

import re

import pytest

from engine.cards import Card
from engine.games.chase.rules import Paid
from engine.games.chase.walkthrough import table, walkthrough
from engine.registry import get_entry
from engine.walkthrough import Step, Walk

CARD = re.compile(r"(10|[2-9AJQK])([♠♥♦♣])")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def texts(step: Step) -> list[str]:
    return [step.intro, *(part for move in step.moves for part in (move.says, move.ask))]


def walk(key: str, title: str) -> Walk:
    entry = get_entry(key)
    step = next(step for step in walkthrough(entry.preset).steps if step.title == title)
    return Walk(entry.game, entry.game.options(entry.preset), step)


@pytest.mark.parametrize("key", ["screw", "chase"])
def test_the_cards_named_are_the_cards_dealt(key: str) -> None:
    for step in walkthrough(key).steps:
        # Each deck deals one card a seat, then the dealer's swap or cut takes the next one.
        stacked = {card for deck in step.scenario.decks for card in deck[: step.players + 1]}
        for text in texts(step):
            for rank, suit in CARD.findall(text):
                assert Card.parse(rank + SUITS[suit]) in stacked, f"{step.title}: {rank}{suit} is not dealt"


def test_no_preset_is_screw() -> None:
    assert [step.title for step in walkthrough(None).steps] == [step.title for step in walkthrough("screw").steps]


def test_a_tie_costs_one_player_in_screw_and_both_in_chase() -> None:
    payers = {}
    for key, title in (("screw", "A tie is broken by suit"), ("chase", "Tied players all pay")):
        tie = walk(key, title)
        tie.play_out()
        payers[key] = [event.seat for event in tie.events if isinstance(event, Paid)]
    assert payers == {"screw": [1], "chase": [0, 1]}


def test_the_table_shows_a_chase_king_face_up_from_the_deal_and_a_screw_king_once_it_blocks() -> None:
    chase = walk("chase", "Kings are face up")
    names = chase.step.seat_names()
    assert table(chase.state, names)[2] == "Ada: K♣ (face up) · 3 tokens + honour"
    screw = walk("screw", "A King blocks a trade")
    assert table(screw.state, names)[2] == "Ada: K♣ · 3 lives"
    screw.make("trade")
    assert table(screw.state, names)[1:3] == [
        "You: 5♥ · 3 lives · trade blocked",
        "Ada: K♣ (face up) · 3 lives · showed a King · to move",
    ]


def test_the_table_shows_who_is_out_the_pot_and_the_winner() -> None:
    end = walk("chase", "The last player left wins")
    end.play_out()
    lines = table(end.state, end.step.seat_names())
    assert "Ada: out" in lines
    assert lines[-2:] == ["Pot: 1 token", "You won the match"]
