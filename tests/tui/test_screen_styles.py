"""Each screen reads its own stylesheets when first shown (tui.screen_styles), and looks exactly as it would with
every stylesheet of the app read: no rule of another screen's file reaches it, none of its own is missing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from tui_helpers import my_turn, wait_for

from tui import screen_styles
from tui.app import ParlourApp, PlayConfig
from tui.screen_styles import APP_STYLES, STYLE_ORDER, styles_dir
from tui.screens.confirm import ConfirmScreen
from tui.screens.rules import RulesScreen
from tui.screens.session_screen import SessionScreen
from tui.screens.settings import SettingsScreen
from tui.screens.stats import StatsScreen


def read_files(app: App[Any]) -> list[str]:
    """The app's stylesheet files read so far, in the stylesheet's order."""
    folder = str(styles_dir())
    return [path.rsplit("/", 1)[-1] for path, var in app.stylesheet.source if path.startswith(folder) and not var]


def styles_of(screen: Screen[Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every node of ``screen`` (itself included) and the rules the stylesheet gave it."""
    return [(repr(node), dict(node.styles.base._rules)) for node in screen.walk_children(with_self=True)]


def assert_styled_as_by_every_file(app: ParlourApp, screen: Screen[Any]) -> None:
    """``screen`` keeps every rule it has once every stylesheet of the app is read and it is styled again."""
    own = styles_of(screen)
    app.read_styles(STYLE_ORDER)
    assert read_files(app) == list(STYLE_ORDER)
    app.stylesheet.update(screen)
    full = styles_of(screen)
    assert [name for name, _ in own] == [name for name, _ in full]
    differ = [
        (
            name,
            {
                key: (mine.get(key), every.get(key))
                for key in mine.keys() | every.keys()
                if mine.get(key) != every.get(key)
            },
        )
        for (name, mine), (_, every) in zip(own, full, strict=True)
        if mine != every
    ]
    assert not differ, differ


def restyles_of(app: ParlourApp) -> list[Any]:
    """The nodes ``app``'s stylesheet restyles (with everything under them) from now on, as it restyles them."""
    restyled: list[Any] = []
    update = app.stylesheet.update

    def noting(root: Any, animate: bool = False) -> None:
        restyled.append(root)
        update(root, animate=animate)

    app.stylesheet.update = noting  # type: ignore[method-assign]
    return restyled


TABLES = [
    ("chase", 4, ["table.tcss"]),
    ("big2", 4, ["table.tcss", "big2.tcss"]),
    ("trash", 2, ["table.tcss", "trash.tcss"]),
    ("rank", 4, ["table.tcss", "rank.tcss"]),
]


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
@pytest.mark.parametrize(("game", "players", "files"), TABLES)
async def test_a_table_reads_only_its_own_stylesheets_and_looks_as_with_all(
    game: str, players: int, files: list[str], size: tuple[int, int]
) -> None:
    app = ParlourApp(start=PlayConfig(game=game, players=players, seed=3, difficulty="easy"), pace=0)
    async with app.run_test(size=size) as pilot:
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen))
        await pilot.pause()
        # Not the menu's, nor the other games'; the dialogs' come half a second after the table is shown.
        assert [name for name in read_files(app) if name != "dialogs.tcss"] == [*APP_STYLES, *files]
        screen = pilot.app.screen
        await pilot.press("r")  # the rules pane: its rules are the table's too
        await pilot.pause()
        assert_styled_as_by_every_file(app, screen)


async def _confirm(app: ParlourApp) -> Screen[Any]:
    return ConfirmScreen("Quit Parlour?", "The match is kept.")


async def _rules(app: ParlourApp) -> Screen[Any]:
    return RulesScreen("# Chase the Ace\n\nSome rules.")


async def _settings(app: ParlourApp) -> Screen[Any]:
    return SettingsScreen(app.settings)


async def _stats(app: ParlourApp) -> Screen[Any]:
    return StatsScreen()


@pytest.mark.parametrize("make", [_confirm, _rules, _settings, _stats])
async def test_the_menu_and_its_dialogs_look_as_with_every_stylesheet(
    make: Callable[[ParlourApp], Awaitable[Screen[Any]]],
) -> None:
    app = ParlourApp(pace=0)
    async with app.run_test(size=(100, 34)) as pilot:
        assert await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "MenuScreen")
        await pilot.pause()
        assert set(read_files(app)) - {"dialogs.tcss"} == {*APP_STYLES, "menu.tcss"}
        menu = pilot.app.screen
        dialog = await make(app)
        await app.push_screen(dialog)
        await pilot.pause()
        own = {*APP_STYLES, "menu.tcss", *dialog.STYLE_FILES}  # type: ignore[attr-defined]
        assert own <= set(read_files(app)) <= own | {"dialogs.tcss"}
        assert read_files(app) == [name for name in STYLE_ORDER if name in read_files(app)]  # in the one order
        assert_styled_as_by_every_file(app, dialog)
        assert_styled_as_by_every_file(app, menu)


async def test_a_dialog_over_a_table_reads_its_stylesheet_and_restyles_only_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(screen_styles, "SOON", 600.0)  # the dialogs' file not read ahead: the dialog reads it
    app = ParlourApp(start=PlayConfig(game="chase", players=3, seed=5, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = pilot.app.screen
        restyled = restyles_of(app)
        await pilot.press("ctrl+q")  # the question: may I quit?
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen) and "dialogs.tcss" in read_files(app)
        assert restyled == [dialog]  # not the table under it, nor the app
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+q")  # the file is read once: a second dialog restyles nothing more
        await pilot.pause()
        assert restyled == [dialog] and pilot.app.screen is not table
        assert_styled_as_by_every_file(app, dialog)


def test_a_file_not_of_the_app_is_refused() -> None:
    app = ParlourApp()
    with pytest.raises(ValueError, match=r"not a stylesheet of the app: nosuch\.tcss"):
        app.read_styles(["nosuch.tcss"])
    assert not app.read_styles([])


async def test_a_table_reads_its_dialogs_stylesheet_soon_after_it_is_shown_restyling_nothing() -> None:
    app = ParlourApp(start=PlayConfig(game="big2", players=4, seed=3, difficulty="easy"), pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(pilot.app.screen, SessionScreen))
        restyled = restyles_of(app)
        assert await wait_for(pilot, lambda: "dialogs.tcss" in read_files(app))  # (SOON: half a second)
        assert read_files(app) == [*APP_STYLES, "table.tcss", "big2.tcss", "dialogs.tcss"] and not restyled
        assert_styled_as_by_every_file(app, pilot.app.screen)
