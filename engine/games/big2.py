"""Big Two (RULES.md §3): climbing with singles, pairs, triples, five-card hands and the Dragon.

The rules API for people who write bots or check a hand:

>>> from engine.cards import parse_cards
>>> from engine.games.big2 import classify
>>> classify(parse_cards("3D 4S 5H 6C 7D")).kind
'straight'
>>> classify(parse_cards("9S 9H")).beats(classify(parse_cards("9D 9C")))
True
>>> classify(parse_cards("5S 5H")).beats(classify(parse_cards("9D 9C")))
False
>>> classify(parse_cards("3D 4S")) is None
True
>>> classify(parse_cards("JD QD KD AD 2D")) is None  # no wrap-around straights: only a flush
False
>>> classify(parse_cards("JD QD KD AD 2D")).kind
'flush'

Inside, a card is an integer ``rank_index * 4 + suit_index`` (3 is rank 0, 2 is rank 12; the suit index follows
the suit order in force), a set of cards is a bitmask of those integers, and every combination carries an integer
``key`` so that "beats" is a single comparison between two combinations of the same size. None of that leaves the
state: views and events carry cards and kinds (:class:`TablePlay`, :class:`Played`), and the words a player reads
are made in ``tui/``. A deal opens with the match layer's ``RoundStarted`` and closes with :class:`DealOver`, then
``RoundOver`` (and ``MatchOver`` after the last deal): deals, totals, the dealer and the end of the match are kept
by :class:`~engine.match.MatchProgress`.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, product
from typing import Any, ClassVar, NamedTuple

from engine.cards import Card, Rank, Suit, parse_cards, standard_deck
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
    echo,
)
from engine.events import Event
from engine.game import (
    Figures,
    Game,
    GameState,
    MatchResult,
    Preset,
    Scenario,
    Variant,
    copy_rng,
)
from engine.match import MatchProgress, MatchRule

KINDS = ("single", "pair", "triple", "straight", "flush", "full_house", "four", "straight_flush", "dragon")
FIVE_CARD_ORDER = ("straight", "flush", "full_house", "four", "straight_flush")
RANK_PLURAL = ("3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Jacks", "Queens", "Kings", "Aces", "2s")

SUIT_ORDERS = {
    # lowest first
    "seed": (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES),  # Spade > Heart > Diamond > Club
    "standard": (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES),  # Spade > Heart > Club > Diamond
}


@dataclass(frozen=True)
class Big2Options:
    suits: str = "seed"
    """Which suit order: ``seed`` (S > H > D > C) or ``standard`` (S > H > C > D)."""
    lead: str = "3D"
    """The card whose holder leads the deal and must play it."""
    no_play_after_pass: bool = False
    scoring: str = "seed"
    """``seed``: 1 a card, doubled over nine cards, doubled again for each 2; ``pagat``: ×2 for 10–12, ×3 for 13+."""
    deals: int = 4
    score_limit: int | None = None
    """End the match early once a player has lost this many points."""

    def __post_init__(self) -> None:
        if self.suits not in SUIT_ORDERS:
            raise OptionError(f"unknown suit order {echo(self.suits)}; choose from: {', '.join(SUIT_ORDERS)}")
        if self.scoring not in ("seed", "pagat"):
            raise OptionError(f"unknown scoring {echo(self.scoring)}; choose seed or pagat")
        try:
            lead = Card.parse(self.lead)
        except InvalidActionError:
            lead = None
        if lead is None or lead.suit is None:
            raise OptionError(f"the lead card must be a card of the deck, not {echo(self.lead)}")
        if not isinstance(self.no_play_after_pass, bool):
            raise OptionError(f"no_play_after_pass is true or false, not {echo(self.no_play_after_pass)}")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise OptionError(f"a match needs at least 1 deal, not {echo(self.deals)}")
        limit = self.score_limit
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise OptionError(f"a score limit is a whole number from 1, not {echo(limit)}")

    @property
    def lead_card(self) -> Card:
        return Card.parse(self.lead)


DEFAULT_OPTIONS = Big2Options()
VARIANTS = (
    Variant(
        "standard-suits",
        "Standard suits",
        "Spade > Heart > Club > Diamond (pagat, Hong Kong); 3♦ is lowest.",
        excludes=("taiwan",),
    ),
    Variant("taiwan", "Taiwan", "Spade > Heart > Diamond > Club, and the 3♣ leads.", excludes=("standard-suits",)),
    Variant("no-play-after-pass", "No play after a pass", "A player who passes sits out the rest of the round."),
    Variant("pagat-scoring", "pagat scoring", "1 a card up to 9, ×2 for 10–12, ×3 for 13 or more."),
)


# ---------------------------------------------------------------------------------------------------------------
# Card encoding
# ---------------------------------------------------------------------------------------------------------------
class Encoding:
    """Card <-> integer under one suit order."""

    def __init__(self, suits: str) -> None:
        order = SUIT_ORDERS[suits]
        self.suit_index = {s: i for i, s in enumerate(order)}
        self.suits = order
        self.to_int: dict[Card, int] = {}
        self.to_card: list[Card] = [Card(Rank.ACE, Suit.SPADES)] * 52
        for card in standard_deck():
            value = rank_index(card.rank) * 4 + self.suit_index[card.suit]  # type: ignore[index]
            self.to_int[card] = value
            self.to_card[value] = card

    def mask(self, cards: Iterable[Card]) -> int:
        m = 0
        for card in cards:
            m |= 1 << self.to_int[card]
        return m

    def cards(self, mask: int) -> tuple[Card, ...]:
        return tuple(self.to_card[v] for v in bits(mask))


def rank_index(rank: Rank) -> int:
    """3 -> 0 ... K -> 10, A -> 11, 2 -> 12."""
    return (int(rank) - 3) % 13


def bits(mask: int) -> list[int]:
    """The integers in a bitmask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_ENCODINGS = {name: Encoding(name) for name in SUIT_ORDERS}


def encoding(options: Big2Options) -> Encoding:
    return _ENCODINGS[options.suits]


# ---------------------------------------------------------------------------------------------------------------
# Combinations
# ---------------------------------------------------------------------------------------------------------------
# Straights by sequence: A2345 < 23456 < ... < 10JQKA. Each as rank indices (3=0 .. A=11, 2=12), and the index of
# its top card (the 5 of A2345, the A of 10JQKA).
STRAIGHTS: tuple[tuple[tuple[int, ...], int], ...] = tuple(
    (tuple(rank_index(Rank((start + i - 1) % 13 + 1)) for i in range(5)), rank_index(Rank((start + 3) % 13 + 1)))
    for start in range(1, 11)
)
_STRAIGHT_BY_RANKS = {frozenset(ranks): (seq, top) for seq, (ranks, top) in enumerate(STRAIGHTS)}
_FIVE_BASE = {kind: (i + 1) * 1000 for i, kind in enumerate(FIVE_CARD_ORDER)}


class Combo(NamedTuple):
    """A legal combination. ``beats`` is True only when it may be played on ``other`` under the rules in force.

    A named tuple rather than a frozen dataclass: move generation builds thousands of these, and a tuple is
    several times cheaper to make.
    """

    kind: str
    mask: int
    key: int
    size: int
    suits: str = "seed"
    """The suit order the key was made under (only the suit order matters to a combination)."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, lowest first in the game's order."""
        return _ENCODINGS[self.suits].cards(self.mask)

    def beats(self, other: Combo) -> bool:
        if self.kind == "dragon":
            return other.kind != "dragon"
        return self.size == other.size and self.key > other.key

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def describe(self) -> str:
        """In words: "a pair of 5s", "a straight to the 9♠"."""
        values = bits(self.mask)
        top = _ENCODINGS[self.suits].to_card[values[-1]]
        rank = values[-1] // 4
        if self.kind == "single":
            return f"the {top.pretty()}"
        if self.kind in ("pair", "triple"):
            article = "a pair" if self.kind == "pair" else "three"
            return f"{article} of {RANK_PLURAL[rank]}"
        if self.kind == "full_house":
            return f"a full house, {RANK_PLURAL[_most_common_rank(values)]} full"
        if self.kind == "four":
            return f"four {RANK_PLURAL[_most_common_rank(values)]}"
        if self.kind in ("straight", "straight_flush"):
            name = "straight flush" if self.kind == "straight_flush" else "straight"
            top_rank = STRAIGHTS[(self.key % 1000) // 4][1]
            top_card = next(v for v in values if v // 4 == top_rank)
            return f"a {name} to the {_ENCODINGS[self.suits].to_card[top_card].pretty()}"
        if self.kind == "flush":
            return f"a flush, {top.pretty()} high"
        return "the Dragon"


def _most_common_rank(values: Sequence[int]) -> int:
    counts: dict[int, int] = {}
    for v in values:
        counts[v // 4] = counts.get(v // 4, 0) + 1
    return max(counts, key=lambda r: counts[r])


def classify_mask(mask: int, options: Big2Options = DEFAULT_OPTIONS) -> Combo | None:
    """The combination a set of cards (a bitmask) forms, or None."""
    values = bits(mask)
    size = len(values)
    if size in (1, 2, 3):
        if values[0] // 4 != values[-1] // 4:
            return None
        kind = ("single", "pair", "triple")[size - 1]
        return Combo(kind, mask, values[-1], size, options.suits)
    if size == 5:
        return _classify_five(values, mask, options)
    if size == 13 and len({v // 4 for v in values}) == 13:
        return Combo("dragon", mask, values[-1], 13, options.suits)
    return None


def _classify_five(values: list[int], mask: int, options: Big2Options) -> Combo | None:
    ranks = [v // 4 for v in values]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    shape = sorted(counts.values())
    if shape == [2, 3]:
        three = next(r for r, c in counts.items() if c == 3)
        return Combo("full_house", mask, _FIVE_BASE["full_house"] + three, 5, options.suits)
    if shape == [1, 4]:
        four = next(r for r, c in counts.items() if c == 4)
        return Combo("four", mask, _FIVE_BASE["four"] + four, 5, options.suits)
    flush = len({v % 4 for v in values}) == 1
    straight = _STRAIGHT_BY_RANKS.get(frozenset(ranks)) if len(counts) == 5 else None
    if straight is not None:
        seq, top = straight
        top_suit = next(v % 4 for v in values if v // 4 == top)
        kind = "straight_flush" if flush else "straight"
        return Combo(kind, mask, _FIVE_BASE[kind] + seq * 4 + top_suit, 5, options.suits)
    if flush:
        return Combo("flush", mask, _FIVE_BASE["flush"] + values[-1], 5, options.suits)
    return None


def classify(cards: Iterable[Card], options: Big2Options | None = None) -> Combo | None:
    """The combination ``cards`` form, or ``None`` when they form none.

    >>> classify(parse_cards("AS 2S 3S 4S 5S")).kind, classify(parse_cards("KS AH 2S 3S 4S"))
    ('straight_flush', None)
    """
    options = options or DEFAULT_OPTIONS
    cards = list(cards)
    mask = encoding(options).mask(cards)
    if bin(mask).count("1") != len(cards):
        return None  # the same card twice
    return classify_mask(mask, options)


# ---------------------------------------------------------------------------------------------------------------
# Fast legal-move generation
# ---------------------------------------------------------------------------------------------------------------
class HandCombos:
    """Every combination in one hand, built from the hand grouped by rank and by suit, per size, lazily.

    Each list is sorted by key, so the plays that beat a combination are a suffix found by bisection.
    """

    __slots__ = ("_by_size", "_keys", "by_rank", "mask", "options", "suits")

    def __init__(self, mask: int, options: Big2Options) -> None:
        self.mask = mask
        self.options = options
        self.suits = options.suits
        self.by_rank: list[list[int]] = [[] for _ in range(13)]
        for v in bits(mask):
            self.by_rank[v // 4].append(v)
        self._by_size: dict[int, list[Combo]] = {}
        self._keys: dict[int, list[int]] = {}

    def of_size(self, size: int) -> list[Combo]:
        combos = self._by_size.get(size)
        if combos is None:
            combos = self._build(size)
            combos.sort(key=lambda c: c.key)
            self._by_size[size] = combos
            self._keys[size] = [c.key for c in combos]
        return combos

    def beating(self, table: Combo) -> list[Combo]:
        """The combinations of this hand that beat ``table`` (only the kinds that can)."""
        out: list[Combo] = []
        if table.kind != "dragon":
            combos = self.of_size(table.size)
            out = combos[bisect_right(self._keys[table.size], table.key) :]
            if table.size != 13:
                out = out + self.of_size(13)
        return out

    def all(self) -> list[Combo]:
        return [c for size in (1, 2, 3, 5, 13) for c in self.of_size(size)]

    def _build(self, size: int) -> list[Combo]:
        o = self.suits
        by_rank = self.by_rank
        out: list[Combo] = []
        if size == 1:
            return [Combo("single", 1 << v, v, 1, o) for group in by_rank for v in group]
        if size in (2, 3):
            kind = "pair" if size == 2 else "triple"
            for group in by_rank:
                if len(group) >= size:
                    for combo in combinations(group, size):
                        m = 0
                        for v in combo:
                            m |= 1 << v
                        out.append(Combo(kind, m, combo[-1], size, o))
            return out
        if size == 13:
            if all(by_rank):
                for combo in product(*by_rank):
                    m = 0
                    for v in combo:
                        m |= 1 << v
                    out.append(Combo("dragon", m, max(combo), 13, o))
            return out
        if size != 5:
            return out
        # Straights and straight flushes: one card from each rank of a sequence.
        for seq, (ranks, top) in enumerate(STRAIGHTS):
            groups = [by_rank[r] for r in ranks]
            if not all(groups):
                continue
            for combo in product(*groups):
                suits = {v % 4 for v in combo}
                kind = "straight_flush" if len(suits) == 1 else "straight"
                top_suit = next(v % 4 for v in combo if v // 4 == top)
                m = 0
                for v in combo:
                    m |= 1 << v
                out.append(Combo(kind, m, _FIVE_BASE[kind] + seq * 4 + top_suit, 5, o))
        straight_flush_masks = {c.mask for c in out if c.kind == "straight_flush"}
        # Flushes: five cards of one suit that are not a straight flush.
        by_suit: list[list[int]] = [[], [], [], []]
        for group in by_rank:
            for v in group:
                by_suit[v % 4].append(v)
        for suited in by_suit:
            if len(suited) >= 5:
                for combo in combinations(suited, 5):
                    m = 0
                    for v in combo:
                        m |= 1 << v
                    if m not in straight_flush_masks:
                        out.append(Combo("flush", m, _FIVE_BASE["flush"] + max(combo), 5, o))
        # Full houses and four of a kind with a single.
        for r3, group3 in enumerate(by_rank):
            if len(group3) >= 3:
                for three in combinations(group3, 3):
                    m3 = (1 << three[0]) | (1 << three[1]) | (1 << three[2])
                    for r2, group2 in enumerate(by_rank):
                        if r2 != r3 and len(group2) >= 2:
                            for two in combinations(group2, 2):
                                m = m3 | (1 << two[0]) | (1 << two[1])
                                out.append(Combo("full_house", m, _FIVE_BASE["full_house"] + r3, 5, o))
            if len(group3) == 4:
                m4 = (1 << group3[0]) | (1 << group3[1]) | (1 << group3[2]) | (1 << group3[3])
                for r1, group1 in enumerate(by_rank):
                    if r1 != r3:
                        for v in group1:
                            out.append(Combo("four", m4 | (1 << v), _FIVE_BASE["four"] + r3, 5, o))
        return out


class ComboCache:
    """Reuses a hand's combinations between turns (a hand only loses cards, so most look-ups hit)."""

    def __init__(self, limit: int = 4096) -> None:
        self._cache: dict[tuple[int, str], HandCombos] = {}
        self.limit = limit

    def get(self, mask: int, options: Big2Options) -> HandCombos:
        key = (mask, options.suits)  # a hand's combinations depend only on the suit order
        hand = self._cache.get(key)
        if hand is None:
            if len(self._cache) >= self.limit:
                self._cache.clear()
            hand = self._cache[key] = HandCombos(mask, options)
        return hand


COMBOS = ComboCache()


def legal_plays(
    hand_mask: int, table: Combo | None, options: Big2Options, must_include: int = 0, cache: ComboCache = COMBOS
) -> list[Combo]:
    """The combinations that may be played from a hand: any when leading, else those that beat ``table``.

    ``must_include`` is a bitmask of a card every play must contain (the first lead of a deal).
    """
    hand = cache.get(hand_mask, options)
    plays = hand.all() if table is None else hand.beating(table)
    if must_include:
        plays = [c for c in plays if c.mask & must_include]
    return plays


# ---------------------------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """Play these cards (a combination)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)


@dataclass(frozen=True)
class PassTurn:
    def __str__(self) -> str:
        return "pass"


PASS = PassTurn()
Big2Action = Play | PassTurn

MAX_ACTION_TEXT = 300
"""Longer text is refused before it is read (the Dragon, the longest play, is about 60 characters)."""


def parse_action(text: str) -> Big2Action:
    """``"pass"`` or the cards to play: ``"3D 3S"``; InvalidActionError for anything else.

    >>> str(parse_action("play 3d 3s")), parse_action("p") == PASS
    ('3D 3S', True)
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"not a Big Two action: {echo(text)} (write e.g. 3D 3S, or pass)")
    if len(text) > MAX_ACTION_TEXT:
        raise InvalidActionError(f"too long to be a Big Two action: {echo(text)}")
    words = text.strip()
    if words.lower() in ("pass", "p"):
        return PASS
    if words.lower().startswith("play "):
        words = words[5:]
    cards = parse_cards(words)
    if not cards:
        raise InvalidActionError("say which cards to play (e.g. 3D 3S) or pass")
    return Play(checked_cards(tuple(cards)))


_BIG2_CARDS = frozenset(standard_deck())


def checked_cards(cards: object) -> tuple[Card, ...]:
    """``cards`` if they are the cards of a play (1 to 13 of Big Two's deck), else InvalidActionError."""
    if not isinstance(cards, tuple) or not cards:
        raise InvalidActionError(f"a play names its cards as a tuple of cards (e.g. 3D 3S), not {echo(cards)}")
    if len(cards) > 13:
        raise InvalidActionError(f"a play is at most 13 cards (the Dragon), not {len(cards)}")
    for card in cards:
        if not isinstance(card, Card) or type(card.rank) is not Rank or not isinstance(card.suit, Suit | None):
            raise InvalidActionError(f"not a card: {echo(card)}")
        if card not in _BIG2_CARDS:
            raise InvalidActionError("there are no jokers in Big Two")
    return cards


# ---------------------------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Loss:
    """How one loser's points were counted: ``cards`` left, ``twos`` among them, the ``multiplier`` in force and
    the ``points`` lost (``cards × multiplier``). The words for it are written by the UI (it knows the scoring)."""

    cards: int
    twos: int
    multiplier: int
    points: int


def loss(cards_left: Sequence[Card], options: Big2Options = DEFAULT_OPTIONS) -> Loss:
    """The points a loser loses for the cards left in hand.

    >>> loss(parse_cards("4C 5C 2S")).points  # 3 cards, one 2: doubled once
    6
    >>> loss(parse_cards("3C 4C 5C 6C 7C 8C 9C 10C JC QC")).points  # over nine cards: doubled
    20
    """
    count = len(cards_left)
    twos = sum(1 for c in cards_left if c.rank is Rank.TWO)
    if options.scoring == "pagat":
        multiplier = 1 if count <= 9 else 2 if count <= 12 else 3
    else:
        multiplier = (2 if count > 9 else 1) * 2**twos
    return Loss(count, twos, multiplier, count * multiplier)


# ---------------------------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class DealStarted(Event):
    """Follows the match layer's ``RoundStarted`` (which has the deal's number and dealer): who leads, with what."""

    counts: tuple[int, ...]
    """How many cards each seat was dealt."""
    leader: int
    lead_card: Card
    """The card the first play must include (the 3♦, or the 3♣ in Taiwan; the lowest dealt card if it was not
    dealt)."""


@dataclass(frozen=True, kw_only=True)
class HandDealt(Event):
    seat: int
    cards: tuple[Card, ...] | None
    """The seat's cards, lowest first (None for the other seats: they see only the count)."""
    count: int

    def redacted(self) -> Event:
        return replace(self, cards=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class Played(Event):
    seat: int
    cards: tuple[Card, ...]
    """Lowest first in the game's order."""
    kind: str
    """One of :data:`KINDS`."""
    left: int
    """Cards the player has left."""


@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class RoundWon(Event):
    """Every other player passed: ``seat`` starts a new round of play (a trick, not a deal) with any combination."""

    seat: int


@dataclass(frozen=True, kw_only=True)
class DealOver(Event):
    """The deal's detail; the match layer's ``RoundOver`` (and ``MatchOver`` after the last deal) follows."""

    winner: int
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's cards left, shown at the end of the deal."""
    losses: tuple[Loss | None, ...]
    """How each loser's points were counted (None for the winner)."""
    deltas: tuple[int, ...]
    totals: tuple[int, ...]


# ---------------------------------------------------------------------------------------------------------------
# View
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TablePlay:
    """The combination on the table: its cards (lowest first) and its kind (one of :data:`KINDS`)."""

    cards: tuple[Card, ...]
    kind: str


LogEntry = tuple[int, tuple[Card, ...] | None]


@dataclass(frozen=True)
class Big2View:
    seat: int | None
    players: int
    options: Big2Options
    deal: int
    """The deal's number, 1 for the first."""
    dealer: int
    """Who dealt this deal."""
    hand: tuple[Card, ...]
    """This seat's own cards, lowest first (empty for a spectator)."""
    counts: tuple[int, ...]
    table: TablePlay | None
    """The combination to beat (None: the seat to move leads)."""
    table_seat: int | None
    passed: tuple[bool, ...]
    """Who has passed since the last play."""
    to_move: int | None
    must_include: Card | None
    """The card the next play must include (the first play of a deal), if any."""
    opening: Card | None
    """The card that had to open this deal: with two players, every card below it was set aside."""
    played: tuple[Card, ...]
    """Every card played so far this deal, lowest first."""
    log: tuple[LogEntry, ...]
    """This deal's plays and passes in order: (seat, the cards played, or None for a pass)."""
    start_counts: tuple[int, ...]
    """How many cards each seat was dealt this deal."""
    totals: tuple[int, ...]
    last_deal: DealOver | None
    """The last finished deal (every hand shown), once there is one."""
    over: bool

    @property
    def leading(self) -> bool:
        return self.table is None


# ---------------------------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------------------------
def match_rule(options: Big2Options) -> MatchRule:
    """A number of deals, or until a player has lost ``score_limit`` points; the highest total wins."""
    limit = options.score_limit
    return MatchRule(rounds=options.deals, low_limit=-limit if limit is not None else None)


@dataclass
class Big2State(GameState[Big2Options, Big2View, Big2Action]):
    """One match. Cards are bitmasks inside (see the module docstring); views and events carry cards."""

    options: Big2Options = field(default_factory=Big2Options)
    rng: random.Random = field(default_factory=random.Random)
    progress: MatchProgress = field(default_factory=lambda: MatchProgress.starting(4, MatchRule()))
    """Deals, totals, the dealer and the end of the match (the match layer)."""
    hands: list[int] = field(default_factory=list)
    """Each seat's hand as a bitmask."""
    table: Combo | None = None
    table_seat: int | None = None
    passed: list[bool] = field(default_factory=list)
    turn: int = 0
    must_include: int = 0
    opening: int = 0
    """Bitmask of the card that had to open this deal."""
    log: list[LogEntry] = field(default_factory=list)
    start_counts: tuple[int, ...] = ()
    played: int = 0
    set_aside: int = 0
    """With two players, the cards not dealt (a bitmask)."""
    last_deal: DealOver | None = None

    action_types: ClassVar[tuple[type, ...]] = (Play, PassTurn)

    @property
    def enc(self) -> Encoding:
        return encoding(self.options)

    @property
    def deal(self) -> int:
        """The deal's number, 1 for the first."""
        return self.progress.round

    @property
    def totals(self) -> list[int]:
        return self.progress.totals

    @property
    def over(self) -> bool:
        return self.progress.over

    def start_deal(self) -> list[Event]:
        """Deal the next deal from :meth:`next_deck`: card ``i`` to seat ``(dealer + 1 + i) % players``."""
        deck = self.next_deck(standard_deck(), self.rng)
        enc = self.enc
        n = self.players
        per_seat = 17 if n == 3 else 13
        hands = [0] * n
        dealer = self.progress.dealer
        for i in range(per_seat * n):
            seat = (dealer + 1 + i) % n
            hands[seat] |= 1 << enc.to_int[deck[i]]
        lead_bit = 1 << enc.to_int[self.options.lead_card]
        if n == 3:
            # The 52nd card goes to the holder of the starting card (if it is that card: of the lowest dealt).
            dealt = hands[0] | hands[1] | hands[2]
            wanted = lead_bit if dealt & lead_bit else _lowest_bit(dealt)
            holder = next(s for s in range(n) if hands[s] & wanted)
            hands[holder] |= 1 << enc.to_int[deck[per_seat * n]]
        everything = 0
        for h in hands:
            everything |= h
        if not everything & lead_bit:
            lead_bit = _lowest_bit(everything)  # two players: the starting card may be set aside
        self.hands = hands
        self.turn = next(s for s in range(n) if hands[s] & lead_bit)
        self.must_include = lead_bit
        self.opening = lead_bit
        self.table = None
        self.table_seat = None
        self.passed = [False] * n
        self.played = 0
        self.set_aside = ALL_CARDS & ~everything
        self.log = []
        self.start_counts = tuple(h.bit_count() for h in hands)
        started = self.progress.start_round(seats=tuple((dealer + 1 + i) % n for i in range(n)))
        events: list[Event] = [
            started,
            DealStarted(counts=self.start_counts, leader=self.turn, lead_card=enc.to_card[lead_bit.bit_length() - 1]),
        ]
        for seat in range(n):
            cards = enc.cards(hands[seat])
            events.append(HandDealt(seat=seat, cards=cards, count=len(cards), audience=frozenset({seat})))
        return events

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.turn

    def legal_plays(self) -> list[Combo]:
        if self.over:
            return []
        return legal_plays(self.hands[self.turn], self.table, self.options, self.must_include)

    def legal_actions(self) -> list[Big2Action]:
        if self.over:
            return []
        actions: list[Big2Action] = [Play(c.cards) for c in self.legal_plays()]
        if self.may_pass:
            actions.append(PASS)
        return actions

    @property
    def may_pass(self) -> bool:
        return not self.over and self.table is not None

    def validate_action(self, action: Any) -> None:
        if isinstance(action, Play):
            checked_cards(action.cards)
        elif not isinstance(action, PassTurn):
            raise InvalidActionError(f"not a Big Two action: {echo(action)}")

    def check(self, seat: int, action: Big2Action) -> None:
        """Explains a rejected play in words ("a pair of 5s does not beat a pair of 9s")."""
        self.validate_action(action)
        if self.over:
            raise GameOverError("the match is over")
        if seat != self.turn:
            raise NotYourTurnError(f"it is not seat {seat}'s turn (seat {self.turn} is to move)")
        if isinstance(action, PassTurn):
            if self.table is None:
                raise IllegalActionError("you lead this round: play any combination (you may not pass)")
            return
        self.combo_for(seat, action)

    def combo_for(self, seat: int, action: Play) -> Combo:
        enc = self.enc
        cards = checked_cards(action.cards)
        mask = enc.mask(cards)
        if mask.bit_count() != len(cards):
            raise IllegalActionError("the same card is named twice")
        if mask & ~self.hands[seat]:
            missing = " ".join(c.pretty() for c in enc.cards(mask & ~self.hands[seat]))
            raise IllegalActionError(f"you do not hold {missing}")
        combo = classify_mask(mask, self.options)
        if combo is None:
            raise IllegalActionError(f"{' '.join(c.pretty() for c in cards)} is not a combination")
        if self.must_include and not mask & self.must_include:
            first = enc.to_card[self.must_include.bit_length() - 1]
            raise IllegalActionError(f"the first play of the deal must include the {first.pretty()}")
        if self.table is not None and not combo.beats(self.table):
            raise IllegalActionError(_why_not(combo, self.table))
        return combo

    def _apply(self, action: Big2Action) -> list[Event]:
        seat = self.turn
        n = self.players
        if isinstance(action, PassTurn):
            self.passed[seat] = True
            self.log.append((seat, None))
            events: list[Event] = [Passed(seat=seat)]
            return events + self._advance(seat)
        combo = self.combo_for(seat, action)
        cards = combo.cards
        self.hands[seat] &= ~combo.mask
        self.played |= combo.mask
        self.log.append((seat, cards))
        self.must_include = 0
        self.table = combo
        self.table_seat = seat
        if not self.options.no_play_after_pass:
            self.passed = [False] * n  # a pass only counts until the next play
        left = self.hands[seat].bit_count()
        events = [Played(seat=seat, cards=cards, kind=combo.kind, left=left)]
        if left == 0:
            return events + self._end_deal(seat)
        return events + self._advance(seat)

    def _advance(self, seat: int) -> list[Event]:
        n = self.players
        assert self.table_seat is not None
        if all(self.passed[s] for s in range(n) if s != self.table_seat):
            winner = self.table_seat
            self.table = None
            self.table_seat = None
            self.passed = [False] * n
            self.turn = winner
            return [RoundWon(seat=winner)]
        nxt = (seat + 1) % n
        if self.options.no_play_after_pass:
            while self.passed[nxt] and nxt != self.table_seat:
                nxt = (nxt + 1) % n
        self.turn = nxt
        return []

    def _end_deal(self, winner: int) -> list[Event]:
        enc = self.enc
        hands = tuple(enc.cards(h) for h in self.hands)
        losses = tuple(None if s == winner else loss(hands[s], self.options) for s in range(self.players))
        deltas = [-lost.points if lost else 0 for lost in losses]
        deltas[winner] = -sum(deltas)
        totals = tuple(t + d for t, d in zip(self.totals, deltas, strict=True))
        over = DealOver(winner=winner, hands=hands, losses=losses, deltas=tuple(deltas), totals=totals)
        self.last_deal = over
        events: list[Event] = [over, *self.progress.end_round(winners=(winner,), deltas=deltas)]
        if self.progress.over:
            return events
        return events + self.start_deal()

    def _view(self, seat: int | None) -> Big2View:
        enc = self.enc
        table = self.table
        return Big2View(
            seat=seat,
            players=self.players,
            options=self.options,
            deal=self.deal,
            dealer=self.progress.dealer,
            hand=enc.cards(self.hands[seat]) if seat is not None else (),
            counts=tuple(h.bit_count() for h in self.hands),
            table=TablePlay(table.cards, table.kind) if table is not None else None,
            table_seat=self.table_seat,
            passed=tuple(self.passed),
            to_move=self.to_move,
            must_include=enc.to_card[self.must_include.bit_length() - 1] if self.must_include else None,
            opening=enc.to_card[self.opening.bit_length() - 1] if self.opening else None,
            played=enc.cards(self.played),
            log=tuple(self.log),
            start_counts=self.start_counts,
            totals=tuple(self.totals),
            last_deal=self.last_deal,
            over=self.over,
        )

    def clone(self) -> Big2State:
        other = copy.copy(self)
        other.progress = self.progress.copy()
        other.hands = list(self.hands)
        other.passed = list(self.passed)
        other.log = list(self.log)
        other.rng = copy_rng(self.rng)
        self._copy_base(other)
        return other

    @property
    def result(self) -> MatchResult | None:
        if not self.over:
            return None
        return MatchResult(winners=self.progress.winners, scores=tuple(float(t) for t in self.totals))

    def parse_action(self, text: str) -> Big2Action:
        return parse_action(text)

    def zones(self) -> dict[str, Sequence[Card]]:
        enc = self.enc
        places: dict[str, Sequence[Card]] = {f"hand {s}": enc.cards(h) for s, h in enumerate(self.hands)}
        places["played"] = enc.cards(self.played)
        if self.players == 2:
            places["set aside"] = enc.cards(self.set_aside)
        return places

    def full_deck(self) -> list[Card]:
        return standard_deck()


ALL_CARDS = (1 << 52) - 1


def _lowest_bit(mask: int) -> int:
    return mask & -mask


def _why_not(combo: Combo, table: Combo) -> str:
    mine, theirs = combo.describe(), table.describe()
    if table.kind == "dragon":
        return "nothing beats the Dragon"
    if combo.size != table.size:
        return f"{mine} cannot be played on {theirs}: play {table.size} card{'s' if table.size > 1 else ''}"
    return f"{mine} does not beat {theirs}"


# ---------------------------------------------------------------------------------------------------------------
# Determinization
# ---------------------------------------------------------------------------------------------------------------
class HiddenDeal:
    """What one seat does not know about a deal, ready to be sampled many times over (a search bot's deals).

    The unseen cards are those not in the seat's hand, not played, and not known to be set aside (with two
    players, when a card other than the lead card opened: the lead card and every card below the opening one); the
    card that must open the deal is with the seat to move.
    """

    def __init__(self, view: Big2View) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view cannot be determinized")
        enc = encoding(view.options)
        self.seat = view.seat
        self.counts = view.counts
        mine = enc.mask(view.hand)
        known_out = mine | enc.mask(view.played)
        self.opening = enc.mask([view.opening]) if view.opening else 0
        lead = enc.mask([view.options.lead_card])
        if view.players == 2 and self.opening and self.opening != lead:
            # The lead card opens whenever it is dealt, wherever it sits in the suit order. Another card opens only
            # when the lead card was set aside, and then as the lowest card dealt: everything below it was set
            # aside too.
            known_out |= lead | (self.opening - 1)
        self.fixed = [0] * view.players
        self.fixed[view.seat] = mine
        self.must = enc.mask([view.must_include]) if view.must_include else 0
        if self.must and not self.must & mine and view.to_move is not None:
            self.fixed[view.to_move] |= self.must
            known_out |= self.must
        self.unseen = [v for v in range(52) if not known_out >> v & 1]

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's hand as a bitmask: the unseen cards dealt at random to the others, by their counts."""
        unseen = self.unseen
        rng.shuffle(unseen)
        hands = list(self.fixed)
        position = 0
        for seat, count in enumerate(self.counts):
            if seat == self.seat:
                continue
            need = count - hands[seat].bit_count()
            for v in unseen[position : position + need]:
                hands[seat] |= 1 << v
            position += need
        return hands


def combo_of(cards: Sequence[Card], options: Big2Options) -> Combo:
    """The combination of cards known to form one (a table play or a log entry); ValueError if they do not."""
    found = classify(cards, options)
    if found is None:
        raise ValueError(f"not a combination: {' '.join(map(str, cards))}")
    return found


def sample_state(view: Big2View, rng: random.Random) -> Big2State:
    """A full state consistent with ``view``: the cards this seat has not seen are dealt at random to the others,
    each getting as many as it holds (with two players, the rest are set aside)."""
    hidden = HiddenDeal(view)
    hands = hidden.sample(rng)
    enc = encoding(view.options)
    played = enc.mask(view.played)
    dealt = played
    for h in hands:
        dealt |= h
    progress = MatchProgress.starting(view.players, match_rule(view.options), view.dealer, view.totals)
    progress.round = view.deal
    progress.over = view.over
    if view.over:
        progress.winners = progress.rule.winners(view.totals)
    return Big2State(
        players=view.players,
        options=view.options,
        rng=random.Random(rng.getrandbits(64)),
        progress=progress,
        hands=hands,
        table=combo_of(view.table.cards, view.options) if view.table is not None else None,
        table_seat=view.table_seat,
        passed=list(view.passed),
        turn=view.to_move if view.to_move is not None else 0,
        must_include=hidden.must,
        opening=hidden.opening,
        played=played,
        set_aside=ALL_CARDS & ~dealt,
        log=list(view.log),
        start_counts=view.start_counts,
        last_deal=view.last_deal,
    )


# ---------------------------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------------------------
class Big2Figures:
    """``parlour simulate``'s Big Two figures: deals played, and each line-up position's deals won."""

    column = "deal_win_rate"

    def __init__(self) -> None:
        self.deals = 0
        self.won: dict[int, int] = {}
        self.players = 0

    def add(self, state: GameState[Any, Any, Any], position: Sequence[int]) -> None:
        self.players = max(self.players, len(position))
        for event in state.history:
            if isinstance(event, DealOver):
                self.deals += 1
                where = position[event.winner]
                self.won[where] = self.won.get(where, 0) + 1

    def report(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "score": "match points (running total)",
            "seats": [
                {
                    "seat": seat,
                    "deals_won": self.won.get(seat, 0),
                    "deal_win_rate": round(self.won.get(seat, 0) / self.deals, 4) if self.deals else 0.0,
                }
                for seat in range(self.players)
            ],
        }


class Big2Game(Game[Big2Options, Big2View, Big2Action]):
    """Big Two for 2 to 4 players.

    A deck from a :class:`~engine.game.Scenario` is dealt from index 0, one card at a time clockwise from the seat
    after the dealer: 13 cards each (17 with three players, the 52nd to the holder of the starting card; with two
    players the other 26 are set aside). :meth:`deck_for` builds such an order.

    >>> from engine.cards import parse_cards
    >>> game = Big2Game()
    >>> order = game.deck_for(players=4, dealer=3, hands=[parse_cards("3D 4D"), parse_cards("2S")])
    >>> state = game.new_match(4, game.options(), random.Random(0), Scenario(decks=(order,), dealer=3))
    >>> state.to_move, [str(c) for c in state.zones()["hand 1"]][-1]
    (0, '2S')
    """

    key = "big2"
    name = "Big Two"
    aliases = ("big-two", "bigtwo", "deuces", "capsa")
    min_players = 2
    max_players = 4
    default_players = 4
    view_type = Big2View

    @property
    def presets(self) -> Sequence[Preset]:
        return (Preset("seed", "Big Two", "the seed's rules: S > H > D > C, the 3♦ leads, its scoring"),)

    @property
    def variants(self) -> Sequence[Variant]:
        return VARIANTS

    def base_options(self, preset: str | None) -> Big2Options:
        if preset not in (None, "seed", "big2"):
            raise OptionError(f"unknown preset {echo(preset)} for Big Two (it has none besides the default)")
        return DEFAULT_OPTIONS

    def with_variant(self, options: Big2Options, key: str) -> Big2Options:
        if key == "standard-suits":
            return replace(options, suits="standard", lead="3D")
        if key == "taiwan":
            return replace(options, suits="seed", lead="3C")
        if key == "no-play-after-pass":
            return replace(options, no_play_after_pass=True)
        if key == "pagat-scoring":
            return replace(options, scoring="pagat")
        raise OptionError(f"unknown variant {echo(key)}; choose from: {', '.join(v.key for v in VARIANTS)}")

    def new_match(
        self, players: int, options: Big2Options, rng: random.Random, scenario: Scenario | None = None
    ) -> Big2State:
        self.check_players(players)
        if not isinstance(options, Big2Options):
            raise OptionError(f"not Big Two options: {echo(options)}")
        scenario = scenario or Scenario()
        for deck in scenario.decks:
            _check_deck(deck)
        if scenario.dealer is None:
            dealer = rng.randrange(players)
        elif isinstance(scenario.dealer, bool) or not isinstance(scenario.dealer, int):
            raise OptionError(f"the dealer is a seat number, not {echo(scenario.dealer)}")
        elif not 0 <= scenario.dealer < players:
            raise OptionError(f"the dealer must be a seat from 0 to {players - 1}, not {scenario.dealer}")
        else:
            dealer = scenario.dealer
        totals = scenario.totals
        if totals is not None and (
            len(totals) != players or any(isinstance(t, bool) or not isinstance(t, int) for t in totals)
        ):
            raise OptionError(f"starting totals are {players} whole numbers, not {echo(totals)}")
        state = Big2State(
            players=players,
            options=options,
            rng=rng,
            progress=MatchProgress.starting(players, match_rule(options), dealer, totals),
        )
        state.planned = [tuple(deck) for deck in scenario.decks]
        state.history.extend(state.start_deal())
        return state

    def deck_for(
        self, players: int, dealer: int, hands: Sequence[Sequence[Card]], rest: Sequence[Card] = ()
    ) -> tuple[Card, ...]:
        """The deck order that deals seat ``s`` the cards ``hands[s]`` (seats not named, or named short, get
        cards not named anywhere), then ``rest`` (with three players the 52nd card; with two the set-aside
        cards), then the cards not named, in the order of :func:`~engine.cards.standard_deck`.

        >>> from engine.cards import parse_cards
        >>> order = Big2Game().deck_for(2, dealer=1, hands=[parse_cards("3D"), parse_cards("4C")])
        >>> [str(c) for c in order[:3]]
        ['3D', '4C', 'AS']
        """
        self.check_players(players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise OptionError(f"the dealer must be a seat from 0 to {players - 1}, not {echo(dealer)}")
        if len(hands) > players:
            raise OptionError(f"{len(hands)} hands for {players} players")
        per_seat = 17 if players == 3 else 13
        named = [card for hand in hands for card in hand] + list(rest)
        _check_cards(named, "named")
        for seat, hand in enumerate(hands):
            if len(hand) > per_seat:
                raise OptionError(f"seat {seat} is dealt {per_seat} cards, not {len(hand)}")
        chosen = set(named)
        pool = [c for c in standard_deck() if c not in chosen]
        wanted = [list(hands[s]) if s < len(hands) else [] for s in range(players)]
        order: list[Card] = []
        for i in range(per_seat * players):
            seat = (dealer + 1 + i) % players
            order.append(wanted[seat].pop(0) if wanted[seat] else pool.pop(0))
        return (*order, *rest, *pool)

    def determinize(self, view: Big2View, rng: random.Random) -> Big2State:
        return sample_state(view, rng)

    def rules_summary(self, options: Big2Options | None = None) -> str:
        return rules_summary(options or DEFAULT_OPTIONS)

    def figures(self) -> Figures:
        return Big2Figures()

    def codec_types(self) -> Sequence[type]:
        return (
            Big2Options,
            Big2View,
            TablePlay,
            Loss,
            Play,
            PassTurn,
            DealStarted,
            HandDealt,
            Played,
            Passed,
            RoundWon,
            DealOver,
        )


def _check_cards(cards: Sequence[Card], what: str) -> None:
    for card in cards:
        if not isinstance(card, Card) or card not in _BIG2_CARDS:
            raise OptionError(f"not a card of Big Two's deck: {echo(card)}")
    if len(set(cards)) != len(cards):
        twice = sorted({str(c) for c in cards if cards.count(c) > 1})
        raise OptionError(f"a card {what} twice: {' '.join(twice)}")


def _check_deck(deck: Sequence[Card]) -> None:
    """A scenario's deck: the 52 cards, each once."""
    if not isinstance(deck, tuple | list):
        raise OptionError(f"a planned deck is a sequence of cards, not {echo(deck)}")
    _check_cards(deck, "in a planned deck")
    if len(deck) != 52:
        raise OptionError(f"a planned deck holds the 52 cards, not {len(deck)}")


def rules_summary(options: Big2Options) -> str:
    order = "♠ > ♥ > ♣ > ♦" if options.suits == "standard" else "♠ > ♥ > ♦ > ♣"
    lead = options.lead_card.pretty()
    lines = [
        "# Big Two",
        "",
        "Get rid of all your cards first. 4 players get 13 cards each (3 players: 17, and the last card goes to the",
        f"holder of the {lead}; 2 players: 13, the rest set aside).",
        "",
        "## Card order",
        f"- Ranks **2 > A > K > Q > J > 10 > … > 3**; suits **{order}**. Rank first, then suit.",
        "",
        "## Playing",
        f"- The holder of the **{lead}** leads first, and that play must include it.",
        "- Play the **same kind** with the **same number of cards**, and higher; or **pass**.",
        "- Combinations: single, pair, three of a kind, and five-card hands:",
        "  straight < flush < full house < four of a kind + a single < straight flush.",
        "- Pairs and threes: by rank, then the highest suit. Straights: A2345 < 23456 < … < 10JQKA, then the suit",
        "  of the top card (no JQKA2, QKA23, KA234). Flush: by its highest card. Full house: by its three.",
        "  Four + single: by its four.",
        "- The **Dragon** (A 2 3 … K, all thirteen ranks) beats anything; nothing beats it.",
    ]
    if options.no_play_after_pass:
        lines.append("- *No play after a pass*: once you pass, you sit out the rest of the round.")
    else:
        lines.append("- You may pass even with a play, and still play later in the same round.")
    lines += [
        "- When everyone else has passed, the last player to play starts a new round with any combination.",
        "",
        "## Scoring",
        "- The first player out of cards wins the deal.",
    ]
    if options.scoring == "pagat":
        lines.append("- *pagat scoring*: each loser loses 1 a card up to 9, ×2 for 10–12 cards, ×3 for 13 or more.")
    else:
        lines += [
            "- Each loser loses **1 point a card** left; **doubled** with more than nine cards left, and doubled",
            "  **again for each 2** among them.",
        ]
    lines += [
        "- The winner gains what the losers lose.",
        f"- A match is **{options.deals} deals**; the running totals decide it.",
    ]
    return "\n".join(lines) + "\n"
