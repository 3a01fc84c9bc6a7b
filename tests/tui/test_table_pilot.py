"""The table and the menu driven by Pilot, with fixed seeds and bots that move at once (pace=0)."""

from __future__ import annotations

from textual.widgets import Button, Input, Markdown, Select
from tui_helpers import my_turn, settled, table_of, wait_for

from engine.games.chase.rules import Acted
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.results import ResultsScreen
from tui.games.chase.reveal import RevealScreen
from tui.games.chase.table import ChaseTableScreen
from tui.screens.menu import MenuScreen
from tui.widgets.event_log import EventLog

CHASE_5 = PlayConfig(game="chase", players=5, seed=7)


def log_lines(screen: ChaseTableScreen) -> list[str]:
    return screen.query_one(EventLog).lines_written


async def test_play_a_hand_with_keys() -> None:
    app = ParlourApp(start=CHASE_5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        assert table.view.hand == 1
        await pilot.press("t")
        assert await wait_for(pilot, lambda: isinstance(app.screen, RevealScreen))
        assert any(line.startswith("You traded with Ben: you gave") for line in log_lines(table))
        assert any(line.startswith("Cards up:") for line in log_lines(table))
        # While the reveal is up nobody moves: the host's bots wait for the player.
        version = table.session.snapshot().version
        for _ in range(5):
            await pilot.pause(0.02)
        assert table.round == 1
        assert table.session.snapshot().version == version
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: table.round == 2 and isinstance(app.screen, ChaseTableScreen))
        assert any(line.startswith("Hand 2 — ") for line in log_lines(table))


async def test_play_with_the_mouse() -> None:
    app = ParlourApp(start=CHASE_5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        assert not table.query_one("#stay", Button).disabled
        assert table.query_one("#deck", Button).disabled  # not the dealer
        await pilot.click("#stay")
        assert await wait_for(pilot, lambda: "You stayed" in log_lines(table))
        assert table.session.snapshot().view.acted[0] is Acted.STAYED or isinstance(app.screen, RevealScreen)


async def test_illegal_key_changes_nothing() -> None:
    app = ParlourApp(start=CHASE_5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        before = table.session.snapshot()
        assert before.view.dealer != 0
        lines = list(log_lines(table))
        await pilot.press("d")  # the dealer's move, and you are not the dealer
        await pilot.pause()
        assert table.session.snapshot() == before
        assert log_lines(table) == lines
        # Called directly (the command palette could), it tells the player instead of raising.
        table.action_cut()
        await pilot.pause()
        assert table.session.snapshot() == before
        assert app.screen is table
        assert "d" not in {key for key, b in table.active_bindings.items() if b.binding.show}


async def test_rules_pane_toggles() -> None:
    app = ParlourApp(start=CHASE_5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        assert not table.query("#rules-pane")  # made the first time it opens
        await pilot.press("r")
        await pilot.pause()
        pane = table.query_one("#rules-pane")
        assert table.rules_open and pane.display
        source = table.query_one("#rules-text", Markdown).source
        assert "# Chase the Ace" in source
        assert "lowest** card pays" in source
        await pilot.press("r")
        await pilot.pause()
        assert not table.rules_open and not pane.display


async def test_full_match_then_play_again() -> None:
    app = ParlourApp(start=PlayConfig(game="screw", players=3, seed=11, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        first = table_of(pilot)
        for _ in range(3000):
            screen = app.screen
            if isinstance(screen, ResultsScreen):
                break
            if isinstance(screen, RevealScreen):
                await pilot.press("enter")
            elif my_turn(pilot):
                await pilot.press("s")
            else:
                await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        summary = app.screen.summary
        assert summary.seed == 11
        assert summary.places[0][0] == 1 and len(summary.places) == 3
        assert first.session.snapshot().over
        assert any("wins the match" in line or "win the match" in line for line in log_lines(first))
        await pilot.click("#again")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ChaseTableScreen) and app.screen is not first)
        again = app.screen
        assert isinstance(again, ChaseTableScreen)
        assert await settled(pilot)
        snap = again.session.snapshot()
        assert snap.view.hand == 1 and not snap.over
        assert app.config is not None and app.config.game == "screw" and app.config.players == 3


async def test_menu_starts_a_game() -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        menu = app.screen
        menu.query_one("#game", Select).value = "chase"
        menu.query_one("#players", Select).value = 3
        menu.query_one("#difficulty", Select).value = "easy"
        menu.query_one("#name", Input).value = "Zed"
        await pilot.pause()
        await pilot.click("#start")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ChaseTableScreen))
        table = table_of(pilot)
        assert table.session.info.names[0] == "Zed"
        assert len(table.session.info.names) == 3
        assert table.session.entry.key == "chase"
        assert app.config is not None and app.config.difficulty == "easy" and app.config.seed is not None
        assert await wait_for(pilot, lambda: table.is_mounted)  # (its title is set once it is mounted)
        assert f"seed {app.config.seed}" in table.sub_title
        assert await settled(pilot)


async def test_command_palette_has_the_game_commands() -> None:
    app = ParlourApp(start=CHASE_5, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = table_of(pilot)
        titles = {command.title for command in app.get_system_commands(table)}
        assert {"Stay", "Trade", "Toggle rules", "Main menu"} <= titles
        # Only what can be done now: you are not the dealer, so no cut.
        assert table.view.dealer != 0 and "Cut the pack" not in titles
        command = next(c for c in app.get_system_commands(table) if c.title == "Toggle rules")
        command.callback()
        await pilot.pause()
        assert table.rules_open


async def test_light_theme_and_results_to_menu() -> None:
    app = ParlourApp(start=PlayConfig(game="chase", players=2, seed=3, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "textual-light"
        for _ in range(3000):
            screen = app.screen
            if isinstance(screen, ResultsScreen):
                break
            if isinstance(screen, RevealScreen):
                await pilot.click("#next")
            elif my_turn(pilot):
                await pilot.press("t" if "trade" in table_of(pilot)._legal_names() else "s")
            else:
                await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert app.screen.summary.pot is not None and app.screen.summary.pot > 0
        await pilot.click("#main-menu")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert await settled(pilot)
        assert app.screen.query_one("#game", Select).value == "chase"


async def test_a_config_that_cannot_be_seated_falls_back_to_the_menu() -> None:
    app = ParlourApp(start=PlayConfig(game="chase", players=11, seed=1), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MenuScreen))
        assert app.config is None
        games = app.screen.query_one("#game", Select)
        for key in ("big2", "screw"):  # Big Two has a table screen now
            games.value = key  # (a Select refuses a value that is not one of its options)
            assert games.value == key
