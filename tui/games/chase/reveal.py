"""The end of a hand: every card face up, who pays and why. The player reads it, then goes on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.widgets import Footer, Static

from engine.cards import Card
from tui.dialogs.round_over import RoundOverScreen, next_bindings
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import card_markup
from tui.words.faces import card_text


@dataclass
class HandReveal:
    """What the reveal shows, gathered from the events that end a hand."""

    hand: int
    cards: list[tuple[int, Card]]
    payers: set[int] = field(default_factory=set)
    lines: list[str] = field(default_factory=list)
    """The paying, going out and winning, in words."""
    match_over: bool = False


class RevealScreen(RoundOverScreen):
    CSS_PATH: ClassVar[StylePaths] = css_paths("table.tcss", "dialogs.tcss")

    NEXT = "Next hand"
    BINDINGS: ClassVar[list[BindingType]] = next_bindings(NEXT)

    def __init__(self, reveal: HandReveal, names: tuple[str, ...], me: int | None) -> None:
        super().__init__()
        self.reveal = reveal
        self.names = names
        self.me = me

    def compose(self) -> ComposeResult:
        reveal = self.reveal
        with Vertical(id="reveal-dialog"):
            yield Static(f"Hand {reveal.hand} — the cards", id="reveal-title")
            with Grid(id="reveal-cards", classes="-two" if len(reveal.cards) > 5 else ""):
                for seat, card in reveal.cards:
                    name = "You" if seat == self.me else self.names[seat]
                    mark = Content.styled("  pays", "bold $text-error") if seat in reveal.payers else Content("")
                    pad = " " * (3 - len(card_text(card)))  # "10♥" and "9♥" line up, and so do the "pays"
                    yield Static(
                        Content.assemble(
                            (f"{name[:10]:<10} ", "bold" if seat == self.me else ""), card_markup(card), pad
                        )
                        + mark,
                        classes="reveal-card",
                    )
            # The lines name players: plain text, never markup.
            yield Static(Content("\n".join(reveal.lines) or "Nobody pays."), id="reveal-lines")
            yield self.next_button(reveal.match_over)
        yield Footer()
