"""The other players at a Rank table: name, cards held (a count and a bar), penalty points, and where they stand in
the deal: to play, thinking, waiting on the next play after their last card, out for good, or holding the last
cards. Up to five boxes a row, so 10 players fit in two rows."""

from __future__ import annotations

from collections.abc import Sequence

from textual.containers import Grid
from textual.content import Content
from textual.widgets import Static

from engine.games.rank.rules import RankPhase, RankView
from tui.games.rank.words import ordinal
from tui.widgets.quiet import set_border, set_text
from tui.widgets.seats import THINKING, TO_PLAY, card_marks, seat_clock, seat_title
from tui.words import who

PER_ROW = 5
"""Seat boxes in a row."""
BAR = 8
"""The most cards the bar draws (a count is always written)."""


def standing(view: RankView, seat: int, names: Sequence[str], me: int | None, *, thinking: bool = False) -> Content:
    """Where ``seat`` stands in the deal, in a few words (names plain text)."""
    if view.pending == seat:
        nxt = waiting_on(view, seat)
        on = f" — waiting on {who(nxt, names, me)}" if nxt is not None else ""
        return Content.styled(f"out?{on}", "italic $text-warning")
    if seat in view.out:
        return Content.styled(f"out ({ordinal(view.out.index(seat) + 1)})", "bold $text-success")
    if view.phase is RankPhase.OVER:
        return Content("")
    if thinking:
        return THINKING
    if view.to_move == seat:
        return TO_PLAY
    if view.dealer == seat:
        return Content.styled("dealer", "$text-muted")
    return Content("")


def waiting_on(view: RankView, seat: int) -> int | None:
    """The next seat after ``seat`` still holding cards: the one whose play decides a pending exit."""
    for step in range(1, view.players):
        other = (seat + step) % view.players
        if view.counts[other] > 0:
            return other
    return None


class RankSeat(Static):
    def __init__(self, seat: int) -> None:
        super().__init__(id=f"rkseat-{seat}", classes="rkseat")
        self.seat = seat
        self.compact = False
        """One line (the count, then where the seat stands or the bar), for two rows of seats in a short room."""

    def show(
        self,
        view: RankView,
        names: Sequence[str],
        me: int | None,
        *,
        thinking: bool = False,
        clock: int | None = None,
    ) -> None:
        seat = self.seat
        to_move = view.to_move == seat and view.phase is not RankPhase.OVER
        count = view.counts[seat]
        gone = seat in view.out
        self.set_class(to_move, "-to-move")
        self.set_class(gone, "-out")
        self.set_class(view.pending == seat, "-pending")
        points = view.penalties[seat] if seat < len(view.penalties) else 0
        set_border(self, seat_title(names[seat], to_move, clock), f"{points} pt{'s' * (points != 1)}")
        where = standing(view, seat, names, me, thinking=thinking)
        if self.compact:
            if gone or view.pending == seat:
                set_text(self, where)
            else:
                room = (self.content_size.width or 12) - len(str(count)) - 1
                marks = card_marks(count, min(room, BAR))
                set_text(self, Content.assemble(f"{count} ", where if where.plain else marks))
            return
        if gone or view.pending == seat:
            bar = Content.styled("no cards", "$text-muted")
        else:
            words = f"{count} card{'s' * (count != 1)}"
            room = (self.content_size.width or 12) - len(words) - 1
            bar = Content.assemble(words, " ", card_marks(count, min(room, BAR)))
        set_text(self, Content("\n").join([bar, where]))


class RankSeats(Grid):
    """The other players in turn order after you, up to :data:`PER_ROW` a row; two rows of seats in a short room
    are ``compact`` (one line a seat), so the pile and your moves keep their room."""

    def __init__(self, seats: list[int], id: str | None = None) -> None:
        super().__init__(*(RankSeat(seat) for seat in seats), id=id)
        self.rows = max(1, -(-len(seats) // PER_ROW))
        self.styles.grid_size_columns = min(PER_ROW, max(1, len(seats)))
        self.styles.grid_size_rows = self.rows
        self.set_class(self.rows > 1, "-two-rows")
        self._compact = False
        self._last: tuple[RankView, Sequence[str], int | None, int | None, tuple[int, int] | None] | None = None

    def show(
        self,
        view: RankView,
        names: Sequence[str],
        me: int | None,
        thinking: int | None = None,
        clock: tuple[int, int] | None = None,
    ) -> None:
        """Draw every seat; ``clock``: (the seat, its seconds left) when a turn clock runs."""
        self._last = (view, names, me, thinking, clock)
        for box in self.query(RankSeat):
            box.compact = self._compact
            box.show(view, names, me, thinking=thinking == box.seat, clock=seat_clock(clock, box.seat))

    @property
    def compact(self) -> bool:
        return self._compact

    @compact.setter
    def compact(self, compact: bool) -> None:
        if compact != self._compact:
            self._compact = compact
            self.set_class(compact, "-compact")
            if self._last is not None:
                self.show(*self._last)
