"""The Rank table driven by Pilot: a normal play by keys, a card chosen by click, a draw, the Joker's dialogs (a
rank named by key and by click, a follow-up played and declined), keys refused in words, a whole deal to the
penalty table and a whole short match to the results."""

from __future__ import annotations

from textual.pilot import Pilot
from tui_helpers import ScriptedApp, my_turn, wait_for

from engine.cards import JOKER, Card, parse_cards
from engine.game import Scenario
from engine.games.rank.rules import DRAW, PASS, Name, Play, RankPhase, RankView
from engine.play.table_host import TableHost
from engine.registry import get_entry
from engine.table import Table
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.results import ResultsScreen
from tui.games.rank.dialogs import FollowUpScreen, JokerNameScreen, RankDealScreen
from tui.games.rank.table import RankTableScreen
from tui.widgets.event_log import EventLog
from tui.widgets.hand import CARD_WIDTH, HandStrip


def config(seed: int, players: int = 4) -> PlayConfig:
    return PlayConfig(game="rank", players=players, seed=seed, difficulty="easy")


def rank_of(pilot: Pilot) -> RankTableScreen:
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, RankTableScreen):
            return screen
    raise AssertionError(f"no Rank table in {pilot.app.screen_stack}")


def view_of(table: RankTableScreen) -> RankView:
    view = table.session.snapshot().view
    assert isinstance(view, RankView)
    return view


def log_lines(table: RankTableScreen) -> list[str]:
    return table.query_one(EventLog).lines_written


def scripted_app(hands: list[str], starter: str, *, players: int = 2, deals: int = 1, seed: int = 1) -> ParlourApp:
    """An app at a table whose first deal is stacked: you (seat 0) start with ``hands[0]`` on ``starter``; the
    table's ``seed`` chooses the bots' moves (and any reshuffle)."""
    game = get_entry("rank").game
    order = game.deck_for(players, players - 1, [parse_cards(h) for h in hands], parse_cards(starter))
    scenario = Scenario(decks=(tuple(order),), dealer=players - 1)
    table = Table.create(
        "rank", players=players, seed=seed, bots=[None] + ["easy"] * (players - 1), deals=deals, scenario=scenario
    )
    return ScriptedApp(TableHost(table, pace=0))


async def move_cursor_to(pilot: Pilot, card: Card) -> None:
    hand = rank_of(pilot).query_one(HandStrip)
    target = hand.cards.index(card)
    step = "right" if target > hand.cursor else "left"
    for _ in range(abs(target - hand.cursor)):
        await pilot.press(step)
    assert hand.cursor == target
    assert hand.selection == (card,)


async def take_a_turn(pilot: Pilot) -> None:
    """Do the first thing allowed, through the UI: a dialog's key, the hand's Enter, d or x. (The card is chosen
    with the hand's own ``move_to``, not a key per step: a long deal's hands grow large.)"""
    screen = pilot.app.screen
    if isinstance(screen, JokerNameScreen):
        await pilot.press("7")
        return
    if isinstance(screen, FollowUpScreen):
        await pilot.press("1")
        return
    table = rank_of(pilot)
    legal = table.legal
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        table.query_one(HandStrip).move_to(plays[0].card)
        await pilot.press("enter")
    elif DRAW in legal:
        await pilot.press("d")
    elif PASS in legal:
        await pilot.press("x")


def my_move(pilot: Pilot) -> bool:
    return my_turn(pilot) or isinstance(pilot.app.screen, JokerNameScreen | FollowUpScreen)


async def test_a_normal_play_by_keys() -> None:
    app = ParlourApp(start=config(5), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = None
        for _ in range(40):  # play on until a normal play is offered
            assert await wait_for(pilot, lambda: my_move(pilot))
            table = rank_of(pilot)
            view = view_of(table)
            if my_turn(pilot) and view.phase is RankPhase.PLAY and DRAW not in table.legal:
                break
            await take_a_turn(pilot)
        assert table is not None
        view = view_of(table)
        play = [a for a in table.legal if isinstance(a, Play)][-1]
        assert table.turn_text.startswith("Your turn: play ")
        await move_cursor_to(pilot, play.card)
        assert table.status_text == f"Enter plays the {play.card.pretty()}"
        before = len(view.hand)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: f"You play the {play.card.pretty()}" in log_lines(table))
        assert len(view_of(table).hand) <= before  # (you may have come back with two more cards: never more)


async def test_a_draw_and_a_click_that_chooses() -> None:
    app = scripted_app(["9S 9H 4C 4D KS", "3S 3H"], "QC")  # on the Q♣: a King is a normal play
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = rank_of(pilot)
        hand = table.query_one(HandStrip)
        assert hand.selection == (Card.parse("KS"),)  # the cursor starts on the card you may play
        await pilot.click(HandStrip, offset=(1 + 0 * CARD_WIDTH + 1, 2))  # the 4♦: chosen, not played
        await pilot.pause()
        assert hand.selection == (Card.parse("4D"),)
        assert "cannot be played now" in table.status_text
        await pilot.press("d")  # a normal play held: no draw
        await pilot.pause()
        assert "No draw: you hold a normal play" in table.status_text
        await pilot.click(HandStrip, offset=(1 + 4 * CARD_WIDTH + 1, 2))  # the K♠
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: "You play the K♠" in log_lines(table))
        # Ben plays on the King or draws; play on until you have no normal play, then draw with d.
        for _ in range(30):
            assert await wait_for(pilot, lambda: my_move(pilot) or table.session.snapshot().over)
            if table.session.snapshot().over:
                break
            if my_turn(pilot) and DRAW in table.legal:
                stock = view_of(table).stock
                await pilot.press("d")
                assert await wait_for(pilot, lambda: any(line.startswith("You draw the ") for line in log_lines(table)))
                assert view_of(table).stock < stock or view_of(table).pile < 2
                return
            await take_a_turn(pilot)
        raise AssertionError("never had to draw")


async def test_the_joker_named_by_key_and_its_follow_up_played() -> None:
    app = scripted_app(["JK 9S 9H 5C KD", "3S 3H 7D"], "2C")  # no normal play on the 2♣, no Ace: the Joker
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = rank_of(pilot)
        assert table.turn_text == "Your turn: no normal play: a Joker or draw (d)"
        await move_cursor_to(pilot, JOKER)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, JokerNameScreen))
        await pilot.press("6")
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, FollowUpScreen))
        follow = pilot.app.screen
        assert isinstance(follow, FollowUpScreen) and follow.cards == (Card.parse("5C"),)
        assert "You play a Joker" in log_lines(table)
        await pilot.press("1")
        assert await wait_for(pilot, lambda: "You add the 5♣" in log_lines(table))
        assert "You name 6" in log_lines(table)
        assert sorted(map(str, view_of(table).hand)) == ["9H", "9S", "KD"]


async def test_the_joker_named_by_click_and_the_follow_up_declined() -> None:
    app = scripted_app(["JK 9S 9H 5C KD", "3S 3H 7D"], "2C")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = rank_of(pilot)
        await move_cursor_to(pilot, JOKER)
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, JokerNameScreen))
        await pilot.click("#rk-name-0")  # the 10: the 9s are a follow-up
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, FollowUpScreen))
        await pilot.click("#rk-follow-none")
        assert await wait_for(pilot, lambda: "You add no card" in log_lines(table))
        assert Name  # the rank named is in the log
        assert "You name 10" in log_lines(table)
        assert len(view_of(table).hand) == 4


async def test_keys_that_do_nothing_now_are_refused_in_words() -> None:
    app = scripted_app(["9S 9H 4C 4D KS", "3S 3H"], "QC")
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = rank_of(pilot)
        before = table.session.snapshot()
        lines = list(log_lines(table))
        await pilot.press("x")
        await pilot.pause()
        assert "No passing while you can play or draw: play a Jack or a King" in table.status_text
        await move_cursor_to(pilot, Card.parse("9S"))
        await pilot.press("enter")
        await pilot.pause()
        assert "The 9♠ cannot be played now: you hold a normal play" in table.status_text
        assert table.session.snapshot() == before
        assert log_lines(table) == lines


async def test_a_whole_deal_to_the_penalty_table_and_the_results() -> None:
    """A one-deal match played through the UI: the penalty table, then the results. (Seed 5: the deal takes 26 of
    your turns, against 67 with seed 1.)"""
    app = scripted_app(["9S 9H 4C 4D KS", "3S 3H"], "QC", deals=1, seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        deals = 0
        for _ in range(600):
            assert await wait_for(
                pilot, lambda: my_move(pilot) or isinstance(pilot.app.screen, RankDealScreen | ResultsScreen)
            )
            screen = pilot.app.screen
            if isinstance(screen, ResultsScreen):
                break
            if isinstance(screen, RankDealScreen):
                deals += 1
                assert screen.title_text.startswith("Deal 1 of 1 — ")
                assert sum(screen.deal.penalties) == 1
                lines = log_lines(rank_of(pilot))
                assert any("loses the deal: 1 penalty point" in line or "You lose the deal" in line for line in lines)
                await pilot.press("enter")
                continue
            await take_a_turn(pilot)
        assert isinstance(pilot.app.screen, ResultsScreen)
        assert deals == 1
        table = rank_of(pilot)
        assert any(" the match with " in line for line in log_lines(table))
