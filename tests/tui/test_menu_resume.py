"""The menu after a match left for it: Resume (saying what it is) goes on exactly where the match stood, Start asks
before a new match replaces it; the menu remembers the game, players and opponents last chosen (in this run and the
next); a Statistics button."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Button, Select, Static
from tui_helpers import my_turn, settled, table_screen, wait_for

from engine.records.paths import autosave_path
from engine.records.saves import save_match
from engine.table import Table
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.confirm import ConfirmScreen
from tui.screens.menu import MenuScreen
from tui.screens.table import TableScreen

BIG2 = PlayConfig(game="big2", players=3, seed=4)


async def leave_for_the_menu(pilot: Pilot, app: ParlourApp) -> int:
    """From your turn at the table, ``m`` and Yes; the version the table was left at."""
    assert await wait_for(pilot, lambda: my_turn(pilot))
    assert app.host is not None and app.host.wait_idle()
    version = app.host.table.state.version
    await pilot.press("m")
    assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("y")
    assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
    return version


def resume_text(app: ParlourApp) -> str | None:
    row = app.screen.query_one("#resume-row")
    return str(app.screen.query_one("#resume-text", Static).render()) if row.display else None


async def test_back_at_the_menu_resume_goes_on_where_the_match_stood() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        version = await leave_for_the_menu(pilot, app)
        text = resume_text(app)
        assert text is not None and text.startswith("Big Two against ")
        assert text.endswith(f"{version} move{'s' * (version != 1)} in")
        assert app.screen.focused is app.screen.query_one("#resume", Button)
        left = app.unfinished
        assert left is not None and left.state.version == version
        await pilot.click("#resume")
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        host = app.host
        assert host is not None and host.table is left and host.table.seed == BIG2.seed
        assert app.unfinished is None


async def test_start_asks_before_a_new_match_replaces_the_unfinished_one() -> None:
    app = ParlourApp(start=BIG2, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await leave_for_the_menu(pilot, app)
        left = app.unfinished
        assert left is not None
        await pilot.click("#start")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.question.startswith("Start a new match of ") and "Big Two against" in dialog.detail
        await pilot.press("n")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert app.unfinished is left and resume_text(app) is not None
        await pilot.click("#start")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.host is not None)
        assert app.unfinished is None and app.host is not None and app.host.table is not left


async def test_a_match_not_taken_up_at_the_start_is_offered_at_the_menu() -> None:
    table = Table.create("screw", players=3, seed=2, bots=[None, "easy", "easy"])
    table.submit(table.state.to_move, "stay") if not table.bot_to_move else table.step_bot()
    save_match(autosave_path(), table)
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen) and resume_text(app) is not None)
        assert "Screw Your Neighbor against " in (resume_text(app) or "") and "1 move in" in (resume_text(app) or "")
        await pilot.press("g")
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.host is not None and app.host.table.state.version >= 1


async def test_without_an_unfinished_match_there_is_no_resume() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert resume_text(app) is None
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_the_menu_remembers_the_game_players_and_opponents_chosen() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        menu = app.screen
        menu.query_one("#game", Select).value = "trash"
        # (once the menu has set out Trash's choices: its players, levels and house rules)
        assert await wait_for(pilot, lambda: bool(menu.query("#variant-match")))
        await pilot.pause()
        menu.query_one("#players", Select).value = 3
        menu.query_one("#difficulty", Select).value = "hard"
        assert await wait_for(
            pilot,
            lambda: (
                (menu.query_one("#players", Select).value, menu.query_one("#difficulty", Select).value) == (3, "hard")
            ),
        )
        await pilot.click("#start")
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert table_screen(pilot).GAME_KEY == "trash"
        assert await settled(pilot)  # (leaving while the table still mounts tears it down half set up)
    again = ParlourApp(pace=0)  # the next run
    async with again.run_test(size=(80, 24)) as pilot:
        if await wait_for(pilot, lambda: isinstance(again.screen, ConfirmScreen), tries=50):
            await pilot.press("n")  # (the Trash match just started is offered: not taken up)
        assert await wait_for(pilot, lambda: isinstance(again.screen, MenuScreen))
        menu = again.screen
        assert menu.query_one("#game", Select).value == "trash"
        assert menu.query_one("#players", Select).value == 3
        assert menu.query_one("#difficulty", Select).value == "hard"


async def test_the_menu_has_a_statistics_button() -> None:
    from tui.screens.stats import StatsScreen

    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.click("#stats")
        assert await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
