"""A playing card drawn large, and the colour rules for card text."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from engine.cards import Card
from tui.faces import card_style, card_text, current, suit_class, suit_symbol

RED = "$text-error"
"""The theme's error text colour: a red tuned to read on the theme's background, dark or light."""


def card_markup(card: Card | None) -> Content:
    """A card's short text, red for hearts and diamonds, theme text colour for spades and clubs."""
    if card is None:
        return Content.styled("?", "$text-muted")
    return Content.styled(card_text(card), card_style(card))


def face_lines(card: Card | None, width: int = 11) -> list[str]:
    """The rows of a card face, ``width`` columns wide (a face-down back when ``card`` is None).

    >>> print("\\n".join(face_lines(Card.parse("10H"))))
    ┌─────────┐
    │10       │
    │♥        │
    │    ♥    │
    │        ♥│
    │       10│
    └─────────┘
    """
    inner = width - 2
    top, bottom = "┌" + "─" * inner + "┐", "└" + "─" * inner + "┘"
    if card is None:
        return [top] + ["│" + "░" * inner + "│" for _ in range(5)] + [bottom]
    rank = card.rank.text if card.suit is not None else "JK"
    suit = suit_symbol(card.suit)
    rows = [
        rank.ljust(inner),
        suit.ljust(inner),
        suit.center(inner),
        suit.rjust(inner),
        rank.rjust(inner),
    ]
    return [top] + ["│" + row + "│" for row in rows] + [bottom]


class CardFace(Static):
    """One card, drawn large. Red or black by suit (through CSS classes, so the theme decides the shades)."""

    def __init__(self, card: Card | None = None, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._card: Card | None = None
        self._shown = False
        self._faces = current()
        self.show(card)

    @property
    def card(self) -> Card | None:
        return self._card

    def show(self, card: Card | None) -> None:
        if self._shown and card == self._card and self._faces == current():
            return
        self._faces = current()
        self._card, self._shown = card, True
        colour = suit_class(card)
        for name in ("-red", "-black", "-diamonds", "-clubs"):
            self.set_class(card is not None and name == colour, name)
        self.set_class(card is None, "-back")
        self.update(Text("\n".join(face_lines(card))))
