"""Ctrl+C, pressed out of habit, says how to quit (issue 26): it never quits a Textual app, and at a table it did
nothing visible (Textual's own hint names a key only when one is bound to its ``quit`` action; Parlour's ``q``
asks first). Now a notice says that ``q`` quits, and what becomes of the match."""

from __future__ import annotations

from tui_helpers import table_screen, wait_for

from tui.apps.parlour import ParlourApp, PlayConfig
from tui.screens.menu import MenuScreen
from tui.screens.table import TableScreen

SCREW = PlayConfig(game="screw", players=3, seed=11, difficulty="easy")


async def test_ctrl_c_at_a_table_says_q_quits_and_the_match_is_saved() -> None:
    app = ParlourApp(start=SCREW, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.in_progress)
        screen = table_screen(pilot)
        await pilot.press("ctrl+c")
        assert await wait_for(pilot, lambda: len(app.notices) > 0)
        said = app.notices[-1]
        assert said.startswith("q quits (ctrl+q too), asking first.")
        assert "The match is saved" in said and "\n" not in said
        assert app.is_running and app.screen is screen  # nothing else happened
        await pilot.press("q")  # and q does as it says: asks first
        assert await wait_for(pilot, lambda: app.screen is not screen)
        await pilot.press("ctrl+q")
        assert await wait_for(pilot, lambda: not app.is_running)


async def test_ctrl_c_at_the_menu_says_q_quits() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        await pilot.press("ctrl+c")
        assert await wait_for(pilot, lambda: len(app.notices) > 0)
        assert app.notices[-1] == "q quits Parlour (ctrl+q too)."
