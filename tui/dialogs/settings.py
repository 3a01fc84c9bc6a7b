"""The settings dialog: your name, theme, card faces, colours, the bell at your turn, pace, and what the menu
starts from for each game.

It opens over whatever is on screen (the menu with ``s``, or a table from the command palette). Nothing changes
until you save (the Save button or ``ctrl+s``): then the settings apply at once, everywhere (the theme, the cards
of the table underneath, the pace of its computer players) and are written to the settings file. ``escape`` or
Cancel closes the dialog and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from engine.cards import Card, Suit
from engine.registry import difficulties
from tui.games import table_entries
from tui.settings.file import NAME_LIMIT, GameDefaults, Settings, name_problem, settings_path, store
from tui.settings.in_app import KeepsSettings, app_settings, apply_settings
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.words.faces import FOUR_COLOURS, RED

__all__ = ["KeepsSettings", "SettingsScreen", "app_settings", "apply_settings", "open_settings"]

BOT_PACES = ((0.0, "No pause"), (0.3, "Quick"), (0.6, "Normal"), (1.0, "Slow"), (2.0, "Very slow"))
"""The paces offered for the computer players, in seconds a move stays on screen before the next."""
CHAIN_PACES = ((0.0, "No pause"), (0.15, "Quick"), (0.35, "Normal"), (0.7, "Slow"), (1.2, "Very slow"))
"""The paces offered for each step of a chain of placements (Trash)."""
FRAME_ROWS = 8
"""Rows of the dialog outside its scrolling form: border, title, problem line, buttons and their margin, footer."""
PREVIEW = tuple(Card.parse(text) for text in ("AS", "10H", "QD", "3C"))
"""One card of each suit, shown as they will look."""


def pace_choices(paces: Sequence[tuple[float, str]], chosen: float) -> list[tuple[str, float]]:
    """The pace list, with ``chosen`` added when the file held a pace of its own (``0.45``)."""
    choices = [(f"{name} ({seconds:g} s)", seconds) for seconds, name in paces]
    if all(seconds != chosen for seconds, _ in paces):
        choices.append((f"Your own ({chosen:g} s)", chosen))
        choices.sort(key=lambda choice: choice[1])
    return choices


def preview(letters: bool, four_colour: bool) -> Content:
    """A card of each suit as it would be written with these choices (not the ones in force)."""
    parts: list[Content] = []
    for card in PREVIEW:
        suit = card.suit
        assert suit is not None
        text = f"{card.rank.text}{suit.value if letters else suit.symbol}"
        if four_colour:
            colour = FOUR_COLOURS[suit]
        else:
            colour = RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else "$text"
        parts.append(Content.styled(text, f"bold {colour}"))
    return Content("  ").join(parts)


def open_settings(app: App[Any], closed: Callable[[Settings | None], None] | None = None) -> None:
    """Open the settings dialog over the current screen (once: a second call while it is open does nothing);
    ``closed`` is called with the saved settings, or None when the dialog was cancelled.

    For the command palette: ``SystemCommand("Settings", ..., partial(open_settings, app))``."""
    if isinstance(app.screen, SettingsScreen):
        return
    app.push_screen(SettingsScreen(app_settings(app), getattr(app, "settings_path", None)), callback=closed)


class SettingsScreen(ModalScreen[Settings | None]):
    """Every setting, by keyboard and mouse; the saved settings are the dialog's result (None: cancelled)."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("settings.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True, tooltip="Save the settings and close"),
        Binding("escape", "cancel", "Cancel", tooltip="Close without changing anything"),
    ]
    AUTO_FOCUS = "#set-name"

    def __init__(self, settings: Settings, path: Path | None = None) -> None:
        super().__init__()
        self.settings = settings
        self.path = path if path is not None else settings_path()

    def compose(self) -> ComposeResult:
        settings = self.settings
        themes = sorted(self.app.available_themes)
        if settings.theme not in themes:
            themes.append(settings.theme)
        with Vertical(id="settings-dialog"):
            yield Static("Settings", id="settings-title")
            with VerticalScroll(id="settings-scroll"):
                with Grid(id="settings-form"):
                    yield Label("Your name")
                    yield Input(value=settings.name, max_length=NAME_LIMIT, compact=True, id="set-name")
                    yield Label("Theme")
                    yield Select(
                        [(name, name) for name in themes],
                        value=settings.theme,
                        allow_blank=False,
                        compact=True,
                        id="set-theme",
                    )
                    yield Label("Card faces")
                    yield Select(
                        [("Suit symbols (10♥)", "symbols"), ("Plain letters (10H)", "letters")],
                        value=settings.faces,
                        allow_blank=False,
                        compact=True,
                        id="set-faces",
                        tooltip="Plain letters for terminals that cannot show ♠ ♥ ♦ ♣",
                    )
                    yield Label("Suit colours")
                    yield Checkbox(
                        "Four colours",
                        value=settings.four_colour,
                        compact=True,
                        id="set-four-colour",
                        tooltip="Diamonds and clubs in colours of their own, for colour-blind players",
                    )
                    yield Label("Looks like")
                    yield Static(preview(settings.faces == "letters", settings.four_colour), id="set-preview")
                    yield Label("Your turn")
                    yield Checkbox(
                        "Ring the bell",
                        value=settings.bell,
                        compact=True,
                        id="set-bell",
                        tooltip="The terminal's bell when your turn comes after a wait (at a LAN table, at 10 s left)",
                    )
                    yield Label("Computer players")
                    yield Select(
                        pace_choices(BOT_PACES, settings.bot_pace),
                        value=settings.bot_pace,
                        allow_blank=False,
                        compact=True,
                        id="set-bot-pace",
                        tooltip="How long each computer player's move stays on screen before the next",
                    )
                    yield Label("Chains (Trash)")
                    yield Select(
                        pace_choices(CHAIN_PACES, settings.chain_pace),
                        value=settings.chain_pace,
                        allow_blank=False,
                        compact=True,
                        id="set-chain-pace",
                        tooltip="How long each step of a chain of placements stays on screen",
                    )
                yield Static("What the menu starts from", id="settings-games-title")
                with Grid(id="settings-games"):
                    yield Label("Game", classes="settings-head")
                    yield Label("Players", classes="settings-head")
                    yield Label("Opponents", classes="settings-head")
                    for entry in table_entries():
                        defaults = settings.game(entry.key)
                        game = entry.game
                        yield Label(entry.title)
                        yield Select(
                            [(str(n), n) for n in range(game.min_players, game.max_players + 1)],
                            value=defaults.players,
                            allow_blank=False,
                            compact=True,
                            id=f"set-players-{entry.key}",
                        )
                        yield Select(
                            [(level.capitalize(), level) for level in difficulties(game)],
                            value=defaults.difficulty,
                            allow_blank=False,
                            compact=True,
                            id=f"set-difficulty-{entry.key}",
                        )
            problem = Static("", id="settings-problem")
            problem.display = False
            yield problem
            with Horizontal(id="settings-buttons"):
                yield Button("Save (ctrl+s)", id="settings-save", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="settings-cancel", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Keep the buttons on screen: the form scrolls when the terminal is too short for all of it."""
        for scroll in self.query("#settings-scroll"):  # none while the app is being torn down
            scroll.styles.max_height = max(3, self.size.height - FRAME_ROWS)

    # -- reading the form --------------------------------------------------------------------------------------
    def _value(self, selector: str, default: Any) -> Any:
        value = self.query_one(selector, Select).value
        return default if value is Select.BLANK else value

    def chosen(self) -> Settings:
        """The settings as the form shows them (the name as typed: :meth:`action_save` checks it)."""
        settings = self.settings
        games = dict(settings.games)
        for entry in table_entries():
            old = settings.game(entry.key)
            games[entry.key] = GameDefaults(
                difficulty=self._value(f"#set-difficulty-{entry.key}", old.difficulty),
                players=self._value(f"#set-players-{entry.key}", old.players),
            )
        faces = self._value("#set-faces", settings.faces)
        return replace(
            settings,
            name=self.query_one("#set-name", Input).value.strip(),
            theme=self._value("#set-theme", settings.theme),
            faces="letters" if faces == "letters" else "symbols",
            four_colour=self.query_one("#set-four-colour", Checkbox).value,
            bell=self.query_one("#set-bell", Checkbox).value,
            bot_pace=float(self._value("#set-bot-pace", settings.bot_pace)),
            chain_pace=float(self._value("#set-chain-pace", settings.chain_pace)),
            games=games,
        )

    @on(Select.Changed, "#set-faces")
    @on(Checkbox.Changed, "#set-four-colour")
    def _show_preview(self) -> None:
        letters = self._value("#set-faces", "symbols") == "letters"
        four = self.query_one("#set-four-colour", Checkbox).value
        self.query_one("#set-preview", Static).update(preview(letters, four))

    # -- closing -----------------------------------------------------------------------------------------------
    def action_save(self) -> None:
        """Apply the settings at once and write them; a name that cannot be used is said, and nothing closes."""
        settings = self.chosen()
        problem = name_problem(settings.name)
        if problem is not None:
            shown = self.query_one("#settings-problem", Static)
            shown.update(Content(f"Your name: {problem}."))
            shown.display = True
            self.query_one("#set-name", Input).focus()
            return
        apply_settings(self.app, settings)
        failure = store(settings, self.path)
        if failure is not None:
            self.app.notify(failure, severity="error", timeout=10, markup=False)
        self.dismiss(settings)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#settings-save")
    def _save_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save()

    @on(Button.Pressed, "#settings-cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    @on(Input.Submitted, "#set-name")
    def _name_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    @on(Input.Changed, "#set-name")
    def _name_changed(self) -> None:
        self.query_one("#settings-problem", Static).display = False
