"""A yes-or-no question over the current screen ("Leave this match?"), and the keys every app shares.

:class:`Navigation` is mixed into both apps (local play and LAN play), so the same keys do the same thing on every
screen: ``q`` (and ``ctrl+q``) quits, ``m`` goes back to the menu (or the lobby) from a table, each asking first
while a match is in progress (not a spectator, who leaves nothing behind); ``?`` shows every key of the screen. A
screen that needs one of those letters for itself (the Joker dialog names the Queen with ``q``) binds it, and its
own binding wins; ``ctrl+q`` still quits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Literal

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.messages import MainMenu
from tui.screen_styles import StylePaths, css_paths
from tui.screens.session_screen import SessionScreen
from tui.widgets.key_footer import KeyFooter

Where = Literal["quit", "menu"]


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


def table_in_stack(app: App[Any]) -> SessionScreen | None:
    """The table screen under whatever dialogs are open, if any."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, SessionScreen):
            return screen
    return None


def navigation_commands(app: Navigation, commands: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Textual's own palette entries, with its Quit (which would leave at once) asking first like ``q``."""
    for command in commands:
        if command.title == "Quit":
            yield SystemCommand(
                "Quit", "Quit Parlour (q; asks first while a match is on)", lambda: app.action_leave("quit")
            )
        else:
            yield command


class Navigation:
    """The keys and the leaving every Parlour app shares (mixed into an :class:`~textual.app.App`)."""

    MENU_LABEL: ClassVar[str] = "Menu"
    """What ``m`` leads back to, as the footer says it."""
    LEAVE_DETAIL: ClassVar[str] = (
        "The match is saved: Parlour offers it again at its next start (unless you begin another game first)."
    )
    """What leaving a match in progress means, said under the question."""

    NAVIGATION_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave('quit')", "Quit", show=False, priority=True),
        Binding("question_mark", "keys", "Keys", tooltip="Show or hide every key of this screen"),
    ]

    def action_keys(self: Any) -> None:
        """Show the keys panel (every key of the focused widget and the screen), or hide it."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def action_leave(self: Any, where: Where) -> None:
        """Quit, or go back to the menu; while a match is in progress, ask first."""
        if isinstance(self.screen, ConfirmScreen):
            if where == "quit":
                self.leave_now(where)  # ctrl+q twice quits
            return
        table = table_in_stack(self)
        if where == "menu" and table is None:
            return
        if table is None or not table.in_progress or table.watching:
            self.leave_now(where)  # (a spectator leaves nothing behind: no seat, no match of theirs)
            return
        question = "Quit Parlour?" if where == "quit" else f"Back to the {self.MENU_LABEL.lower()}?"
        detail = self.LEAVE_DETAIL

        def answered(yes: bool | None) -> None:
            if yes:
                self.leave_now(where)

        self.push_screen(ConfirmScreen(question, detail, yes="Leave", no="Stay"), callback=answered)

    def leave_now(self: Any, where: Where) -> None:
        if where == "quit":
            self.call_later(self.run_action, "quit")  # the app's own quit (ParlourApp closes its table first)
        else:
            self.post_message(MainMenu())


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
