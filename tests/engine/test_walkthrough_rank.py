"""Rank's walkthrough beyond the generic checks: the positions its intros describe, and its table's lines."""

from __future__ import annotations

from engine.cards import Card, Rank
from engine.games.rank import walkthrough as rank_walkthrough
from engine.games.rank.rules import RankGame, RankState
from engine.walkthrough import Step, Walk, Walkthrough

GAME = RankGame()


def made() -> Walkthrough:
    return rank_walkthrough.walkthrough("rank")


def step(title: str) -> Step:
    return next(each for each in made().steps if each.title == title)


def opened(title: str) -> tuple[Walk, list[str]]:
    chosen = step(title)
    walk = Walk(GAME, GAME.options("rank"), chosen)
    table = made().table
    assert table is not None
    return walk, table(walk.state, chosen.seat_names())


def test_the_first_dealer_is_drawn_by_lot() -> None:
    chosen = step("The deal")
    assert chosen.scenario.dealer is None
    walk, lines = opened("The deal")
    assert walk.state.progress.dealer == 2
    assert "(Ben dealt)" in lines[0]


def test_the_empty_stock_is_reached_as_the_intro_says() -> None:
    walk, lines = opened("The stock runs out")
    state: RankState = walk.state
    assert not state.stock and len(state.pile) == 16 and state.pile[-1] == Card.parse("10S")
    held = [card for hand in state.hands for card in hand]
    assert not any(card.rank in (Rank.NINE, Rank.JACK) for card in held)
    assert not any(card.rank in (Rank.ACE, Rank.JOKER) for card in state.hands[0])
    assert "Stock: empty" in lines and "Pile: 10♠ on top (16 cards)" in lines


def test_the_table_shows_every_hand_and_keeps_the_stock_face_down() -> None:
    _, lines = opened("Drawing a card")
    assert lines[1:] == [
        "Pile: 6♣ on top (1 card)",
        "Stock: 43 cards, face down",
        "You (5 cards): 2♣ 9♥ 10♠ J♣ K♦",
        "Ada (5 cards): 2♦ 3♠ 4♥ 10♦ Q♣",
        "To play: You",
    ]


def test_the_table_names_a_joker_a_pending_exit_and_a_player_out() -> None:
    walk, _ = opened("A Joker, and no card added")
    walk.play_out()
    table = made().table
    assert table is not None
    assert "Pile: Joker (named 6) on top (3 cards)" in table(walk.state, ("You", "Ada"))
    walk, _ = opened("Out for good")
    walk.make()
    assert "You: no cards, exit pending" in table(walk.state, ("You", "Ada", "Ben"))
    walk.make()
    assert "You: out (1st)" in table(walk.state, ("You", "Ada", "Ben"))
