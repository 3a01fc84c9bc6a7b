"""The rules of a game, as a full screen over whatever was showing; with "Show me" (``e``) when the game has a
walkthrough of its rules (:mod:`tui.screens.walkthrough`)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown

from engine.game import GameEntry
from engine.registry import walkthrough_of
from engine.walkthrough import Walkthrough
from tui.terminal.screen_styles import StylePaths, css_paths

SHOW_ME = "Show me (e)"
"""The button that opens a game's walkthrough, on the rules screen and in a table's rules pane."""
SHOW_ME_TIP = "Each rule played on a deal, a step at a time"


class RulesScreen(ModalScreen[None]):
    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("r", "dismiss", "Close", show=False),
        Binding("f1", "dismiss", "Close", show=False),
        Binding("e", "show_me", "Show me", tooltip=SHOW_ME_TIP),
    ]

    def __init__(self, markdown: str, entry: GameEntry | None = None) -> None:
        """The rules ``markdown``; ``entry``: the game they are of, whose walkthrough "Show me" opens."""
        super().__init__()
        self.markdown = markdown
        self.entry = entry
        self.walkthrough: Walkthrough | None = walkthrough_of(entry) if entry is not None else None

    def compose(self) -> ComposeResult:
        with Vertical(id="rules-dialog"):
            with VerticalScroll(id="rules-scroll"):
                yield Markdown(self.markdown, id="rules-text")
            with Horizontal(id="rules-buttons"):
                if self.walkthrough is not None:
                    yield Button(SHOW_ME, id="rules-show-me", compact=True, tooltip=SHOW_ME_TIP)
                yield Button("Close", id="rules-close", variant="primary", compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_me":
            return self.walkthrough is not None
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rules-show-me":
            self.action_show_me()
        else:
            self.dismiss(None)

    def action_show_me(self) -> None:
        if self.entry is None or self.walkthrough is None:
            return
        from tui.screens.walkthrough import WalkthroughScreen  # (loaded when first asked, as this screen is)

        self.app.push_screen(WalkthroughScreen(self.entry, self.walkthrough))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
