"""The dialog at the end of a hand or deal: the table holds back the next round until the player dismisses it."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Button

from tui.terminal.screen_styles import StylePaths, css_paths

RESULTS = "See the results"
"""What going on leads to after the last round."""


DIALOG_KEYS: list[BindingType] = [
    Binding("q", "app.leave('quit')", "Quit", tooltip="Quit Parlour (asks first while a match is on)"),
    Binding("question_mark", "app.keys", "Keys", show=False),
]
"""The app's own keys, which a modal dialog would otherwise swallow (only priority keys pass a modal screen)."""


def next_bindings(label: str) -> list[BindingType]:
    """The keys that go on to the next round, shown in the footer as ``label`` (or, after the last round, as
    :data:`RESULTS`, like the button: ``check_action`` shows one of each pair)."""
    return [
        Binding("enter", "next", label, priority=True),
        Binding("enter", "results", RESULTS, priority=True),
        Binding("space", "next", label, show=False, priority=True),
        Binding("space", "results", RESULTS, show=False, priority=True),
        Binding("n", "next", label, show=False),
        Binding("escape", "next", label, show=False),
        Binding("escape", "results", RESULTS, show=False),
        *DIALOG_KEYS,
    ]


class RoundOverScreen(ModalScreen[None]):
    """Base of the end-of-round dialogs: Enter, space, n, Esc or the button dismisses it.

    Subclasses set ``NEXT`` and ``BINDINGS = next_bindings(NEXT)``, and compose a :meth:`next_button`.
    """

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    NEXT: ClassVar[str] = "Next"
    """What going on leads to, as the button and the footer say it."""

    last: bool = False
    """Is this the match's last round (going on leads to the results)?"""

    def next_button(self, last: bool) -> Button:
        """The button that goes on; after the last round it leads to the results instead."""
        self.last = last
        label = RESULTS if last else self.NEXT
        return Button(f"{label} (Enter)", id="next", variant="primary", compact=True)

    def on_mount(self) -> None:
        # (query, not query_one: a dialog mounted as the app closes may have no children left by then)
        for button in self.query("#next").results(Button):
            button.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next":
            return not self.last
        if action == "results":
            return self.last
        return True

    def action_next(self) -> None:
        self.dismiss(None)

    def action_results(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
