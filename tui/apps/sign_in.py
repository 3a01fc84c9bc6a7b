"""The first screen of a ``parlour join`` that was not given a name: the player's name (and the host's password when
the host has one) asked in the app, before it connects. A browser session of ``parlour host --web-port`` opens here
(``PARLOUR_ASK``: :mod:`engine.lan.web`); the lobby, and with it anything of the host's, is shown only once the host
has welcomed the name and the password.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from engine.names import NAME_LIMIT, name_problem
from tui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from engine.lan.remote_session import NetworkSession


@dataclass(frozen=True)
class SignIn:
    """What the app asks before it connects, and how it connects."""

    where: str
    """The host as the player is told it (``127.0.0.1:7777``)."""
    password: bool
    """The host has a password: ask it too."""
    connect: Callable[[str, str | None, Callable[[str], None]], NetworkSession]
    """``connect(name, password, waiting)``: a session at the host, or ParlourError with one sentence; called on a
    thread of its own. ``waiting`` is called with what the host said while it asks a table to let the name back in."""


class SignInScreen(Screen[None]):
    """Name (and password) and a Join button; Enter in the last field joins. The app connects (:meth:`failed` and
    :meth:`waiting` are how it answers back)."""

    DEFAULT_CSS: ClassVar[str] = """
    SignInScreen { align: center middle; }
    #sign-in { width: 60; max-width: 100%; height: auto; border: round $primary; padding: 1 2; }
    #sign-in Input { margin-bottom: 1; }
    #sign-in-title { text-style: bold; margin-bottom: 1; }
    #sign-in-problem { color: $error; height: auto; }
    #sign-in-problem.waiting { color: $text-muted; }
    #sign-in Button { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "app.quit", "Quit", show=False, priority=True)]

    def __init__(self, sign_in: SignIn) -> None:
        super().__init__()
        self.sign_in = sign_in
        self.busy = False

    def compose(self) -> ComposeResult:
        with Vertical(id="sign-in"):
            yield Static(Content(f"Parlour at {self.sign_in.where}"), id="sign-in-title")
            yield Static("Your name at the tables")
            yield Input(placeholder="your name", max_length=NAME_LIMIT, id="name")
            if self.sign_in.password:
                yield Static("The host's password")
                yield Input(placeholder="password", password=True, id="password")
            yield Static("", id="sign-in-problem")
            yield Button("Join", id="join", variant="primary", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "name" and self.sign_in.password:
            self.query_one("#password", Input).focus()
            return
        self.join()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.join()

    def join(self) -> None:
        if self.busy:
            return
        name = self.query_one("#name", Input).value.strip()
        problem = name_problem(name)
        if problem is not None:
            self.failed(f"{problem[0].upper()}{problem[1:]}.", focus="name")
            return
        password = self.query_one("#password", Input).value if self.sign_in.password else None
        if self.sign_in.password and not password:
            self.failed("This host needs its password.", focus="password")
            return
        self.busy = True
        self.say("Joining…", waiting=True)
        self.app.post_message(SignedIn(name, password))

    def say(self, text: str, *, waiting: bool = False) -> None:
        problem = self.query_one("#sign-in-problem", Static)
        problem.update(Content(text))
        problem.set_class(waiting, "waiting")

    def failed(self, text: str, focus: str = "name") -> None:
        """The host (or the form) refused: say why, and let the player try again."""
        self.busy = False
        self.say(text)
        self.query_one(f"#{focus}", Input).focus()

    def waiting(self, text: str) -> None:
        self.say(text, waiting=True)


class SignedIn(Message):
    """The player asked to join as ``player`` (with ``password``)."""

    def __init__(self, player: str, password: str | None) -> None:
        super().__init__()
        self.player = player
        self.password = password
