"""Big Two's walkthrough beyond the generic checks: an asked move is one the player can pick from the legal
actions, the player's words name cards with suit symbols, and the position reads as the engine has it."""

from __future__ import annotations

import re

from engine.registry import get_entry, walkthrough_of
from engine.walkthrough import Step, Walk, Walkthrough

ENTRY = get_entry("big2")
GAME = ENTRY.game
CARD_CODE = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")


def walkthrough() -> Walkthrough:
    made = walkthrough_of(ENTRY)
    assert made is not None
    return made


def opened(step: Step) -> Walk:
    return Walk(GAME, GAME.options(ENTRY.preset), step)


def step_titled(title: str) -> Step:
    return next(step for step in walkthrough().steps if step.title == title)


def test_an_asked_move_is_one_of_the_listed_actions() -> None:
    asked = 0
    for step in walkthrough().steps:
        walk = opened(step)
        while not walk.done:
            move = walk.next_move
            assert move is not None
            if move.asked:
                asked += 1
                chosen = [action for action in walk.state.legal_actions() if walk.refusal(action) is None]
                assert [str(action) for action in chosen] == [move.action], step.title
                walk.make(chosen[0])
            else:
                walk.make()
    assert asked >= len(walkthrough().steps)


def test_the_words_name_cards_with_suit_symbols() -> None:
    for step in walkthrough().steps:
        words = [step.title, step.intro] + [text for move in step.moves for text in (move.says, move.ask)]
        for text in words:
            assert not CARD_CODE.search(text), f"{step.title}: {text!r}"


def test_the_table_shows_every_hand_the_set_aside_cards_and_the_opening_card() -> None:
    wt = walkthrough()
    step = wt.steps[0]
    walk = opened(step)
    assert wt.table is not None
    lines = wt.table(walk.state, step.seat_names())
    for seat, name in enumerate(step.seat_names()):
        cards = " ".join(card.pretty() for card in walk.state.zones()[f"hand {seat}"])
        assert f"{name} (13 cards): {cards}" in lines
    assert "On the table: nothing yet; the first play of the deal must include the 3♦" in lines
    assert "To play: You" in lines
    assert "Set aside, out of this deal: 26 cards" in lines
    assert lines[-1] == "Deal 1 of 4; totals: You 0, Ada 0"
    walk.make()
    lines = wt.table(walk.state, step.seat_names())
    assert "On the table: a pair of 3s (3♦ 3♠), played by You" in lines
    assert "You (11 cards): 5♣ 6♥ 7♦ 8♠ 9♣ 10♥ J♦ Q♠ K♣ A♥ 2♦" in lines


def test_the_table_of_three_players_shows_who_has_passed() -> None:
    wt = walkthrough()
    step = step_titled("Pass now, play later")
    walk = opened(step)
    assert wt.table is not None
    lines = wt.table(walk.state, step.seat_names())
    assert "On the table: the 6♥, played by Ben" in lines
    assert not any(line.startswith("Set aside") for line in lines)
    walk.make()
    assert any(line.startswith("You (17 cards, has passed): ") for line in wt.table(walk.state, step.seat_names()))


def test_the_match_step_opens_on_the_last_deal_and_the_totals_decide() -> None:
    wt = walkthrough()
    step = step_titled("Four deals make a match")
    walk = opened(step)
    assert wt.table is not None
    assert wt.table(walk.state, step.seat_names())[-1] == "Deal 4 of 4; totals: You −26, Ada +26"
    walk.play_out()
    assert walk.state.result is not None and walk.state.result.winners == (0,)
    assert wt.table(walk.state, step.seat_names())[-1] == "Deal 4 of 4; totals: You +26, Ada −26"


def test_each_house_rule_has_its_own_step() -> None:
    shown = {key for step in walkthrough().steps for key in step.variants}
    assert shown == {variant.key for variant in GAME.variants}
