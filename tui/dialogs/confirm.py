"""A yes-or-no question over the current screen ("Leave this match?"), and a question with several answers.

The keys every app shares, which ask these questions before leaving a match, are :mod:`tui.apps.navigation`'s.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.key_footer import KeyFooter


class ConfirmScreen(ModalScreen[bool]):
    """Ask one question; ``y`` or Enter on the first button says yes, ``n`` or Esc says no."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, question: str, detail: str = "", yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes, self.no = yes, no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(Content(self.question), id="confirm-question")
            if self.detail:
                yield Static(Content(self.detail), id="confirm-detail")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="error", compact=True)
                yield Button(f"{self.no} (n)", id="no", variant="primary", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # Enter on the focused button: staying is the safe default

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")


class ChoiceScreen(ModalScreen[str | None]):
    """Ask one question with several answers, each a button with its key; Esc (or the last answer, the safe one,
    focused first) says None."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")
    DEFAULT_CSS = """
    ChoiceScreen {
        align: center middle;
        background: $background 60%;
    }
    ChoiceScreen #confirm-dialog {
        width: 64;
    }
    ChoiceScreen #choice-buttons {
        height: auto;
        align: center middle;
    }
    ChoiceScreen #choice-buttons Button {
        width: 100%;
        margin: 0 0 0 0;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "choose('')", "Stay", show=False)]

    def __init__(self, question: str, detail: str, choices: list[tuple[str, str, str]]) -> None:
        """``choices``: (answer, label, key) each; the last is the one that changes nothing (None is answered)."""
        super().__init__()
        self.question = question
        self.detail = detail
        self.choices = choices

    def on_key(self, event: events.Key) -> None:
        """Each answer's key (shown on its button) answers it."""
        for answer, _label, key in self.choices:
            if event.key == key:
                event.stop()
                self.action_choose(answer)
                return

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Static(Content(self.question), id="confirm-question")
            if self.detail:
                yield Static(Content(self.detail), id="confirm-detail")
            with Vertical(id="choice-buttons"):
                last = len(self.choices) - 1
                for number, (answer, label, key) in enumerate(self.choices):
                    yield Button(
                        f"{label} ({key})",
                        id=f"choice-{answer}",
                        variant="primary" if number == last else "default",
                        compact=True,
                    )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(f"#choice-{self.choices[-1][0]}", Button).focus()  # Enter: the answer that changes nothing

    def action_choose(self, answer: str) -> None:
        last = self.choices[-1][0]
        self.dismiss(None if answer in ("", last) else answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose((event.button.id or "").removeprefix("choice-"))
