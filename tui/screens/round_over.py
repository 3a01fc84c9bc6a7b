"""The dialog at the end of a hand or deal: the table holds back the next round until the player dismisses it."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Button


def next_bindings(label: str) -> list[BindingType]:
    """The keys that go on to the next round, shown in the footer as ``label``."""
    return [
        Binding("enter", "next", label, priority=True),
        Binding("space", "next", label, show=False, priority=True),
        Binding("n", "next", label, show=False),
        Binding("escape", "next", label, show=False),
    ]


class RoundOverScreen(ModalScreen[None]):
    """Base of the end-of-round dialogs: Enter, space, n, Esc or the button dismisses it.

    Subclasses set ``NEXT`` and ``BINDINGS = next_bindings(NEXT)``, and compose a :meth:`next_button`.
    """

    NEXT: ClassVar[str] = "Next"
    """What going on leads to, as the button and the footer say it."""

    def next_button(self, last: bool) -> Button:
        """The button that goes on; after the last round it leads to the results instead."""
        label = "See the results" if last else self.NEXT
        return Button(f"{label} (Enter)", id="next", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#next", Button).focus()

    def action_next(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
