"""The seats around the Screw/Chase table: one box per seat, laid out in up to two rows; with room, a seat shows its
card as a small face (``faces``), else as text."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid
from textual.content import Content
from textual.widgets import Static

from engine.cards import Card
from tui.games.chase.words import acted_text
from tui.widgets.card import card_markup, face_rows
from tui.widgets.quiet import set_border, set_text
from tui.widgets.seats import THINKING, TO_PLAY, seat_clock, seat_title


class SeatBox(Static):
    """A seat: name (border title), lives or tokens, the card if this seat may see it, what it did this hand."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"seat-{seat}", classes="seat")
        self.seat = seat
        self.faces = False
        """Draw the card as a small face (three rows) rather than as text."""

    def show(
        self,
        view: Any,
        name: str,
        me: int | None,
        *,
        thinking: bool = False,
        revealed: dict[int, Card] | None = None,
        payers: frozenset[int] = frozenset(),
        clock: int | None = None,
    ) -> None:
        """Draw the seat from ``view``; ``revealed`` (the cards turned up at the end of a hand) overrides the card;
        ``clock``: the seconds left on its turn clock."""
        seat = self.seat
        alive = view.alive(seat)
        to_move = view.to_move == seat and revealed is None
        self.set_class(not alive, "-out")
        self.set_class(to_move, "-to-move")
        self.set_class(seat == me, "-me")
        self.set_class(seat == view.dealer, "-dealer")
        set_border(self, seat_title(name, to_move, clock), "dealer" if seat == view.dealer and alive else "")
        known = dict(view.known) if revealed is None else revealed
        if not alive:
            lives = Content.styled("out", "$text-disabled")
        elif view.on_honour(seat):
            lives = Content.styled("on honour", "italic $text-warning")
        else:
            tokens = view.tokens(seat)
            lives = Content.assemble(("●" * tokens, "$text-warning"), f" {tokens}")
        if not alive or (seat not in view.order and seat not in known):
            card = Content("\n\n") if self.faces else Content("")
        elif self.faces:
            card = Content("\n").join(face_rows(known.get(seat), "mini"))
        elif seat in known:
            card = card_markup(known[seat])
        else:
            card = Content.styled("▒▒", "$text-muted")
        acted = acted_text(view.acted[seat]) if alive and seat < len(view.acted) else None
        if revealed is not None:
            doing = Content.styled("pays", "bold $text-error") if seat in payers else Content("")
        elif thinking:
            doing = THINKING
        elif acted:
            doing = Content.styled(acted, "$text-muted")
        elif to_move:
            doing = TO_PLAY
        else:
            doing = Content("")
        set_text(self, Content("\n").join([lives, card, doing]))


class SeatRing(Grid):
    """Every seat, in clockwise order: one row of up to five, else two rows."""

    def __init__(self, players: int, id: str | None = None) -> None:
        super().__init__(id=id)
        self.players = players
        self._faces = False
        self._last: tuple[Any, ...] | None = None
        """The arguments of the last ``show``, to draw the seats again when ``faces`` changes."""
        columns = players if players <= 5 else (players + 1) // 2
        self.styles.grid_size_columns = columns
        self.styles.grid_size_rows = 1 if players <= 5 else 2

    def compose(self) -> ComposeResult:
        for seat in range(self.players):
            yield SeatBox(seat)

    def show(
        self,
        view: Any,
        names: tuple[str, ...],
        me: int | None,
        thinking: int | None = None,
        revealed: dict[int, Card] | None = None,
        payers: frozenset[int] = frozenset(),
        clock: tuple[int, int] | None = None,
    ) -> None:
        """Draw every seat; ``clock``: (the seat, its seconds left) when a turn clock runs."""
        self._last = (view, names, me, thinking, revealed, payers, clock)
        for box in self.query(SeatBox):
            box.faces = self._faces
            box.show(
                view,
                names[box.seat],
                me,
                thinking=thinking == box.seat,
                revealed=revealed,
                payers=payers,
                clock=seat_clock(clock, box.seat),
            )

    @property
    def faces(self) -> bool:
        """Do the seats show their cards as small faces (the screen says so when the seats are tall enough)?"""
        return self._faces

    @faces.setter
    def faces(self, faces: bool) -> None:
        if faces != self._faces:
            self._faces = faces
            self.set_class(faces, "-faces")
            if self._last is not None:
                self.show(*self._last)
