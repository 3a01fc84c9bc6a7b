"""Big Two's moves within a deal, held on the fields of one object: the hot loop of the engine.

:class:`Big2State` (:mod:`engine.games.big2.rules`) keeps its hands, table, passes, turn, log, history and version
in a :class:`MoveCore`, and lists and applies the actions of a deal through it. The deal, its end, the views and
every refusal stay in :mod:`engine.games.big2.rules`, which this module never imports: what it needs from there (the
action and event objects, the combination class, the slower paths in Python) is handed to :func:`bind` once.

This module is plain Python that mypyc can compile. ``pip install`` compiles a copy of it (``hatch_build.py``) into
``engine.games.big2._native``, beside it, and :mod:`engine.games.big2.rules` uses that copy when it was compiled from
this very source (its ``SOURCE_STAMP``); otherwise it uses this module as it is, which plays the same games, only
slower.
So a native class's rules apply here: every field is declared in ``__init__``, the types are exact, and nothing is
added to an instance later.

The five-card generator and its tables live here too, as the core lists five-card hands natively, and so does the
bots' plan of a hand (:func:`plan_combos`), which their searches make hundreds of thousands of times a game.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, ClassVar, Final

# ---------------------------------------------------------------------------------------------------------------
# Tables (a card is the integer 4 * rank index + suit index, the 3 lowest, the 2 highest; a hand is a bitmask)
# ---------------------------------------------------------------------------------------------------------------
_LOW_BITS: Final = sum(1 << 4 * r for r in range(13))
"""The lowest bit of each rank's nibble: ``mask & _LOW_BITS << s`` are a hand's cards of suit index ``s``."""
_SUIT_MASKS: Final = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
_NIBBLE: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(4 * r + s for s in range(4) if nibble >> s & 1) for nibble in range(16)) for r in range(13)
)
"""``_NIBBLE[r][n]``: the card integers of rank index ``r`` whose suits are the bits of ``n`` (a hand's four bits
at ``4 * r``), lowest first."""
_NIBBLE_BITS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(1 << v for v in values) for values in by_nibble) for by_nibble in _NIBBLE
)
"""``_NIBBLE_BITS[r][n]``: the cards of ``_NIBBLE[r][n]``, each as a one-bit mask."""
_SET_MASKS: Final[dict[int, tuple[tuple[tuple[int, ...], ...], ...]]] = {
    size: tuple(
        tuple(tuple(sum(1 << v for v in group) for group in combinations(_NIBBLE[r][n], size)) for n in range(16))
        for r in range(13)
    )
    for size in (2, 3)
}
"""``_SET_MASKS[size][r][n]``: the masks of the pairs (or triples) among the cards ``_NIBBLE[r][n]``, in the order
of ``itertools.combinations``."""
_STRAIGHT_RANKS: Final[tuple[tuple[int, int, int, int, int], ...]] = tuple(
    (start % 13, (start + 1) % 13, (start + 2) % 13, (start + 3) % 13, (start + 4) % 13) for start in range(11, 21)
)
"""The rank indexes of each straight, lowest sequence first (A2345, 23456, 34567 ... 10JQKA), its top card's
rank last: the rank index of a 3 is 0, of an Ace 11, of a 2 12."""
_STRAIGHT_RUNS: Final[tuple[tuple[int, int, tuple[int, int, int, int, int]], ...]] = tuple(
    (seq, sum(1 << 4 * r for r in ranks), ranks) for seq, ranks in enumerate(_STRAIGHT_RANKS)
)
"""Each straight's sequence number, its ranks as the lowest bit of each rank's nibble, and its ranks in order (the
top card's last)."""
_STRAIGHT_BASE: Final = 1000
_FLUSH_BASE: Final = 2000
_FULL_HOUSE_BASE: Final = 3000
_FOUR_BASE: Final = 4000
_STRAIGHT_FLUSH_BASE: Final = 5000
"""The keys of the five-card kinds, lowest first (a kind's key is its base plus its order within the kind)."""
_RUN_STARTS: Final = sum(1 << 4 * r for r in range(8))
"""The lowest ranks of the straights without a wrap (3 4 5 6 7 up to 10 J Q K A), as the bits ``4 * r``."""
_WRAP_LOW: Final = _STRAIGHT_RUNS[0][1]
_WRAP_HIGH: Final = _STRAIGHT_RUNS[1][1]
"""The ranks of A2345 and 23456, which wrap from the 2 round to the 3."""


# ---------------------------------------------------------------------------------------------------------------
# What the engine hands over (bind)
# ---------------------------------------------------------------------------------------------------------------
class Kit:
    """The engine's objects and slower paths, handed over once by :func:`bind` (this module imports no engine)."""

    def __init__(
        self,
        combo: Any,
        play: Any,
        pass_: Any,
        played: Any,
        passed: tuple[Any, ...],
        round_won: tuple[Any, ...],
        pass_entries: tuple[Any, ...],
        combo_key: Callable[[Any], int],
        dragons: Callable[[int, Any], list[Any]],
        tables: Callable[[str], SuitTables],
    ) -> None:
        self.combo = combo
        """The combination class (a named tuple of kind, mask, key, size and suit order)."""
        self.play = play
        """The class of a play; one made from a combination holds it as ``_combo`` (``play_of``)."""
        self.pass_ = pass_
        self.played = played
        """The class of the event of a play."""
        self.passed = passed
        """Each seat's event of a pass, made once (events are frozen)."""
        self.round_won = round_won
        self.pass_entries = pass_entries
        """Each seat's pass in a deal's log."""
        self.combo_key = combo_key
        self.dragons = dragons
        """(hand, options): the plays of a Dragon (a hand of every rank, where the variant plays it), by key."""
        self.tables = tables
        """(suit order): its :class:`SuitTables`, made once."""


_KIT: list[Kit] = []


def bind(kit: Kit) -> None:
    """Hand the engine's objects over (once, when :mod:`engine.games.big2.rules` is imported)."""
    _KIT.clear()
    _KIT.append(kit)


# ---------------------------------------------------------------------------------------------------------------
# Five-card hands
# ---------------------------------------------------------------------------------------------------------------
def _ranks_with(mask: int) -> tuple[int, int, int, int]:
    """The ranks of a hand holding at least 1, 2, 3 and 4 of their cards, each as the lowest bit of the rank's
    nibble (bit ``4 * r``): the cards of each nibble counted at once."""
    count = mask - (mask >> 1 & 0x5555555555555)
    count = (count & 0x3333333333333) + (count >> 2 & 0x3333333333333)  # each nibble holds its count, 0 to 4
    one, two, four = count & _LOW_BITS, count >> 1 & _LOW_BITS, count >> 2 & _LOW_BITS
    return one | two | four, two | four, four | (two & one), four


def _has_straight(present: int) -> bool:
    """Does a hand whose ranks are ``present`` (bits ``4 * r``) hold a straight?"""
    if present & present >> 4 & present >> 8 & present >> 12 & present >> 16 & _RUN_STARTS:
        return True
    return present & _WRAP_LOW == _WRAP_LOW or present & _WRAP_HIGH == _WRAP_HIGH


def has_five(mask: int) -> bool:
    """Does a hand hold any five-card combination? Answered on the mask without building one: most hands a deal
    leads or follows from have none, and then nothing is built at all."""
    if mask.bit_count() < 5:
        return False
    present, pairs, triples, fours = _ranks_with(mask)
    if fours or (triples and pairs & (pairs - 1)):
        return True  # a full house (a triple and a pair of another rank), or four of a kind and a single
    if _has_straight(present):
        return True
    s0, s1, s2, s3 = _SUIT_MASKS
    return (
        (mask & s0).bit_count() >= 5
        or (mask & s1).bit_count() >= 5
        or (mask & s2).bit_count() >= 5
        or (mask & s3).bit_count() >= 5
    )


def cards_of(by_byte: tuple[tuple[tuple[Any, ...], ...], ...], mask: int) -> tuple[Any, ...]:
    """The cards of a mask (of the 52 cards), lowest first, from the cards of each byte of a mask, byte by byte
    (``Encoding.cards``)."""
    return (
        by_byte[0][mask & 255]
        + by_byte[1][mask >> 8 & 255]
        + by_byte[2][mask >> 16 & 255]
        + by_byte[3][mask >> 24 & 255]
        + by_byte[4][mask >> 32 & 255]
        + by_byte[5][mask >> 40 & 255]
        + by_byte[6][mask >> 48 & 255]
    )


def has_dragon(mask: int) -> bool:
    """Does a hand hold a card of every rank (a Dragon, where the variant plays it)?"""
    return mask.bit_count() >= 13 and _ranks_with(mask)[0] == _LOW_BITS


def _lows(bits_mask: int) -> list[int]:
    """Each set bit of a mask as a mask of its own, lowest first."""
    out = []
    while bits_mask:
        low = bits_mask & -bits_mask
        out.append(low)
        bits_mask ^= low
    return out


def _five_card(mask: int, o: str, must: int = 0, above: int = -1) -> list[Any]:
    """Every five-card combination of a hand (unsorted): straights and straight flushes, flushes, full houses,
    fours with a single, each kind in the order of ``itertools`` over the hand's cards (a straight's cards are
    chosen as ``itertools.product`` would, its lowest rank first: written out as nested loops, which are faster).

    With ``must`` (one card's bit), only those that hold that card, in the same order: the first play of a deal.
    With ``above`` (a five-card table's key), only those whose key is higher, in the same order: a follow needs no
    more, and skips whole kinds and sequences (on a flush, no straight is built: its straight flushes are found by
    suit). Sorted by key, either is the matching part of the whole list sorted by key."""
    combo = _KIT[0].combo
    new = tuple.__new__
    out: list[Any] = []
    present, pairs, triples, fours = _ranks_with(mask)
    must_rank = (must.bit_length() - 1) >> 2 if must else -1
    # Straights and straight flushes: one card from each rank of a sequence.
    straight_flushes: set[int] = set()
    if _has_straight(present):
        nb = _NIBBLE_BITS
        suit_masks = _SUIT_MASKS
        for seq, ranks_mask, (r0, r1, r2, r3, r4) in _STRAIGHT_RUNS:
            if present & ranks_mask != ranks_mask:
                continue
            # The cards of each rank that may be chosen (with ``must``: only that card, in a sequence with its rank).
            held = mask if not must else mask & ~(15 << 4 * must_rank) | must if ranks_mask >> 4 * must_rank & 1 else 0
            if not held:
                continue
            straight, flush = _STRAIGHT_BASE + seq * 4, _STRAIGHT_FLUSH_BASE + seq * 4
            if above >= straight + 3:
                # No straight of this sequence is high enough: only its straight flushes may be, one a suit.
                for top_suit in range(4):
                    m = ranks_mask << top_suit
                    if held & m == m and flush + top_suit > above:
                        out.append(new(combo, ("straight_flush", m, flush + top_suit, 5, o)))
                        straight_flushes.add(m)
                continue
            tops = nb[r4][held >> 4 * r4 & 15]
            fourths = nb[r3][held >> 4 * r3 & 15]
            thirds = nb[r2][held >> 4 * r2 & 15]
            seconds = nb[r1][held >> 4 * r1 & 15]
            for a in nb[r0][held >> 4 * r0 & 15]:
                for b in seconds:
                    ab = a | b
                    for c in thirds:
                        abc = ab | c
                        for d in fourths:
                            abcd = abc | d
                            for e in tops:
                                m = abcd | e
                                top_suit = (e.bit_length() - 1) & 3
                                if m & suit_masks[top_suit] == m:
                                    out.append(new(combo, ("straight_flush", m, flush + top_suit, 5, o)))
                                    straight_flushes.add(m)
                                elif straight + top_suit > above:
                                    out.append(new(combo, ("straight", m, straight + top_suit, 5, o)))
    # Flushes: five cards of one suit that are not a straight flush.
    if mask.bit_count() >= 5 and above < _FULL_HOUSE_BASE:
        for suit_mask in _SUIT_MASKS:
            suited = mask & suit_mask
            if suited.bit_count() >= 5:
                if must and not suited & must:
                    continue
                for a, b, c, d, e in combinations(_lows(suited), 5):
                    m = a | b | c | d | e
                    if m not in straight_flushes and (not must or m & must):
                        key = _FLUSH_BASE + e.bit_length() - 1
                        if key > above:
                            out.append(new(combo, ("flush", m, key, 5, o)))
    # Full houses (a triple and a pair of another rank) and four of a kind with a single.
    if triples:
        pair_ranks = [low.bit_length() >> 2 for low in _lows(pairs)]
        set_masks = _SET_MASKS
        while triples:
            low3 = triples & -triples
            triples ^= low3
            r3 = low3.bit_length() >> 2
            key = _FULL_HOUSE_BASE + r3
            if key > above:
                for m3 in set_masks[3][r3][mask >> 4 * r3 & 15]:
                    for r2 in pair_ranks:
                        if r2 != r3:
                            for m2 in set_masks[2][r2][mask >> 4 * r2 & 15]:
                                if not must or (m3 | m2) & must:
                                    out.append(new(combo, ("full_house", m3 | m2, key, 5, o)))
            if fours & low3 and _FOUR_BASE + r3 > above:
                m4 = 15 << 4 * r3
                key = _FOUR_BASE + r3
                rest = mask & ~m4
                while rest:
                    low = rest & -rest
                    if not must or (m4 | low) & must:
                        out.append(new(combo, ("four", m4 | low, key, 5, o)))
                    rest ^= low
    return out


# ---------------------------------------------------------------------------------------------------------------
# The moves of a deal
# ---------------------------------------------------------------------------------------------------------------
class SuitTables:
    """One suit order's plays of every single, pair and triple (``_SmallPlays``) and its cards (``Encoding``),
    made once, read by every core of that suit order."""

    def __init__(self, small: Any, encoding: Any) -> None:
        self.singles: tuple[Any, ...] = small.singles
        self.sets: dict[int, tuple[tuple[tuple[tuple[int, Any], ...], ...], ...]] = small.sets
        """By size (2, 3), rank index and the hand's nibble of that rank: (key, action) of each pair or triple."""
        self.single_bytes: tuple[tuple[tuple[Any, ...], ...], ...] = small.single_bytes
        """The singles of each byte of a hand's mask, byte by byte."""
        self.pair_bytes: tuple[tuple[tuple[Any, ...], ...], ...] = small.set_bytes[2]
        self.triple_bytes: tuple[tuple[tuple[Any, ...], ...], ...] = small.set_bytes[3]
        self.card_bytes: tuple[tuple[tuple[Any, ...], ...], ...] = encoding._bytes
        """The cards of each byte of a mask."""


# ---------------------------------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------------------------------
class MoveCore:
    """One match's hands, table, passes, turn, log, history and version (see the module docstring).

    ``owner`` is the :class:`~engine.games.big2.rules.Big2State`: a move the short way cannot take (anything not
    listed by :meth:`legal_actions`, or refused) goes to its ``_apply_long``, and the last card of a deal to its
    ``_end_deal``.
    ``tables`` are the suit order's plays of singles, pairs and triples and its cards.
    """

    STATE_FIELDS: ClassVar[tuple[str, ...]] = (
        "hands",
        "table",
        "table_key",
        "table_size",
        "table_dragon",
        "table_seat",
        "passed",
        "turn",
        "to_move",
        "must_include",
        "played",
        "log",
        "version",
    )
    """What a move changes, but the history (which only grows): what a test compares before and after a refusal."""

    def __init__(self, owner: Any, options: Any, tables: SuitTables, players: int) -> None:
        self.owner = owner
        self.options = options
        self.suits: str = options.suits
        self.no_play_after_pass: bool = options.no_play_after_pass
        self.n = players
        self.tables = tables
        self.singles = tables.singles
        self.sets = tables.sets
        self.single_bytes = tables.single_bytes
        self.pair_bytes = tables.pair_bytes
        self.triple_bytes = tables.triple_bytes
        self.card_bytes = tables.card_bytes
        self.hands: list[int] = []
        self.table: Any = None
        """The combination on the table, or None: a round is led."""
        self.table_key = 0
        self.table_size = 0
        self.table_dragon = False
        self.table_seat = -1
        """Who played the table's combination (-1: nobody, a round is led)."""
        self.passed: list[bool] = [False] * players
        self.turn = 0
        self.to_move: int | None = 0
        """The turn, or None once the match is over."""
        self.must_include = 0
        self.played = 0
        self.log: list[Any] = []
        self.history: list[Any] = []
        self.version = 0

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (``parlour simulate --jobs`` sends finished states back) and ``copy``: the options, the players and
        every field of :data:`STATE_FIELDS` and the history; the owner is set again by the state that holds it
        (``Big2State.__setstate__``)."""
        fields = (
            self.hands,
            self.table,
            self.table_seat,
            self.passed,
            self.turn,
            self.to_move,
            self.must_include,
            self.played,
            self.log,
            self.history,
            self.version,
        )
        return _remade, (self.options, self.n, fields)

    def copy(self, owner: Any) -> MoveCore:
        """An independent copy for ``owner`` (lists copied; the combinations and actions are immutable)."""
        other = MoveCore(owner, self.options, self.tables, self.n)
        other.hands = list(self.hands)
        other.table = self.table
        other.table_key = self.table_key
        other.table_size = self.table_size
        other.table_dragon = self.table_dragon
        other.table_seat = self.table_seat
        other.passed = list(self.passed)
        other.turn = self.turn
        other.to_move = self.to_move
        other.must_include = self.must_include
        other.played = self.played
        other.log = list(self.log)
        other.history = list(self.history)
        other.version = self.version
        return other

    def set_table(self, table: Any, seat: int) -> None:
        """The combination on the table (None: a round is led, and ``seat`` is ignored)."""
        self.table = table
        if table is None:
            self.table_key = 0
            self.table_size = 0
            self.table_dragon = False
            self.table_seat = -1
        else:
            combo: tuple[str, int, int, int, str] = table
            self.table_key = combo[2]
            self.table_size = combo[3]
            self.table_dragon = combo[0] == "dragon"
            self.table_seat = seat

    def set_turn(self, seat: int, over: bool = False) -> None:
        self.turn = seat
        self.to_move = None if over else seat

    # -- legal actions -------------------------------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        """The engine's ``Big2State.legal_actions``: the plays (as ``play_of`` makes them, in the order
        ``legal_plays`` lists their combinations), then the pass when one may pass. Singles, pairs and triples are
        read from the tables made once; five-card hands are made here, only those the position allows."""
        if self.to_move is None:
            return []
        kit = _KIT[0]
        mask = self.hands[self.turn]
        if self.table is None:
            return self._lead(mask, kit)
        key = self.table_key
        size = self.table_size
        actions: list[Any] = []
        if size == 1:
            # The singles above the table's, lowest first: one step a card (a hand that follows holds few).
            singles = self.singles
            above = mask >> key + 1 << key + 1
            while above:
                low = above & -above
                actions.append(singles[low.bit_length() - 1])
                above ^= low
        elif size <= 3:
            rank = key >> 2
            for k, play in self.sets[size][rank][mask >> 4 * rank & 15]:
                if k > key:
                    actions.append(play)
            by_byte = self.pair_bytes if size == 2 else self.triple_bytes
            upper = mask >> 4 * rank + 4 << 4 * rank + 4
            for i in range(7):
                actions.extend(by_byte[i][upper >> 8 * i & 255])
        elif size == 5:
            if has_five(mask):
                actions = self._fives(mask, 0, key, kit)
        else:
            return [kit.pass_]  # a Dragon: nothing beats it
        if mask.bit_count() >= 13 and has_dragon(mask):  # every rank: the Dragon beats anything but a Dragon
            actions.extend(kit.dragons(mask, self.options))
        actions.append(kit.pass_)
        return actions

    def _lead(self, mask: int, kit: Kit) -> list[Any]:
        """A lead's plays: singles, pairs, triples, five-card hands, Dragons, each by key (the first play of a deal:
        only those that hold ``must_include``)."""
        must = self.must_include
        actions: list[Any] = []
        if must:
            value = must.bit_length() - 1
            rank = value >> 2
            nibble = mask >> 4 * rank & 15
            actions.append(self.singles[value])
            for size in (2, 3):
                for _key, play in self.sets[size][rank][nibble]:
                    if play._combo[1] & must:
                        actions.append(play)
        else:
            # Singles, then pairs, then triples, each lowest first, a byte of the hand (two ranks) at a time.
            for by_byte in (self.single_bytes, self.pair_bytes, self.triple_bytes):
                for i in range(7):
                    actions.extend(by_byte[i][mask >> 8 * i & 255])
        if has_five(mask):
            actions.extend(self._fives(mask, must, -1, kit))
        if mask.bit_count() >= 13 and has_dragon(mask):
            for play in kit.dragons(mask, self.options):
                if not must or play._combo[1] & must:
                    actions.append(play)
        return actions

    def _fives(self, mask: int, must: int, above: int, kit: Kit) -> list[Any]:
        """The plays of a hand's five-card combinations (``must`` and ``above`` as :func:`_five_card` takes them),
        by key, each made as ``play_of`` makes it."""
        combos = _five_card(mask, self.suits, must, above)
        combos.sort(key=kit.combo_key)
        play_class = kit.play
        plays: list[Any] = []
        for combo in combos:
            play = object.__new__(play_class)
            play.__dict__["_combo"] = combo
            plays.append(play)
        return plays

    # -- apply ----------------------------------------------------------------------------------------------------
    def apply(self, seat: object, action: object) -> list[Any]:
        """The engine's ``Big2State.apply``: a play that knows its combination is checked on bitmasks (the seat's
        turn, its cards in hand, the card a first play must include, the table beaten) and a pass on the table, each
        check the one the long way makes, so the outcome is the same. Anything else goes the long way (the state's
        ``_apply_long``), which explains a refusal."""
        if type(seat) is not int or self.to_move is None or seat != self.turn:
            return self.owner._apply_long(seat, action)  # type: ignore[no-any-return]
        s: int = self.turn
        kit = _KIT[0]
        events: list[Any]
        kind = type(action)
        if kind is kit.play:
            fields: dict[str, Any] = action.__dict__
            found = fields.get("_combo")
            if found is None:
                return self.owner._apply_long(seat, action)  # type: ignore[no-any-return]
            combo: tuple[str, int, int, int, str] = found
            name, mask, key, size, suits = combo
            before = self.hands[s]
            must = self.must_include
            if (
                suits != self.suits
                or before & mask != mask
                or (must and not mask & must)
                or (  # not Combo.beats
                    self.table is not None
                    and not (
                        not self.table_dragon if name == "dragon" else size == self.table_size and key > self.table_key
                    )
                )
            ):
                return self.owner._apply_long(seat, action)  # type: ignore[no-any-return]
            cards = fields.get("cards")
            if cards is None:  # a play made by play_of: its cards worked out once, as its __getattr__ would
                cards = fields["cards"] = cards_of(self.card_bytes, mask)
            events = self._play(s, found, cards, kit)
        elif kind is type(kit.pass_) and self.table is not None:
            events = self._pass(s, kit)
        else:
            return self.owner._apply_long(seat, action)  # type: ignore[no-any-return]
        self.version += 1
        self.history.extend(events)
        return events

    def play(self, seat: int, combo: Any, cards: tuple[Any, ...]) -> list[Any]:
        """``seat`` (to move) plays ``combo`` (legal now) as ``cards`` (lowest first): its events."""
        return self._play(seat, combo, cards, _KIT[0])

    def pass_turn(self, seat: int) -> list[Any]:
        """``seat`` (to move, on a table) passes: its events."""
        return self._pass(seat, _KIT[0])

    def _play(self, seat: int, found: Any, cards: tuple[Any, ...], kit: Kit) -> list[Any]:
        combo: tuple[str, int, int, int, str] = found
        mask = combo[1]
        before = self.hands[seat]
        after = before & ~mask
        self.hands[seat] = after
        self.played |= mask
        self.log.append((seat, cards))
        self.must_include = 0
        self.table = found
        self.table_key = combo[2]
        self.table_size = combo[3]
        self.table_dragon = combo[0] == "dragon"
        self.table_seat = seat
        n = self.n
        if not self.no_play_after_pass and True in self.passed:
            self.passed = [False] * n  # a pass only counts until the next play
        played = object.__new__(kit.played)  # every field given, without the slow frozen __init__
        played.__dict__.update(audience=None, seat=seat, cards=cards, kind=combo[0], left=after.bit_count())
        if not after:
            ended: list[Any] = self.owner._end_deal(seat)
            return [played, *ended]
        if self.no_play_after_pass:
            won = self._advance(seat, kit)
            if won is not None:
                return [played, won]
        else:
            nxt = (seat + 1) % n  # after a play nobody has passed: the turn moves on
            self.turn = nxt
            self.to_move = nxt
        return [played]

    def _pass(self, seat: int, kit: Kit) -> list[Any]:
        self.passed[seat] = True
        self.log.append(kit.pass_entries[seat])
        won = self._advance(seat, kit)
        if won is None:
            return [kit.passed[seat]]  # events are frozen: each seat's pass is one object, made once
        return [kit.passed[seat], won]

    def _advance(self, seat: int, kit: Kit) -> Any:
        """Pass the turn on; when every seat but the last to play has passed, that seat wins the round (its
        ``RoundWon``, else None)."""
        n = self.n
        passed = self.passed
        table_seat = self.table_seat
        count = 0
        for i in range(n):
            if passed[i] and i != table_seat:
                count += 1
        if count == n - 1:  # every other seat has passed
            self.table = None
            self.table_key = 0
            self.table_size = 0
            self.table_dragon = False
            self.table_seat = -1
            self.passed = [False] * n
            self.turn = table_seat
            self.to_move = table_seat
            return kit.round_won[table_seat]
        nxt = (seat + 1) % n
        if self.no_play_after_pass:
            while passed[nxt] and nxt != table_seat:
                nxt = (nxt + 1) % n
        self.turn = nxt
        self.to_move = nxt
        return None


def _remade(options: Any, players: int, fields: tuple[Any, ...]) -> MoveCore:
    """A core from what :meth:`MoveCore.__reduce__` kept (its owner is set by the state that holds it)."""
    core = MoveCore(None, options, _KIT[0].tables(options.suits), players)
    hands, table, table_seat, passed, turn, to_move, must_include, played, log, history, version = fields
    core.hands = hands
    core.set_table(table, table_seat)
    core.passed = passed
    core.turn = turn
    core.to_move = to_move
    core.must_include = must_include
    core.played = played
    core.log = log
    core.history = history
    core.version = version
    return core


# ---------------------------------------------------------------------------------------------------------------
# The plan of the bots (``engine.games.big2.bots.plan``), on bitmasks
# ---------------------------------------------------------------------------------------------------------------
_STRAIGHT_SEQS: Final[tuple[tuple[tuple[int, int, int, int, int], int, bool], ...]] = tuple(
    (ranks, sum(1 << r for r in ranks), 12 in ranks) for ranks in _STRAIGHT_RANKS
)
"""Each straight's ranks (its top rank last), the same as a bit set of rank indexes, and whether it holds a 2."""
_STRAIGHT_RANK_SETS: Final[frozenset[frozenset[int]]] = frozenset(frozenset(ranks) for ranks in _STRAIGHT_RANKS)


def _values_mask(values: list[int]) -> int:
    out = 0
    for v in values:
        out |= 1 << v
    return out


def best_five(mask: int) -> tuple[float, int, int]:
    """The five-card hand that the bots' plan takes next from ``mask``: ``(gain, key, cards)``, cards 0 if none
    gains (see ``engine.games.big2.bots.plan``). The key is the hand's combination key, its kind by the base.

    The gain is how many ranks the hand clears from the rest, less one (the play it costs), less 1.5 when its top
    card is a 2 (it spends a control card). The best has the highest gain, then the lowest key; among hands of
    equal key, the first in the order the game lists them (lowest cards first). Only one hand of each key can
    win, so instead of listing every five-card hand this looks at the first of each key.
    """
    by_rank: list[tuple[int, ...]] = [_NIBBLE[r][mask >> 4 * r & 15] for r in range(13)]
    counts: list[int] = [len(g) for g in by_rank]
    present = 0
    lone = 0  # ranks held once: a five-card hand that takes such a card clears its rank
    for r in range(13):
        if counts[r]:
            present |= 1 << r
            if counts[r] == 1:
                lone |= 1 << r
    best_gain = 0.0
    best_order = 0
    best_cards = 0
    if lone.bit_count() >= 2:
        for seq in range(len(_STRAIGHT_SEQS)):
            ranks, seq_bits, has_two = _STRAIGHT_SEQS[seq]
            if present & seq_bits != seq_bits:
                continue
            gain = (lone & seq_bits).bit_count() - (2.5 if has_two else 1.0)
            if gain <= 0 or gain < best_gain:
                continue
            order = _STRAIGHT_BASE + seq * 4
            if gain == best_gain and order >= best_order:
                continue
            lows: list[int] = [by_rank[ranks[0]][0], by_rank[ranks[1]][0], by_rank[ranks[2]][0], by_rank[ranks[3]][0]]
            for top in by_rank[ranks[4]]:
                suit = top & 3
                cards = [lows[0], lows[1], lows[2], lows[3], top]
                if lows[0] & 3 == suit and lows[1] & 3 == suit and lows[2] & 3 == suit and lows[3] & 3 == suit:
                    spare = -1
                    for i in (3, 2, 1, 0):
                        if counts[ranks[i]] > 1:
                            spare = i
                            break
                    if spare < 0:
                        continue
                    cards[spare] = by_rank[ranks[spare]][1]
                if gain > best_gain or order + suit < best_order:
                    best_gain, best_order, best_cards = gain, order + suit, _values_mask(cards)
                break
            if gain > best_gain or (gain == best_gain and best_order >= _STRAIGHT_FLUSH_BASE):
                for suit in range(4):
                    suited: list[int] = []
                    for r in ranks:
                        found = -1
                        for v in by_rank[r]:
                            if v & 3 == suit:
                                found = v
                                break
                        if found < 0:
                            break
                        suited.append(found)
                    if len(suited) == 5:
                        order = _STRAIGHT_FLUSH_BASE + seq * 4 + suit
                        if gain > best_gain or order < best_order:
                            best_gain, best_order, best_cards = gain, order, _values_mask(suited)
    for suit in range(4):
        if (mask & _SUIT_MASKS[suit]).bit_count() < 5:
            continue
        suited_cards = [v for v in range(suit, 52, 4) if mask >> v & 1]
        clearing = 0
        for v in suited_cards:
            if counts[v >> 2] == 1:
                clearing += 1
        if min(clearing, 5) - 1.0 < max(best_gain, 0.5):
            continue
        for five in combinations(suited_cards, 5):
            gain = 0.0
            for v in five:
                if counts[v >> 2] == 1:
                    gain += 1.0
            gain -= 2.5 if five[4] >> 2 == 12 else 1.0
            if gain <= 0 or gain < best_gain:
                continue
            order = _FLUSH_BASE + five[4]
            if gain == best_gain and order >= best_order:
                continue
            if frozenset(v >> 2 for v in five) in _STRAIGHT_RANK_SETS:
                continue  # a straight flush
            best_gain, best_order, best_cards = gain, order, _values_mask(list(five))
    for r3 in range(13):
        if counts[r3] < 3:
            continue
        cleared = 1 if counts[r3] == 3 else 0
        pair_gain = 0.0
        pair_rank = -1
        for r2 in range(13):
            if r2 != r3 and counts[r2] >= 2:
                gain = cleared + (1 if counts[r2] == 2 else 0) - (2.5 if r2 == 12 or r3 == 12 else 1.0)
                if pair_rank < 0 or gain > pair_gain:
                    pair_gain, pair_rank = gain, r2
        if pair_rank >= 0 and pair_gain > 0:
            order = _FULL_HOUSE_BASE + r3
            if pair_gain > best_gain or (pair_gain == best_gain and order < best_order):
                best_gain, best_order = pair_gain, order
                t = by_rank[r3]
                p = by_rank[pair_rank]
                best_cards = _values_mask([t[0], t[1], t[2], p[0], p[1]])
        if counts[r3] == 4:
            single_gain = 0.0
            single_card = -1
            for r1 in range(13):
                if r1 != r3 and counts[r1]:
                    gain = (1 if counts[r1] == 1 else 0) - (1.5 if r1 == 12 or r3 == 12 else 0.0)
                    if single_card < 0 or gain > single_gain:
                        single_gain, single_card = gain, by_rank[r1][0]
            if single_card >= 0 and single_gain > 0:
                order = _FOUR_BASE + r3
                if single_gain > best_gain or (single_gain == best_gain and order < best_order):
                    best_gain, best_order = single_gain, order
                    best_cards = (15 << 4 * r3) | 1 << single_card
    return best_gain, best_order, best_cards


_PLAN_KINDS: Final = ("straight", "flush", "full_house", "four", "straight_flush")


def plan_combos(mask: int, o: str) -> tuple[Any, ...]:
    """The bots' plan of a hand (``engine.games.big2.bots.plan``) under the suit order ``o``: its combinations,
    weakest (by the lowest card in each) first."""
    parts: list[tuple[int, str, int, int, int]] = []
    remaining = mask
    while True:
        _gain, key, cards = best_five(remaining)
        if not cards:
            break
        parts.append((cards & -cards, _PLAN_KINDS[key // 1000 - 1], cards, key, 5))
        remaining &= ~cards
    for r in range(13):
        group = _NIBBLE[r][remaining >> 4 * r & 15]
        size = len(group)
        if not size:
            continue
        if size == 4:  # four without a single to go with it: two pairs
            parts.append((1 << group[0], "pair", (1 << group[0]) | (1 << group[1]), group[1], 2))
            parts.append((1 << group[2], "pair", (1 << group[2]) | (1 << group[3]), group[3], 2))
        else:
            cards = remaining & 15 << 4 * r
            parts.append((cards & -cards, ("single", "pair", "triple")[size - 1], cards, group[-1], size))
    parts.sort()
    combo = _KIT[0].combo
    new = tuple.__new__
    return tuple([new(combo, (kind, cards, key, size, o)) for _low, kind, cards, key, size in parts])
