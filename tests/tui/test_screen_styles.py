"""Each screen's stylesheets come from its ``CSS_PATH`` (tui.terminal.screen_styles), read when it is first shown, and
it looks the same whatever else was read before it and in whatever order: with only its own files, with every file
of the app, and with every file in the opposite order (Textual keeps the files in the order the screens were
visited, so no rule may depend on that order)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from tui_helpers import my_turn, wait_for

from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.confirm import ConfirmScreen
from tui.dialogs.settings import SettingsScreen
from tui.screens.rules import RulesScreen
from tui.screens.stats import StatsScreen
from tui.screens.table import TableScreen
from tui.terminal.screen_styles import APP_STYLES, STYLE_ORDER, css_paths, styles_dir


def read_files(app: App[Any]) -> list[str]:
    """The app's stylesheet files read so far, in the stylesheet's order."""
    folder = str(styles_dir())
    return [path.rsplit("/", 1)[-1] for path, var in app.stylesheet.source if path.startswith(folder) and not var]


def styles_of(screen: Screen[Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every node of ``screen`` (itself included) and the rules the stylesheet gave it (each value as its repr: a
    layout is an object of its own in each app)."""
    return [
        (repr(node), {key: repr(value) for key, value in node.styles.base._rules.items()})
        for node in screen.walk_children(with_self=True)
    ]


def restyled_with(app: App[Any], screen: Screen[Any], names: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """``screen``'s styles once the app's stylesheet holds the files ``names`` of the app, in that order."""
    stylesheet = app.stylesheet
    folder = str(styles_dir())
    for key in [key for key in stylesheet.source if key[0].startswith(folder) and not key[1]]:
        del stylesheet.source[key]
    for name in names:
        stylesheet.read(styles_dir() / name)
    stylesheet.reparse()
    assert read_files(app) == list(names)
    stylesheet.update(screen)
    return styles_of(screen)


def differences(
    mine: list[tuple[str, dict[str, Any]]], other: list[tuple[str, dict[str, Any]]]
) -> list[tuple[str, dict[str, Any]]]:
    assert [name for name, _ in mine] == [name for name, _ in other]
    return [
        (name, {key: (a.get(key), b.get(key)) for key in a.keys() | b.keys() if a.get(key) != b.get(key)})
        for (name, a), (_, b) in zip(mine, other, strict=True)
        if a != b
    ]


def assert_styled_alike_in_any_order(app: App[Any], screen: Screen[Any]) -> None:
    """``screen`` keeps every rule it has with every stylesheet of the app read, the screens' in the app's order and
    reversed (the app's own, ``base.tcss``, always comes first: it is the app's CSS_PATH, read before any screen's)."""
    own = styles_of(screen)
    screens = [name for name in STYLE_ORDER if name not in APP_STYLES]
    for order in ((*APP_STYLES, *screens), (*APP_STYLES, *reversed(screens))):
        differ = differences(own, restyled_with(app, screen, order))
        assert not differ, (order, differ)


def own_files(screen: Screen[Any]) -> list[str]:
    return [str(path).rsplit("/", 1)[-1] for path in screen.css_path]


TABLES = [
    ("chase", 4, ["table.tcss", "dialogs.tcss", "settings.tcss", "chase.tcss"]),
    ("big2", 4, ["table.tcss", "dialogs.tcss", "settings.tcss", "big2.tcss"]),
    ("trash", 2, ["table.tcss", "dialogs.tcss", "settings.tcss", "trash.tcss"]),
    ("rank", 4, ["table.tcss", "dialogs.tcss", "settings.tcss", "rank.tcss"]),
]


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
@pytest.mark.parametrize(("game", "players", "files"), TABLES)
async def test_a_table_reads_only_its_own_stylesheets_and_looks_as_with_all_in_any_order(
    game: str, players: int, files: list[str], size: tuple[int, int]
) -> None:
    app = ParlourApp(start=PlayConfig(game=game, players=players, seed=3, difficulty="easy"), pace=0)
    async with app.run_test(size=size) as pilot:
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, TableScreen))
        await pilot.pause()
        screen = pilot.app.screen
        assert own_files(screen) == files
        assert read_files(app) == [*APP_STYLES, *files]  # not the menu's, nor the other games', nor the lobby's
        await pilot.press("r")  # the rules pane: its rules are the table's too
        await pilot.pause()
        assert_styled_alike_in_any_order(app, screen)


async def _confirm(app: ParlourApp) -> Screen[Any]:
    return ConfirmScreen("Quit Parlour?", "The match is kept.")


async def _rules(app: ParlourApp) -> Screen[Any]:
    return RulesScreen("# Chase the Ace\n\nSome rules.")


async def _settings(app: ParlourApp) -> Screen[Any]:
    return SettingsScreen(app.settings)


async def _stats(app: ParlourApp) -> Screen[Any]:
    return StatsScreen()


@pytest.mark.parametrize("make", [_confirm, _rules, _settings, _stats])
async def test_the_menu_and_its_dialogs_look_alike_whatever_was_read_and_in_any_order(
    make: Callable[[ParlourApp], Awaitable[Screen[Any]]],
) -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(100, 34)) as pilot:
        assert await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "MenuScreen")
        await pilot.pause()
        menu = pilot.app.screen
        assert read_files(app) == [*APP_STYLES, *own_files(menu)]
        dialog = await make(app)
        await app.push_screen(dialog)
        await pilot.pause()
        assert set(own_files(dialog)) <= set(read_files(app))  # the menu's files hold what its dialogs need
        assert read_files(app) == [*APP_STYLES, *own_files(menu)]
        assert_styled_alike_in_any_order(app, dialog)
        assert_styled_alike_in_any_order(app, menu)


async def test_a_table_visited_after_the_menu_looks_as_one_opened_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Visited after the menu, the table's files come after the menu's (and dialogs.tcss before table.tcss); opened
    at once, they come first: the same table either way."""
    seen: list[list[tuple[str, dict[str, Any]]]] = []
    orders: list[list[str]] = []
    for via_menu in (False, True):
        monkeypatch.setenv("PARLOUR_DATA_DIR", str(tmp_path / str(via_menu)))  # no match of the first run to resume
        config = PlayConfig(game="big2", players=4, seed=3, difficulty="easy")
        app = ParlourApp(start=None if via_menu else config, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            if via_menu:
                assert await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "MenuScreen")
                app.start_game(config)
            assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, TableScreen))
            await pilot.pause()
            orders.append(read_files(app))
            seen.append(styles_of(pilot.app.screen))
    assert orders[0] != orders[1]
    assert not differences(seen[0], seen[1])


async def test_a_dialog_over_a_table_reads_nothing_and_restyles_nothing_else() -> None:
    app = ParlourApp(start=PlayConfig(game="chase", players=3, seed=5, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = pilot.app.screen
        before = read_files(app)
        await pilot.press("ctrl+q")  # the question: may I quit?
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen) and dialog is not table
        assert read_files(app) == before  # its file came with the table's
        assert_styled_alike_in_any_order(app, dialog)


def test_a_file_not_of_the_app_is_refused() -> None:
    with pytest.raises(ValueError, match=r"not a stylesheet of the app: nosuch\.tcss"):
        css_paths("table.tcss", "nosuch.tcss")
    assert css_paths("dialogs.tcss", "base.tcss") == [
        str(styles_dir() / "base.tcss"),
        str(styles_dir() / "dialogs.tcss"),
    ]
