"""What every table's seats share: the arrow and the turn clock in a seat's title, "thinking…" and "to play", the
bar of a seat's cards.

Each game draws its own seats with these (Screw/Chase: :mod:`tui.games.chase.seats`)."""

from __future__ import annotations

from textual.content import Content

from tui.words.clock import seconds_text

THINKING = Content.styled("thinking…", "italic $text-accent")
"""How a seat shows that its computer player is choosing, at every table."""
TO_PLAY = Content.styled("to play", "bold $text-accent")


def clock_text(seconds: int) -> Content:
    """The seconds left on the turn clock of the seat to move, as every table shows them beside the seat."""
    return Content.styled(seconds_text(seconds), "bold $text-error" if seconds <= 10 else "bold $text-warning")


def seat_title(name: str, to_move: bool, clock: int | None = None) -> Content:
    """A seat box's border title; the arrow points out whose turn it is at every table, ``clock`` the seconds left
    on its turn clock (None: no clock runs for it; shown only while the seat is to move). The name is plain text
    (what a player typed is never read as markup)."""
    title = Content(("▶ " if to_move else "") + name)
    if clock is None or not to_move:
        return title
    return Content.assemble(title, " ", clock_text(clock))


def seat_clock(clock: tuple[int, int] | None, seat: int | None) -> int | None:
    """The seconds left on ``seat``'s turn clock: a table's ``clock`` is (the seat whose clock runs, its seconds
    left), or None when no clock runs."""
    return clock[1] if clock is not None and clock[0] == seat else None


def clocked(title: Content, seconds: int | None) -> Content:
    """``title`` with the seconds left on the turn clock before it (None: ``title`` as it is), as the player's own
    hand shows them at every table."""
    return title if seconds is None else Content.assemble(clock_text(seconds), " ", title)


def card_marks(count: int, most: int | None = None) -> Content:
    """A seat's ``count`` cards as a bar of marks (at most ``most`` of them), red from two cards down."""
    shown = count if most is None else max(0, min(count, most))
    return Content.styled("▮" * shown, "$text-error" if count <= 2 else "$text-primary")
