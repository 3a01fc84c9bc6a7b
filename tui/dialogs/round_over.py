"""The dialog at the end of a hand or deal: the table holds back the next round until the player dismisses it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from tui.terminal.screen_styles import StylePaths, css_paths

RESULTS = "See the results"
"""What going on leads to after the last round."""


DIALOG_KEYS: list[BindingType] = [
    Binding("q", "app.leave('quit')", "Quit", tooltip="Quit Parlour (asks first while a match is on)"),
    Binding("question_mark", "app.keys", "Keys", show=False),
]
"""The app's own keys, which a modal dialog would otherwise swallow (only priority keys pass a modal screen)."""

TAKE_BACK_KEY = Binding("u", "take_back", "Take back", show=False, tooltip="Back to your previous decision, as it was")
"""``u`` in a round's dialog: the move that ended the round taken back, as at the table (the table beneath says
whether it may be; the dialog goes with the table it belonged to)."""


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
        TAKE_BACK_KEY,
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

    def action_take_back(self) -> None:
        """Ask the table beneath to take your move back; where it may not, say why here (the table's status line
        is behind this dialog)."""
        for screen in reversed(self.app.screen_stack[:-1]):
            refusal = getattr(screen, "takeback_refusal", None)
            take_back = getattr(screen, "action_take_back", None)
            if callable(refusal) and callable(take_back):
                why = refusal()
                if why is not None:
                    self.notify(str(why), severity="warning", timeout=4, markup=False)
                    return
                take_back()
                return


class SeatRowsScreen(RoundOverScreen):
    """An end-of-round dialog that every game with a deal's table draws alike: a title, maybe a line under it, one
    row per seat (in a scroll, as many seats as the table has), and the button that goes on.

    Subclasses name :attr:`PREFIX` (the ids ``<prefix>-dialog``, ``<prefix>-title``, ``<prefix>-sub`` and
    ``<prefix>-seats``, and the class ``<prefix>-seat`` of each row, which their styles use) and give
    :attr:`title_text`, :meth:`rows` and, if they have one, :attr:`sub_text`; one that goes on to something else
    than the next deal sets ``NEXT`` and ``BINDINGS = next_bindings(NEXT)``. A row of the seat watching has the
    class ``-me`` too.
    """

    PREFIX: ClassVar[str]
    """What the dialog's ids and its rows' class begin with."""

    NEXT = "Next deal"
    BINDINGS: ClassVar[list[BindingType]] = next_bindings(NEXT)

    def __init__(self, number: int, names: Sequence[str], me: int | None, last: bool) -> None:
        """``number``: the round's; ``names``: every seat's; ``me``: the seat watching (None: a spectator);
        ``last``: is it the match's last round?"""
        super().__init__()
        self.number = number
        self.names = tuple(names)
        self.me = me
        self.last = last

    @property
    def title_text(self) -> str:
        """The title (names in it are plain text, never markup)."""
        raise NotImplementedError

    @property
    def sub_text(self) -> str | None:
        """A line under the title, or None."""
        return None

    def rows(self) -> Iterable[tuple[int, Content]]:
        """(seat, its row), in the order the dialog lists them."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        prefix = self.PREFIX
        with Vertical(id=f"{prefix}-dialog"):
            yield Static(Content(self.title_text), id=f"{prefix}-title")  # names are plain text
            sub = self.sub_text
            if sub is not None:
                yield Static(Content(sub), id=f"{prefix}-sub")
            with VerticalScroll(id=f"{prefix}-seats"):
                for seat, row in self.rows():
                    yield Static(row, classes=f"{prefix}-seat" + (" -me" if seat == self.me else ""))
            yield self.next_button(self.last)
        yield Footer()
