"""The other players at a Big Two table: name, cards left (a count and a bar), passed or to play, match total."""

from __future__ import annotations

from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from engine.games.big2.rules import Big2View
from tui.games.big2.words import signed
from tui.widgets.quiet import set_border, set_text
from tui.widgets.seats import THINKING, TO_PLAY, card_marks, seat_clock, seat_title


class Big2Seat(Static):
    def __init__(self, seat: int) -> None:
        super().__init__(id=f"b2seat-{seat}", classes="b2seat")
        self.seat = seat

    def show(self, view: Big2View, name: str, *, thinking: bool = False, clock: int | None = None) -> None:
        seat = self.seat
        to_move = view.to_move == seat
        count = view.counts[seat]
        self.set_class(to_move, "-to-move")
        self.set_class(count == 1, "-last-card")
        set_border(self, seat_title(name, to_move, clock), f"total {signed(view.totals[seat])}")
        bar = Content.assemble(card_marks(count), f" {count} card{'s' * (count != 1)}")
        if thinking:
            doing = THINKING
        elif to_move:
            doing = TO_PLAY
        elif view.passed[seat]:
            doing = Content.styled("passed", "$text-muted")
        elif view.table_seat == seat:
            doing = Content.styled("played last", "$text-muted")
        else:
            doing = Content("")
        set_text(self, Content("\n").join([bar, doing]))


class Big2Seats(Horizontal):
    """The opponents in a row, in turn order after you (left, across, right)."""

    def __init__(self, seats: list[int], id: str | None = None) -> None:
        super().__init__(*(Big2Seat(seat) for seat in seats), id=id)

    def show(
        self,
        view: Big2View,
        names: tuple[str, ...],
        thinking: int | None = None,
        clock: tuple[int, int] | None = None,
    ) -> None:
        """Draw every seat; ``clock``: (the seat, its seconds left) when a turn clock runs."""
        for box in self.query(Big2Seat):
            box.show(view, names[box.seat], thinking=thinking == box.seat, clock=seat_clock(clock, box.seat))
