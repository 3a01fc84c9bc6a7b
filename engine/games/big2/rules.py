"""Big Two (RULES.md §3): climbing with singles, pairs, triples, five-card hands and the Dragon.

The rules API for people who write bots or check a hand:

>>> from engine.cards import parse_cards
>>> from engine.games.big2.rules import classify
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

Speed (issue 12): a match runs thousands of steps in ``parlour simulate`` and in the search bots, so the state does
each step's work on integers, in a move core (:mod:`engine.games.big2.core`) that ``pip install`` compiles with
mypyc where it can. Singles, pairs and triples, and the actions that play them, are tables made once
(:class:`_SmallPlays`); five-card hands are made for the position only (above the table, or holding the opening
card). ``legal_actions`` lists actions that know their combination (:func:`play_of`), and ``apply`` checks such an
action on bitmasks, skipping the reading and classifying that a play typed by a person goes through; both ways make
the same events. The bots' :func:`legal_plays` keep each hand's combinations (:class:`HandCombos`). Views are
deferred (:class:`~engine.game.Deferred`): a bot that reads only its legal actions never has its view worked out.
"""

from __future__ import annotations

import importlib
import os
import random
import zlib
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, product
from operator import add, attrgetter, itemgetter
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeVar

from engine.cards import Card, Rank, Suit, is_card, parse_cards, plain_text, standard_deck
from engine.dealing import check_dealer, check_planned_decks, check_totals, first_dealer, lay_out
from engine.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
    echo,
)
from engine.events import Event, frozen
from engine.game import (
    Deferred,
    Figures,
    FinishedMatch,
    Game,
    GameEntry,
    GameState,
    MatchResult,
    Preset,
    Scenario,
    Variant,
    copy_rng,
)
from engine.games.big2 import LISTING
from engine.match import MatchProgress, MatchRule

if TYPE_CHECKING:
    from engine.games.big2 import core as big2_core

NATIVE_MODULE = "engine.games.big2._native"
"""The compiled copy of :mod:`engine.games.big2.core` that ``pip install`` builds (``hatch_build.py``), beside it."""


def source_stamp(source: bytes) -> str:
    """What a compiled core is stamped with (``SOURCE_STAMP``): the CRC-32 and the length of the source it was
    compiled from (``hatch_build.py`` stamps it the same way). Cheap to take at every start, and an edit changes it."""
    return f"{zlib.crc32(source):08x}-{len(source)}"


def plain_core() -> ModuleType:
    """:mod:`engine.games.big2.core` as it is (imported only when it is needed)."""
    from engine.games.big2 import core as big2_core

    return big2_core


def _core_module() -> tuple[ModuleType, str]:
    """The module whose :class:`~engine.games.big2.core.MoveCore`, five-card generator and tables the engine
    uses, and in words which it is: the compiled copy when it was compiled from the very source beside this module
    (its ``SOURCE_STAMP``), else :mod:`engine.games.big2.core` as it is, which plays the same games more slowly.
    ``PARLOUR_NATIVE=0`` in the environment asks for the plain module."""
    if os.environ.get("PARLOUR_NATIVE") == "0":
        return plain_core(), "plain Python (PARLOUR_NATIVE=0)"
    try:
        native = importlib.import_module(NATIVE_MODULE)
    except ModuleNotFoundError as missing:
        if missing.name != NATIVE_MODULE:
            return plain_core(), f"plain Python (the compiled core could not be loaded: {missing})"
        return plain_core(), "plain Python (no compiled core was built at install)"
    except Exception as broken:  # a damaged build, or one for another interpreter: the plain module plays
        return plain_core(), f"plain Python (the compiled core could not be loaded: {broken})"
    try:
        stamp = source_stamp(Path(__file__).with_name("core.py").read_bytes())
    except OSError:
        stamp = None  # no source to check the build against
    if stamp is None or getattr(native, "SOURCE_STAMP", None) != stamp:
        return plain_core(), "plain Python (the compiled core comes from another source: install again to rebuild it)"
    return native, "compiled with mypyc"


CORE, CORE_KIND = _core_module()
MoveCore: type[big2_core.MoveCore] = CORE.MoveCore
has_five: Callable[[int], bool] = CORE.has_five
_five_card: Callable[..., list[Combo]] = CORE._five_card
_cards_of: Callable[[tuple[tuple[tuple[Card, ...], ...], ...], int], tuple[Card, ...]] = CORE.cards_of
_ranks_with: Callable[[int], tuple[int, int, int, int]] = CORE._ranks_with
_LOW_BITS: int = CORE._LOW_BITS
_NIBBLE: tuple[tuple[tuple[int, ...], ...], ...] = CORE._NIBBLE
_STRAIGHT_RUNS: tuple[tuple[int, int, tuple[int, int, int, int, int]], ...] = CORE._STRAIGHT_RUNS
_STRAIGHT_BASE: int = CORE._STRAIGHT_BASE
_FLUSH_BASE: int = CORE._FLUSH_BASE
_FULL_HOUSE_BASE: int = CORE._FULL_HOUSE_BASE
_FOUR_BASE: int = CORE._FOUR_BASE
_STRAIGHT_FLUSH_BASE: int = CORE._STRAIGHT_FLUSH_BASE
_core_tables: Callable[[str], big2_core.SuitTables]
"""By suit order: the :class:`~engine.games.big2.core.SuitTables` of the core in use (:func:`use_core`)."""

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
        self.from_standard: tuple[int, ...] = tuple(self.to_int[card] for card in standard_deck())
        """The integer of each card of :func:`~engine.cards.standard_deck`, by its place there: a deck shuffled as
        places deals without looking a single card up."""
        # The cards of each byte of a mask, byte by byte: a mask's cards are seven look-ups, lowest first.
        self._bytes: tuple[tuple[tuple[Card, ...], ...], ...] = by_byte(self.to_card)

    def mask(self, cards: Iterable[Card]) -> int:
        m = 0
        for card in cards:
            m |= 1 << self.to_int[card]
        return m

    def cards(self, mask: int) -> tuple[Card, ...]:
        """The cards of a mask (of the 52 cards), lowest first."""
        return _cards_of(self._bytes, mask)


T = TypeVar("T")


def by_byte(items: Sequence[T]) -> tuple[tuple[tuple[T, ...], ...], ...]:
    """``items`` (one per card integer, 52) by the bytes of a mask: ``[i][byte]`` holds the items of the bits set in
    byte ``i`` of a mask, lowest first, so a mask's items are seven look-ups. Each byte's items are those of the byte
    without its top bit, then that bit's: one step a byte.

    >>> tables = by_byte(range(52))
    >>> tables[0][0b101], tables[6][0b11111], tables[6][0b110000]
    ((0, 2), (48, 49, 50, 51), ())
    """
    tables = []
    for base in range(0, 56, 8):
        table: list[tuple[T, ...]] = [()]
        for byte in range(1, 256):
            top = byte.bit_length() - 1
            rest = table[byte ^ 1 << top]
            table.append((*rest, items[base + top]) if base + top < 52 else rest)
        tables.append(tuple(table))
    return tuple(tables)


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


class PerSuitOrder(dict[str, T]):
    """Tables made for one suit order the first time it is looked up (a game uses one of them; making both at import
    was a tenth of the app's start-up)."""

    def __init__(self, make: Callable[[str], T]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, suits: str) -> T:
        if suits not in SUIT_ORDERS:
            raise KeyError(suits)
        made = self[suits] = self.make(suits)
        return made


_ENCODINGS: dict[str, Encoding] = PerSuitOrder(Encoding)


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
_new_tuple = tuple.__new__
_COMBO_KEY = itemgetter(2)
_STRAIGHT_RUNS_CHECK = tuple(
    (seq, sum(1 << 4 * r for r in ranks), ranks) for seq, (ranks, _top) in enumerate(STRAIGHTS)
)
assert _STRAIGHT_RUNS_CHECK == _STRAIGHT_RUNS, "the core's straights are the rules' straights"
assert all(ranks[4] == top for ranks, top in STRAIGHTS)
assert (_STRAIGHT_BASE, _FLUSH_BASE, _FULL_HOUSE_BASE, _FOUR_BASE, _STRAIGHT_FLUSH_BASE) == tuple(_FIVE_BASE.values())


def _small_combos(suits: str) -> tuple[tuple[Combo, ...], dict[int, tuple[tuple[tuple[Combo, ...], ...], ...]]]:
    """Every single, and every pair and triple by rank index and by the suits of that rank a hand holds (a nibble),
    under one suit order: made once, as there are only 52, 78 and 52 of them. Each nibble's pairs and triples are
    in the order a hand's are built in (``itertools.combinations``, then by key)."""
    singles = tuple(Combo("single", 1 << v, v, 1, suits) for v in range(52))
    sets: dict[int, tuple[tuple[tuple[Combo, ...], ...], ...]] = {}
    for size, kind in ((2, "pair"), (3, "triple")):
        sets[size] = tuple(
            tuple(
                tuple(
                    sorted(
                        [
                            Combo(kind, sum(1 << v for v in group), group[-1], size, suits)
                            for group in combinations(_NIBBLE[r][n], size)
                        ],
                        key=_COMBO_KEY,
                    )
                )
                for n in range(16)
            )
            for r in range(13)
        )
    return singles, sets


_SMALL: dict[str, tuple[tuple[Combo, ...], dict[int, tuple[tuple[tuple[Combo, ...], ...], ...]]]] = PerSuitOrder(
    _small_combos
)


class HandCombos:
    """Every combination in one hand, built from the hand grouped by rank and by suit, per size, lazily.

    Each list is sorted by key, so the combinations that beat a table are a suffix found by bisection. The actions
    that play them (:func:`play_of`) are made when first asked for and kept beside them. A hand with no five-card
    hand (:func:`has_five`) builds none.
    """

    __slots__ = ("_by_rank", "_lists", "mask", "options", "suits")

    def __init__(self, mask: int, options: Big2Options) -> None:
        self.mask = mask
        self.options = options
        self.suits = options.suits
        self._by_rank: list[list[int]] | None = None
        self._lists: dict[int, list[Any]] = {}
        """By size: ``[combinations, their keys, the actions that play them or None until asked for]``."""

    @property
    def by_rank(self) -> list[list[int]]:
        """The hand's card integers by rank index (the 3s first), lowest first within a rank."""
        groups = self._by_rank
        if groups is None:
            mask = self.mask
            groups = self._by_rank = [list(_NIBBLE[r][mask >> 4 * r & 15]) for r in range(13)]
        return groups

    def _list(self, size: int) -> list[Any]:
        entry = self._lists.get(size)
        if entry is None:
            if size == 5 and not has_five(self.mask):
                entry = [[], [], []]  # most hands late in a deal: nothing to build
            else:
                combos = self._build(size)
                combos.sort(key=_COMBO_KEY)
                entry = [combos, [c[2] for c in combos], None]
            self._lists[size] = entry
        return entry

    def _make_plays(self, entry: list[Any]) -> list[Play]:
        combos = entry[0]
        if combos and combos[0][3] <= 3:
            small = _SMALL_PLAYS[self.suits].by_mask  # singles, pairs and triples: made once for every game
            plays = [small[c[1]] for c in combos]
        else:
            plays = []
            new = _new_object
            for combo in combos:  # play_of, inline: a dealt hand has dozens of five-card hands
                play = new(Play)
                play.__dict__["_combo"] = combo
                plays.append(play)
        entry[2] = plays
        return plays

    def of_size(self, size: int) -> list[Combo]:
        combos: list[Combo] = self._list(size)[0]
        return combos

    def plays_of(self, size: int) -> list[Play]:
        """The actions that play :meth:`of_size`'s combinations (as :func:`play_of` makes them), in its order."""
        entry = self._list(size)
        plays: list[Play] | None = entry[2]
        return plays if plays is not None else self._make_plays(entry)

    def beating(self, table: Combo) -> list[Combo]:
        """The combinations of this hand that beat ``table`` (only the kinds that can)."""
        kind, _, key, size, _ = table
        if kind == "dragon":
            return []
        entry = self._lists.get(size) or self._list(size)
        out: list[Combo] = entry[0][bisect_right(entry[1], key) :]
        if size != 13 and self.mask.bit_count() >= 13 and _ranks_with(self.mask)[0] == _LOW_BITS:
            out += self.of_size(13)
        return out

    def all(self) -> list[Combo]:
        return [c for size in (1, 2, 3, 5, 13) for c in self.of_size(size)]

    def _build(self, size: int) -> list[Combo]:
        o = self.suits
        mask = self.mask
        if size == 1:
            singles = _SMALL[o][0]
            return [singles[v] for v in bits(mask)]
        if size in (2, 3):
            table = _SMALL[o][1][size]
            out: list[Combo] = []
            for r in range(13):
                nibble = mask >> 4 * r & 15
                if nibble:
                    out += table[r][nibble]
            return out
        if size == 13:
            if mask.bit_count() < 13 or not all(mask >> 4 * r & 15 for r in range(13)):
                return []
            return [Combo("dragon", sum(1 << v for v in combo), max(combo), 13, o) for combo in product(*self.by_rank)]
        if size == 5:
            return _five_card(mask, o)
        return []


class ComboCache:
    """Reuses a hand's combinations between look-ups (a bot's search asks for the same hands again and again)."""

    def __init__(self, limit: int = 4096) -> None:
        self._cache: dict[tuple[int, str], HandCombos] = {}
        """By (mask, suit order): the mask's combinations."""
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
"""The bots' cache: their searches look up thousands of hands."""
HANDS = ComboCache(limit=256)
"""The states' own cache (:meth:`Big2State.legal_plays`, a hand's Dragons): kept apart from the bots' and small, so
a long run of matches does not keep thousands of hands alive (the garbage collector walks every one of them)."""


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

    if not TYPE_CHECKING:  # for mypy, a play has its cards and nothing else

        def __getattr__(self, name: str) -> object:
            """Only called for a name not in the instance: the cards of a play made by :func:`play_of`, worked out
            from its combination when first read (most listed plays are never chosen, nor read)."""
            fields = self.__dict__
            combo = fields.get("_combo")
            if name != "cards" or combo is None:
                raise AttributeError(f"'Play' object has no attribute {name!r}")
            cards = fields["cards"] = combo.cards
            return cards


def play_of(combo: Combo) -> Play:
    """The action that plays ``combo``, as :meth:`Big2State.legal_actions` lists it: equal to ``Play(combo.cards)``
    in every way (its cards, equality, the codec), but cheaper: its cards are worked out only if they are read, and
    it keeps its combination, so the state that listed it checks it on bitmasks (it still checks that the play is
    legal now)."""
    play: Play = _new_object(Play)
    play.__dict__["_combo"] = combo
    return play


_new_object = object.__new__


class _SmallPlays:
    """The actions that play every single, pair and triple under one suit order, made once (182 of them): the
    legal actions of a seat that follows one of those are read from these tables, not built."""

    def __init__(self, suits: str) -> None:
        singles, sets = _SMALL[suits]
        self.singles = tuple(play_of(c) for c in singles)
        self.by_mask: dict[int, Play] = {c.mask: p for c, p in zip(singles, self.singles, strict=True)}
        self.single_bytes: tuple[tuple[tuple[Play, ...], ...], ...] = by_byte(self.singles)
        """The singles of each byte of a hand's mask, byte by byte (as :meth:`Encoding.cards`)."""
        self.sets: dict[int, tuple[tuple[tuple[tuple[int, Play], ...], ...], ...]] = {}
        """By size (2, 3), rank index and the hand's nibble of that rank: (key, action) of each pair or triple."""
        for size in (2, 3):
            table = []
            for by_nibble in sets[size]:
                row = []
                for group in by_nibble:
                    entries = []
                    for combo in group:
                        play = self.by_mask[combo.mask] = play_of(combo)
                        entries.append((combo.key, play))
                    row.append(tuple(entries))
                table.append(tuple(row))
            self.sets[size] = tuple(table)
        for play in self.by_mask.values():  # their cards worked out at once: these plays last as long as the program
            play.__dict__["cards"] = play.__dict__["_combo"].cards
        self.set_bytes: dict[int, tuple[tuple[tuple[Play, ...], ...], ...]] = {}
        for size in (2, 3):
            # A byte's pairs (or triples) are those of its low rank's nibble, then its high rank's.
            plays_of: list[tuple[tuple[Play, ...], ...]] = [
                tuple(tuple(play for _, play in group) for group in rank_row) for rank_row in self.sets[size]
            ]
            empty: tuple[tuple[Play, ...], ...] = ((),) * 16
            self.set_bytes[size] = tuple(
                tuple(
                    low + high for high in (plays_of[2 * i + 1] if 2 * i + 1 < 13 else empty) for low in plays_of[2 * i]
                )
                for i in range(7)
            )
        """The pairs (or triples) of each byte of a hand's mask (two ranks), byte by byte, lowest first."""


_SMALL_PLAYS: dict[str, _SmallPlays] = PerSuitOrder(_SmallPlays)


@dataclass(frozen=True, eq=False)
class PassTurn:
    """Pass. There is one: ``PassTurn()`` is :data:`PASS` (so is a pass read by the codec or unpickled), and two
    passes are equal because they are the same object, which a list's ``in`` sees without calling ``__eq__``."""

    _the: ClassVar[PassTurn | None] = None

    def __new__(cls) -> PassTurn:
        the = cls._the
        if the is None:
            the = cls._the = super().__new__(cls)
        return the

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
    plain = plain_text(text)
    if plain is None:
        raise InvalidActionError(f"not a Big Two action: {echo(text)} (write e.g. 3D 3S, or pass)")
    if len(plain) > MAX_ACTION_TEXT:
        raise InvalidActionError(f"too long to be a Big Two action: {echo(text)}")
    words = plain.strip()
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
        if not is_card(card):
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


_TWOS = 0xF << 48
"""The four 2s (rank index 12) in any suit order."""


def _loss(mask: int, options: Big2Options) -> Loss:
    """:func:`loss` of the cards of a mask, counted on the mask."""
    count = mask.bit_count()
    twos = (mask & _TWOS).bit_count()
    if options.scoring == "pagat":
        multiplier = 1 if count <= 9 else 2 if count <= 12 else 3
    else:
        multiplier = (2 if count > 9 else 1) * 2**twos
    return frozen(Loss, cards=count, twos=twos, multiplier=multiplier, points=count * multiplier)


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
class Big2View(Deferred):
    """What one seat may know. :meth:`Big2State.view` makes it deferred: worked out when first read."""

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
    deals, limit = options.deals, options.score_limit
    rule = _RULES.get((deals, limit))
    if rule is None:
        if len(_RULES) >= 256:
            _RULES.clear()
        rule = _RULES[(deals, limit)] = MatchRule(rounds=deals, low_limit=-limit if limit is not None else None)
    return rule


_RULES: dict[tuple[int | None, int | None], MatchRule] = {}
"""The rules :func:`match_rule` made (frozen), by number of deals and score limit: a match is made for each
simulated game, from the same options."""

_SEATS_AFTER = {n: tuple(tuple((dealer + 1 + i) % n for i in range(n)) for dealer in range(n)) for n in (2, 3, 4)}
"""By number of players and dealer: the seats in turn order from the dealer's left, as a deal is dealt."""


def _on_core(name: str, doc: str) -> property:
    """A field of the state that its :class:`MoveCore` holds, read and written there."""
    return property(attrgetter(f"_core.{name}"), lambda self, value: setattr(self._core, name, value), doc=doc)


@dataclass(init=False, eq=False)
class Big2State(GameState[Big2Options, Big2View, Big2Action]):
    """One match. Cards are bitmasks inside (see the module docstring); views and events carry cards.

    The moves of a deal are made on a :class:`~engine.games.big2.core.MoveCore` (``_core``), which holds the hands,
    the table, the passes, the turn, the log, the history and the version as fields of its own: a loop calls
    :meth:`legal_actions` and :meth:`apply` straight on it, compiled where ``pip install`` could compile it. The
    state reads and writes those fields through properties of the same names.
    """

    options: Big2Options
    rng: random.Random
    progress: MatchProgress
    """Deals, totals, the dealer and the end of the match (the match layer)."""
    opening: int
    """Bitmask of the card that had to open this deal."""
    start_counts: tuple[int, ...]
    set_aside: int
    """With two players, the cards not dealt (a bitmask)."""
    last_deal: DealOver | None

    action_types: ClassVar[tuple[type, ...]] = (Play, PassTurn)

    def __init__(
        self,
        players: int,
        options: Big2Options | None = None,
        rng: random.Random | None = None,
        progress: MatchProgress | None = None,
        hands: list[int] | None = None,
        table: Combo | None = None,
        table_seat: int | None = None,
        passed: list[bool] | None = None,
        turn: int = 0,
        must_include: int = 0,
        opening: int = 0,
        log: list[LogEntry] | None = None,
        start_counts: tuple[int, ...] = (),
        played: int = 0,
        set_aside: int = 0,
        last_deal: DealOver | None = None,
    ) -> None:
        self.players = players
        self.options = options = options if options is not None else DEFAULT_OPTIONS
        self.rng = rng if rng is not None else random.Random()
        self.progress = progress if progress is not None else MatchProgress.starting(4, MatchRule())
        self.planned = []
        core = self._core = MoveCore(self, options, _core_tables(options.suits), players)
        core.hands = list(hands) if hands is not None else []
        core.set_table(table, -1 if table_seat is None else table_seat)
        core.passed = list(passed) if passed is not None else []
        core.set_turn(turn, self.progress.over)
        core.must_include = must_include
        core.log = list(log) if log is not None else []
        core.played = played
        self.opening = opening
        self.start_counts = start_counts
        self.set_aside = set_aside
        self.last_deal = last_deal

    if TYPE_CHECKING:
        hands: list[int]
        """Each seat's hand as a bitmask."""
        passed: list[bool]
        turn: int
        must_include: int
        log: list[LogEntry]
        played: int
        _core: big2_core.MoveCore

        @property
        def table(self) -> Combo | None: ...

        @property
        def table_seat(self) -> int | None: ...

        @property
        def to_move(self) -> int | None: ...

        def legal_actions(self) -> list[Big2Action]: ...

        def apply(self, seat: int, action: object) -> list[Event]: ...

    else:
        hands = _on_core("hands", "Each seat's hand as a bitmask.")
        passed = _on_core("passed", "Who has passed since the table's play.")
        must_include = _on_core("must_include", "The card the first play of a deal must hold (a bit), else 0.")
        log = _on_core("log", "The deal's plays and passes: (seat, cards), (seat, None) for a pass.")
        played = _on_core("played", "The deal's cards played so far (a bitmask).")
        history = _on_core("history", "Every event of the match so far, in order.")
        version = _on_core("version", "How many actions have been applied.")
        table = property(attrgetter("_core.table"), doc="The combination on the table, or None: a round is led.")
        to_move = property(attrgetter("_core.to_move"), doc="The turn, or None once the match is over.")
        legal_actions = property(
            attrgetter("_core.legal_actions"),
            doc="The core's ``legal_actions`` (:meth:`MoveCore.legal_actions`): called without a Python frame.",
        )
        apply = property(
            attrgetter("_core.apply"),
            doc="The core's ``apply`` (:meth:`MoveCore.apply`): the long way (:meth:`_apply_long`) for a refusal.",
        )

        @property
        def turn(self) -> int:
            return self._core.turn

        @turn.setter
        def turn(self, seat: int) -> None:
            self._core.set_turn(seat, self.progress.over)

        @property
        def table_seat(self) -> int | None:
            seat = self._core.table_seat
            return None if seat < 0 else seat

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
        enc = self.enc
        if self.planned:
            order = [enc.to_int[card] for card in self.next_deck(standard_deck(), self.rng)]
        else:
            # What next_deck does, on the cards' integers: the shuffle moves places, whatever they hold, so the
            # same RNG deals the same cards.
            order = list(enc.from_standard)
            rng = self.rng
            if type(rng) is random.Random:
                # random.shuffle written out for the plain generator (its _randbelow draws getrandbits(k) until
                # the number is below i + 1): the same draws, the same deck, without two calls a card.
                getrandbits = rng.getrandbits
                for i, below, k in _SHUFFLE_STEPS:
                    j = getrandbits(k)
                    while j >= below:
                        j = getrandbits(k)
                    order[i], order[j] = order[j], order[i]
            else:
                rng.shuffle(order)  # a generator of another class draws as it pleases
        n = self.players
        per_seat = 17 if n == 3 else 13
        hands = [0] * n
        dealer = self.progress.dealer
        bit = _BIT.__getitem__
        for first in range(n):
            hands[(dealer + 1 + first) % n] = sum(map(bit, order[first : per_seat * n : n]))
        lead_bit = 1 << _lead_int(self.options)
        if n == 3:
            # The 52nd card goes to the holder of the starting card (if it is that card: of the lowest dealt).
            dealt = hands[0] | hands[1] | hands[2]
            wanted = lead_bit if dealt & lead_bit else _lowest_bit(dealt)
            holder = next(s for s in range(n) if hands[s] & wanted)
            hands[holder] |= 1 << order[per_seat * n]
        everything = 0
        for h in hands:
            everything |= h
        if not everything & lead_bit:
            lead_bit = _lowest_bit(everything)  # two players: the starting card may be set aside
        turn = 0
        while not hands[turn] & lead_bit:
            turn += 1
        core = self._core
        core.hands = hands
        core.set_turn(turn)
        core.must_include = lead_bit
        core.set_table(None, -1)
        core.passed = [False] * n
        core.played = 0
        core.log = []
        self.opening = lead_bit
        self.set_aside = ALL_CARDS & ~everything
        self.start_counts = tuple(map(int.bit_count, hands))
        started = self.progress.start_round(seats=_SEATS_AFTER[n][dealer])
        # The events are made without their dataclass __init__ (events.frozen).
        opened = frozen(
            DealStarted,
            audience=None,
            counts=self.start_counts,
            leader=turn,
            lead_card=enc.to_card[lead_bit.bit_length() - 1],
        )
        events: list[Event] = [started, opened]
        for seat in range(n):
            cards = enc.cards(hands[seat])
            events.append(frozen(HandDealt, audience=_ONLY[seat], seat=seat, cards=cards, count=len(cards)))
        return events

    def legal_plays(self) -> list[Combo]:
        if self.over:
            return []
        return legal_plays(self.hands[self.turn], self.table, self.options, self.must_include, HANDS)

    is_over = property(attrgetter("progress.over"), doc="Read without a Python frame: a loop asks at every step.")

    @property
    def may_pass(self) -> bool:
        return not self.over and self.table is not None

    def coerce_action(self, action: object) -> Big2Action:
        """The actions :meth:`legal_actions` lists are already this game's, and well formed (their cards come from
        the deck's encoding): they are taken as they are; anything else is read or checked as ever."""
        if action is PASS:
            return PASS
        if action.__class__ is Play and "_combo" in action.__dict__:
            return action
        if isinstance(action, PassTurn):
            return PASS  # a pass made past PassTurn.__new__ (object.__new__, a careless copy) is still the pass
        return super().coerce_action(action)

    def validate_action(self, action: object) -> None:
        if isinstance(action, Play):
            checked_cards(action.cards)
        elif not isinstance(action, PassTurn):
            raise InvalidActionError(f"not a Big Two action: {echo(action)}")

    def check(self, seat: int, action: Big2Action) -> None:
        """Explains a rejected play in words ("a pair of 5s does not beat a pair of 9s")."""
        self.validate_action(action)
        self._legal_combo(seat, action)

    def _legal_combo(self, seat: int, action: Big2Action) -> Combo | None:
        """:meth:`check` for a well-formed action: the combination a legal play makes, None for a legal pass."""
        if self.progress.over:
            raise GameOverError("the match is over")
        if seat != self.turn:
            raise NotYourTurnError(f"it is not seat {seat}'s turn (seat {self.turn} is to move)")
        if isinstance(action, PassTurn):
            if self.table is None:
                raise IllegalActionError("you lead this round: play any combination (you may not pass)")
            return None
        return self._combo_of(seat, action.cards)

    def combo_for(self, seat: int, action: Play) -> Combo:
        return self._combo_of(seat, checked_cards(action.cards))

    def _combo_of(self, seat: int, cards: tuple[Card, ...]) -> Combo:
        enc = self.enc
        mask = enc.mask(cards)
        if mask.bit_count() != len(cards):
            raise IllegalActionError("the same card is named twice")
        hand = self.hands[seat]
        if mask & ~hand:
            missing = " ".join(c.pretty() for c in enc.cards(mask & ~hand))
            raise IllegalActionError(f"you do not hold {missing}")
        combo = classify_mask(mask, self.options)
        if combo is None:
            raise IllegalActionError(f"{' '.join(c.pretty() for c in cards)} is not a combination")
        must = self.must_include
        if must and not mask & must:
            first = enc.to_card[must.bit_length() - 1]
            raise IllegalActionError(f"the first play of the deal must include the {first.pretty()}")
        table = self.table
        if table is not None and not combo.beats(table):
            raise IllegalActionError(_why_not(combo, table))
        return combo

    def _apply(self, action: Big2Action) -> list[Event]:
        seat = self.turn
        if isinstance(action, PassTurn):
            return self._core.pass_turn(seat)
        combo = self.combo_for(seat, action)
        return self._core.play(seat, combo, combo.cards)

    def _apply_long(self, seat: object, action: object) -> list[Event]:
        """:meth:`GameState.apply` step by step, each check made once (the action read or checked, then the rules),
        so a refusal raises what it always raised."""
        checked_seat = self.check_seat(seat)
        assert checked_seat is not None
        move = self.coerce_action(action)
        combo = self._legal_combo(checked_seat, move)
        core = self._core
        events = core.pass_turn(checked_seat) if combo is None else core.play(checked_seat, combo, combo.cards)
        core.version += 1
        core.history += events
        return events

    def _end_deal(self, winner: int) -> list[Event]:
        """The deal's end, when ``winner`` has played its last card (the core calls this): the deal's scores, the
        match's, and the next deal unless the match is over."""
        options = self.options
        hands = self._core.hands
        cards = tuple(map(encoding(options).cards, hands))
        losses = tuple([None if s == winner else _loss(h, options) for s, h in enumerate(hands)])
        deltas = [-lost.points if lost else 0 for lost in losses]
        deltas[winner] = -sum(deltas)
        totals = tuple(map(add, self.totals, deltas))
        over = frozen(
            DealOver, audience=None, winner=winner, hands=cards, losses=losses, deltas=tuple(deltas), totals=totals
        )
        self.last_deal = over
        events: list[Event] = [over, *self.progress.end_round(winners=(winner,), deltas=deltas)]
        if self.progress.over:
            self._core.set_turn(self._core.turn, over=True)
            return events
        return events + self.start_deal()

    def _view(self, seat: int | None) -> Big2View:
        """Deferred (see :class:`~engine.game.Deferred`): this takes a snapshot of the seat's share in plain values
        (its own hand's mask, the others' counts, the public table, log and cards played), and the cards are worked
        out only if someone reads the view."""
        progress = self.progress
        core = self._core
        hands = core.hands
        view: Big2View = _new_object(Big2View)  # Big2View.deferred, inline (the view has no field with a default)
        table_seat = core.table_seat
        view.__dict__["_build"] = (
            _view_fields,
            (
                seat,
                self.players,
                self.options,
                progress.round,
                progress.dealer,
                hands[seat] if seat is not None else 0,
                tuple(map(int.bit_count, hands)),
                core.table,
                None if table_seat < 0 else table_seat,
                tuple(core.passed),
                None if progress.over else core.turn,
                core.must_include,
                self.opening,
                core.played,
                tuple(core.log),
                self.start_counts,
                tuple(progress.totals),
                self.last_deal,
                progress.over,
            ),
        )
        return view

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickled (:meth:`MoveCore.__reduce__`): the core is this state's."""
        self.__dict__.update(state)
        self._core.owner = self

    def clone(self) -> Big2State:
        other = _new_object(Big2State)
        other.__dict__.update(self.__dict__)
        other.progress = self.progress.copy()
        other._core = self._core.copy(other)
        other.rng = copy_rng(self.rng)
        other.planned = list(self.planned)
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


def _view_fields(
    seat: int | None,
    players: int,
    options: Big2Options,
    deal: int,
    dealer: int,
    hand: int,
    counts: tuple[int, ...],
    table: Combo | None,
    table_seat: int | None,
    passed: tuple[bool, ...],
    to_move: int | None,
    must_include: int,
    opening: int,
    played: int,
    log: tuple[LogEntry, ...],
    start_counts: tuple[int, ...],
    totals: tuple[int, ...],
    last_deal: DealOver | None,
    over: bool,
) -> dict[str, object]:
    """A :class:`Big2View`'s fields from the snapshot :meth:`Big2State._view` took (``hand``: the seat's own
    cards as a mask, none for a spectator)."""
    enc = _ENCODINGS[options.suits]
    to_card = enc.to_card
    return {
        "seat": seat,
        "players": players,
        "options": options,
        "deal": deal,
        "dealer": dealer,
        "hand": enc.cards(hand) if hand else (),
        "counts": counts,
        "table": TablePlay(table.cards, table.kind) if table is not None else None,
        "table_seat": table_seat,
        "passed": passed,
        "to_move": to_move,
        "must_include": to_card[must_include.bit_length() - 1] if must_include else None,
        "opening": to_card[opening.bit_length() - 1] if opening else None,
        "played": enc.cards(played),
        "log": log,
        "start_counts": start_counts,
        "totals": totals,
        "last_deal": last_deal,
        "over": over,
    }


ALL_CARDS = (1 << 52) - 1
_PASSED = tuple(Passed(seat=seat) for seat in range(4))
_ROUND_WON = tuple(RoundWon(seat=seat) for seat in range(4))
"""Each seat's pass and round won, made once (events are frozen, and equal when their fields are)."""
_PASS_ENTRIES: tuple[LogEntry, ...] = tuple((seat, None) for seat in range(4))
"""Each seat's pass in the deal's log."""


def _dragons(mask: int, options: Big2Options) -> list[Play]:
    """The plays of a hand's Dragons, by key (for the core)."""
    return HANDS.get(mask, options).plays_of(13)


def _tables_of(module: ModuleType) -> Callable[[str], big2_core.SuitTables]:
    """``module``'s :class:`~engine.games.big2.core.SuitTables` by suit order, each made once."""
    made: dict[str, big2_core.SuitTables] = {}

    def tables(suits: str) -> big2_core.SuitTables:
        found = made.get(suits)
        if found is None:
            found = made[suits] = module.SuitTables(_SMALL_PLAYS[suits], encoding(Big2Options(suits=suits)))
        return found

    return tables


def use_core(module: ModuleType) -> None:
    """Play Big Two's moves with ``module``'s :class:`MoveCore` and five-card generator from now on (a state made
    before keeps its core): :data:`CORE`, compiled or not, or :mod:`engine.games.big2.core` as it is. The tests play
    both ways."""
    global CORE, MoveCore, has_five, _five_card, _core_tables
    tables = _tables_of(module)
    module.bind(
        module.Kit(
            Combo,
            Play,
            PASS,
            Played,
            _PASSED,
            _ROUND_WON,
            _PASS_ENTRIES,
            _COMBO_KEY,
            _dragons,
            tables,
        )
    )
    CORE, MoveCore, has_five, _five_card = module, module.MoveCore, module.has_five, module._five_card
    _core_tables = tables


use_core(CORE)
_BIT = tuple(1 << v for v in range(52))
"""Each card's integer as a one-bit mask."""
_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, 52)))
"""The steps of ``random.shuffle`` on 52 cards: the place swapped, the bound drawn below and its bits."""
_ONLY = tuple(frozenset({seat}) for seat in range(4))
"""Each seat's audience, made once."""
_LEAD_INTS: dict[tuple[str, str], int] = {}


def _lead_int(options: Big2Options) -> int:
    """The integer of the card whose holder leads (the options hold it as text)."""
    key = (options.suits, options.lead)
    found = _LEAD_INTS.get(key)
    if found is None:
        found = _LEAD_INTS[key] = encoding(options).to_int[options.lead_card]
    return found


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

    def add(self, state: FinishedMatch, position: Sequence[int]) -> None:
        self.players = max(self.players, len(position))
        for event in state.history:
            if isinstance(event, DealOver):
                self.deals += 1
                where = position[event.winner]
                self.won[where] = self.won.get(where, 0) + 1

    def report(self) -> dict[str, object]:
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

    key = LISTING.key
    name = "Big Two"
    min_players = LISTING.players[0]
    default_players = LISTING.players[1]
    max_players = LISTING.players[2]
    view_type = Big2View

    def entries(self) -> tuple[GameEntry, ...]:
        return LISTING.game_entries(self)

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
        scenario = scenario or _NO_SCENARIO
        planned = check_planned_decks(scenario.decks, standard_deck())
        dealer = first_dealer(players, scenario.dealer, rng)
        totals = check_totals(players, scenario.totals, "starting totals", low=None)
        state = Big2State(
            players=players,
            options=options,
            rng=rng,
            progress=MatchProgress.starting(players, match_rule(options), dealer, totals),
        )
        if planned:
            state.planned = planned
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
        check_dealer(players, dealer)
        per_seat = 17 if players == 3 else 13
        return lay_out(players, dealer, hands, rest, standard_deck(), [per_seat] * players)

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


_NO_SCENARIO = Scenario()


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
