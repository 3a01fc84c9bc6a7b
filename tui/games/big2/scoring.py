"""The end of a Big Two deal: every loser's cards face up, how the loss was counted, the points and the totals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.content import Content

from engine.games.big2.rules import DealOver
from tui.dialogs.round_over import SeatRowsScreen
from tui.games.big2.words import loss_steps, signed
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.widgets.card import card_markup


def seat_lines(deal: DealOver, seat: int, name: str, options: Any = None) -> Content:
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
    steps = Content.styled("  " + " · ".join(loss_steps(lost, options)) + f" = {lost.points}", "$text-muted")
    return Content("\n").join([head, Content("  ") + cards, steps])


class Big2ScoringScreen(SeatRowsScreen):
    """Shown at each DealOver; the table waits (no bot moves) until it is closed."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss", "big2.tcss")

    PREFIX = "scoring"

    def __init__(
        self,
        deal: DealOver,
        number: int,
        names: tuple[str, ...],
        me: int | None,
        last: bool,
        options: Any = None,
    ) -> None:
        """``options``: the table's Big2Options (the scoring in force words the steps of each loss)."""
        super().__init__(number, names, me, last)
        self.deal = deal
        self.options = options

    @property
    def title_text(self) -> str:
        deal = self.deal
        winner = "You win" if deal.winner == self.me else f"{self.names[deal.winner]} wins"
        return f"Deal {self.number} — {winner} the deal"

    def rows(self) -> Iterable[tuple[int, Content]]:
        deal = self.deal
        # The winner first, then the losers in seat order.
        for seat in [deal.winner] + [s for s in range(len(deal.deltas)) if s != deal.winner]:
            name = "You" if seat == self.me else self.names[seat]
            yield seat, seat_lines(deal, seat, name, self.options)
