"""The title bar: the app's title and the screen's subtitle as Textual's Header draws them, kept up to date, and
its icon opening the command palette."""

from __future__ import annotations

from textual.command import CommandPalette
from tui_helpers import settled

from tui.apps.parlour import ParlourApp
from tui.widgets.title_bar import TitleBar


async def test_the_bar_shows_the_title_follows_the_subtitle_and_its_icon_opens_the_palette() -> None:
    app = ParlourApp()
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settled(pilot)
        bar = app.screen.query_one(TitleBar)
        line = str(bar.render())
        assert len(line) == 80 and line.startswith(" ⭘ ") and "Parlour — Main menu" in line
        assert line.index("Parlour") == 8 + (80 - 8 - 10 - len("Parlour — Main menu")) // 2  # centred as Header does
        app.screen.sub_title = "Somewhere else"
        await pilot.pause()
        assert "Parlour — Somewhere else" in str(bar.render())
        await pilot.hover(TitleBar, offset=(1, 0))
        assert bar.tooltip == "Open the command palette"
        await pilot.hover(TitleBar, offset=(40, 0))
        assert bar.tooltip is None
        await pilot.click(TitleBar, offset=(1, 0))
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_a_long_title_is_cut_with_an_ellipsis() -> None:
    app = ParlourApp()
    async with app.run_test(size=(40, 12)) as pilot:
        assert await settled(pilot)
        bar = app.screen.query_one(TitleBar)
        app.screen.sub_title = "a subtitle far too long for the room there is"
        await pilot.pause()
        line = str(bar.render())
        assert len(line) == bar.size.width and "…" in line and line.endswith(" " * 10)
