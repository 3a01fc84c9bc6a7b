"""Accessibility (issue 10, point 5): no information by colour alone, readable suit colours in the light themes,
and leaving a table by mouse alone."""

from __future__ import annotations

from typing import Any

import pytest
from textual.color import Color
from textual.theme import BUILTIN_THEMES
from tui_helpers import my_turn, wait_for

from engine.cards import Card, Suit
from tui.apps.parlour import ParlourApp, PlayConfig
from tui.dialogs.confirm import ConfirmScreen
from tui.words import faces

LIGHT = sorted(name for name, theme in BUILTIN_THEMES.items() if not theme.dark and not name.startswith("ansi"))
"""The light themes whose colours Textual knows (the ANSI ones take the terminal's own palette)."""


def luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_suit_differs_by_its_symbol_and_its_letter_not_only_by_colour() -> None:
    cards = [Card.parse(f"10{suit.value}") for suit in Suit]
    assert len({faces.card_text(c) for c in cards}) == 4
    faces.set_faces(plain=True)
    assert [faces.card_text(c) for c in cards] == ["10S", "10H", "10D", "10C"]
    faces.set_faces(four_colour=True)
    assert len({faces.card_style(c) for c in cards}) == 4, "four-colour mode gives each suit its own colour"
    assert len({faces.suit_class(c) for c in cards}) == 4
    faces.set_faces()
    assert len({faces.card_style(c) for c in cards}) == 2


@pytest.mark.parametrize("theme", LIGHT)
def test_red_suits_read_on_every_light_theme(theme: str) -> None:
    """Hearts and diamonds are drawn in the theme's ``text-error``: at least 4.5:1 against its background and its
    surface (WCAG AA for text), so a red card reads in every light theme."""
    variables = BUILTIN_THEMES[theme].to_color_system().generate()
    background, surface = Color.parse(variables["background"]), Color.parse(variables["surface"])
    red = Color.parse(variables["text-error"])
    red = background + red if red.a < 1 else red
    assert min(contrast(red, background), contrast(red, surface)) >= 4.5


async def test_leave_a_table_by_mouse_alone() -> None:
    """The footer's keys are buttons: a click on Quit asks, a click on Stay stays, a click on Leave quits."""
    app = ParlourApp(start=PlayConfig(game="chase", players=5, seed=7), pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: my_turn(pilot))
        table = app.screen

        def quit_keys() -> list[Any]:  # Textual's FooterKey (its module is private: found by its CSS type)
            return [key for key in table.query("FooterKey") if getattr(key, "key", None) == "q"]

        def quit_key() -> Any:
            keys = quit_keys()
            assert keys, "no Quit key in the footer"
            return keys[0]

        # The footer fills in its keys a moment after the table's first frame (once the screen has announced them).
        assert await wait_for(pilot, lambda: bool(quit_keys()))
        await pilot.pause()
        await pilot.click(quit_key())
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#no")
        assert await wait_for(pilot, lambda: app.screen is table)
        await pilot.click(quit_key())
        assert await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click("#yes")
        assert await wait_for(pilot, lambda: not app.is_running)
