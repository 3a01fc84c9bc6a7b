"""The end of a Big Two deal: every loser's cards face up, how the loss was counted, the points and the totals."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from engine.games.big2 import DealOver
from tui.describe_big2 import signed
from tui.widgets.card import card_markup


def seat_lines(deal: DealOver, seat: int, name: str) -> Content:
    """Two lines for a seat: name, points and total; then its cards left and the doubling steps."""
    delta, total = deal.deltas[seat], deal.totals[seat]
    points_style = "bold $text-success" if delta > 0 else "bold $text-error" if delta < 0 else "$text-muted"
    head = Content.assemble(
        (f"{name[:10]:<10} ", "bold"),
        (f"{signed(delta):>5}", points_style),
        ("  total ", "$text-muted"),
        (f"{signed(total):>5}", "bold"),
    )
    lost = deal.losses[seat]
    if lost is None:
        detail = Content.styled("  won the deal — out of cards", "$text-success")
        return Content("\n").join([head, detail])
    cards = Content(" ").join(card_markup(card) for card in deal.hands[seat])
    steps = Content.styled("  " + " · ".join(lost.steps) + f" = {lost.points}", "$text-muted")
    return Content("\n").join([head, Content("  ") + cards, steps])


class Big2ScoringScreen(ModalScreen[None]):
    """Shown at each DealOver; the table waits (no bot moves) until it is closed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "next", "Next deal", priority=True),
        Binding("space", "next", "Next deal", show=False, priority=True),
        Binding("n", "next", "Next deal", show=False),
        Binding("escape", "next", "Next deal", show=False),
    ]

    def __init__(self, deal: DealOver, number: int, names: tuple[str, ...], me: int | None, last: bool) -> None:
        super().__init__()
        self.deal = deal
        self.number = number
        self.names = names
        self.me = me
        self.last = last

    def compose(self) -> ComposeResult:
        deal = self.deal
        winner = "You win" if deal.winner == self.me else f"{self.names[deal.winner]} wins"
        with Vertical(id="scoring-dialog"):
            yield Static(f"Deal {self.number} — {winner} the deal", id="scoring-title")
            with VerticalScroll(id="scoring-seats"):
                # The winner first, then the losers in seat order.
                order = [deal.winner] + [s for s in range(len(deal.deltas)) if s != deal.winner]
                for seat in order:
                    name = "You" if seat == self.me else self.names[seat]
                    classes = "scoring-seat" + (" -me" if seat == self.me else "")
                    yield Static(seat_lines(deal, seat, name), classes=classes)
            label = "See the results" if self.last else "Next deal"
            yield Button(f"{label} (Enter)", id="next", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#next", Button).focus()

    def action_next(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
