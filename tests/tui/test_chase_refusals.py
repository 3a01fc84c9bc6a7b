"""Screw Your Neighbor and Chase the Ace refuse a move in words: a King you hold, a King shown to your left, the
dealer's own move pressed by another player, the dealer asking to trade; each in the card faces chosen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.pilot import Pilot
from tui_helpers import ScriptedApp, wait_for

from engine.cards import parse_cards
from engine.game import Scenario
from engine.play.table_host import TableHost
from engine.registry import get_entry
from engine.table import Table
from tui.games.chase.table import ChaseTableScreen
from tui.words.faces import set_faces


def stacked(key: str, cards: str, dealer: int) -> ScriptedApp:
    """A table of ``key`` (screw or chase) whose first hand deals ``cards`` (one per seat, seat 0 first; you are seat
    0, bots the others) with ``dealer`` dealing."""
    game = get_entry(key).game
    hands = [parse_cards(card) for card in cards.split()]
    order = game.deck_for(len(hands), dealer, hands)
    scenario = Scenario(decks=(tuple(order),), dealer=dealer)
    bots = [None] + ["easy"] * (len(hands) - 1)
    return ScriptedApp(TableHost(Table.create(key, players=len(hands), seed=1, bots=bots, scenario=scenario), pace=0))


@pytest.fixture(params=[False, True], ids=["symbols", "letters"])
def letters(request: pytest.FixtureRequest) -> Iterator[bool]:
    yield request.param
    set_faces()


async def refusal_after(pilot: Pilot, app: ScriptedApp, key: str, letters: bool) -> str:
    """The status line's refusal once it is your turn and ``key`` is pressed."""
    assert await wait_for(pilot, lambda: isinstance(app.screen, ChaseTableScreen) and bool(app.screen.legal))
    table = app.screen
    assert isinstance(table, ChaseTableScreen)
    set_faces(plain=letters)
    before = table.session.snapshot()
    await pilot.press(key)
    assert await wait_for(pilot, lambda: table.refusal is not None)
    assert table.session.snapshot() == before  # refused: nothing changed
    assert table.refusal is not None
    return table.refusal


async def test_a_king_you_hold_keeps_you_from_trading(letters: bool) -> None:
    app = stacked("screw", "KD 9H 2C", dealer=2)
    async with app.run_test(size=(80, 24)) as pilot:
        why = await refusal_after(pilot, app, "t", letters)
        assert why == f"You hold {'KD' if letters else 'K♦'}: whoever holds a King must stay"


async def test_a_king_shown_to_your_left_blocks_the_trade(letters: bool) -> None:
    app = stacked("chase", "5S KH 2C", dealer=2)
    async with app.run_test(size=(80, 24)) as pilot:
        why = await refusal_after(pilot, app, "t", letters)
        assert isinstance(app.screen, ChaseTableScreen)
        assert why == f"{app.screen.names[1]} to your left shows {'KH' if letters else 'K♥'}: nobody trades into a King"


@pytest.mark.parametrize(("key", "move"), [("screw", "swap with the deck"), ("chase", "cut the pack")])
async def test_the_dealers_key_pressed_by_another_player_says_who_deals(key: str, move: str) -> None:
    app = stacked(key, "5S 9H 2C", dealer=2)
    async with app.run_test(size=(80, 24)) as pilot:
        why = await refusal_after(pilot, app, "d", False)
        assert isinstance(app.screen, ChaseTableScreen)
        assert why == f"Only the dealer may {move}: {app.screen.names[2]} deals this hand"


async def test_the_dealer_asked_to_trade_is_told_what_a_dealer_does() -> None:
    app = stacked("screw", "5S 9H", dealer=0)
    async with app.run_test(size=(80, 24)) as pilot:
        why = await refusal_after(pilot, app, "t", False)
        assert why == "The dealer does not trade: you may stay or swap with the deck (d)"
