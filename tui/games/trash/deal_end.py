"""The end of a Trash deal: who completed, every layout as it ended and, in Match, each layout's size next deal."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual.content import Content

from engine.cards import Card
from engine.games.trash.rules import DealOver, TrashView
from tui.dialogs.round_over import SeatRowsScreen
from tui.games.trash.layout import card_content
from tui.games.trash.words import winners_text
from tui.terminal.screen_styles import StylePaths, css_paths
from tui.words import count_of, who


def layout_row(layout: Sequence[Card | None]) -> Content:
    """A layout on one line, small cards, slots in order."""
    return Content("").join(card_content(slot, card, "small") for slot, card in enumerate(layout, start=1))


def seat_lines(deal: DealOver, view: TrashView, seat: int, name: str, match: bool) -> Content:
    """A seat's name and how its deal went, then its layout."""
    won = seat in deal.winners
    down = sum(1 for card in view.layouts[seat] if card is None) if seat < len(view.layouts) else 0
    result = (
        Content.styled("completed", "bold $text-success") if won else Content.styled(f"{down} face down", "$text-muted")
    )
    head = Content.assemble((f"{name[:12]:<12} ", "bold"), result)
    if match and deal.next_sizes is not None:
        size, after = deal.sizes[seat], deal.next_sizes[seat]
        change = (
            f"{size} → {count_of(after, 'card')} next deal"
            if after != size
            else f"{count_of(size, 'card')} again next deal"
        )
        head += Content.styled(f"  · {change}", "bold $text-accent" if after != size else "$text-muted")
    row = layout_row(view.layouts[seat]) if seat < len(view.layouts) else Content("")
    return Content("\n").join([head, Content("  ") + row])


class TrashDealScreen(SeatRowsScreen):
    """Shown at the end of each deal; the table (and its bots) wait until it is closed."""

    CSS_PATH: ClassVar[StylePaths] = css_paths("dialogs.tcss", "trash.tcss")

    PREFIX = "trash-deal"

    def __init__(
        self,
        deal: DealOver,
        number: int,
        view: TrashView,
        names: tuple[str, ...],
        me: int | None,
        last: bool,
        *,
        match: bool = False,
    ) -> None:
        super().__init__(number, names, me, last)
        self.deal = deal
        self.view = view
        self.match = match

    @property
    def title_text(self) -> str:
        winners = self.deal.winners
        if not winners:
            return f"Deal {self.number} — nobody completed"
        text = winners_text(winners, self.names, self.me)
        one = len(winners) == 1 and winners[0] != self.me
        return f"Deal {self.number} — {text} {'wins' if one else 'win'} the deal"

    def rows(self) -> Iterable[tuple[int, Content]]:
        deal = self.deal
        for seat in [*deal.winners] + [s for s in range(len(deal.sizes)) if s not in deal.winners]:
            name = who(seat, self.names, self.me, start=True)
            yield seat, seat_lines(deal, self.view, seat, name, self.match)
