"""The statistics screen (issue 11): opened with t from the main menu, one row per game, house rules and
opponents' level, and the chosen row's win rate over time and histogram of results."""

from __future__ import annotations

from records_helpers import bot_match, play_out, until
from textual.widgets import DataTable, Static

from engine.records.stats import history, record_game, summary
from tui.apps.parlour import ParlourApp
from tui.screens.menu import MenuScreen
from tui.screens.stats import StatsScreen, histogram, rate_chart, running_rates


async def test_the_statistics_screen_shows_every_group_and_its_charts() -> None:
    for seed in range(4):
        record_game(play_out(bot_match("big2", 2, [None, "easy"], deals=1, seed=seed)), 0)
    record_game(play_out(bot_match("trash", 2, [None, "medium"], seed=9)), 0)
    groups = summary()["groups"]
    assert len(groups) == 2
    app = ParlourApp(pace=0)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert await until(pilot, lambda: not screen.reading and screen.charted == 0)
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        rows = [[str(cell) for cell in table.get_row_at(n)] for n in range(2)]
        big2 = next(row for row in rows if row[0] == "Big Two")
        assert big2[1] == "easy" and big2[2] == "4"
        group = next(g for g in groups if g["game"] == "big2")
        assert big2[3] == str(group["wins"]) and big2[4] == f"{group['win_rate']:.0%}"
        # The highlighted row's charts: the running win rate, and the results.
        shown = groups[table.cursor_row]
        games = history(shown["game"], shown["preset"], shown["level"])
        assert str(screen.query_one("#stats-rate", Static).render()) == rate_chart(running_rates(games))
        scores = [float(game["score"]) for game in games]
        assert str(screen.query_one("#stats-histogram", Static).render()) == histogram(scores)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_no_games_yet_is_said_in_words() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        app.show_stats()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert await until(pilot, lambda: not screen.reading)
        assert "No games finished yet" in str(screen.query_one("#stats-note", Static).render())


async def test_the_statistics_screen_fits_80_columns_and_says_its_plurals() -> None:
    record_game(play_out(bot_match("screw", 5, [None, "hard", "hard", "hard", "hard"], seed=1)), 0)
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_stats()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert await until(pilot, lambda: not screen.reading and screen.charted == 0)
        table = screen.query_one(DataTable)
        await pilot.pause()
        assert table.virtual_size.width <= table.size.width, "a column cut at 80"
        detail = str(screen.query_one("#stats-detail", Static).render())
        assert "1 game," in detail and "(1 games)" not in detail
        assert "1 game" in str(screen.query_one("#stats-histogram", Static).render())
        assert "100%" in str(screen.query_one("#stats-rate", Static).render())
