"""The tables' footer greys and lights its keys in place, and is rebuilt only when the keys themselves change (a
table refreshes its bindings after every move it draws: rebuilding the footer each time cost a quarter of a game's
time)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from tui_helpers import wait_for

from tui.widgets.key_footer import KeyFooter


class Table(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "play", "Play"),
        Binding("x", "pass_turn", "Pass"),
        Binding("c", "clear", "Clear"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.may_play = True
        self.may_clear = False

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play":
            return True if self.may_play else None  # greyed
        if action == "clear":
            return self.may_clear  # hidden unless there is something to clear
        return True

    def action_play(self) -> None:
        self.played = True


class FooterApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Table())


def keys_of(screen: Screen[None]) -> dict[str, Any]:
    """The footer's keys by action (Textual's FooterKey: its module is private, so found by its CSS type)."""
    return {key.action: key for key in screen.query("FooterKey")}


async def test_keys_are_greyed_in_place_and_rebuilt_only_when_they_change() -> None:
    app = FooterApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, Table)
        shown = keys_of(table)
        assert set(shown) == {"play", "pass_turn", "command_palette"}
        assert not shown["play"].has_class("-disabled")

        table.may_play = False
        table.refresh_bindings()
        await pilot.pause()
        after = keys_of(table)
        assert after["play"] is shown["play"] and after["pass_turn"] is shown["pass_turn"]  # not rebuilt
        assert after["play"].has_class("-disabled") and not after["pass_turn"].has_class("-disabled")

        table.refresh_bindings()  # nothing changed: nothing done
        await pilot.pause()
        assert keys_of(table)["play"] is shown["play"]

        table.may_play = True
        table.may_clear = True  # a key appears: the footer is rebuilt with it
        table.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        rebuilt = keys_of(table)
        assert set(rebuilt) == {"play", "pass_turn", "clear", "command_palette"}
        assert rebuilt["play"] is not shown["play"]
        assert not rebuilt["play"].has_class("-disabled")

        await pilot.press("p")  # the key works as ever
        assert getattr(table, "played", False)


async def test_with_another_textual_a_greyed_key_rebuilds_the_footer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Greying in place sets what Textual's footer key keeps private: with a Textual not checked, the footer is
    rebuilt instead (as Textual's own is), and the key comes greyed."""
    from tui.widgets import key_footer

    monkeypatch.setattr(key_footer, "textual_checked", lambda: False)
    app = FooterApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, Table)
        shown = keys_of(table)
        table.may_play = False
        table.refresh_bindings()
        # The footer is recomposed: its keys come back once it has mounted them again.
        assert await wait_for(pilot, lambda: keys_of(table).get("play") not in (None, shown["play"]))
        after = keys_of(table)
        assert after["play"] is not shown["play"] and after["play"].has_class("-disabled")
        table.refresh_bindings()  # nothing changed: nothing done
        await pilot.pause()
        assert keys_of(table)["play"] is after["play"]
