"""Cards as small immutable values that round-trip through text.

>>> Card.parse("10H")
Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 'H'>)
>>> str(Card.parse("th")), str(Card.parse("Q♠")), Card.parse("AD").pretty()
('10H', 'QS', 'A♦')
>>> [str(c) for c in parse_cards("3D 10S AH")]
['3D', '10S', 'AH']
>>> str(JOKER), Card.parse("JK") == JOKER
('JK', True)

Rank *orders* differ by game, so a card knows its rank and suit but not how it compares: each game keeps its own
ordering.

Several decks and jokers: a card is a *value*, and two physical copies of the 5♠ (or four jokers) are equal. No
rule tells two copies apart, so a hand, a pile or a view holds cards as a sequence (never a set, where copies
would collapse), and "every card is somewhere exactly once" is checked as a multiset against :func:`deck`:

>>> from collections import Counter
>>> cards = deck(decks=2, jokers=4)
>>> len(cards), Counter(cards)[JOKER], Counter(cards)[Card.parse("5S")]
(108, 4, 2)
>>> is_conserved([cards[:50], cards[50:]], cards)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum

from engine.errors import InvalidActionError, echo


class Suit(Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # A member is its own identity, so it may hash as one: Enum's own __hash__ is Python code (it hashes the name),
    # and every look-up of a card by value hashes its suit.
    __hash__ = object.__hash__

    @classmethod
    def _missing_(cls, value: object) -> Suit:
        """``Suit(value)`` for a value that is no suit's: the engine's typed error, not a bare ValueError."""
        raise InvalidActionError(f"not a suit: {echo(value)} (the suits are S, H, D and C)")

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def word(self) -> str:
        return self.name.lower()


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOLS.items()}


class Rank(IntEnum):
    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        """``Rank(value)`` for a value that is no rank's: the engine's typed error, not a bare ValueError."""
        raise InvalidActionError(f"not a rank: {echo(value)} (the ranks are 1, the Ace, to 13, the King; 0 a joker)")

    @property
    def text(self) -> str:
        return _RANK_TEXT[self]

    @property
    def word(self) -> str:
        return self.name.lower() if self > Rank.TEN or self is Rank.ACE else str(int(self))


_RANK_TEXT = {r: str(int(r)) for r in Rank} | {
    Rank.JOKER: "JK",
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
_RANK_BY_TEXT = {text: r for r, text in _RANK_TEXT.items() if r is not Rank.JOKER} | {"T": Rank.TEN}


def is_card(value: object) -> bool:
    """Is ``value`` a :class:`Card` with a card's fields? (A card's constructor makes sure of them; this also
    catches one whose fields were set past it, as ``object.__setattr__`` or a careless unpickler may.)"""
    if not isinstance(value, Card):
        return False
    rank, suit = value.rank, value.suit
    return type(rank) is Rank and (type(suit) is Suit if rank is not Rank.JOKER else suit is None)


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One playing card. ``suit`` is ``None`` only for a joker.

    A card is built only from a :class:`Rank` and a :class:`Suit` (``None`` and :attr:`Rank.JOKER` together): any
    other fields raise InvalidActionError, so a card that exists can always be shown, sent and compared."""

    rank: Rank
    suit: Suit | None

    def __post_init__(self) -> None:
        if not is_card(self):
            raise InvalidActionError(
                f"not a card: rank {echo(self.rank, 60)} and suit {echo(self.suit, 60)} "
                "(a card is a Rank and a Suit; a joker is Rank.JOKER and no suit)"
            )

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its text (``"10H"``, ``"TH"``, ``"A♠"``, ``"JK"``); raise InvalidActionError if bad."""
        token = plain_text(text)
        card = _BY_TOKEN.get(token.strip().upper()) if token is not None else None
        if card is None:
            raise InvalidActionError(f"not a card: {echo(text)} (write e.g. 10H, QS, A♦, JK)")
        return card

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return f"{self.rank.text}{self.suit.value}"

    def pretty(self) -> str:
        """The card with its suit symbol, as shown in the UI (``"10♥"``)."""
        if self.suit is None:
            return "Joker"
        return f"{self.rank.text}{self.suit.symbol}"

    @property
    def is_red(self) -> bool:
        return self.suit is not None and self.suit.is_red

    @property
    def index(self) -> int:
        """A dense integer 0..52 (52 is the joker), handy for bitsets and tables."""
        if self.suit is None:
            return 52
        return _SUIT_INDEX[self.suit] * 13 + int(self.rank) - 1


_SUIT_INDEX = {s: i for i, s in enumerate(Suit)}
JOKER = Card(Rank.JOKER, None)


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas: ``parse_cards("3D 10S AH")``."""
    plain = plain_text(text)
    if plain is None:
        raise InvalidActionError(f"not a list of cards: {echo(text)} (write e.g. 3D 10S AH)")
    return [Card.parse(token) for token in plain.replace(",", " ").split()]


def plain_text(value: object) -> str | None:
    """``value`` as a plain ``str`` (a subclass of ``str`` is copied, so none of its own methods runs), or None when
    it is not text: what every reader of a typed action or card starts with."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    return None


def sort_key(card: Card) -> tuple[int, str]:
    """A fixed order for showing or encoding cards (by rank, Ace low, jokers first; then suit)."""
    suit = card.suit  # the members' _value_: ``.value`` is a Python-level property, and hands are sorted often
    return card.rank._value_, suit._value_ if suit is not None else ""


def deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """``decks`` standard decks and ``jokers`` jokers, in a fixed order (shuffle it with the table's RNG)."""
    return standard_deck() * decks + [JOKER] * jokers


def is_conserved(places: Iterable[Iterable[Card]], full: Iterable[Card]) -> bool:
    """Every card of ``full`` is in exactly one of ``places``, as many times as ``full`` holds it (a multiset)."""
    found: Counter[Card] = Counter()
    for place in places:
        found.update(place)
    return found == Counter(full)


def standard_deck(jokers: int = 0) -> list[Card]:
    """The 52 cards in a fixed order (suits S H D C, ranks A..K), then ``jokers`` jokers."""
    return [*_STANDARD, *[JOKER] * jokers]


_STANDARD = tuple(Card(rank, suit) for suit in Suit for rank in Rank if rank is not Rank.JOKER)
"""Made once (a card is an immutable value): games deal a fresh deck often, and iterating enums is slow."""
_BY_TOKEN: dict[str, Card] = {
    rank_text + suit_text: card
    for card in _STANDARD
    for rank_text, rank in _RANK_BY_TEXT.items()
    if rank is card.rank
    for suit_text, suit in _SUIT_BY_TEXT.items()
    if suit is card.suit
} | {"JK": JOKER, "JOKER": JOKER}
"""Every card by each text :meth:`Card.parse` reads (upper case), the deck's own card for each."""
