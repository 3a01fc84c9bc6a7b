"""How cards are written on screen: suit symbols or plain letters, two colours or four.

One setting for the whole app (the settings screen changes it, :func:`set_faces`); every widget and every line of
the log writes a card through :func:`card_text` and colours it with :func:`card_style` or :func:`suit_class`, so a
change shows everywhere at the next redraw.

Colour never carries information alone: each suit has its own symbol (``♠ ♥ ♦ ♣``) or letter (``S H D C``). The
four-colour mode (for players who tell red from black poorly) gives diamonds and clubs colours of their own.

>>> from engine.cards import Card
>>> card_text(Card.parse("10H")), card_text(Card.parse("JK"))
('10♥', 'Joker')
>>> set_faces(plain=True); card_text(Card.parse("10H")); set_faces()
'10H'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, Suit

__all__ = ["Faces", "card_style", "card_text", "current", "in_faces", "set_faces", "suit_class", "suit_symbol"]

RED = "$text-error"
"""The theme's error text colour: a red tuned to read on the theme's background, dark or light."""
FOUR_COLOURS = {Suit.HEARTS: RED, Suit.DIAMONDS: "$text-primary", Suit.CLUBS: "$text-success", Suit.SPADES: "$text"}
"""Four-colour suits: hearts red, diamonds blue, clubs green, spades the text colour (the theme picks shades)."""


@dataclass(frozen=True)
class Faces:
    plain: bool = False
    """Plain letters (``10H``) instead of suit symbols (``10♥``), for terminals without them."""
    four_colour: bool = False
    """Diamonds and clubs get colours of their own."""


_current = Faces()


def set_faces(*, plain: bool = False, four_colour: bool = False) -> None:
    """Choose how cards are written from now on (the screens redraw to show it)."""
    global _current
    _current = Faces(plain=plain, four_colour=four_colour)


def current() -> Faces:
    return _current


def suit_symbol(suit: Suit | None) -> str:
    """A suit as shown: its symbol, or its letter in plain mode; a star (or ``*``) for a joker."""
    if suit is None:
        return "*" if _current.plain else "★"
    return suit.value if _current.plain else suit.symbol


def card_text(card: Card) -> str:
    """A card's short text as shown (``10♥``, or ``10H`` in plain mode; ``Joker``)."""
    if card.suit is None:
        return "Joker"
    return f"{card.rank.text}{suit_symbol(card.suit)}"


LETTERS = str.maketrans({suit.symbol: suit.value for suit in Suit} | {"★": "*"})
"""Each suit symbol's letter, for text written with the symbols (the engine's messages)."""


def in_faces(text: str) -> str:
    """``text`` (an engine's message, which writes its cards with suit symbols: "4♠ 5♦ is not a combination") in
    the faces chosen: with plain letters, each symbol becomes its suit's letter ("4S 5D").

    >>> set_faces(plain=True); in_faces("you do not hold 10♥ 4♠"); set_faces()
    'you do not hold 10H 4S'
    >>> in_faces("you do not hold 10♥")
    'you do not hold 10♥'
    """
    return text.translate(LETTERS) if _current.plain else text


def card_style(card: Card) -> str:
    """The style of a card's text: bold, red for hearts and diamonds (or four colours), else the text colour."""
    if card.suit is None:
        return "bold $text"
    if _current.four_colour:
        return f"bold {FOUR_COLOURS[card.suit]}"
    return f"bold {RED}" if card.is_red else "bold $text"


def suit_class(card: Card | None) -> str:
    """The CSS class a card widget takes for its colour: ``-red`` or ``-black``, and in four-colour mode
    ``-diamonds`` and ``-clubs`` in their place."""
    if card is None or card.suit is None:
        return "-black"
    if _current.four_colour and card.suit in (Suit.DIAMONDS, Suit.CLUBS):
        return f"-{card.suit.name.lower()}"
    return "-red" if card.is_red else "-black"
