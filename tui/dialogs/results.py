"""The end of a match: the winner, the places, the pot, the seed; play again, menu or quit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from tui.terminal.screen_styles import StylePaths, css_paths

ResultChoice = Literal["again", "menu", "quit"]


@dataclass(frozen=True)
class MatchSummary:
    title: str
    winner: str
    places: tuple[tuple[int, str], ...]
    """(place, name), best first; players out in the same hand share a place."""
    pot: int | None
    seed: int | None


class ResultsScreen(ModalScreen[ResultChoice]):
    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('again')", "Play again"),
        Binding("m", "choose('menu')", "Main menu"),
        Binding("escape", "choose('menu')", "Main menu", show=False),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, summary: MatchSummary) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        s = self.summary
        with Vertical(id="results-dialog"):
            # Names are what players typed: plain text, never markup.
            yield Static(Content(f"{s.title} — {s.winner} the match"), id="results-title")
            places = "\n".join(f"{place:>2}. {name}" for place, name in s.places)
            yield Static(Content(places), id="results-places")
            extra = []
            if s.pot is not None:
                extra.append(f"Pot: {s.pot}")
            if s.seed is not None:
                extra.append(f"Seed: {s.seed}")
            yield Static("   ".join(extra), id="results-extra")
            with Horizontal(id="results-buttons"):
                yield Button("Play again", id="again", variant="primary", compact=True)
                yield Button("Main menu", id="main-menu", compact=True)
                yield Button("Quit", id="quit", variant="error", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#again", Button).focus()

    def action_choose(self, choice: ResultChoice) -> None:
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        choices: dict[str | None, ResultChoice] = {"again": "again", "main-menu": "menu", "quit": "quit"}
        if event.button.id in choices:
            self.dismiss(choices[event.button.id])
