"""One way to move around (issue 10, point 2 and 3): the same keys on every table, the question before leaving a
match, ``?`` for every key, the log from the keyboard, the footer and the palette agreeing with what can be done,
and a refused move said once, in the status line."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import Button, Footer
from tui_helpers import my_turn, table_of, table_screen, wait_for

from engine.games.rank.rules import DRAW
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.keys import GAME, SHARED, TEXTUAL, KeysScreen
from tui.dialogs.results import MatchSummary, ResultsScreen
from tui.dialogs.round_over import RESULTS, RoundOverScreen, next_bindings
from tui.games.chase.reveal import RevealScreen
from tui.games.rank.table import RankTableScreen
from tui.screens.menu import MenuScreen
from tui.screens.table import TableScreen
from tui.widgets.card import CardFace
from tui.widgets.event_log import EventLog

CHASE = PlayConfig(game="chase", players=5, seed=7)
GAMES = [
    PlayConfig(game="screw", players=4, seed=3),
    PlayConfig(game="big2", players=4, seed=3),
    PlayConfig(game="trash", players=2, seed=3),
    PlayConfig(game="rank", players=4, seed=3),
]


def shown_keys(screen: TableScreen) -> dict[str, str]:
    """The keys the footer shows now, with their labels."""
    return {key: b.binding.description for key, b in screen.active_bindings.items() if b.binding.show}


@pytest.mark.parametrize("config", GAMES, ids=[c.game for c in GAMES])
async def test_every_table_has_the_same_keys_and_q_asks_first(config: PlayConfig) -> None:
    """Every table: the same keys in the footer, q and m asking first, and below the table's smallest size a
    notice saying how large the window must be (the table back when it is)."""
    app = ParlourApp(start=config, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        table = table_screen(pilot)
        assert await wait_for(pilot, lambda: table.snapshot is not None)
        need_w, need_h = table.MIN_SIZE
        await pilot.resize_terminal(need_w - 1, need_h)
        assert await wait_for(pilot, lambda: table.has_class("-too-small"))
        notice = table.query_one("#too-small")
        assert notice.display and not table.query_one("#body").display
        assert f"at least {need_w}x{need_h}" in str(notice.render())
        await pilot.resize_terminal(need_w, need_h)
        assert await wait_for(pilot, lambda: not table.has_class("-too-small"))
        assert table.query_one("#body").display and not notice.display
        await pilot.resize_terminal(100, 30)
        keys = shown_keys(table)
        assert keys.get("q") == "Quit" and keys.get("m") == "Menu" and keys.get("r") == "Rules"
        assert keys.get("question_mark") == "Keys"
        # q while the match is on: a question, and n (or Esc) keeps you at the table.
        await pilot.press("q")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question == "Quit Parlour?"
        await pilot.press("n")
        assert await wait_for(pilot, lambda: app.screen is table)
        assert app.is_running
        # m: the same question, and y leads to the main menu.
        await pilot.press("m")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question == "Back to the menu?"
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is table)
        await pilot.press("m")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert app.host is None, "the table was left running"


async def test_y_quits_and_ctrl_q_twice_quits() -> None:
    app = ParlourApp(start=CHASE, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        await pilot.press("ctrl+q")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("ctrl+q")
        assert await wait_for(pilot, lambda: not app.is_running)


async def test_q_in_the_reveal_asks_and_the_menu_key_is_in_the_palette() -> None:
    app = ParlourApp(start=CHASE, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        await pilot.press("s")
        assert await wait_for(pilot, lambda: isinstance(app.screen, RevealScreen))
        reveal = app.screen
        assert isinstance(reveal, RevealScreen)
        # The table shows the hand as it ended behind the dialog: your card is the one the reveal shows.
        mine = dict(reveal.reveal.cards)[0]
        assert table_of(pilot).query_one("#my-card", CardFace).card == mine
        await pilot.press("q")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        assert await wait_for(pilot, lambda: app.screen is reveal)
        table = table_of(pilot)
        titles = {command.title for command in app.get_system_commands(table)}
        assert {"Main menu", "Quit", "Toggle rules"} <= titles


async def test_question_mark_shows_every_key_and_hides_them_again() -> None:
    app = ParlourApp(start=CHASE, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: app.screen is table)
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is table)


@pytest.mark.parametrize("game", ["big2", "chase", "trash", "rank"])
async def test_the_keys_dialog_lists_the_games_keys_first_and_leaves_the_table_whole(game: str) -> None:
    app = ParlourApp(start=PlayConfig(game=game, players=3, seed=3, name="Ann"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.region.width == 80)
        table = app.screen
        before = {widget.id: widget.region for widget in table.query("*") if widget.id}
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        dialog = app.screen
        assert isinstance(dialog, KeysScreen)
        sections = [row.section for row in dialog.rows]
        assert sections == sorted(sections) and sections[0] == GAME  # the game's own keys come first
        shared = [row.what for row in dialog.rows if row.section == SHARED]
        assert any("Quit" in what for what in shared) and any("rules" in what for what in shared)
        assert not any(row.keys == "tab" for row in dialog.rows if row.section != TEXTUAL)
        # The table behind is laid out exactly as it was: nothing docked beside it squeezes it.
        assert {widget.id: widget.region for widget in table.query("*") if widget.id} == before
        texts = [str(widget.render()) for widget in dialog.query(".keys-section")]
        assert texts[0] == "This game"
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: app.screen is table)


async def test_the_log_scrolls_from_the_keyboard() -> None:
    app = ParlourApp(start=CHASE, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        log = table.query_one(EventLog)
        for n in range(80):
            log.add(f"line {n}")
        assert await wait_for(pilot, lambda: log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y)
        bottom = log.scroll_y
        await pilot.press("pageup")
        assert await wait_for(pilot, lambda: log.scroll_y < bottom)
        await pilot.press("ctrl+home")
        assert await wait_for(pilot, lambda: log.scroll_y == 0)
        await pilot.press("ctrl+end")
        assert await wait_for(pilot, lambda: log.scroll_y == log.max_scroll_y)


async def test_a_key_greyed_in_the_footer_is_refused_once_in_the_status_line() -> None:
    app = ParlourApp(start=PlayConfig(game="rank", players=2, seed=5, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = None
        for _ in range(60):  # play until a normal play is held: then drawing is not allowed
            assert await wait_for(pilot, lambda: my_turn(pilot))
            screen = table_screen(pilot)
            assert isinstance(screen, RankTableScreen)
            table = screen
            if DRAW not in table.legal:
                break
            await pilot.press("d")
        assert table is not None and DRAW not in table.legal
        drawn = table.active_bindings["d"]
        assert drawn.binding.description == "Draw" and not drawn.enabled, "the footer offers a draw"
        before = table.session.snapshot()
        await pilot.press("d")
        assert await wait_for(pilot, lambda: table.refusal is not None)
        assert "draw" in (table.refusal or "").lower()
        assert table.refusal in table.status_text
        assert table.session.snapshot() == before
        assert not app.notices, "the refusal was repeated in a toast"


class LastHand(RoundOverScreen):
    NEXT = "Next hand"
    BINDINGS: ClassVar[list[BindingType]] = next_bindings(NEXT)

    def __init__(self, last: bool) -> None:
        super().__init__()
        self.is_last = last

    def compose(self) -> ComposeResult:
        yield self.next_button(self.is_last)
        yield Footer()


@pytest.mark.parametrize("last", [False, True])
async def test_a_rounds_dialog_and_its_footer_say_the_same(last: bool) -> None:
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = LastHand(last)
        await app.push_screen(dialog)
        await pilot.pause()
        label = RESULTS if last else "Next hand"
        assert str(dialog.query_one(Button).label) == f"{label} (Enter)"
        assert dialog.active_bindings["enter"].binding.description == label
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: app.screen is not dialog)


async def test_escape_on_the_results_goes_back_to_the_menu() -> None:
    app = ParlourApp(start=CHASE, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        summary = MatchSummary(title="Chase the Ace", winner="Ann wins", places=((1, "Ann"),), pot=None, seed=7)
        app.push_screen(ResultsScreen(summary), callback=table._results_chosen)
        assert await wait_for(pilot, lambda: isinstance(app.screen, ResultsScreen))
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
